#include "io/png/preview_water.hpp"

#include <algorithm>

namespace terragrid {

std::int64_t riverRadiusCells(std::uint8_t order) noexcept {
    if (order < 3) return 0;
    return std::int64_t{1} << std::min(order - 3, 30);
}

PreviewRivers::PreviewRivers(std::int64_t mapWidth, std::int64_t mapHeight,
                             const PreviewGeometry& geometry)
    : m_mapWidth(mapWidth),
      m_mapHeight(mapHeight),
      m_geometry(geometry),
      m_orders(static_cast<std::size_t>(geometry.width * geometry.height), 0) {}

PreviewRivers::TileOrders PreviewRivers::gather(const TileRect& rect,
                                                const std::uint8_t* riverOrder) const {
    requireTileInMap(rect, m_mapWidth, m_mapHeight, "PreviewRivers::gather");
    const std::int64_t s = m_geometry.scale;
    TileOrders out;
    out.px0 = rect.col0 / s;
    out.py0 = rect.row0 / s;
    out.width = (rect.col0 + rect.width - 1) / s - out.px0 + 1;
    out.height = (rect.row0 + rect.height - 1) / s - out.py0 + 1;
    out.order.assign(static_cast<std::size_t>(out.width * out.height), 0);
    for (std::int64_t r = 0; r < rect.height; ++r) {
        const std::int64_t py = (rect.row0 + r) / s - out.py0;
        const std::uint8_t* row = riverOrder + r * rect.width;
        for (std::int64_t c = 0; c < rect.width; ++c) {
            if (row[c] == 0) continue;
            const std::int64_t px = (rect.col0 + c) / s - out.px0;
            std::uint8_t& o = out.order[static_cast<std::size_t>(py * out.width + px)];
            o = std::max(o, row[c]);
        }
    }
    return out;
}

void PreviewRivers::add(const TileOrders& orders) {
    for (std::int64_t y = 0; y < orders.height; ++y)
        for (std::int64_t x = 0; x < orders.width; ++x) {
            const std::uint8_t o = orders.order[static_cast<std::size_t>(y * orders.width + x)];
            std::uint8_t& at = m_orders[static_cast<std::size_t>(
                (orders.py0 + y) * m_geometry.width + orders.px0 + x)];
            at = std::max(at, o);
        }
}

std::vector<std::uint8_t> PreviewRivers::drawn() const {
    return widenRivers(m_orders, m_geometry.width, m_geometry.height, m_geometry.scale);
}

std::int64_t riverReachPixels(std::uint8_t order, std::int64_t scale) noexcept {
    return riverRadiusCells(order) / scale;
}

std::vector<std::uint8_t> widenRivers(const std::vector<std::uint8_t>& orders,
                                      std::int64_t w, std::int64_t h, std::int64_t s) {
    std::vector<std::uint8_t> out = orders;
    // Every river pixel stamps its disk with its order, keeping the highest: a maximum, so
    // the order of the stamps does not matter.
    for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x) {
            const std::uint8_t o = orders[static_cast<std::size_t>(y * w + x)];
            const std::int64_t radius = riverRadiusCells(o);
            if (radius < s) continue;  // the disk is this pixel alone
            const std::int64_t reach = std::min(radius / s, std::max(w, h));
            const std::int64_t limit = radius * radius;
            for (std::int64_t dy = -reach; dy <= reach; ++dy) {
                const std::int64_t yy = y + dy;
                if (yy < 0 || yy >= h) continue;
                for (std::int64_t dx = -reach; dx <= reach; ++dx) {
                    const std::int64_t xx = x + dx;
                    // |dx| s, |dy| s <= radius <= 2^30: the squares fit.
                    if (xx < 0 || xx >= w || (dx * s) * (dx * s) + (dy * s) * (dy * s) > limit)
                        continue;
                    std::uint8_t& at = out[static_cast<std::size_t>(yy * w + xx)];
                    at = std::max(at, o);
                }
            }
        }
    return out;
}

PreviewLakes::PreviewLakes(std::int64_t mapWidth, std::int64_t mapHeight,
                           const PreviewGeometry& geometry)
    : m_mapWidth(mapWidth),
      m_mapHeight(mapHeight),
      m_geometry(geometry),
      m_depths(static_cast<std::size_t>(geometry.width * geometry.height), 0.0f) {}

void PreviewLakes::add(const TileRect& rect, const std::uint8_t* water, const float* depth) {
    // Water::Lake is 1 (lake or sea).
    forEachCentredPixel(m_geometry, m_mapWidth, m_mapHeight, rect,
                        [&](std::size_t pixel, std::size_t cell) {
                            m_depths[pixel] = water[cell] == 1 ? depth[cell] : 0.0f;
                        });
}

}  // namespace terragrid

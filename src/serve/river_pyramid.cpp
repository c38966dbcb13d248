#include "serve/river_pyramid.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/ceil_div.hpp"

namespace terragrid::serve {
namespace {

// Rows of map cells drawn at a time: an even number, so level 1's pixels never straddle two
// bands; the band's orders (and riverOrders' scratch, 5 bytes a cell) stay small.
constexpr std::int64_t kBandRows = 64;

}  // namespace

RiverPyramid::RiverPyramid(const HydrologyStage& stage, const MapFields& fields, int levels,
                           const std::function<bool()>& stopRequested) {
    const std::int64_t width = stage.mapWidth, height = stage.mapHeight;
    if (levels < 1) return;
    m_levels.resize(static_cast<std::size_t>(levels));
    for (int l = 1; l <= levels; ++l) {
        Level& level = m_levels[std::size_t(l - 1)];
        level.width = ceilDiv(width, std::int64_t{1} << l);
        level.height = ceilDiv(height, std::int64_t{1} << l);
        level.order.assign(static_cast<std::size_t>(level.width * level.height), 0);
    }
    // Level 1 from the cells' orders, band by band: the same orders a tile's cells get.
    const NoiseHeightFn noise = [&](std::int64_t col, std::int64_t row) {
        return noiseHeightMeters(fields, col, row);
    };
    Level& first = m_levels[0];
    std::vector<std::uint8_t> band;
    for (std::int64_t row0 = 0; row0 < height; row0 += kBandRows) {
        if (stopRequested && stopRequested()) throw std::runtime_error("stopped");
        const TileRect rect{0, 0, row0, width, std::min(kBandRows, height - row0)};
        band.resize(static_cast<std::size_t>(rect.cellCount()));
        riverOrders(stage, rect, noise, band.data());
        for (std::int64_t r = 0; r < rect.height; ++r)
            for (std::int64_t c = 0; c < width; ++c) {
                const std::uint8_t o = band[std::size_t(r * width + c)];
                if (o == 0) continue;
                std::uint8_t& at =
                    first.order[std::size_t(((row0 + r) / 2) * first.width + c / 2)];
                at = std::max(at, o);
                m_maxOrder = std::max(m_maxOrder, o);
            }
    }
    // Each further level: the maximum of the 2 x 2 pixels below it.
    for (std::size_t l = 1; l < m_levels.size(); ++l) {
        const Level& below = m_levels[l - 1];
        Level& level = m_levels[l];
        for (std::int64_t y = 0; y < below.height; ++y)
            for (std::int64_t x = 0; x < below.width; ++x) {
                std::uint8_t& at = level.order[std::size_t((y / 2) * level.width + x / 2)];
                at = std::max(at, below.order[std::size_t(y * below.width + x)]);
            }
    }
}

std::int64_t RiverPyramid::width(int level) const noexcept {
    return m_levels[std::size_t(level - 1)].width;
}

std::int64_t RiverPyramid::height(int level) const noexcept {
    return m_levels[std::size_t(level - 1)].height;
}

std::uint8_t RiverPyramid::at(int level, std::int64_t x, std::int64_t y) const noexcept {
    const Level& l = m_levels[std::size_t(level - 1)];
    if (x < 0 || y < 0 || x >= l.width || y >= l.height) return 0;
    return l.order[std::size_t(y * l.width + x)];
}

std::uint64_t RiverPyramid::bytes() const noexcept {
    std::uint64_t total = 0;
    for (const Level& l : m_levels) total += l.order.size();
    return total;
}

}  // namespace terragrid::serve

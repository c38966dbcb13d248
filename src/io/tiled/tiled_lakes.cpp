#include "io/tiled/tiled_lakes.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "io/tiled/tiled_objects.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

using Point = PixelPoint;

/// Sutherland and Hodgman: `ring` (not closed) clipped to one side of an axis-aligned line,
/// kept where `inside` holds; crossings computed on the crossing axis only, so a rectilinear
/// ring stays exact.
template <typename Inside, typename Cross>
std::vector<Point> clipSide(const std::vector<Point>& ring, Inside inside, Cross cross) {
    std::vector<Point> out;
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const Point& a = ring[(i + ring.size() - 1) % ring.size()];
        const Point& b = ring[i];
        if (inside(b)) {
            if (!inside(a)) out.push_back(cross(a, b));
            out.push_back(b);
        } else if (inside(a)) {
            out.push_back(cross(a, b));
        }
    }
    // Collinear and repeated points add nothing to a polygon.
    std::vector<Point> kept;
    for (const Point& p : out)
        if (kept.empty() || !(kept.back() == p)) kept.push_back(p);
    while (kept.size() > 1 && kept.front() == kept.back()) kept.pop_back();
    return kept;
}

std::vector<Point> clipToRect(std::vector<Point> ring, double xMax, double yMax) {
    const auto atX = [](double x) {
        return [x](const Point& a, const Point& b) {
            return Point{x, a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y)};
        };
    };
    const auto atY = [](double y) {
        return [y](const Point& a, const Point& b) {
            return Point{a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x), y};
        };
    };
    ring = clipSide(ring, [](const Point& p) { return p.x >= 0; }, atX(0));
    ring = clipSide(ring, [&](const Point& p) { return p.x <= xMax; }, atX(xMax));
    ring = clipSide(ring, [](const Point& p) { return p.y >= 0; }, atY(0));
    ring = clipSide(ring, [&](const Point& p) { return p.y <= yMax; }, atY(yMax));
    return ring;
}

/// Twice the shoelace area; exact for a rectilinear ring on multiples of the tile size.
double twiceArea(const std::vector<Point>& ring) {
    double sum = 0;
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const Point& a = ring[i];
        const Point& b = ring[(i + 1) % ring.size()];
        sum += a.x * b.y - b.x * a.y;
    }
    return sum;
}

}  // namespace

TiledLakes::TiledLakes(const HydrologyStage& stage, std::int64_t col0, std::int64_t row0)
    : m_factor(stage.factor),
      m_mapWidth(stage.mapWidth),
      m_mapHeight(stage.mapHeight),
      m_col0(col0),
      m_row0(row0) {
    const auto cornerX = [&](const hydro::CornerPoint& p) {
        return std::min(std::int64_t(p.x) * m_factor, m_mapWidth) - m_col0;
    };
    const auto cornerY = [&](const hydro::CornerPoint& p) {
        return std::min(std::int64_t(p.y) * m_factor, m_mapHeight) - m_row0;
    };
    for (const hydro::LakePolygon& polygon : hydro::lakePolygons(
             stage.lakes, std::int32_t(stage.gridWidth), std::int32_t(stage.gridHeight))) {
        const std::vector<hydro::CornerPoint>& ring = polygon.rings.at(0);
        Part part;
        part.first = m_corners.size();
        part.count = ring.size() - 1;  // closed: front() == back()
        part.lake = polygon.lake;
        part.surface = stage.lakes.surface[polygon.lake];
        part.minX = part.maxX = cornerX(ring[0]);
        part.minY = part.maxY = cornerY(ring[0]);
        for (std::size_t k = 0; k < part.count; ++k) {
            m_corners.push_back(ring[k]);
            part.minX = std::min(part.minX, cornerX(ring[k]));
            part.maxX = std::max(part.maxX, cornerX(ring[k]));
            part.minY = std::min(part.minY, cornerY(ring[k]));
            part.maxY = std::max(part.maxY, cornerY(ring[k]));
        }
        m_parts.push_back(part);
    }
}

std::int64_t TiledLakes::writeLayer(std::int64_t layerId, std::int64_t firstObjectId,
                                    std::int64_t col0, std::int64_t row0, std::int64_t width,
                                    std::int64_t height, std::int64_t tilePixels,
                                    const Rgb& colour,
                                    const std::function<void(const std::string&)>& write) const {
    const double pixels = double(tilePixels);
    const double xMax = double(width) * pixels, yMax = double(height) * pixels;
    TiledObjectLayer layer("lakes", layerId, firstObjectId, colour, write);
    std::vector<Point> ring;
    for (const Part& part : m_parts) {
        // Wholly outside the file's cells (a polygon touching its border alone is no area).
        if (part.maxX <= col0 || part.minX >= col0 + width || part.maxY <= row0 ||
            part.minY >= row0 + height)
            continue;
        ring.clear();
        for (std::size_t k = 0; k < part.count; ++k) {
            const hydro::CornerPoint& p = m_corners[part.first + k];
            const std::int64_t x = std::min(std::int64_t(p.x) * m_factor, m_mapWidth) - m_col0;
            const std::int64_t y = std::min(std::int64_t(p.y) * m_factor, m_mapHeight) - m_row0;
            ring.push_back({double(x - col0) * pixels, double(y - row0) * pixels});
        }
        ring = clipToRect(std::move(ring), xMax, yMax);
        if (ring.size() < 3 || twiceArea(ring) == 0) continue;  // no area inside
        layer.add("lake", "polygon", ring,
                  Json::array({TiledObjectLayer::property("lake_id", "int", part.lake),
                               TiledObjectLayer::property("surface_m", "float", part.surface)}));
    }
    return layer.close();
}

}  // namespace terragrid

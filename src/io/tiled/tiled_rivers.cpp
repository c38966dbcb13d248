#include "io/tiled/tiled_rivers.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "io/tiled/tiled_objects.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

using Point = PixelPoint;

/// Liang and Barsky's clipping of the segment a -> b to [0, xMax] x [0, yMax]: false when no
/// part of it lies inside, else the parameters t0 <= t1 of the part that does.
bool clip(const Point& a, const Point& b, double xMax, double yMax, double& t0, double& t1) {
    t0 = 0;
    t1 = 1;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x, xMax - a.x, a.y, yMax - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0) {
            if (t > t1) return false;
            t0 = std::max(t0, t);
        } else {
            if (t < t0) return false;
            t1 = std::min(t1, t);
        }
    }
    return true;
}

/// The point at `t` on a -> b, the ends exact, a cut point snapped onto the rectangle.
Point at(const Point& a, const Point& b, double t, double xMax, double yMax) {
    if (t == 0) return a;
    if (t == 1) return b;
    return {std::clamp(a.x + t * (b.x - a.x), 0.0, xMax),
            std::clamp(a.y + t * (b.y - a.y), 0.0, yMax)};
}

}  // namespace

TiledRivers::TiledRivers(const HydrologyStage& stage, std::int64_t col0, std::int64_t row0,
                         double cellArea) {
    forEachRiverReach(stage, [&](const std::vector<MapCellPoint>& points,
                                 const hydro::RiverPolyline& polyline) {
        Reach reach;
        reach.first = m_points.size();
        reach.count = points.size();
        reach.order = polyline.order;
        reach.discharge = polyline.discharge;
        reach.upstreamArea = double(polyline.discharge) * cellArea;
        reach.minCol = reach.maxCol = points[0].col - double(col0);
        reach.minRow = reach.maxRow = points[0].row - double(row0);
        for (const MapCellPoint& p : points) {
            const MapCellPoint local{p.col - double(col0), p.row - double(row0)};
            m_points.push_back(local);
            reach.minCol = std::min(reach.minCol, local.col);
            reach.maxCol = std::max(reach.maxCol, local.col);
            reach.minRow = std::min(reach.minRow, local.row);
            reach.maxRow = std::max(reach.maxRow, local.row);
        }
        m_reaches.push_back(reach);
    });
}

std::int64_t TiledRivers::writeLayer(
    std::int64_t layerId, std::int64_t firstObjectId, std::int64_t col0, std::int64_t row0, std::int64_t width,
    std::int64_t height, std::int64_t tilePixels, const Rgb& colour,
    const std::function<void(const std::string&)>& write) const {
    const double pixels = double(tilePixels);
    const double xMax = double(width) * pixels, yMax = double(height) * pixels;
    const auto point = [&](const MapCellPoint& p) {
        return Point{(p.col - double(col0) + 0.5) * pixels, (p.row - double(row0) + 0.5) * pixels};
    };
    TiledObjectLayer layer("rivers", layerId, firstObjectId, colour, write);
    std::vector<Point> piece;
    const auto flush = [&](const Reach& reach) {
        if (piece.empty()) return;
        layer.add("river", "polyline", piece,
                  Json::array(
                      {TiledObjectLayer::property("discharge_cells", "float", reach.discharge),
                       TiledObjectLayer::property("strahler", "int", reach.order),
                       TiledObjectLayer::property("upstream_area", "float", reach.upstreamArea)}));
        piece.clear();
    };
    for (const Reach& reach : m_reaches) {
        // Cell centres half a cell inside: a reach whose cells all lie outside the file's
        // cells, with a cell of margin, cannot cross it.
        if (reach.maxCol < double(col0 - 1) || reach.minCol > double(col0 + width) ||
            reach.maxRow < double(row0 - 1) || reach.minRow > double(row0 + height))
            continue;
        for (std::size_t k = 0; k + 1 < reach.count; ++k) {
            const Point a = point(m_points[reach.first + k]);
            const Point b = point(m_points[reach.first + k + 1]);
            double t0 = 0, t1 = 1;
            if (!clip(a, b, xMax, yMax, t0, t1)) {
                flush(reach);
                continue;
            }
            // A piece goes on while each segment starts where the last one ended inside.
            if (t0 != 0) flush(reach);
            if (piece.empty()) piece.push_back(at(a, b, t0, xMax, yMax));
            piece.push_back(at(a, b, t1, xMax, yMax));
            if (t1 != 1) flush(reach);
        }
        flush(reach);
    }
    return layer.close();
}

}  // namespace terragrid

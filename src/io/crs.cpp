// Cell sizes in metres for engines and hill shading (terragrid/io/crs.hpp).

#include "terragrid/io/crs.hpp"

#include <cmath>
#include <numbers>

namespace terragrid {

double CellMetres::square() const noexcept { return std::sqrt(x * y); }

double centreLatitude(const MapConfig& map) noexcept {
    // From the full map's origin, so every window and shard of a map says the same.
    return map.wholeOriginY() - static_cast<double>(map.wholeHeight()) * map.cellSize / 2.0;
}

CellMetres cellMetres(const MapConfig& map, const CrsInfo& crs) noexcept {
    if (map.projection == Projection::Equirectangular) return {map.groundCell(), map.groundCell()};
    if (!crs.geographic) {
        const double size = map.cellSize * crs.unitToMetre;
        return {size, size};
    }
    // Radii of curvature of the ellipsoid at latitude phi: N along the parallel (times cos phi
    // for the parallel's own radius), M along the meridian.
    const double f = crs.inverseFlattening > 0 ? 1.0 / crs.inverseFlattening : 0.0;
    const double e2 = f * (2.0 - f);
    const double phi = centreLatitude(map) * std::numbers::pi / 180.0;
    const double s = std::sin(phi);
    const double w = std::sqrt(1.0 - e2 * s * s);
    const double n = crs.semiMajorMetres / w;
    const double m = crs.semiMajorMetres * (1.0 - e2) / (w * w * w);
    const double radiansPerCell = map.cellSize * std::numbers::pi / 180.0;
    return {radiansPerCell * n * std::cos(phi), radiansPerCell * m};
}

}  // namespace terragrid

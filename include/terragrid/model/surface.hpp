#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Where the cells of a map sample their noise: the plane of world coordinates, a torus in 4D
// (map.wrap: a tileable map) or a sphere (map.projection equirectangular: a planet).
//
// A cell's point is a pure function of its cell in the full map (design.md principle 1), so a
// window or shard of a map samples exactly the points the whole map does.

#include <array>
#include <cstdint>

#include "terragrid/model/world.hpp"
#include "terragrid/noise/noise.hpp"
#include "terragrid/model/tiling.hpp"

namespace terragrid {

enum class SurfaceKind : std::uint8_t { Plane, Torus, Sphere };

/// A cell's point splits into a part that depends only on its column and one that depends
/// only on its row (point(col, row) == join(column(col), row(row))), so rows of cells compute
/// each part once.
struct SurfacePart {
    double a = 0.0;
    double b = 0.0;
    /// Torus: the cell's place along the unrolled map, (i + 1/2) g (NoisePoint::plane).
    double plane = 0.0;
};

/// Immutable and thread-safe.
///   plane: (world x, world y) of the cell centre.
///   torus: (Rx cos t, Rx sin t, Ry cos p, Ry sin p), t = 2 pi (c + 1/2) / W and
///          p = 2 pi (r + 1/2) / H for full-map cell (c, r) of a W x H map, Rx = W g / 2 pi,
///          Ry = H g / 2 pi (g the ground cell size): each circle is as long as the map, so
///          neighbouring cells are g apart, across the wrapped edges too. Its plane
///          coordinates ((c + 1/2) g, (r + 1/2) g), where layers that tile by their own
///          lattice sample (version 5: NoiseParams::period, which period() gives).
///   sphere: R (cos lat cos lon, cos lat sin lon, sin lat), lon = 2 pi (c + 1/2) / W - pi,
///          lat = pi / 2 - pi (r + 1/2) / H, R = W g / 2 pi (the equator is as long as the map).
class Surface {
public:
    explicit Surface(const MapConfig& map);

    SurfaceKind kind() const noexcept { return m_kind; }
    /// 2, 3 or 4.
    int dimensions() const noexcept;
    /// The plane's grid (world x and y of cell centres).
    const GridGeometry& grid() const noexcept { return m_grid; }
    /// A torus's width and height in world units (NoiseParams::period); {0, 0} elsewhere.
    std::array<double, 2> period() const noexcept;

    /// The parts of map column `col` and map row `row` (map-relative, as TileRect's).
    SurfacePart column(std::int64_t col) const noexcept;
    SurfacePart row(std::int64_t row) const noexcept;
    NoisePoint join(const SurfacePart& column, const SurfacePart& row) const noexcept;
    NoisePoint point(std::int64_t col, std::int64_t row) const noexcept {
        return join(column(col), this->row(row));
    }

    /// Where column `col` / row `row` lies across the full map, from -1 (left / top edge) to 1
    /// (right / bottom edge), at the cell's centre: what the island falloff measures.
    double acrossX(std::int64_t col) const noexcept;
    double acrossY(std::int64_t row) const noexcept;

private:
    SurfaceKind m_kind;
    GridGeometry m_grid;
    std::int64_t m_col0;  ///< full-map column of map column 0
    std::int64_t m_row0;
    std::int64_t m_width;  ///< the full map's
    std::int64_t m_height;
    double m_radiusX;  ///< torus: Rx; sphere: R
    double m_radiusY;  ///< torus: Ry
    double m_ground;   ///< the ground cell size g
};

}  // namespace terragrid

#include "terragrid/model/surface.hpp"

#include <cmath>
#include <numbers>

namespace terragrid {

namespace {

SurfaceKind kindOf(const MapConfig& map) {
    if (map.projection == Projection::Equirectangular) return SurfaceKind::Sphere;
    return map.wrap ? SurfaceKind::Torus : SurfaceKind::Plane;
}

/// The angle of the centre of cell `index` of `count` around a full turn: 2 pi (i + 1/2) / n.
/// From integers in one expression, so every tile computes the same angle.
double turn(std::int64_t index, std::int64_t count) noexcept {
    return 2.0 * std::numbers::pi * (static_cast<double>(index) + 0.5) /
           static_cast<double>(count);
}

/// The centre of cell `index` along the unrolled map: (i + 1/2) g.
double along(std::int64_t index, double ground) noexcept {
    return (static_cast<double>(index) + 0.5) * ground;
}

}  // namespace

Surface::Surface(const MapConfig& map)
    : m_kind(kindOf(map)),
      m_grid(TileLayout(map).geometry()),
      m_col0(map.fullCol0),
      m_row0(map.fullRow0),
      m_width(map.wholeWidth()),
      m_height(map.wholeHeight()),
      m_radiusX(static_cast<double>(m_width) * map.groundCell() / (2.0 * std::numbers::pi)),
      m_radiusY(static_cast<double>(m_height) * map.groundCell() / (2.0 * std::numbers::pi)),
      m_ground(map.groundCell()) {}

std::array<double, 2> Surface::period() const noexcept {
    if (m_kind != SurfaceKind::Torus) return {0.0, 0.0};
    return {static_cast<double>(m_width) * m_ground, static_cast<double>(m_height) * m_ground};
}

int Surface::dimensions() const noexcept {
    switch (m_kind) {
    case SurfaceKind::Plane:
        return 2;
    case SurfaceKind::Sphere:
        return 3;
    case SurfaceKind::Torus:
        return 4;
    }
    return 2;
}

SurfacePart Surface::column(std::int64_t col) const noexcept {
    switch (m_kind) {
    case SurfaceKind::Plane:
        return {m_grid.cellX(col), 0.0};
    case SurfaceKind::Torus: {
        const double t = turn(m_col0 + col, m_width);
        return {m_radiusX * std::cos(t), m_radiusX * std::sin(t), along(m_col0 + col, m_ground)};
    }
    case SurfaceKind::Sphere: {
        const double lon = turn(m_col0 + col, m_width) - std::numbers::pi;
        return {std::cos(lon), std::sin(lon)};
    }
    }
    return {};
}

SurfacePart Surface::row(std::int64_t row) const noexcept {
    switch (m_kind) {
    case SurfaceKind::Plane:
        return {m_grid.cellY(row), 0.0};
    case SurfaceKind::Torus: {
        const double p = turn(m_row0 + row, m_height);
        return {m_radiusY * std::cos(p), m_radiusY * std::sin(p), along(m_row0 + row, m_ground)};
    }
    case SurfaceKind::Sphere: {
        // Half a turn from the north pole to the south pole.
        const double lat = std::numbers::pi / 2.0 - turn(m_row0 + row, m_height) / 2.0;
        return {m_radiusX * std::cos(lat), m_radiusX * std::sin(lat)};
    }
    }
    return {};
}

NoisePoint Surface::join(const SurfacePart& column, const SurfacePart& row) const noexcept {
    switch (m_kind) {
    case SurfaceKind::Plane:
        return {{column.a, row.a, 0.0, 0.0}, 2};
    case SurfaceKind::Torus:
        return {{column.a, column.b, row.a, row.b}, 4, {column.plane, row.plane}};
    case SurfaceKind::Sphere:
        return {{row.a * column.a, row.a * column.b, row.b, 0.0}, 3};
    }
    return {};
}

double Surface::acrossX(std::int64_t col) const noexcept {
    return 2.0 * (static_cast<double>(m_col0 + col) + 0.5) / static_cast<double>(m_width) - 1.0;
}

double Surface::acrossY(std::int64_t row) const noexcept {
    return 2.0 * (static_cast<double>(m_row0 + row) + 0.5) / static_cast<double>(m_height) - 1.0;
}

}  // namespace terragrid

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Lakes as polygons along cell edges, for vector outputs (GeoJSON).

#include <cstdint>
#include <vector>

#include "terragrid/hydro/depressions.hpp"

namespace terragrid::hydro {

/// A cell corner: (x, y) is the top-left corner of cell (x, y); x to the right, y down (rows),
/// 0..width and 0..height.
struct CornerPoint {
    std::int32_t x = 0, y = 0;
    friend bool operator==(const CornerPoint&, const CornerPoint&) = default;
};

/// One polygon of a lake: rings[0] the outer boundary, the rest holes (islands). Each ring is
/// closed (front() == back()), has no other repeated point, keeps only its corners (no point
/// in the middle of a straight run), and runs so that once y points north (a map CRS) the outer
/// ring is counterclockwise and holes clockwise, as GeoJSON (RFC 7946) wants. Rings of one
/// polygon, and polygons of one lake, may touch at single points where cells meet diagonally.
struct LakePolygon {
    std::uint32_t lake = 0;  ///< Lakes::id
    std::vector<std::vector<CornerPoint>> rings;
};

/// The outlines of every lake of `lakes` (a grid of width x height cells): one polygon per
/// part of a lake that touches the rest only at corners, so a lake is one polygon or several
/// (a MultiPolygon). Ordered by lake id, then by each polygon's first cell (row-major).
/// Pure and serial: O(cells).
std::vector<LakePolygon> lakePolygons(const Lakes& lakes, std::int32_t width, std::int32_t height);

}  // namespace terragrid::hydro

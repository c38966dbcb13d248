#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Depression filling (Priority-Flood) and the lakes it makes.

#include <cstdint>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro {

/// The depression-filled surface of `dem`: every cell raised to the lowest height from which
/// water can still reach an outlet (min over paths to an outlet of the path's highest cell),
/// so filled depressions become level water surfaces at their spill height, with no epsilon
/// gradient (routeFlow drains the flats). Outlet cells keep their height. The result is a
/// unique function of (dem, outlets): the same bits for any thread count.
/// Priority-Flood (Barnes, Lehman & Mulla 2014, "improved" variant: a plain queue for cells
/// inside depressions; Zhou, Sun & Fu 2016: another for slopes traced uphill; the priority
/// queue only for the rest), on horizontal strips in parallel (TBB) joined through their
/// watershed graph as in Barnes 2016. O(n log m), m = cells that need the heap.
/// Throws std::invalid_argument when z.size() != width * height or there is no outlet.
std::vector<float> fillDepressions(const Grid& dem, const Outlets& outlets);

/// Lakes: the filled depressions that are deep or large enough.
struct Lakes {
    std::vector<std::uint32_t> id;       ///< per cell: 0 = no lake, else 1..count
    std::vector<float> surface;          ///< per id (index 0 unused): the water surface height
    std::vector<std::uint32_t> outlet;   ///< per id (index 0 unused): the spill cell, outside
                                         ///< the lake, at the surface height, where water leaves
    std::uint32_t count() const { return surface.empty() ? 0 : static_cast<std::uint32_t>(surface.size() - 1); }
};

/// The lakes of `filled` (fillDepressions of `dem`): each 8-connected set of cells where
/// filled > dem (they share one surface height) whose greatest depth (surface - lowest dem) is
/// more than `minDepthMetres` or whose area is more than `minAreaCells` cells. Ids are given
/// in order of each lake's first cell (row-major). The outlet is the cell nearest to the lake
/// (breadth-first over the level surface around it) that has a lower neighbour or lies on the
/// map's border. Serial, deterministic.
Lakes findLakes(const Grid& dem, const std::vector<float>& filled, double minDepthMetres,
                std::int64_t minAreaCells);

}  // namespace terragrid::hydro

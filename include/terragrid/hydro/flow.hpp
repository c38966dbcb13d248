#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// D8 flow routing on a filled surface, flow accumulation, rivers and their Strahler order.

#include <cstdint>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro {

/// Where each cell's water goes.
struct FlowRouting {
    std::vector<std::uint32_t> receiver;  ///< D8 receiver per cell, kNoReceiver at outlets
    /// Width of the grid the cells index (set by routeFlow: receivers are D8 neighbours), which
    /// lets accumulate run in parallel; 0 for a routing made by hand (any receivers).
    std::int32_t width = 0;
};

/// D8 steepest descent (drop over distance, diagonals sqrt 2 long) on `filled` (a surface from
/// fillDepressions). Cells on flats (no lower neighbour) drain toward the flat's way out, by
/// the flat resolution of Barnes, Lehman & Mulla (2014), "An efficient assignment of drainage
/// direction over flat surfaces": away from higher ground and toward lower ground. Outlets
/// (Outlets: border, sea) get kNoReceiver. Receivers never form a loop; ties go to the first
/// neighbour in a fixed order. A cell of a surface that was not filled that cannot drain
/// (a pit) also gets kNoReceiver. Same bits for any thread count.
/// Throws std::invalid_argument when z.size() != width * height or there is no outlet.
FlowRouting routeFlow(const Grid& filled, const Outlets& outlets);

/// Flow accumulation: per cell, the sum of `weight` (nullptr: 1 per cell) over the cell and
/// every cell upstream of it: the cell's own weight, then each donor's accumulation added in
/// increasing cell index. That order is fixed by the receivers alone, so the result has the
/// same bits for any thread count and whether `width` is set (in parallel: a walk down from
/// every source, each cell taken by the last of its donors to finish) or not (serial, in a
/// donors-first order of its own). `weight`, when given, has one value per cell. Throws
/// std::invalid_argument when the receivers form a loop or name a cell out of range.
std::vector<float> accumulate(const FlowRouting& routing, const float* weight);

/// 1 where accumulation > threshold, else 0.
std::vector<std::uint8_t> riverMask(const std::vector<float>& accumulation, float threshold);

/// Strahler stream order per river cell (0 off the river): a river cell no river cell drains
/// into has order 1; where two or more donors of the highest order k meet, the order is k + 1,
/// else k. Saturates at 255. Visits the cells as accumulate does (in parallel on a grid): the
/// same bytes for any thread count. Throws as accumulate does, and when `river` does not have
/// one value per cell.
std::vector<std::uint8_t> strahlerOrder(const FlowRouting& routing, const std::vector<std::uint8_t>& river);

}  // namespace terragrid::hydro

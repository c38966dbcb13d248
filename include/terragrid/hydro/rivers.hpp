#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Rivers as polylines: the river cells cut into reaches between sources, confluences and
// outlets, for vector outputs (GeoJSON, Tiled).

#include <cstdint>
#include <vector>

#include "terragrid/hydro/flow.hpp"

namespace terragrid::hydro {

/// One reach of a river, upstream to downstream. It starts at a source (a river cell no river
/// cell drains into) or at a confluence (two or more do), and runs down the receivers until
/// the next confluence, which it ends on as a joint (that cell belongs to the next reach, where
/// it is the first cell), or until the river leaves the map or the river (then the last cell
/// is its own). A reach of one cell (a source that is also an outlet) has one cell.
struct RiverPolyline {
    std::vector<std::uint32_t> cells;  ///< cell indices, adjacent (8-connected) in turn
    bool endsAtJoint = false;          ///< cells.back() is the next reach's confluence cell
    std::uint8_t order = 0;            ///< Strahler order of the reach's own cells (all equal)
    float discharge = 0;               ///< accumulation at its last own cell
};

/// Every reach of `river` (riverMask) on `routing`, ordered by first cell index. Every river
/// cell is in exactly one reach as an own cell; confluence cells are in addition the joint of
/// each reach that flows into them. `strahler` and `accumulation` have one value per cell.
/// Pure and serial: O(river cells).
std::vector<RiverPolyline> riverPolylines(const FlowRouting& routing,
                                          const std::vector<std::uint8_t>& river,
                                          const std::vector<std::uint8_t>& strahler,
                                          const std::vector<float>& accumulation);

}  // namespace terragrid::hydro

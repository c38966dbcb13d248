#pragma once
// The hydrology stage's rivers as lines through map cells, one per reach: the one source of
// the river lines rivers.geojson and the Tiled map's river layer both draw.

#include <cstdint>
#include <functional>
#include <vector>

#include "terragrid/hydro/rivers.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// A whole-map cell (column, row).
struct MapCellPoint {
    std::int64_t col = 0;
    std::int64_t row = 0;
    friend bool operator==(const MapCellPoint&, const MapCellPoint&) = default;
};

/// Calls `visit(points, reach)` for every reach of the stage's rivers (hydro::riverPolylines:
/// between sources, confluences and mouths, in its order). `points` runs upstream to
/// downstream through the sample points of the reach's hydrology cells and, when the reach
/// ends in a lake, the sea or the map's edge rather than at a confluence, on to the cell it
/// flows into, so reaches visibly join what they reach; a one-cell river repeats its point,
/// so every line has at least two. Serial; holds the reaches' cell indices meanwhile.
void forEachRiverReach(
    const HydrologyStage& stage,
    const std::function<void(const std::vector<MapCellPoint>& points,
                             const hydro::RiverPolyline& reach)>& visit);

}  // namespace terragrid

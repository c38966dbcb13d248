#pragma once
// The hydrology stage's rivers as lines through map cells, one per reach: the one source of
// the river lines rivers.geojson and the Tiled map's river layer both draw.

#include <cstdint>
#include <functional>
#include <vector>

#include "terragrid/hydro/rivers.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// A point of a river line in whole-map cell units: (col, row) is the centre of that cell,
/// and a half more or less its edge (col -0.5 is the map's west edge, mapWidth - 0.5 its
/// east edge).
struct MapCellPoint {
    double col = 0;
    double row = 0;
    friend bool operator==(const MapCellPoint&, const MapCellPoint&) = default;
};

/// Calls `visit(points, reach)` for every reach of the stage's rivers on land
/// (hydro::riverPolylines: between sources, confluences and mouths, in its order). `points`
/// runs upstream to downstream through the sample points of the reach's hydrology cells and
/// then, unless the reach ends on a confluence (the first point of the reach below), on to
/// where its water goes: the lake or sea cell it flows into, or, from an outlet on the map's
/// border, the map's edge beside it (the corner from a corner cell). Every line so has at
/// least two distinct points, a reach of a single cell too: no line is degenerate. The sea is
/// not river: sea cells (the outlets inside the map) that the stage counts as river, because
/// enough water reaches them, end the reaches that flow into them, like lakes. Serial; holds
/// the reaches' cell indices meanwhile.
void forEachRiverReach(
    const HydrologyStage& stage,
    const std::function<void(const std::vector<MapCellPoint>& points,
                             const hydro::RiverPolyline& reach)>& visit);

}  // namespace terragrid

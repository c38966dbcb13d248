#pragma once
// The climate inside the hydrology stage (computeHydrology with climate.enabled): the first
// pass over the sea alone, whose precipitation feeds the rivers and the lakes' water budget,
// and the second over the sea, the lakes and the rivers the first made. Private to
// src/pipeline.

#include <vector>

#include "terragrid/hydro/grid.hpp"
#include "terragrid/hydro/water_balance.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// Precipitation (mm a year) of every hydrology cell, the air taking up water over the sea
/// alone. `ground` is the (eroded) ground of the grid.
std::vector<float> seaBornePrecipitation(const World& world, const HydrologyStage& s,
                                        const hydro::Grid& ground);

/// The lakes' water budget of every hydrology cell from `precipitation` (mm a year): the runoff
/// of dry land (Budyko's curve, Turc-Pike form, with open-water evaporation as the potential)
/// and precipitation less evaporation on a lake, at the temperature of the cell's ground.
hydro::WaterBudget waterBudget(const World& world, const HydrologyStage& s,
                               const hydro::Grid& ground, const std::vector<float>& precipitation);

/// The stage's climate: the second pass, the air taking up water over the sea, the lakes
/// (s.lakeSurface) and the rivers (s.strahler: a river of order o covers min(1, 2^(o-3) / f)
/// of its cell, the width preview.png draws it with).
ClimateStage climateOverWater(const World& world, const HydrologyStage& s,
                              const hydro::Grid& ground);

}  // namespace terragrid

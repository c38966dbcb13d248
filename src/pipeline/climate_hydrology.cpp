#include "pipeline/climate_hydrology.hpp"

#include <algorithm>
#include <cmath>

#include "pipeline/stopwatch.hpp"

namespace terragrid {

namespace {

/// The grid's surface and open water: the sea at its level, and `lake` cells (NaN: none) at
/// their surface; rivers as `riverShare` of their cell.
climate::Grid gridOver(const World& world, const HydrologyStage& s, const hydro::Grid& ground,
                       bool withLakesAndRivers) {
    std::vector<float> surface(ground.z), water(ground.z.size(), 0.0f);
    const auto sea = static_cast<float>(s.seaLevelMeters);
    for (std::size_t i = 0; i < surface.size(); ++i) {
        if (s.hasSea && ground.z[i] <= sea) {
            surface[i] = sea;
            water[i] = 1;
            continue;
        }
        if (!withLakesAndRivers) continue;
        if (!std::isnan(s.lakeSurface[i]) && s.lakeSurface[i] > ground.z[i]) {
            surface[i] = s.lakeSurface[i];
            water[i] = 1;
        } else if (s.strahler[i] != 0) {
            water[i] = static_cast<float>(
                std::min(1.0, std::exp2(double(s.strahler[i]) - 3.0) / double(s.factor)));
        }
    }
    return climateGrid(world, s.factor, s.gridWidth, s.gridHeight, std::move(surface),
                       std::move(water));
}

}  // namespace

std::vector<float> seaBornePrecipitation(const World& world, const HydrologyStage& s,
                                        const hydro::Grid& ground) {
    return climate::precipitation(gridOver(world, s, ground, false), climateParams(world.climate));
}

hydro::WaterBudget waterBudget(const World& world, const HydrologyStage& s,
                               const hydro::Grid& ground, const std::vector<float>& precipitation) {
    const climate::Params p = climateParams(world.climate);
    hydro::WaterBudget budget;
    budget.runoff.resize(ground.z.size());
    budget.lake.resize(ground.z.size());
    for (std::int64_t j = 0; j < s.gridHeight; ++j) {
        const double lat = rowLatitude(world, hydrologySamplePoint(j, s.factor, s.mapHeight));
        for (std::int64_t i = 0; i < s.gridWidth; ++i) {
            const auto at = std::size_t(j * s.gridWidth + i);
            const double rain = precipitation[at];
            const double evaporation =
                openWaterEvaporation(world.climate, climate::temperature(p, lat, ground.z[at]));
            budget.runoff[at] = static_cast<float>(runoff(rain, evaporation));
            budget.lake[at] = static_cast<float>(rain - evaporation);
        }
    }
    return budget;
}

ClimateStage climateOverWater(const World& world, const HydrologyStage& s,
                              const hydro::Grid& ground) {
    return climateOf(world, gridOver(world, s, ground, true), s.factor);
}

}  // namespace terragrid

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The whole-map climate stage (design.md, data flow): the climate model (climate_model.hpp) run
// once on the stage grid of the whole map, before the tiles. The wind's path depends on the
// land upwind, so precipitation is global; every map cell is then a pure function of (config,
// this stage, cell): its temperature from its latitude and its own surface height (exact), its
// precipitation interpolated between the grid's sample points by the hydrology stage's rule.
//
// With hydrology on, the stage is part of the hydrology stage (computeHydrology): its grid,
// its eroded ground, the sea, and the lakes and rivers the first pass's rain made, over which
// the second pass's air takes up water (HydrologyStage::climate). Without it (a planet, a
// tileable map, or hydrology off), computeClimate samples the height layer on the same grid,
// and open water is what the terrain's lake class holds by height.

#include <cstdint>
#include <vector>

#include "terragrid/climate/climate_model.hpp"
#include "terragrid/model/tiling.hpp"
#include "terragrid/model/world.hpp"

namespace terragrid {

/// Figures for stats.json, of the stage grid.
struct ClimateFacts {
    double precipitationMean = 0, precipitationMin = 0, precipitationMax = 0;  ///< mm a year
    double temperatureMean = 0, temperatureMin = 0, temperatureMax = 0;  ///< C, at the surface
    double seconds = 0;  ///< the stage's time (both passes with hydrology)
};

/// The stage's results on the stage grid (hydrologyFactor's grid; HydrologyStage's layout).
/// Immutable after it is computed; thread-safe to read.
struct ClimateStage {
    std::int64_t factor = 1;
    std::int64_t mapWidth = 0, mapHeight = 0;
    std::int64_t gridWidth = 0, gridHeight = 0;
    /// Without hydrology: the water level (metres) of the lake class by height, when it has
    /// one: water cells' temperature is the water surface's.
    bool hasWaterLevel = false;
    double waterLevel = 0;  ///< on the noise's 0..1 (the lake class's threshold)
    float waterLevelMeters = 0;
    std::vector<float> precipitation;  ///< mm a year per grid cell
    ClimateFacts facts;
};

/// The climate model's parameters from the config (climate.*).
climate::Params climateParams(const ClimateConfig& config);

/// Latitude in degrees of whole-map row `row`: a planet's own (90 at the top, -90 at the
/// bottom, at the row's centre), a plane map's between climate.latitude's two ends. Pure.
double rowLatitude(const World& world, std::int64_t row);

/// Open-water evaporation (also the land's potential evaporation), mm a year, at `celsius`:
/// climate.evaporation at 15 C along the saturation curve. Pure.
double openWaterEvaporation(const ClimateConfig& config, double celsius);

/// Runoff, mm a year, of land receiving `precipitation` with potential evaporation
/// `potential` (both mm a year): the Budyko curve in Turc and Pike's form,
/// P - P / sqrt(1 + (P / PET)^2). Pure.
double runoff(double precipitation, double potential);

/// The model grid of the stage grid `shape`: `surface` (metres: the ground, or the water
/// surface over water) and `water` (0..1 open water per cell), rows' latitudes and sizes from
/// the map. Pure.
climate::Grid climateGrid(const World& world, std::int64_t factor, std::int64_t gridWidth,
                          std::int64_t gridHeight, std::vector<float> surface,
                          std::vector<float> water);

/// The climate of `grid`: precipitation and the facts. Deterministic.
ClimateStage climateOf(const World& world, const climate::Grid& grid, std::int64_t factor);

/// The stage for a map without hydrology (world.climate.enabled): the height layer sampled on
/// the stage grid; cells at or below `waterLevel` (the noise's 0..1 scale, the lake class's
/// threshold; below 0: no water) are open water at that level. Deterministic.
ClimateStage computeClimate(const World& world, double waterLevel);

/// Bytes computeClimate holds at its peak (the memory plan).
std::uint64_t climateMemoryBytes(const World& world);

/// The temperature (C) and precipitation (mm a year) of every cell of `grid` (whole-map
/// column and row: col + fullCol0, row + fullRow0), given each cell's surface height in metres
/// (the ground, or the water surface over water), row-major. Thread-safe.
void climateCells(const ClimateStage& stage, const World& world, const CellGrid& grid,
                  std::int64_t fullCol0, std::int64_t fullRow0, const float* surfaceMeters,
                  float* temperature, float* precipitation);

}  // namespace terragrid

#include "terragrid/pipeline/climate_stage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "pipeline/grid_sampling.hpp"
#include "pipeline/stage_grid.hpp"
#include "pipeline/stopwatch.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "model/ceil_div.hpp"

namespace terragrid {

namespace {

/// What the stage keeps per grid cell (precipitation) and what computeClimate holds at its
/// peak: the surface, water and precipitation (4 B each), the sweep's transposed copies of
/// them (12 B), and the noise heights while sampling (4 B).
constexpr std::uint64_t kPeakBytesPerCell = 32;

void measure(const World& world, const climate::Grid& grid, ClimateStage& s) {
    const climate::Params p = climateParams(world.climate);
    ClimateFacts& f = s.facts;
    double sumP = 0, sumT = 0;
    f.precipitationMin = f.temperatureMin = std::numeric_limits<double>::infinity();
    f.precipitationMax = f.temperatureMax = -std::numeric_limits<double>::infinity();
    for (std::int32_t r = 0; r < grid.height; ++r) {
        for (std::int32_t c = 0; c < grid.width; ++c) {
            const std::size_t at = std::size_t(r) * std::size_t(grid.width) + std::size_t(c);
            const double rain = s.precipitation[at];
            const double t = climate::temperature(p, grid.latitude[std::size_t(r)], grid.surface[at]);
            sumP += rain;
            sumT += t;
            f.precipitationMin = std::min(f.precipitationMin, rain);
            f.precipitationMax = std::max(f.precipitationMax, rain);
            f.temperatureMin = std::min(f.temperatureMin, t);
            f.temperatureMax = std::max(f.temperatureMax, t);
        }
    }
    const double n = double(s.precipitation.size());
    f.precipitationMean = sumP / n;
    f.temperatureMean = sumT / n;
}

}  // namespace

climate::Params climateParams(const ClimateConfig& c) { return c.model; }

double rowLatitude(const World& world, std::int64_t row) {
    const double rows = double(world.map.wholeHeight());
    const double across = (double(row) + 0.5) / rows;
    if (world.map.projection == Projection::Equirectangular) return 90.0 - 180.0 * across;
    return world.climate.latitudeNorth +
           (world.climate.latitudeSouth - world.climate.latitudeNorth) * across;
}

double openWaterEvaporation(const ClimateConfig& config, double celsius) {
    return config.evaporation * climate::saturation(celsius);
}

double runoff(double precipitation, double potential) {
    if (!(potential > 0)) return precipitation;
    const double ratio = precipitation / potential;
    return precipitation - precipitation / std::sqrt(1.0 + ratio * ratio);
}

climate::Grid climateGrid(const World& world, std::int64_t factor, std::int64_t gridWidth,
                          std::int64_t gridHeight, std::vector<float> surface,
                          std::vector<float> water) {
    climate::Grid g;
    g.width = static_cast<std::int32_t>(gridWidth);
    g.height = static_cast<std::int32_t>(gridHeight);
    const double cellKm = world.map.groundCell() * double(factor) / 1000.0;
    const bool planet = world.map.projection == Projection::Equirectangular;
    g.columnCellKm = cellKm;
    g.latitude.resize(std::size_t(gridHeight));
    g.rowCellKm.resize(std::size_t(gridHeight));
    for (std::int64_t j = 0; j < gridHeight; ++j) {
        const double lat =
            rowLatitude(world, hydrologySamplePoint(j, factor, world.map.wholeHeight()));
        g.latitude[std::size_t(j)] = lat;
        // A planet's rows shrink toward the poles; its columns keep their length.
        g.rowCellKm[std::size_t(j)] =
            planet ? cellKm * std::cos(lat * (std::numbers::pi / 180.0)) : cellKm;
    }
    g.wrapX = planet || world.map.wrap;
    g.wrapY = world.map.wrap;
    g.surface = std::move(surface);
    g.water = std::move(water);
    return g;
}

ClimateStage climateOf(const World& world, const climate::Grid& grid, std::int64_t factor) {
    const auto start = Clock::now();
    ClimateStage s;
    s.factor = factor;
    s.mapWidth = world.map.wholeWidth();
    s.mapHeight = world.map.wholeHeight();
    s.gridWidth = grid.width;
    s.gridHeight = grid.height;
    s.precipitation = climate::precipitation(grid, climateParams(world.climate));
    measure(world, grid, s);
    s.facts.seconds = secondsSince(start);
    return s;
}

ClimateStage computeClimate(const World& world, double waterLevel) {
    const auto start = Clock::now();
    const std::int64_t f = hydrologyFactor(world);
    const std::int64_t gw = ceilDiv(world.map.wholeWidth(), f);
    const std::int64_t gh = ceilDiv(world.map.wholeHeight(), f);
    const MapFields fields(world, nullptr);
    std::vector<std::int64_t> cols(static_cast<std::size_t>(gw));
    for (std::int64_t i = 0; i < gw; ++i)
        cols[std::size_t(i)] = hydrologySamplePoint(i, f, world.map.wholeWidth());
    const double low = world.elevation.minMeters;
    const double span = world.elevation.maxMeters - low;
    const bool hasWater = waterLevel >= 0;
    const auto levelMeters = static_cast<float>(low + span * waterLevel);
    std::vector<float> surface(cols.size() * std::size_t(gh)), water(surface.size(), 0.0f);
    sampleGrid({&fields.height}, cols, std::size_t(gh),
               [&](std::size_t r) {
                   return hydrologySamplePoint(std::int64_t(r), f, world.map.wholeHeight());
               },
               [&](std::size_t, std::size_t r, std::size_t c0, const double* values,
                   std::size_t n) {
                   for (std::size_t k = 0; k < n; ++k) {
                       const std::size_t at = r * cols.size() + c0 + k;
                       // The generator's expression, and the lake class's test (<=).
                       const bool wet = hasWater && values[k] <= waterLevel;
                       surface[at] = wet ? levelMeters : static_cast<float>(low + span * values[k]);
                       water[at] = wet ? 1.0f : 0.0f;
                   }
               });
    ClimateStage s =
        climateOf(world, climateGrid(world, f, gw, gh, std::move(surface), std::move(water)), f);
    s.hasWaterLevel = hasWater;
    s.waterLevel = waterLevel;
    s.waterLevelMeters = levelMeters;
    s.facts.seconds = secondsSince(start);
    return s;
}

std::uint64_t climateMemoryBytes(const World& world) {
    if (!world.climate.enabled) return 0;
    const std::int64_t f = hydrologyFactor(world);
    return std::uint64_t(ceilDiv(world.map.wholeWidth(), f) * ceilDiv(world.map.wholeHeight(), f)) *
           kPeakBytesPerCell;
}

void climateCells(const ClimateStage& s, const World& world, const CellGrid& grid,
                  std::int64_t fullCol0, std::int64_t fullRow0, const float* surfaceMeters,
                  float* temperature, float* precipitation) {
    const climate::Params p = climateParams(world.climate);
    const StageGridShape shape{s.factor, s.mapWidth, s.mapHeight, s.gridWidth, s.gridHeight};
    std::size_t at = 0;
    for (const std::int64_t gridRow : grid.rows) {
        const std::int64_t row = gridRow + fullRow0;
        const double seaLevel = climate::seaLevelTemperature(p, rowLatitude(world, row));
        for (const std::int64_t gridCol : grid.cols) {
            const std::int64_t col = gridCol + fullCol0;
            // The lapse rate exactly as climate::temperature has it, from the row's sea level.
            temperature[at] = static_cast<float>(
                seaLevel - p.lapseRate * std::max(0.0, double(surfaceMeters[at])) / 1000.0);
            precipitation[at] =
                s.factor == 1
                    ? s.precipitation[std::size_t(std::min(row, s.gridHeight - 1) * s.gridWidth +
                                                  std::min(col, s.gridWidth - 1))]
                    : interpolateStageField(shape, s.precipitation, col, row);
            ++at;
        }
    }
}

}  // namespace terragrid

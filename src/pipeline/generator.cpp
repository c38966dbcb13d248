#include "terragrid/pipeline/generator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include "pipeline/grid_sampling.hpp"
#include "pipeline/stopwatch.hpp"

namespace terragrid {

namespace {

/// The sub-grid step of the coverage sample: 1 (every cell) up to kCoverageSampleCells cells.
std::int64_t coverageStep(const MapConfig& map) {
    const double ratio = double(map.width) * double(map.height) / double(kCoverageSampleCells);
    return ratio <= 1.0 ? 1 : static_cast<std::int64_t>(std::ceil(std::sqrt(ratio)));
}

/// The index of the class named `name` (makeTerrain appends lake and river with hydrology).
std::uint8_t classNamed(const Terrain& terrain, std::string_view name) {
    const auto& classes = terrain.classes();
    for (std::size_t i = 0; i < classes.size(); ++i)
        if (classes[i].name == name) return static_cast<std::uint8_t>(i);
    throw std::logic_error("hydrology: the terrain has no class '" + std::string(name) + "'");
}

/// CellValues::moisture's row at `at` from the layer's row, when the fields keep it.
void keepMoistureRow(const MapFields& fields, const double* moisture, std::size_t at,
                     std::size_t width, CellValues& out) {
    if (!fields.keepMoisture) return;
    for (std::size_t c = 0; c < width; ++c) out.moisture[at + c] = static_cast<float>(moisture[c]);
}

bool erodedRange(const World& config, const HydrologyStage* stage) {
    return stage != nullptr && config.hydrology.erosion.enabled && !stage->erodedHeight.empty() &&
           config.terrain.erodedHeights == ErodedHeights::ErodedRange;
}

/// A height in metres on the class rules' 0..1.
double classHeight(const MapFields& fields, double metres) {
    return std::clamp((metres - fields.classLow) / fields.classSpan, 0.0, 1.0);
}

/// Cells with hydrology: the noise heights through the stage's rule (hydrologyCells), with
/// each cell's water; `height` (the noise 0..1 in) becomes the height the classes read (the
/// eroded one, on the class scale, with erosion).
void waterCells(const MapFields& fields, const CellGrid& grid, CellValues& out,
                std::vector<double>& height) {
    const auto cells = static_cast<std::size_t>(grid.cellCount());
    std::vector<WaterCell> water(cells);
    hydrologyCells(*fields.hydrology, grid, fields.config.map.fullCol0,
                   fields.config.map.fullRow0, out.elevationMeters.data(), water.data());
    out.water.resize(cells);
    out.waterDepth.resize(cells);
    out.flow.resize(cells);
    out.riverOrder.resize(cells);
    const bool eroded = fields.config.hydrology.erosion.enabled;
    for (std::size_t i = 0; i < cells; ++i) {
        const WaterCell& w = water[i];
        out.elevationMeters[i] = w.elevationMeters;
        out.water[i] = static_cast<std::uint8_t>(w.water);
        out.waterDepth[i] = w.depthMeters;
        out.flow[i] = w.flow;
        out.riverOrder[i] = w.order;
        // Classes read the eroded height on their own 0..1 scale.
        if (eroded) height[i] = classHeight(fields, double(w.elevationMeters));
    }
}

/// Each cell's temperature and precipitation: at the water's surface over water (hydrology's,
/// or, without it, the lake class's level over the cells whose `noise` height is below it).
void climateValues(const MapFields& fields, const CellGrid& grid, CellValues& out,
                   const std::vector<double>& noise) {
    const auto cells = static_cast<std::size_t>(grid.cellCount());
    const ClimateStage& stage = *fields.climate;
    std::vector<float> surface(out.elevationMeters);
    for (std::size_t i = 0; i < cells; ++i) {
        if (!out.waterDepth.empty())
            surface[i] += out.waterDepth[i];
        else if (stage.hasWaterLevel && noise[i] <= stage.waterLevel)
            surface[i] = std::max(surface[i], stage.waterLevelMeters);
    }
    out.temperature.resize(cells);
    out.precipitation.resize(cells);
    climateCells(stage, fields.config, grid, fields.config.map.fullCol0,
                 fields.config.map.fullRow0, surface.data(), out.temperature.data(),
                 out.precipitation.data());
}

/// The whole-map column (or row) `i` cells from a map of `cells` cells clamped to the whole
/// map, or wrapped round it where it wraps.
std::int64_t neighbourIndex(std::int64_t i, std::int64_t cells, bool wraps) {
    if (wraps) return ((i % cells) + cells) % cells;
    return std::clamp<std::int64_t>(i, 0, cells - 1);
}

/// The map-relative indices around `along` (a grid's columns or rows) that the slopes read,
/// and where each cell's lower and upper neighbour lie in them: a run of consecutive cells
/// shares its neighbours (one more on each side), any other set takes three per cell.
struct NeighbourLine {
    std::vector<std::int64_t> at;
    std::size_t step = 3;  ///< index of cell k's lower neighbour: k * step (upper: + 2)
};
NeighbourLine neighbourLine(const std::vector<std::int64_t>& along, bool consecutive,
                            std::int64_t full0, std::int64_t wholeCells, bool wraps) {
    NeighbourLine line;
    line.step = consecutive ? 1 : 3;
    const auto add = [&](std::int64_t i) {
        line.at.push_back(neighbourIndex(i + full0, wholeCells, wraps) - full0);
    };
    if (consecutive) {
        add(along.front() - 1);
        for (const std::int64_t i : along) add(i);
        add(along.back() + 1);
    } else {
        for (const std::int64_t i : along)
            for (std::int64_t d = -1; d <= 1; ++d) add(i + d);
    }
    return line;
}

/// The slope (degrees) of every cell of `grid`: central differences of the ground's metres
/// over the cell's neighbours (one-sided at the map's edges), which are generated here
/// through the same rule as the grid's own cells, so a tile's border cells see the cells of
/// the tile beside them.
std::vector<double> slopes(const MapFields& fields, const CellGrid& grid) {
    const World& config = fields.config;
    const MapConfig& map = config.map;
    const bool planet = map.projection == Projection::Equirectangular;
    const bool wrapX = map.wrap || planet, wrapY = map.wrap;
    const bool rect = grid.isRect();
    const NeighbourLine cols =
        neighbourLine(grid.cols, rect, map.fullCol0, map.wholeWidth(), wrapX);
    const NeighbourLine rows =
        neighbourLine(grid.rows, rect, map.fullRow0, map.wholeHeight(), wrapY);
    const std::size_t w = cols.at.size(), h = rows.at.size();
    const double low = config.elevation.minMeters;
    const double span = config.elevation.maxMeters - low;
    std::vector<float> metres(w * h);
    LayerStackRows heightRows(fields.height, cols.at.data(), w);
    std::vector<double> noise(w);
    for (std::size_t r = 0; r < h; ++r) {
        heightRows.row(rows.at[r], noise.data());
        for (std::size_t c = 0; c < w; ++c) {
            float z = static_cast<float>(low + span * noise[c]);
            if (fields.hydrology)
                z = groundMeters(*fields.hydrology, cols.at[c] + map.fullCol0,
                                 rows.at[r] + map.fullRow0, z);
            metres[r * w + c] = z;
        }
    }
    const double ground = map.groundCell();
    const std::size_t width = grid.cols.size();
    std::vector<double> out(static_cast<std::size_t>(grid.cellCount()));
    for (std::size_t r = 0; r < grid.rows.size(); ++r) {
        const std::size_t r0 = r * rows.step, r1 = r0 + 1, r2 = r0 + 2;
        const std::int64_t row = rows.at[r1] + map.fullRow0;
        const double lat = planet ? 90.0 - 180.0 * (double(row) + 0.5) / double(map.wholeHeight())
                                  : 0.0;
        const double dx = ground * std::cos(lat * (std::numbers::pi / 180.0)), dy = ground;
        for (std::size_t c = 0; c < width; ++c) {
            const std::size_t c0 = c * cols.step, c1 = c0 + 1, c2 = c0 + 2;
            const auto at = [&](std::size_t cc, std::size_t rr) {
                return double(metres[rr * w + cc]);
            };
            // The neighbours' distance: two cells, or one where the map's edge clamped one.
            const double spanX = double(cols.at[c2] != cols.at[c1]) +
                                 double(cols.at[c0] != cols.at[c1]);
            const double spanY = double(rows.at[r2] != rows.at[r1]) +
                                 double(rows.at[r0] != rows.at[r1]);
            const double gx = spanX > 0 ? (at(c2, r1) - at(c0, r1)) / (spanX * dx) : 0.0;
            const double gy = spanY > 0 ? (at(c1, r2) - at(c1, r0)) / (spanY * dy) : 0.0;
            out[r * width + c] = std::atan(std::hypot(gx, gy)) * (180.0 / std::numbers::pi);
        }
    }
    return out;
}

/// The class of every cell (and CellValues::moisture when the fields keep it): the stage's
/// water takes the lake and river classes, every other cell the first class of the table
/// holding its height and moisture (and, for tables that restrict them, its temperature,
/// precipitation and slope).
void classifyCells(const MapFields& fields, const CellGrid& grid, CellValues& out,
                   const std::vector<double>& height) {
    const Terrain* terrain = fields.terrain;
    const std::size_t width = grid.cols.size();
    const bool extended = terrain && (terrain->usesClimate() || terrain->usesSlope());
    const bool needMoisture = fields.keepMoisture || !extended || terrain->usesMoisture();
    std::optional<LayerStackRows> moistureRows;
    if (needMoisture) moistureRows.emplace(fields.moisture, grid.cols.data(), width);
    std::vector<double> moisture(width, 0.0);
    const std::vector<double> slope =
        terrain && terrain->usesSlope() ? slopes(fields, grid) : std::vector<double>();
    const bool climate = !out.temperature.empty();
    for (std::size_t r = 0; r < grid.rows.size(); ++r) {
        if (moistureRows) moistureRows->row(grid.rows[r], moisture.data());
        keepMoistureRow(fields, moisture.data(), r * width, width, out);
        if (!terrain) continue;
        // The height and moisture classes of the whole row at once (in vector lanes); the
        // water's classes then take their cells.
        if (!extended)
            terrain->classifyRow(&height[r * width], moisture.data(), width, &out.classIndex[r * width]);
        for (std::size_t c = 0; c < width; ++c) {
            const std::size_t at = r * width + c;
            const auto kind = out.water.empty() ? Water::Land : static_cast<Water>(out.water[at]);
            std::uint8_t cls = out.classIndex[at];
            if (kind == Water::Lake) {
                cls = fields.lakeClass;
            } else if (kind == Water::River) {
                cls = fields.riverClass;
            } else if (extended) {
                cls = terrain->classify(CellTraits{
                    .height = height[at],
                    .moisture = moisture[c],
                    .temperature = climate ? double(out.temperature[at]) : 0.0,
                    .precipitation = climate ? double(out.precipitation[at]) : 0.0,
                    .slope = slope.empty() ? 0.0 : slope[at]});
            }
            out.classIndex[at] = cls;
            bool walkable = terrain->walkable(cls);
            // Fords: shallow, low-order rivers can be crossed.
            if (kind == Water::River && out.riverOrder[at] <= fields.config.hydrology.fordMaxOrder)
                walkable = true;
            out.walkable[at] = walkable ? 1 : 0;
        }
    }
}

}  // namespace

MapFields::MapFields(const World& cfg, const Terrain* terrainRules,
                     const HydrologyStage* hydrologyStage, const ClimateStage* climateStage)
    : config(cfg),
      surface(cfg.map),
      height(cfg.height, surface, cfg.seed),
      moisture(cfg.moisture, surface, cfg.seed),
      terrain(terrainRules),
      hydrology(hydrologyStage),
      climate(climateStage != nullptr ? climateStage
              : hydrologyStage != nullptr && !hydrologyStage->climate.precipitation.empty()
                  ? &hydrologyStage->climate
                  : nullptr) {
    if (hydrology && terrain) {
        lakeClass = classNamed(*terrain, kLakeClassName);
        riverClass = classNamed(*terrain, kRiverClassName);
    }
    const auto [low, high] = classHeightRange(cfg, hydrologyStage);
    classLow = low;
    classSpan = high - low;
}

void generateTile(const MapFields& fields, const TileRect& rect, Tile& tile) {
    tile.rect = rect;
    generateCells(fields, CellGrid::of(rect), tile);
}

void generateCells(const MapFields& fields, const CellGrid& grid, CellValues& out,
                   CellNeeds needs) {
    const std::size_t width = grid.cols.size();
    const auto cells = static_cast<std::size_t>(grid.cellCount());
    const bool all = needs == CellNeeds::All;
    const bool classes = all && fields.terrain;
    const bool moisture = all && fields.keepMoisture;
    out.elevationMeters.resize(cells);
    out.classIndex.resize(classes ? cells : 0);
    out.walkable.resize(classes ? cells : 0);
    out.moisture.resize(moisture ? cells : 0);
    out.water.clear();
    out.waterDepth.clear();
    out.flow.clear();
    out.riverOrder.clear();
    out.temperature.clear();
    out.precipitation.clear();
    if (cells == 0) return;

    const double low = fields.config.elevation.minMeters;
    const double span = fields.config.elevation.maxMeters - low;
    // The noise height of every cell; with hydrology and erosion, the classes' eroded height.
    std::vector<double> height(cells);
    {
        LayerStackRows heightRows(fields.height, grid.cols.data(), width);
        for (std::size_t r = 0; r < grid.rows.size(); ++r) {
            const std::size_t at = r * width;
            heightRows.row(grid.rows[r], height.data() + at);
            for (std::size_t c = 0; c < width; ++c)
                out.elevationMeters[at + c] = static_cast<float>(low + span * height[at + c]);
        }
    }
    if (fields.hydrology) waterCells(fields, grid, out, height);
    // Without hydrology `height` is still the noise, which the lake class's level reads.
    if (fields.climate && all) climateValues(fields, grid, out, height);
    if (classes || moisture) classifyCells(fields, grid, out, height);
}

float noiseHeightMeters(const MapFields& fields, std::int64_t col, std::int64_t row) noexcept {
    // generateCells' expression, on the reference sample.
    const double low = fields.config.elevation.minMeters;
    const double span = fields.config.elevation.maxMeters - low;
    return static_cast<float>(low + span * fields.height.sample(col, row));
}

std::pair<double, double> classHeightRange(const World& config, const HydrologyStage* hydrology) {
    const double low = config.elevation.minMeters;
    if (!erodedRange(config, hydrology)) return {low, config.elevation.maxMeters};
    const auto [lo, hi] =
        std::minmax_element(hydrology->erodedHeight.begin(), hydrology->erodedHeight.end());
    // A flat eroded map: any span keeps every cell at 0.
    return {double(*lo), *hi > *lo ? double(*hi) : double(*lo) + 1.0};
}

CellGrid coverageSampleGrid(const MapConfig& map) {
    const std::int64_t step = coverageStep(map);
    // The centre cell of each step x step block, so the sample spreads evenly over the map.
    const std::int64_t cols = (map.width - step / 2 + step - 1) / step;
    const std::int64_t rows = (map.height - step / 2 + step - 1) / step;
    return CellGrid::strided(step / 2, step / 2, cols, rows, step);
}

CoverageSample sampleForCoverage(const World& config, const HydrologyStage* hydrology) {
    const MapFields fields(config, nullptr, hydrology);
    const CellGrid grid = coverageSampleGrid(config.map);
    const std::size_t width = grid.cols.size();
    CoverageSample sample;
    sample.height.resize(grid.rows.size() * width);
    sample.moisture.resize(sample.height.size());
    sampleGrid({&fields.height, &fields.moisture}, grid.cols, grid.rows.size(),
               [&](std::size_t r) { return grid.rows[r]; },
               [&](std::size_t stack, std::size_t r, std::size_t c0, const double* values,
                   std::size_t n) {
                   double* out = (stack == 0 ? sample.height : sample.moisture).data();
                   std::copy(values, values + n, out + r * width + c0);
               });
    if (erodedRange(config, hydrology)) {
        // The eroded heights, as the tiles classify them (hydrologyCells' rule).
        const double low = config.elevation.minMeters;
        const double span = config.elevation.maxMeters - low;
        for (std::size_t r = 0; r < grid.rows.size(); ++r)
            for (std::size_t c = 0; c < width; ++c) {
                double& h = sample.height[r * width + c];
                const float z = groundMeters(*hydrology, grid.cols[c] + config.map.fullCol0,
                                             grid.rows[r] + config.map.fullRow0,
                                             static_cast<float>(low + span * h));
                h = classHeight(fields, double(z));
            }
    }
    return sample;
}

Terrain makeTerrain(const World& config, const HydrologyStage* hydrology) {
    const bool water = config.hydrology.enabled;
    Terrain terrain = resolveTerrain(
        config.terrain,
        config.terrain.usesCoverage() ? sampleForCoverage(config, hydrology) : CoverageSample{},
        !water);
    if (!water) return terrain;
    return Terrain(withWaterClasses(config, terrain.classes()));
}

std::vector<TerrainClass> withWaterClasses(const World& config,
                                           std::vector<TerrainClass> classes) {
    if (!config.hydrology.enabled) return classes;
    const auto has = [&](std::string_view name) {
        return std::any_of(classes.begin(), classes.end(),
                           [&](const TerrainClass& c) { return c.name == name; });
    };
    // Appended after a table that covers every (height, moisture), so classify never picks
    // them: only the stage's water does.
    if (!has(kLakeClassName)) {
        const DefaultClassInfo& lake = kDefaultClasses[std::size_t(DefaultClass::Lake)];
        classes.push_back({.name = std::string(lake.name), .colour = lake.colour,
                           .walkable = lake.walkable});
    }
    if (!has(kRiverClassName))
        classes.push_back({.name = std::string(kRiverClassName),
                           .colour = config.hydrology.riverColour,
                           .walkable = config.hydrology.riverWalkable});
    return classes;
}

GenerationTimes generateMap(const World& config, const Terrain* terrain,
                            const std::vector<TileSink*>& sinks, const ProgressFn& progress,
                            const HydrologyStage* hydrology, const ClimateStage* climate) {
    const auto start = Clock::now();
    GenerationTimes times;
    const TileLayout layout(config.map);
    const MapFields fields(config, terrain, hydrology, climate);
    for (TileSink* sink : sinks) sink->begin(layout);
    // Tile summaries are made on the workers when a sink reads them: the most any sink asks.
    bool summarise = false, complete = false;
    std::vector<const TileSink*> preparing;
    for (const TileSink* sink : sinks) {
        summarise = summarise || sink->wantsSummary();
        complete = complete || sink->wantsCompleteSummary();
        if (sink->preparesTiles()) preparing.push_back(sink);
    }

    // Two tiles in flight per thread keep every core busy while the serial sink stage catches
    // up, and bound memory by threads x tile size, not by the map (design.md principle 4).
    const auto liveTiles = static_cast<std::size_t>(2 * tbb::this_task_arena::max_concurrency());
    const std::int64_t count = layout.tileCount();
    std::int64_t next = 0;
    std::int64_t done = 0;
    std::atomic<std::int64_t> generateNanos{0};
    std::atomic<std::int64_t> prepareNanos{0};
    // The tiles in flight live here and only pointers to them pass through the pipeline: TBB
    // does not destroy the items a pipeline stopped by an exception still holds, so a sink that
    // threw leaked the tiles waiting for it (LeakSanitizer). The pipeline admits at most
    // liveTiles tiles and the sink takes them in order, so the tiles in flight always have
    // distinct indices modulo liveTiles; generateTile overwrites every cell of a reused tile.
    std::vector<Tile> slots(liveTiles);
    times.beginSeconds = secondsSince(start);
    const auto tilesStart = Clock::now();
    tbb::parallel_pipeline(
        liveTiles,
        tbb::make_filter<void, std::int64_t>(tbb::filter_mode::serial_in_order,
                                             [&](tbb::flow_control& fc) -> std::int64_t {
                                                 if (next == count) fc.stop();
                                                 return next < count ? next++ : 0;
                                             }) &
            tbb::make_filter<std::int64_t, Tile*>(
                tbb::filter_mode::parallel,
                [&](std::int64_t index) {
                    // CPU, not wall: a worker the system takes away does no work meanwhile.
                    const long long t0 = threadCpuNanos();
                    Tile* tile = &slots[static_cast<std::size_t>(index) % liveTiles];
                    generateTile(fields, layout.tile(index), *tile);
                    tile->summary.reset();
                    if (summarise) tile->summary = summariseTile(*tile, complete);
                    const long long t1 = threadCpuNanos();
                    generateNanos += t1 - t0;
                    tile->prepared.clear();
                    for (const TileSink* sink : preparing)
                        tile->prepared.emplace_back(sink, sink->prepare(*tile));
                    if (!preparing.empty()) prepareNanos += threadCpuNanos() - t1;
                    return tile;
                }) &
            tbb::make_filter<Tile*, void>(tbb::filter_mode::serial_in_order,
                                          [&](const Tile* tile) {
                                                const auto t0 = Clock::now();
                                                for (TileSink* sink : sinks) sink->consume(*tile);
                                                times.sinkSeconds += secondsSince(t0);
                                                if (progress) progress(++done, count);
                                            }));
    times.tilesSeconds = secondsSince(tilesStart);
    const auto finishStart = Clock::now();
    for (TileSink* sink : sinks) sink->finish();
    times.finishSeconds = secondsSince(finishStart);
    times.parallelOutputSeconds = double(prepareNanos.load()) * 1e-9;
    for (const TileSink* sink : sinks) times.parallelOutputSeconds += sink->parallelCpuSeconds();
    times.generateSeconds = double(generateNanos.load()) * 1e-9;
    times.wallSeconds = secondsSince(start);
    return times;
}

}  // namespace terragrid

#include "terragrid/pipeline/generator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
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

/// Cells with hydrology: the noise heights through the stage's rule (hydrologyCells), then
/// lake and river cells take their classes and every other cell is classified by its
/// (eroded) height as without hydrology.
void generateWaterCells(const MapFields& fields, const CellGrid& grid, CellValues& out) {
    const std::size_t width = grid.cols.size();
    const auto cells = static_cast<std::size_t>(grid.cellCount());
    const double low = fields.config.elevation.minMeters;
    const double span = fields.config.elevation.maxMeters - low;
    const bool eroded = fields.config.hydrology.erosion.enabled;
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
    std::vector<WaterCell> water(cells);
    hydrologyCells(*fields.hydrology, grid, fields.config.map.fullCol0,
                   fields.config.map.fullRow0, out.elevationMeters.data(), water.data());
    out.water.resize(cells);
    out.waterDepth.resize(cells);
    out.flow.resize(cells);
    out.riverOrder.resize(cells);
    for (std::size_t i = 0; i < cells; ++i) {
        const WaterCell& w = water[i];
        out.elevationMeters[i] = w.elevationMeters;
        out.water[i] = static_cast<std::uint8_t>(w.water);
        out.waterDepth[i] = w.depthMeters;
        out.flow[i] = w.flow;
        out.riverOrder[i] = w.order;
        // Classes read the eroded height on the noise's 0..1 scale.
        if (eroded)
            height[i] = std::clamp((double(w.elevationMeters) - low) / span, 0.0, 1.0);
    }
    if (!fields.terrain && !fields.keepMoisture) return;
    const HydrologyConfig& config = fields.config.hydrology;
    LayerStackRows moistureRows(fields.moisture, grid.cols.data(), width);
    std::vector<double> moisture(width);
    for (std::size_t r = 0; r < grid.rows.size(); ++r) {
        moistureRows.row(grid.rows[r], moisture.data());
        keepMoistureRow(fields, moisture.data(), r * width, width, out);
        if (!fields.terrain) continue;
        for (std::size_t c = 0; c < width; ++c) {
            const std::size_t at = r * width + c;
            const auto kind = static_cast<Water>(out.water[at]);
            std::uint8_t cls = kind == Water::Lake    ? fields.lakeClass
                               : kind == Water::River ? fields.riverClass
                                                      : fields.terrain->classify(height[at],
                                                                                 moisture[c]);
            out.classIndex[at] = cls;
            bool walkable = fields.terrain->walkable(cls);
            // Fords: shallow, low-order rivers can be crossed.
            if (kind == Water::River && out.riverOrder[at] <= config.fordMaxOrder)
                walkable = true;
            out.walkable[at] = walkable ? 1 : 0;
        }
    }
}

}  // namespace

MapFields::MapFields(const World& cfg, const Terrain* terrainRules,
                     const HydrologyStage* hydrologyStage)
    : config(cfg),
      surface(cfg.map),
      height(cfg.height, surface, cfg.seed),
      moisture(cfg.moisture, surface, cfg.seed),
      terrain(terrainRules),
      hydrology(hydrologyStage) {
    if (hydrology && terrain) {
        lakeClass = classNamed(*terrain, kLakeClassName);
        riverClass = classNamed(*terrain, kRiverClassName);
    }
}

void generateTile(const MapFields& fields, const TileRect& rect, Tile& tile) {
    tile.rect = rect;
    generateCells(fields, CellGrid::of(rect), tile);
}

void generateCells(const MapFields& fields, const CellGrid& grid, CellValues& out) {
    const std::size_t width = grid.cols.size();
    const auto cells = static_cast<std::size_t>(grid.cellCount());
    out.elevationMeters.resize(cells);
    out.classIndex.resize(fields.terrain ? cells : 0);
    out.walkable.resize(fields.terrain ? cells : 0);
    out.moisture.resize(fields.keepMoisture ? cells : 0);
    if (cells == 0) return;
    if (fields.hydrology) {
        generateWaterCells(fields, grid, out);
        return;
    }
    out.water.clear();
    out.waterDepth.clear();
    out.flow.clear();
    out.riverOrder.clear();

    const double low = fields.config.elevation.minMeters;
    const double span = fields.config.elevation.maxMeters - low;
    LayerStackRows heightRows(fields.height, grid.cols.data(), width);
    const bool moistureWanted = fields.terrain || fields.keepMoisture;
    std::optional<LayerStackRows> moistureRows;
    if (moistureWanted) moistureRows.emplace(fields.moisture, grid.cols.data(), width);
    std::vector<double> height(width);
    std::vector<double> moisture(moistureWanted ? width : 0);
    for (std::size_t r = 0; r < grid.rows.size(); ++r) {
        const std::int64_t row = grid.rows[r];
        const std::size_t at = r * width;
        heightRows.row(row, height.data());
        for (std::size_t c = 0; c < width; ++c)
            out.elevationMeters[at + c] = static_cast<float>(low + span * height[c]);
        if (!moistureWanted) continue;
        moistureRows->row(row, moisture.data());
        keepMoistureRow(fields, moisture.data(), at, width, out);
        if (!fields.terrain) continue;
        for (std::size_t c = 0; c < width; ++c) {
            const std::uint8_t cls = fields.terrain->classify(height[c], moisture[c]);
            out.classIndex[at + c] = cls;
            out.walkable[at + c] = fields.terrain->walkable(cls) ? 1 : 0;
        }
    }
}

float noiseHeightMeters(const MapFields& fields, std::int64_t col, std::int64_t row) noexcept {
    // generateCells' expression, on the reference sample.
    const double low = fields.config.elevation.minMeters;
    const double span = fields.config.elevation.maxMeters - low;
    return static_cast<float>(low + span * fields.height.sample(col, row));
}

CellGrid coverageSampleGrid(const MapConfig& map) {
    const std::int64_t step = coverageStep(map);
    // The centre cell of each step x step block, so the sample spreads evenly over the map.
    const std::int64_t cols = (map.width - step / 2 + step - 1) / step;
    const std::int64_t rows = (map.height - step / 2 + step - 1) / step;
    return CellGrid::strided(step / 2, step / 2, cols, rows, step);
}

CoverageSample sampleForCoverage(const World& config) {
    const MapFields fields(config, nullptr);
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
    return sample;
}

Terrain makeTerrain(const World& config) {
    const bool hydrology = config.hydrology.enabled;
    Terrain terrain = resolveTerrain(
        config.terrain,
        config.terrain.usesCoverage() ? sampleForCoverage(config) : CoverageSample{}, !hydrology);
    if (!hydrology) return terrain;
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
                            const HydrologyStage* hydrology) {
    const auto start = Clock::now();
    GenerationTimes times;
    const TileLayout layout(config.map);
    const MapFields fields(config, terrain, hydrology);
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

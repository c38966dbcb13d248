// The estimates of plan.hpp. Every output's disk and memory bounds come from its driver
// (io/output_drivers.hpp), beside the writer they describe; this file adds what no single
// writer holds: the tiles in flight, the walkable regions, the coverage sample, the program.

#include "terragrid/app/plan.hpp"

#include <algorithm>
#include <numeric>

#include "app/process_limits.hpp"
#include "app/run_manifest.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/io/manifest.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/model/tiling.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {
namespace {

using namespace bounds;

// NoiseRows keeps about 2 KiB per column of a tile for each noise layer (src/pipeline/generator.cpp).
constexpr Bytes kRowsPerColumn = 2 * kKiB;

struct MemoryTally {
    std::vector<MemoryPart> parts;
    void add(std::string what, Bytes bytes) {
        if (bytes > 0) parts.push_back({std::move(what), bytes});
    }
};

// Tiles in flight (two per thread, design.md principle 4) and each thread's row scratch.
Bytes tileMemory(const Config& config, int threads) {
    const MapConfig& map = config.map;
    const Bytes tileW = Bytes(std::min(map.tileSizeCells, map.width));
    const Bytes tileH = Bytes(std::min(map.tileSizeCells, map.height));
    const bool classes = config.needsClasses();
    // Elevation float, class index and walkable bytes and the tile's heights (8 B) while it is
    // made; with hydrology the water fields (water, depth, flow, order) and the tile's
    // WaterCells; with the climate its temperature and precipitation and their scratch (12 B);
    // with slopes their heights and values (12 B).
    const bool slopes =
        classes && (config.terrain.customClasses
                        ? std::any_of(config.terrain.classes.begin(), config.terrain.classes.end(),
                                      [](const TerrainClass& c) { return c.restrictsSlope(); })
                        : config.terrain.model == TerrainModel::Climate);
    const Bytes perCell = (classes ? 6 : 4) + 8 + (config.hydrology.enabled ? 34 : 0) +
                          (config.climate.enabled ? 12 : 0) + (slopes ? 12 : 0);
    const Bytes layers = classes ? 2 : 1;
    return 2 * Bytes(threads) * tileW * tileH * perCell +
           Bytes(threads) * tileW * (layers * kRowsPerColumn + 32);
}

// The walkable mask and the "visited" raster of the flood fill, 1 bit per cell each with rows
// padded to 64 bits, and a stack of runs (a few per row on real maps).
Bytes regionMemory(const Config& config) {
    if (!config.needsRegions()) return 0;
    const Bytes rowWords = ceilDiv(Bytes(config.map.width), 64);
    return 2 * rowWords * 8 * Bytes(config.map.height) + 48 * Bytes(config.map.height);
}

// What the wanted outputs' writers of `group` hold: all of them while the tiles stream, and
// the largest of their finish() needs on top, since sinks finish one after the other.
Bytes writersMemory(const Config& config, int threads, MemoryGroup group) {
    Bytes streaming = 0, finishing = 0;
    for (const OutputDriver* driver : outputDrivers()) {
        if (!config.wants(driver->file)) continue;
        const WriterMemory m = driver->memoryBound(config, threads);
        if (m.group != group) continue;
        streaming += m.streaming;
        finishing = std::max<Bytes>(finishing, m.finishing);
    }
    return streaming + finishing;
}

// The GeoTIFFs' overview pyramids, all held while the tiles stream.
Bytes overviewsMemory(const Config& config, int threads) {
    Bytes total = 0;
    for (const OutputDriver* driver : outputDrivers())
        if (config.wants(driver->file)) total += driver->memoryBound(config, threads).overviews;
    return total;
}

// The coverage sample: height and moisture of up to about kCoverageSampleCells cells of the
// whole map, as doubles, with the copies resolving the thresholds makes.
Bytes coverageMemory(const Config& config, int threads) {
    if (!config.needsClasses() || !config.terrain.usesCoverage()) return 0;
    const Bytes sampled = std::min(cells(config.map.width, config.map.height),
                                   Bytes(2 * kCoverageSampleCells));
    return sampled * 40 + Bytes(threads) * 1024 * 2 * kRowsPerColumn;
}

std::vector<MemoryPart> memoryOf(const Config& config, const Config& generated, int threads,
                                 bool stageFromFile) {
    MemoryTally m;
    m.add("program", kProgramMemoryBytes);
    m.add("tiles in flight", tileMemory(generated, threads));
    m.add("previews", writersMemory(generated, threads, MemoryGroup::Previews));
    m.add("walkable regions", regionMemory(generated));
    m.add("writers", writersMemory(generated, threads, MemoryGroup::Writers));
    m.add("overviews", overviewsMemory(generated, threads));
    m.add("coverage sample", coverageMemory(config, threads));
    // Of the whole configured map: every window and shard computes the same stage, or reads
    // it from a file and holds the finished stage, and while it checks the stage's rules a
    // few bytes a cell more.
    m.add("hydrology stage", stageFromFile
                                 ? hydrologyStageBytes(config) + hydrologyStageCheckBytes(config)
                                 : hydrologyMemoryBytes(config));
    // Without hydrology; with it, the climate is part of its stage.
    if (!config.hydrology.enabled) m.add("climate stage", climateMemoryBytes(config));
    return std::move(m.parts);
}

/// Threads the run starts besides the main one, at most: TBB's workers (threads - 1), the
/// signal watcher (stop_signals.cpp), and OpenEXR's pool, which exr_writer.cpp sizes to the
/// threads when there are more than one.
int startedThreads(const Config& generated, int threads) {
    const bool exrPool = generated.wants(OutputFile::HeightExr) && threads > 1;
    return (threads - 1) + 1 + (exrPool ? threads : 0);
}

}  // namespace

std::uint64_t RunPlan::diskBytes() const noexcept {
    return std::accumulate(outputs.begin(), outputs.end(), Bytes(manifestBytes),
                           [](Bytes sum, const PlannedOutput& o) { return sum + o.bytes; });
}

std::uint64_t RunPlan::certainDiskBytes() const noexcept {
    return std::accumulate(outputs.begin(), outputs.end(), Bytes(0),
                           [](Bytes sum, const PlannedOutput& o) {
                               return o.compressed || o.mostWater ? sum : sum + o.bytes;
                           });
}

std::uint64_t RunPlan::memoryBytes() const noexcept {
    return std::accumulate(memory.begin(), memory.end(), Bytes(0),
                           [](Bytes sum, const MemoryPart& p) { return sum + p.bytes; });
}

RunPlan planRun(const Config& config, const MapWindow& window, int threads, bool stageFromFile) {
    threads = std::max(threads, 1);
    const Config generated = windowConfig(config, window.cells);
    RunPlan plan;
    plan.mapWidth = config.map.width;
    plan.mapHeight = config.map.height;
    plan.window = window.cells;
    plan.tileSize = config.map.tileSizeCells;
    plan.tiles = TileLayout(generated.map).tileCount();
    plan.threads = threads;
    plan.directory = config.output.directory;
    for (OutputFile file : generated.output.files)
        plan.outputs.push_back(driverFor(file).diskBound(generated));
    if (generated.output.manifest) {
        std::int64_t files = 0;
        for (const PlannedOutput& o : plan.outputs) files += o.files;
        plan.manifestPath = pathInOutput(generated, std::string(kManifestName));
        plan.manifestBytes = manifestJsonBound(runManifest(config, &window), files);
    }
    plan.memory = memoryOf(config, generated, threads, stageFromFile);
    plan.threadStackBytes = threadStackBytes(startedThreads(generated, threads));
    return plan;
}

}  // namespace terragrid

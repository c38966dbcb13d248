#include "terragrid/app/run.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "io/transaction/atomic_file.hpp"
#include "io/transaction/output_transaction.hpp"
#include "io/sinks.hpp"
#include "app/run_manifest.hpp"
#include "pipeline/stopwatch.hpp"
#include "terragrid/app/process_start.hpp"
#include "terragrid/config/terrain_messages.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/io/manifest.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/pipeline/stats.hpp"
#include "terragrid/version.hpp"

namespace terragrid {

namespace {

using Json = nlohmann::ordered_json;

void createOutputDirectory(const std::string& directory) {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec)
        throw OutputError("cannot create output directory '" + directory + "': " + ec.message());
}

double share(std::int64_t part, std::int64_t whole) {
    return whole == 0 ? 0.0 : double(part) / double(whole);
}

/// The wall-clock steps of a run, one after the other, and what they add up to: every second
/// from the program's start (markProcessStart, else runPiece's) to stats.json is in one of
/// them (`other` is the rest, the few statements between the timed steps, and shows when a
/// step goes untimed).
struct RunTimes {
    double startupSeconds = 0;    ///< from main() to the run (process_start.hpp); 0 in a library
    double terrainSeconds = 0;    ///< resolving the class thresholds
    double hydrologySeconds = 0;  ///< the whole-map hydrology stage (0 without it)
    double climateSeconds = 0;    ///< the climate stage of a map without hydrology
    double setupSeconds = 0;    ///< output directory, transaction, sinks created
    GenerationTimes generation;
    double commitSeconds = 0;  ///< the sinks' commit(): fsync and staging
    double manifestSeconds = 0;  ///< the manifest's digests of those files (0 without it)
    double totalSeconds = 0;     ///< from the start to stats.json's figures
    double otherSeconds() const {
        return totalSeconds -
               (startupSeconds + terrainSeconds + hydrologySeconds + climateSeconds +
                setupSeconds + generation.wallSeconds + commitSeconds + manifestSeconds);
    }
};

/// Everything a stats.json is made of, gathered by the run.
struct RunFacts {
    const Config& config;     ///< the configured map
    const MapWindow* window;  ///< the part of it generated; null: all of it
    const Config& generated;  ///< windowConfig of the window, else config
    const Terrain* terrain;
    const MapStats& stats;
    const WalkableRegions* regions;
    RunTimes times;
    const HydrologyStage* hydrology;  ///< null without hydrology
    const ClimateStage* climate;      ///< null without a climate (hydrology's own, with it)
};

/// Where the window lies in the configured map and in the world.
Json windowJson(const MapWindow& window, const Config& generated) {
    Json j{{"col", window.cells.col0},
           {"row", window.cells.row0},
           {"width", window.cells.width},
           {"height", window.cells.height},
           {"cells", window.cells.cellCount()},
           {"origin", {generated.map.originX, generated.map.originY}}};
    if (window.shard) j["shard"] = {{"index", window.shard->index}, {"count", window.shard->count}};
    j["note"] = "elevation, classes, walkable and regions describe this window alone; regions "
                "are cut at its edges";
    return j;
}

// No tile size or tile count: map.tile_size is an execution parameter, and stats.json, but
// for its timings, is the same bytes for any (the summary line and --dry-run tell them).
Json mapJson(const Config& config) {
    return {{"width", config.map.width},
            {"height", config.map.height},
            {"cells", config.map.width * config.map.height},
            {"cell_size", config.map.cellSize},
            {"origin", {config.map.originX, config.map.originY}},
            {"crs", "EPSG:" + std::to_string(config.output.crs.epsg)},
            {"crs_name", config.output.crs.name},
            {"epsg", config.output.crs.epsg}};
}

/// The default rules' thresholds as used (coverage targets resolved to values).
Json thresholdsJson(const Config& config, const Terrain& terrain) {
    if (config.terrain.customClasses) return nullptr;
    const auto& c = terrain.classes();
    const auto threshold = [](const Threshold& t, double used) {
        Json j{{"value", used}};
        if (t.byCoverage) j["target_share"] = t.coverage;
        return j;
    };
    const auto& tc = config.terrain;
    if (tc.model == TerrainModel::Climate)
        return {{"lake_below", threshold(tc.lakeBelow, c[size_t(Biome::Lake)].heightMax)},
                {"rock_slope", c[size_t(Biome::Rock)].slopeMin}};
    return {{"lake_below", threshold(tc.lakeBelow, c[size_t(DefaultClass::Lake)].heightMax)},
            {"mountain_above",
             threshold(tc.mountainAbove, c[size_t(DefaultClass::Mountain)].heightMin)},
            {"forest_above", threshold(tc.forestAbove, c[size_t(DefaultClass::Forest)].moistureMin)},
            {"desert_below", threshold(tc.desertBelow, c[size_t(DefaultClass::Desert)].moistureMax)}};
}

Json classesJson(const Terrain& terrain, const MapStats& stats) {
    Json list = Json::array();
    for (std::size_t i = 0; i < terrain.classes().size(); ++i) {
        const TerrainClass& c = terrain.classes()[i];
        list.push_back({{"index", i},
                        {"name", c.name},
                        {"colour", hexColour(c.colour)},
                        {"walkable", c.walkable},
                        {"cells", stats.classCells()[i]},
                        {"share", share(stats.classCells()[i], stats.cells())}});
    }
    return list;
}

Json regionsJson(const RegionStats& r) {
    Json bins = Json::array();
    for (const RegionSizeBin& b : r.sizeBins)
        bins.push_back({{"min_cells", b.minCells},
                        {"max_cells", b.maxCells},
                        {"regions", b.regions},
                        {"cells", b.cells}});
    return {{"count", r.regionCount},
            {"largest_cells", r.largestCells},
            {"largest_share_of_walkable", r.largestShare()},
            {"largest_sizes", r.largestSizes},
            {"size_bins", bins}};
}

/// First the wall-clock steps, which add up to total_wall (README, stats.json); then where the
/// CPU went, summed over threads: generation on the workers, the outputs in the serial stage,
/// the outputs' jobs on the workers; and the process's own CPU clock to compare them with.
Json timingJson(const RunTimes& t, double regionsSeconds) {
    const GenerationTimes& g = t.generation;
    return {{"startup", t.startupSeconds},
            {"terrain", t.terrainSeconds},
            {"hydrology", t.hydrologySeconds},
            {"climate", t.climateSeconds},
            {"setup", t.setupSeconds},
            {"generation_wall", g.wallSeconds},
            {"commit", t.commitSeconds},
            {"manifest", t.manifestSeconds},
            {"other", t.otherSeconds()},
            {"total_wall", t.totalSeconds},
            {"generation_begin", g.beginSeconds},
            {"generation_tiles", g.tilesSeconds},
            {"outputs_finish", g.finishSeconds},
            {"regions", regionsSeconds},
            {"generate_cpu", g.generateSeconds},
            {"outputs_streaming", g.sinkSeconds},
            {"outputs_parallel_cpu", g.parallelOutputSeconds},
            {"process_cpu", processCpuSeconds()}};
}

/// The whole map's climate, on the stage grid (also in a window's stats).
Json climateJson(const ClimateStage& c) {
    const ClimateFacts& f = c.facts;
    return {{"grid", {{"factor", c.factor}, {"width", c.gridWidth}, {"height", c.gridHeight}}},
            {"precipitation_mm",
             {{"mean", f.precipitationMean}, {"min", f.precipitationMin}, {"max", f.precipitationMax}}},
            {"temperature_c",
             {{"mean", f.temperatureMean}, {"min", f.temperatureMin}, {"max", f.temperatureMax}}},
            {"timing_seconds", f.seconds}};
}

/// Lakes without an outlet: their evaporation matches their inflow below their spill point.
std::int64_t closedLakes(const HydrologyStage& s) {
    std::vector<std::uint8_t> present(s.lakes.surface.size(), 0);
    for (const std::uint32_t id : s.lakes.id) present[id] = 1;
    std::int64_t closed = 0;
    for (std::size_t id = 1; id < present.size(); ++id)
        closed += present[id] && s.lakes.outlet[id] == hydro::kNoReceiver ? 1 : 0;
    return closed;
}

/// The whole map's water (the stage is of the whole map, also in a window's stats).
Json hydrologyJson(const HydrologyFacts& h, double cellArea) {
    Json lengths = Json::object();
    for (std::size_t i = 0; i < h.riverLengthByOrder.size(); ++i)
        lengths[std::to_string(i + 1)] = h.riverLengthByOrder[i];
    Json j{{"grid", {{"factor", h.factor}, {"width", h.gridWidth}, {"height", h.gridHeight}}},
           {"lakes", {{"count", h.lakes}, {"cells", h.lakeCells},
                      {"area", double(h.lakeCells) * cellArea}}},
           {"sea", {{"cells", h.seaCells}, {"area", double(h.seaCells) * cellArea}}},
           {"rivers", {{"grid_cells", h.riverCells}, {"length_by_order", lengths}}}};
    j["slope_area_theta"] = h.thetaValid ? Json(h.theta) : Json(nullptr);
    // A stage read from a file (--hydrology-stage) was not timed by this run, and the file
    // holds no times (the same stage is the same bytes): null, not zeros.
    j["timing_seconds"] = nullptr;
    if (h.stepsTimed)
        j["timing_seconds"] = {{"sample", h.sampleSeconds},     {"erosion", h.erodeSeconds},
                               {"fill", h.fillSeconds},         {"lakes", h.lakesSeconds},
                               {"routing", h.routeSeconds},     {"accumulation", h.accumulateSeconds},
                               {"rivers", h.riversSeconds},     {"total", h.totalSeconds}};
    return j;
}

Json statsJson(const RunFacts& f) {
    Json j;
    j["terragrid_version"] = kVersion;
    j["seed"] = f.config.seed;
    j["noise_version"] = versionNumber(f.config.noiseVersion);
    j["config_hash"] = f.config.hash;
    j["map"] = mapJson(f.config);
    if (f.window) j["window"] = windowJson(*f.window, f.generated);
    j["elevation"] = {{"min_m", f.stats.elevationMin()},
                      {"max_m", f.stats.elevationMax()},
                      {"mean_m", f.stats.elevationMean()},
                      {"sum_fixed", fixedSumText(f.stats.elevationSumFixed())}};
    j["thresholds"] = thresholdsJson(f.config, *f.terrain);
    j["classes"] = classesJson(*f.terrain, f.stats);
    const std::int64_t walkable = f.regions->walkableCellsAfter();
    j["walkable"] = {
        {"connectivity", kConnectivityNames[static_cast<std::size_t>(f.config.terrain.connectivity)]},
        {"cells", walkable},
        {"share", share(walkable, f.stats.cells())},
        {"cells_before_connectivity", f.stats.walkableCells()}};
    j["regions"] = regionsJson(f.regions->stats());
    if (f.hydrology) {
        const double cell = f.config.map.groundCell();
        j["hydrology"] = hydrologyJson(f.hydrology->facts, cell * cell);
        if (f.config.climate.enabled) {
            j["hydrology"]["lakes"]["closed"] = closedLakes(*f.hydrology);
            j["hydrology"]["timing_seconds"]["climate"] = f.hydrology->facts.climateSeconds;
        }
    }
    if (f.climate) j["climate"] = climateJson(*f.climate);
    j["timing_seconds"] = timingJson(f.times, f.regions->analysisSeconds());
    return j;
}

/// The level (0..1) below which the climate of a map without hydrology finds open water: the
/// lake class's threshold as resolved, or none (-1) for a custom table.
double waterLevel(const Config& config, const Terrain& terrain) {
    if (config.terrain.customClasses) return -1;
    return terrain.classes()[std::size_t(DefaultClass::Lake)].heightMax;
}

/// Generates `generated` (config itself, or the window of it) into every output; terrain
/// thresholds come from the whole configured map.
RunReport runPiece(const Config& config, const MapWindow* window, const Config& generated,
                   const ProgressFn& progress, const FileWrittenFn& written,
                   const std::string& stageFile) {
    const auto start = Clock::now();
    RunTimes times;
    times.startupSeconds = secondsSinceProcessStart();
    // The whole-map stage, of the configured map: a window reads its cells from the same
    // stage as the single run, so the pieces mosaic exactly. Computed, or read from the file
    // the stage command wrote (the same bits). Before the terrain: an eroded map's class
    // thresholds are measured on its eroded heights.
    std::optional<HydrologyStage> hydrology;
    const auto hydrologyStart = Clock::now();
    try {
        if (config.hydrology.enabled)
            hydrology.emplace(stageFile.empty() ? computeHydrology(config)
                                                : readHydrologyStage(config, stageFile));
    } catch (const NoOutletError& e) {
        throw ConfigError({"config: 'hydrology.outlets' (sea): " + std::string(e.what()) +
                           "; raise 'hydrology.sea_level' or choose open or edges"});
    }
    times.hydrologySeconds = secondsSince(hydrologyStart);
    const HydrologyStage* water = hydrology ? &*hydrology : nullptr;
    // Resolving coverage targets can fail (a ConfigError to the user): before anything touches
    // the disk. Always on the configured map, so every window classifies as the single run does.
    const auto terrainStart = Clock::now();
    std::optional<Terrain> terrain;
    try {
        if (config.needsClasses() || (config.climate.enabled && !water))
            terrain.emplace(makeTerrain(config, water));
    } catch (const TerrainError& e) {
        throw configErrorFrom(e);
    }
    times.terrainSeconds = secondsSince(terrainStart);
    const Terrain* rules = config.needsClasses() ? &*terrain : nullptr;
    // The climate of a map without hydrology: its open water is the lake class's by height.
    std::optional<ClimateStage> climate;
    const auto climateStart = Clock::now();
    if (config.climate.enabled && !water)
        climate.emplace(computeClimate(config, waterLevel(config, *terrain)));
    times.climateSeconds = secondsSince(climateStart);
    const ClimateStage* weather = climate ? &*climate : water && config.climate.enabled
                                                            ? &water->climate
                                                            : nullptr;

    const auto setupStart = Clock::now();
    createOutputDirectory(generated.output.directory);
    // Before any file: the lock, the recovery of dead runs, the staging folder.
    OutputTransaction transaction(generated.output.directory);
    // The regions apply the connectivity rule for every output that shows walkability.
    std::unique_ptr<WalkableRegions> regions;
    if (generated.needsRegions())
        regions = std::make_unique<WalkableRegions>(generated.terrain.connectivity ==
                                                    Connectivity::Largest);
    // Without stats.json the run reports only the elevation range: no sums, no class counts.
    MapStats stats(rules ? rules->classes().size() : 0, generated.wants(OutputFile::StatsJson));
    auto sinks = makeSinks(generated, rules, regions.get(), water);
    std::optional<AtomicFile> statsFile;
    if (generated.wants(OutputFile::StatsJson))
        statsFile.emplace(outputPath(generated, OutputFile::StatsJson));

    // Regions first: walkable.tif and map.tmj's blocked layer read their result in their own
    // finish().
    std::vector<TileSink*> all{&stats};
    if (regions) all.push_back(regions.get());
    for (auto& sink : sinks) all.push_back(sink.get());
    times.setupSeconds = secondsSince(setupStart);
    times.generation = generateMap(generated, rules, all, progress, water, weather);

    // Every file is complete before any is renamed into place (staged, then one commit).
    // stats.json last, so its timings include the other files' commits (their fsyncs).
    RunReport report;
    std::uint64_t stagedBefore = 0;
    const auto tell = [&](const std::string& path, std::vector<std::string> all) {
        // What the last commit() staged.
        report.files.push_back(path);
        report.outputFiles.push_back(std::move(all));
        if (written) written(path, transaction.stagedBytes() - stagedBefore);
        stagedBefore = transaction.stagedBytes();
    };
    const auto commitStart = Clock::now();
    for (auto& sink : sinks) {
        sink->commit();
        tell(sink->path(), sink->files());
    }
    times.commitSeconds = secondsSince(commitStart);
    // The manifest hashes every output: those staged now before stats.json, so that its
    // timings show the cost (a tenth of a 4096^2 default run on two threads), then stats.json.
    std::vector<ManifestFile> digests;
    const auto manifestStart = Clock::now();
    if (generated.output.manifest) digestStaged(transaction, digests);
    times.manifestSeconds = secondsSince(manifestStart);
    if (statsFile) {
        times.totalSeconds = times.startupSeconds + secondsSince(start);
        statsFile->write(
            statsJson({config, window, generated, rules, stats, regions.get(), times, water,
                       weather})
                .dump(2) +
            "\n");
        statsFile->commit();
        tell(statsFile->targetPath(), {statsFile->targetPath()});
    }
    // Last: it hashes every staged file, the bytes the commit puts in place. Not one of
    // output.files, so not in report.files.
    if (generated.output.manifest) {
        stageManifest(runManifest(config, window), transaction, generated.output.directory,
                      std::move(digests));
        // The summary names every file the run writes, this one too.
        report.outputFiles.push_back({pathInOutput(generated, std::string(kManifestName))});
    }
    transaction.commit();  // all of them in place, or none
    report.tiles = TileLayout(generated.map).tileCount();
    report.elevationMin = stats.elevationMin();
    report.elevationMax = stats.elevationMax();
    report.seconds = secondsSince(start);
    return report;
}

}  // namespace

RunReport runMap(const Config& config, const ProgressFn& progress,
                 const FileWrittenFn& written, const std::string& hydrologyStageFile) {
    return runPiece(config, nullptr, config, progress, written, hydrologyStageFile);
}

RunReport runMap(const Config& config, const MapWindow& window, const ProgressFn& progress,
                 const FileWrittenFn& written, const std::string& hydrologyStageFile) {
    checkWindow(config, window);
    return runPiece(config, &window, windowConfig(config, window.cells), progress, written,
                    hydrologyStageFile);
}

}  // namespace terragrid

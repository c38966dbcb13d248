#pragma once
// The tile pipeline: tiles generated in parallel (TBB), handed to sinks in tile order.

#include <any>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "terragrid/model/world.hpp"
#include "terragrid/model/layer_stack.hpp"
#include "terragrid/noise/noise.hpp"
#include "terragrid/model/surface.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/model/tiling.hpp"
#include "terragrid/pipeline/climate_stage.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "terragrid/pipeline/tile_summary.hpp"

namespace terragrid {

class TileSink;

/// The values of a set of map cells, row-major: what generateTile (a tile's rect) and
/// generateCells (any CellGrid) fill. classIndex and walkable are empty when nothing is
/// classified (Config::needsClasses in io).
struct CellValues {
    std::vector<float> elevationMeters;
    std::vector<std::uint8_t> classIndex;  ///< index into Terrain::classes()
    std::vector<std::uint8_t> walkable;    ///< 1 walkable, 0 not (the class's flag)
    /// With hydrology (MapFields::hydrology) only, else empty: each cell's Water, lake depth
    /// in metres, flow accumulation (map cells' worth) and Strahler order of river cells.
    std::vector<std::uint8_t> water;
    std::vector<float> waterDepth;
    std::vector<float> flow;
    std::vector<std::uint8_t> riverOrder;
    /// The moisture layer (0..1, the value the classes read, rounded to float) when
    /// MapFields::keepMoisture, else empty: no output file shows it, the library's windows do.
    std::vector<float> moisture;
    /// With a climate (MapFields::climate) only, else empty: each cell's temperature (degrees
    /// C, at its surface: the ground, or the water over it) and precipitation (mm a year).
    std::vector<float> temperature;
    std::vector<float> precipitation;
};

/// One generated tile. Owned by the pipeline; valid only during TileSink::consume.
/// All vectors are row-major, rect.width x rect.height.
struct Tile : CellValues {
    TileRect rect;
    /// Made by generateMap's workers when a sink wants it (TileSink::wantsSummary), so the
    /// serial stage does no work per cell for the statistics; else empty.
    std::optional<TileSummary> summary;
    /// What each sink that prepares tiles (TileSink::preparesTiles) made of this one on the
    /// worker that generated it, in the sinks' order.
    std::vector<std::pair<const TileSink*, std::any>> prepared;

    /// `sink`'s result of prepare() for this tile, or null when it has none (the tile did not
    /// come from generateMap, or the sink prepares nothing).
    const std::any* preparedFor(const TileSink* sink) const noexcept {
        for (const auto& [who, result] : prepared)
            if (who == sink) return &result;
        return nullptr;
    }
};


/// Receives the tiles of a map, one at a time, in tile order (row-major), from one thread at a
/// time. A sink keeps what it needs; it must not hold on to the Tile.
class TileSink {
public:
    virtual ~TileSink() = default;
    /// Called once before the first tile.
    virtual void begin(const TileLayout& layout) = 0;
    virtual void consume(const Tile& tile) = 0;
    /// Called once after the last tile.
    virtual void finish() = 0;
    /// Whether this sink reads Tile::summary, and whether it needs the complete one
    /// (summariseTile's `complete`). generateMap then makes it on the worker.
    virtual bool wantsSummary() const { return false; }
    virtual bool wantsCompleteSummary() const { return false; }
    /// Whether generateMap should call prepare() for every tile.
    virtual bool preparesTiles() const { return false; }
    /// Per-cell work that needs the tile alone (downsampling, say), done on the worker that
    /// generated the tile, in parallel with other tiles and sinks, so the serial consume() has
    /// less to do; consume() finds the result as tile.preparedFor(this). Must be thread-safe:
    /// it may read the sink's immutable state only. Called only when preparesTiles().
    virtual std::any prepare(const Tile& tile) const {
        (void)tile;
        return {};
    }
    /// CPU seconds this sink has spent in work it handed to other threads (compressing on TBB
    /// workers), so a run's timings show it; read after finish(). 0 for sinks that hand
    /// nothing over.
    virtual double parallelCpuSeconds() const { return 0; }
};

/// Called from the serial stage after each tile: (tiles done, tiles in all).
using ProgressFn = std::function<void(std::int64_t, std::int64_t)>;

/// The layers of a map and how its cells are classified: what generateTile needs.
/// Immutable and thread-safe.
struct MapFields {
    /// `terrain` null: heights only (no moisture layer, no classes). `hydrology` null: no
    /// water (the stage of the whole configured map when config is a window of it). `climate`
    /// null: no climate (with hydrology, the climate is the hydrology stage's own: pass it).
    MapFields(const World& config, const Terrain* terrain,
              const HydrologyStage* hydrology = nullptr, const ClimateStage* climate = nullptr);

    const World& config;
    Surface surface;
    LayerStack height;
    LayerStack moisture;
    const Terrain* terrain;
    const HydrologyStage* hydrology;
    const ClimateStage* climate;
    /// With hydrology and a terrain: the classes lake and river cells take.
    std::uint8_t lakeClass = 0;
    std::uint8_t riverClass = 0;
    /// Whether generateTile fills Tile::moisture (the library's windows ask for it; no run
    /// does). Changes no other field of a tile.
    bool keepMoisture = false;
    /// The heights the class rules read (0..1): metres minus classLow over classSpan, clamped;
    /// elevation.min..max, or an eroded map's own range (terrain.eroded_heights).
    double classLow = 0;
    double classSpan = 1;
};

/// Fills `tile` for `rect`: a pure function of (config, cell), see design.md principle 1.
/// Thread-safe; `tile` is resized as needed (so callers can reuse its storage).
void generateTile(const MapFields& fields, const TileRect& rect, Tile& tile);

/// Fills `values` with the cells of `grid` (cells of fields.config's map): for every cell the
/// same bits as generateTile gives it in any tile, through the same row evaluation (LayerStack
/// rows over the grid's columns), classification and hydrology rule. The explorer's tiles
/// (every 2^k-th cell), the cell inspector (one cell) and a library's windows go through
/// here. Cost: one row evaluation per grid row over the grid's columns, whatever the spacing
/// of the cells; with hydrology, a grid that is not a rect looks up the river lines around
/// each cell (about 25 hydrology cells each). Thread-safe; `values` is resized as needed.
/// Precondition: every column in [0, map width), every row in [0, map height).
///
/// `needs`: CellNeeds::Surface leaves out what only the classes read (the moisture layer, the
/// climate, the classes and walkability: classIndex, walkable, moisture, temperature and
/// precipitation stay empty), for callers that show the ground and its water alone; every
/// field it does fill has the bits CellNeeds::All gives it.
enum class CellNeeds : std::uint8_t { All, Surface };
void generateCells(const MapFields& fields, const CellGrid& grid, CellValues& values,
                   CellNeeds needs = CellNeeds::All);

/// The noise height in metres of map cell (col, row), before any hydrology: the value
/// generateCells starts from, through the scalar reference (LayerStack::sample, bit-equal to
/// the rows). For a few cells (a river line's); a grid of them goes through generateCells.
float noiseHeightMeters(const MapFields& fields, std::int64_t col, std::int64_t row) noexcept;

/// The cells the coverage estimate of terrain thresholds looks at: every cell of maps up to
/// kCoverageSampleCells cells, else the centre cells of a regular sub-grid of about that many.
/// Deterministic: independent of threads and tiles.
/// `hydrology`: the map's stage; with erosion and terrain.eroded_heights eroded_range, the sample
/// holds the eroded heights on the eroded range, as the tiles classify them.
inline constexpr std::int64_t kCoverageSampleCells = std::int64_t{1} << 20;
CoverageSample sampleForCoverage(const World& config, const HydrologyStage* hydrology = nullptr);

/// The cells sampleForCoverage looks at, as a grid: the centre cell of each step x step block
/// (step 1, every cell, up to kCoverageSampleCells cells). The explorer's statistics use the
/// same cells.
CellGrid coverageSampleGrid(const MapConfig& map);

/// The run's Terrain: resolveTerrain on config.terrain, sampling only when a threshold is
/// given by coverage. Throws TerrainError when a coverage target cannot be reached.
/// With hydrology on, lakes come from the stage instead of terrain.lake_below (the default
/// table's lake class then matches no height), and a class named "river" (and "lake", for a
/// custom table without one) is appended. `hydrology`: the map's stage, which an eroded map's
/// coverages are measured on (sampleForCoverage).
Terrain makeTerrain(const World& config, const HydrologyStage* hydrology = nullptr);

/// The height range the class rules of `config` read heights on (MapFields::classLow and
/// classSpan): an eroded map's own with terrain.eroded_heights eroded_range, else
/// elevation.min..max.
std::pair<double, double> classHeightRange(const World& config, const HydrologyStage* hydrology);

/// `classes` as makeTerrain's table ends with hydrology on: a class named "lake" (the default
/// lake's colour and walkability) appended unless there is one, and one named "river"
/// (hydrology.river's colour and walkability) unless there is one; unchanged with hydrology
/// off. What the outputs that name or count the classes before the run (the splat and weight
/// maps' bounds, water.tif's colours) take. Pure.
std::vector<TerrainClass> withWaterClasses(const World& config,
                                           std::vector<TerrainClass> classes);

/// Where generation spent its time.
/// Where generation spent its time. The wall-clock parts are wallSeconds = beginSeconds +
/// tilesSeconds + finishSeconds (and the few statements between them); the CPU parts are
/// generateSeconds on the workers, sinkSeconds in the serial stage (which overlaps the
/// workers) and parallelOutputSeconds on the workers for the sinks.
struct GenerationTimes {
    double generateSeconds = 0;        ///< noise, classification, summaries: thread CPU, summed
    double sinkSeconds = 0;            ///< in the sinks' consume(), serial stage, wall
    double parallelOutputSeconds = 0;  ///< the sinks on workers: prepare() and their own jobs
    double beginSeconds = 0;           ///< setting up: fields, the sinks' begin(), wall
    double tilesSeconds = 0;           ///< the tile pipeline, wall
    double finishSeconds = 0;          ///< in the sinks' finish(), serial, wall
    double wallSeconds = 0;            ///< the whole call
};

/// Generates every tile of config.map in parallel in the calling thread's TBB arena (use
/// tbb::global_control or tbb::task_arena to set the thread count) and hands them to every
/// sink in tile order. `terrain` null: heights only. At most a few tiles per thread are alive
/// at once. Exceptions from sinks propagate after the pipeline stops.
/// `hydrology`: the stage of the whole configured map (null: no water).
/// `climate`: the climate stage (null: none; hydrology's own when hydrology has one).
GenerationTimes generateMap(const World& config, const Terrain* terrain,
                            const std::vector<TileSink*>& sinks, const ProgressFn& progress = {},
                            const HydrologyStage* hydrology = nullptr,
                            const ClimateStage* climate = nullptr);

}  // namespace terragrid

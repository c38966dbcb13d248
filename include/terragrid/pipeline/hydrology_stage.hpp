#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The whole-map hydrology stage (design.md, data flow): the height field of the whole map
// sampled on the hydrology grid, eroded when configured, its depressions filled into lakes,
// its flow routed and accumulated into rivers, computed once before the tiles. Every cell of
// every tile is then a pure function of (config, this stage, cell): hydrologyCells carries the
// grid's results to map cells by a fixed rule, so tiles, threads, windows and shards all see
// the same water.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "terragrid/hydro/depressions.hpp"
#include "terragrid/hydro/erosion.hpp"
#include "terragrid/hydro/flow.hpp"
#include "terragrid/model/tiling.hpp"
#include "terragrid/model/world.hpp"
#include "terragrid/pipeline/climate_stage.hpp"

namespace terragrid {

/// Water class of a map cell (water.tif's values).
enum class Water : std::uint8_t { Land = 0, Lake = 1, River = 2 };

/// The version of the algorithms computeHydrology runs (sampling, erosion, filling, lakes,
/// routing, accumulation, rivers). Bump it whenever a change to them (or to the hydro layer
/// below) gives other results, down to a bit, for the same config: the stage file records it,
/// and a run refuses a stage file made by other algorithms (io/hydrology_stage_file.hpp),
/// since the terragrid version does not change between development builds. Pure refactors
/// and speed-ups that keep every bit leave it alone (the stage's determinism tests tell).
/// Version 2 (issue 29): open map edges for erosion by default (hydrology.outlets), the
/// climate and lakes by water balance.
inline constexpr std::uint32_t kHydrologyAlgorithmVersion = 2;

/// Maps whose longer side is at most this many cells get hydrology on their own grid under
/// hydrology.resolution 0 (auto); longer ones a grid about this long.
inline constexpr std::int64_t kAutoHydrologySide = 4096;

/// The erosion model's parameters from the config's hydrology.erosion (its only source of
/// defaults: configs/default.json).
hydro::ErosionParams erosionParams(const ErosionConfig& erosion);

/// Map cells per hydrology cell along each side for this map: hydrology.resolution, or, when
/// it is 0, 1 up to kAutoHydrologySide cells and else ceil(longer side / kAutoHydrologySide).
/// A function of the config alone (never of the machine), so every shard picks the same grid.
std::int64_t hydrologyFactor(const World& world);

/// Bytes the stage holds at its peak for this map while computeHydrology runs (the memory
/// plan, --dry-run).
std::uint64_t hydrologyMemoryBytes(const World& world);

/// Bytes a finished stage of this map holds at most (its arrays, HydrologyStage): what a run
/// that reads the stage from a file keeps instead of computing it.
std::uint64_t hydrologyStageBytes(const World& world);

/// The stage cannot run: no cell is an outlet (the sea-only outlets of a map whose sea is
/// empty). what() says so in the stage's terms; the caller words it for the user.
class NoOutletError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Figures for stats.json, of the whole map.
struct HydrologyFacts {
    std::int64_t factor = 1;            ///< map cells per hydrology cell along a side
    std::int64_t gridWidth = 0, gridHeight = 0;
    std::int64_t lakes = 0;             ///< lakes (the sea not counted)
    std::int64_t lakeCells = 0;         ///< map cells under lakes (hydrology cells x factor^2)
    std::int64_t seaCells = 0;          ///< likewise, under the sea
    std::int64_t riverCells = 0;        ///< hydrology cells that are river
    std::vector<double> riverLengthByOrder;  ///< world units; [0] is order 1
    double theta = 0;                   ///< slope-area fit of the river cells, S ~ A^-theta
    bool thetaValid = false;
    /// Whether the step times below were measured: true when this process computed the stage
    /// (computeHydrology), false when it read it from a stage file, which records no times
    /// (they would make two files of one stage differ).
    bool stepsTimed = false;
    double erodeSeconds = 0, fillSeconds = 0, lakesSeconds = 0, routeSeconds = 0,
           accumulateSeconds = 0, riversSeconds = 0, sampleSeconds = 0, totalSeconds = 0;
    /// The climate's two passes (0 without it; not kept in a stage file).
    double climateSeconds = 0;
};

/// The stage's results on the hydrology grid (gridWidth x gridHeight, row-major). Hydrology
/// cell (i, j) stands for map cells [i f, i f + f) x [j f, j f + f) and was sampled at map cell
/// (min(i f + f/2, W-1), min(j f + f/2, H-1)), f = factor. Immutable after computeHydrology;
/// thread-safe to read.
struct HydrologyStage {
    std::int64_t factor = 1;
    std::int64_t mapWidth = 0, mapHeight = 0;  ///< the whole map's cells
    std::int64_t gridWidth = 0, gridHeight = 0;
    double seaLevelMeters = 0;   ///< below it a cell is sea (when hasSea)
    bool hasSea = false;
    /// Eroded minus noise height (metres) per hydrology cell; empty without erosion.
    std::vector<float> erosionDelta;
    /// The eroded height itself per hydrology cell (with factor 1 the map's heights); empty
    /// without erosion.
    std::vector<float> erodedHeight;
    /// Water surface (metres) of the lake covering a hydrology cell, NaN where there is none.
    std::vector<float> lakeSurface;
    /// The lakes of the hydrology grid (hydro::findLakes): ids per cell, surface per id.
    hydro::Lakes lakes;
    std::vector<std::uint32_t> receiver;  ///< hydro::kNoReceiver at outlets
    std::vector<float> accumulation;      ///< rainfall in map cells' worth, the cell included
    std::vector<std::uint8_t> strahler;   ///< Strahler order of river cells, 0 elsewhere
    /// With climate.enabled: the climate of the grid (its second pass, whose air also crosses
    /// the lakes and rivers); precipitation empty without it.
    ClimateStage climate;
    HydrologyFacts facts;
};

/// The stage of `world` before anything is computed: its grid's sizes and its sea, every array
/// empty. What computeHydrology starts from and what a stage file's header must say.
HydrologyStage hydrologyStageShape(const World& world);

/// The accumulation (in map cells' worth) above which a hydrology cell is a river cell.
float hydrologyRiverThreshold(const World& world);

/// The rain a hydrology cell gets, in map cells' worth: factor^2, times the cell's moisture
/// (0..1) when hydrology.rainfall is moisture.
float hydrologyCellRain(const World& world);

/// The Strahler order of every cell of a stage (0 off the rivers): the orders of the river
/// mask (accumulation above `threshold`, lakes included, so a river leaving a lake keeps the
/// order of what flows into it), then 0 in lakes (where lakeSurface is not NaN).
std::vector<std::uint8_t> hydrologyRiverOrders(const hydro::FlowRouting& routing,
                                               const std::vector<float>& accumulation,
                                               const std::vector<float>& lakeSurface,
                                               float threshold);

/// River length per Strahler order ([0] is order 1) of a stage's river cells: each one's step
/// to its receiver, in world units (the map's ground cell times the factor a side).
std::vector<double> hydrologyRiverLengths(const HydrologyStage& stage, const World& world);

/// The map cell (along one side of `cells` cells) that hydrology cell `index` was sampled at
/// and stands for in lines and points: min(index f + f/2, cells - 1), f = factor. The one
/// source of the rule for the stage, rivers.geojson and the Tiled river layer.
inline std::int64_t hydrologySamplePoint(std::int64_t index, std::int64_t factor,
                                         std::int64_t cells) {
    return std::min(index * factor + factor / 2, cells - 1);
}

/// Told how far computeHydrology has come: the phase it is in ("sampling", "erosion",
/// "filling", "lakes", "routing", "accumulation", "rivers") and the share of the whole stage
/// done, 0..1 (a fixed weight per phase; erosion, when on, most of it, step by step). Called
/// on the calling thread between phases and between erosion steps, never from a worker. It may
/// throw to stop the stage (the explorer cancels the stage of a config that was replaced):
/// the exception leaves computeHydrology, and nothing of the stage is kept.
using StageProgressFn = std::function<void(std::string_view phase, double done)>;

/// The ground (metres) of whole-map cell (col, row) whose noise height is `noiseMeters`: the
/// noise height plus the erosion delta interpolated bilinearly between the hydrology cells'
/// sample points (factor 1: the eroded height itself); the noise height without erosion. The
/// one rule for the tiles, the coverage sample and the slopes. Pure.
float groundMeters(const HydrologyStage& stage, std::int64_t col, std::int64_t row,
                   float noiseMeters);

/// Runs the stage for the whole map of `world` (a window's cells are the whole map's: pass the
/// configured World, not the window's). Deterministic: the same bits for any thread count,
/// with or without `progress`.
/// Precondition: world.hydrology.enabled, a plane map that does not wrap. With
/// world.climate.enabled: the climate of the grid (a first pass over the sea alone, whose
/// precipitation feeds the rivers and the lakes' water balance, hydro/water_balance.hpp, and a
/// second over the sea, lakes and rivers: HydrologyStage::climate). Throws NoOutletError when
/// water has nowhere to leave (hydrology.outlets sea, and no sea).
HydrologyStage computeHydrology(const World& world, const StageProgressFn& progress = {});

/// The water of one map cell as the tiles see it.
struct WaterCell {
    float elevationMeters = 0;  ///< the (eroded) ground
    Water water = Water::Land;
    float depthMeters = 0;      ///< lake (or sea) water above the ground; 0 elsewhere
    float flow = 0;             ///< accumulation of the hydrology cell it lies in
    std::uint8_t order = 0;     ///< Strahler order of a river cell
};

/// The water of every cell of `rect` (cells of a map whose whole-map column and row are
/// col + fullCol0, row + fullRow0), given each cell's noise height in metres. The rule:
/// - height: noise height + the erosion delta interpolated bilinearly between the hydrology
///   cells' sample points (factor 1: the eroded height itself);
/// - lake: the hydrology cell the map cell lies in has a lake whose surface is above the map
///   cell's height (depth = surface - height); sea: height below the sea level;
/// - river: the map cell lies on the 8-connected line (Bresenham) between the sample points of
///   a river hydrology cell and of its receiver; order and flow are the largest of those lines.
/// Thread-safe.
void hydrologyCells(const HydrologyStage& stage, const TileRect& rect, std::int64_t fullCol0,
                    std::int64_t fullRow0, const float* noiseMeters, WaterCell* out);

/// The same for the cells of any CellGrid (row-major, grid.rows.size() x grid.cols.size()):
/// every cell gets the bits hydrologyCells gives it in any rect. A grid that is not a rect
/// looks up the river lines around each of its cells (the lines of the 5 x 5 hydrology cells
/// around it), so its cost does not grow with the spacing of the cells. Thread-safe.
void hydrologyCells(const HydrologyStage& stage, const CellGrid& grid, std::int64_t fullCol0,
                    std::int64_t fullRow0, const float* noiseMeters, WaterCell* out);

/// The noise height in metres of whole-map cell (col, row), as the generator computes it
/// (before the stage's erosion).
using NoiseHeightFn = std::function<float(std::int64_t col, std::int64_t row)>;

/// Tile::riverOrder of every cell of `rect` (whole-map cells), row-major into `order`: the
/// Strahler order of a river cell, 0 for every other cell, as hydrologyCells gives it. Only
/// the cells a river line crosses need their height (a river line ends where it meets a lake
/// or the sea), so `noiseMeters` is called for those alone: a rect far larger than a tile
/// costs the lines in it, not its cells (the explorer's river margins and river pyramid).
/// Thread-safe when `noiseMeters` is.
void riverOrders(const HydrologyStage& stage, const TileRect& rect,
                 const NoiseHeightFn& noiseMeters, std::uint8_t* order);

}  // namespace terragrid

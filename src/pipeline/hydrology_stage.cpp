#include "terragrid/pipeline/hydrology_stage.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <utility>

#include "pipeline/climate_hydrology.hpp"
#include "pipeline/grid_sampling.hpp"
#include "pipeline/stage_grid.hpp"
#include "pipeline/stopwatch.hpp"
#include "terragrid/hydro/depressions.hpp"
#include "terragrid/hydro/water_balance.hpp"
#include "terragrid/hydro/erosion.hpp"
#include "terragrid/hydro/slope_area.hpp"
#include "terragrid/hydro/flow.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "model/ceil_div.hpp"

namespace terragrid {

namespace {

// What the stage holds per hydrology cell at its peak, in bytes: the height grid, the filled
// surface, lake ids, receivers, weights and accumulation (4 each), the river mask and orders,
// the lake surface, and Priority-Flood's queue (about one entry per cell at worst). Measured
// peaks are in the README (Hydrology).
constexpr std::uint64_t kBytesPerCell = 60;
/// With erosion: while it runs, its own arrays (hydro::kErosionBytesPerCell, typical) beside
/// the heights, their noise copy, the uplift field and the moisture (4 B each); after it, the
/// eroded heights and their delta stay (8 B) beside the rest.
constexpr std::uint64_t kErodingBytesPerCell = hydro::kErosionBytesPerCell + 16;
constexpr std::uint64_t kErodedBytesPerCell = 8;
/// A finished stage: the lake surface, lake ids, receivers and accumulation (4 B each), the
/// Strahler order (1), and each lake's level and outlet (8 B a lake; lakes are 8-connected
/// sets of cells apart from each other, so at most one per 2 x 2 cells: 2 B a cell).
constexpr std::uint64_t kStageBytesPerCell = 4 * 4 + 1 + 2;
/// With the climate: its passes (climate_stage.cpp's peak), the water balance's hierarchy
/// (hydro/water_balance.hpp) and budget (8 B) and the first pass's precipitation (4 B) beside
/// the rest; a finished stage keeps the precipitation (4 B).
constexpr std::uint64_t kClimateBytesPerCell = 32 + 28 + 8 + 4;
constexpr std::uint64_t kClimateStageBytesPerCell = 4;

/// Noise height (metres) and, when `moisture` is non-null, moisture of every hydrology cell's
/// sample point, stored as floats row by row (no double grid of the whole stage is held).
void sampleStageGrid(const World& world, const HydrologyStage& s, std::vector<float>& heights,
                     std::vector<float>* moisture) {
    const MapFields fields(world, nullptr);
    std::vector<std::int64_t> cols(static_cast<std::size_t>(s.gridWidth));
    for (std::int64_t i = 0; i < s.gridWidth; ++i)
        cols[std::size_t(i)] = hydrologySamplePoint(i, s.factor, s.mapWidth);
    const std::size_t width = cols.size();
    heights.resize(width * std::size_t(s.gridHeight));
    if (moisture) moisture->resize(heights.size());
    const double low = world.elevation.minMeters;
    const double span = world.elevation.maxMeters - low;
    const auto rowOf = [&](std::size_t r) {
        return hydrologySamplePoint(std::int64_t(r), s.factor, s.mapHeight);
    };
    const auto store = [&](std::size_t stack, std::size_t r, std::size_t c0, const double* values,
                           std::size_t n) {
        if (stack == 1) {
            std::transform(values, values + n, moisture->data() + r * width + c0,
                           [](double v) { return static_cast<float>(v); });
            return;
        }
        // The generator's own expression (generateTile), so a factor-1 grid holds the map's
        // heights bit for bit.
        std::transform(values, values + n, heights.data() + r * width + c0,
                       [&](double v) { return static_cast<float>(low + span * v); });
    };
    const auto rows = std::size_t(s.gridHeight);
    if (moisture)
        sampleGrid({&fields.height, &fields.moisture}, cols, rows, rowOf, store);
    else
        sampleGrid({&fields.height}, cols, rows, rowOf, store);
}

/// Runs the landscape evolution on `dem` in place and keeps what the tiles need: the eroded
/// heights and their difference from the noise heights.
void erodeGrid(const World& world, hydro::Grid& dem, const hydro::Outlets& outlets,
               HydrologyStage& s, const hydro::ErosionStepFn& onStep) {
    const ErosionConfig& e = world.hydrology.erosion;
    hydro::ErosionParams params = erosionParams(e);
    // Open edges: the border erodes like the land inside (hydro/erosion.hpp).
    if (world.hydrology.outlets == OutletMode::Open) params.edges = hydro::ErosionEdges::Open;
    const std::vector<float> noise = dem.z;
    std::vector<float> uplift;
    if (e.noiseRole == NoiseRole::Uplift) {
        // The noise on 0..1 scales the uplift: ranges rise where the noise is high.
        const double low = world.elevation.minMeters;
        const double span = world.elevation.maxMeters - low;
        uplift.resize(noise.size());
        for (std::size_t i = 0; i < noise.size(); ++i)
            uplift[i] = static_cast<float>(std::clamp((double(noise[i]) - low) / span, 0.0, 1.0));
    }
    hydro::erode(dem, params, outlets, uplift.empty() ? nullptr : &uplift, onStep);
    s.erodedHeight = dem.z;
    s.erosionDelta.resize(noise.size());
    for (std::size_t i = 0; i < noise.size(); ++i) s.erosionDelta[i] = dem.z[i] - noise[i];
}

/// The phases of the stage with the share of its time each takes (measured on the default
/// map with hydrology: sampling and routing lead, erosion, when on, dwarfs them all), for
/// StageProgressFn's `done`.
class StageProgress {
public:
    StageProgress(const StageProgressFn& report, bool erosion)
        : m_report(report), m_erosion(erosion ? 4.0 : 0.0) {}

    /// The phase `name` starts; `within` of it is done (erosion step by step).
    void at(std::string_view name, double within = 0) const {
        if (!m_report) return;
        double before = 0;
        for (const auto& [phase, weight] : kPhases) {
            if (phase == name) break;
            before += weightOf(phase, weight);
        }
        double share = 0;
        for (const auto& [phase, weight] : kPhases)
            if (phase == name) share = weightOf(phase, weight);
        m_report(name, std::min(1.0, (before + share * within) / total()));
    }
    void done() const {
        if (m_report) m_report("done", 1.0);
    }

private:
    static constexpr std::pair<std::string_view, double> kPhases[] = {
        {"sampling", 0.3}, {"erosion", 0.0}, {"filling", 0.2}, {"lakes", 0.1},
        {"routing", 0.2},  {"accumulation", 0.1}, {"rivers", 0.1}};
    double weightOf(std::string_view phase, double weight) const {
        return phase == "erosion" ? m_erosion : weight;
    }
    double total() const {
        double sum = 0;
        for (const auto& [phase, weight] : kPhases) sum += weightOf(phase, weight);
        return sum;
    }

    const StageProgressFn& m_report;
    double m_erosion;  ///< erosion's weight: four times everything else together
};

}  // namespace

hydro::ErosionParams erosionParams(const ErosionConfig& e) {
    return {.steps = e.steps,
            .k = e.k,
            .m = e.m,
            .n = e.n,
            .diffusion = e.diffusion,
            .dt = e.timeStepYears,
            .uplift = e.upliftMetersPerYear};
}

std::int64_t hydrologyFactor(const World& world) {
    if (world.hydrology.resolution > 0) return world.hydrology.resolution;
    const std::int64_t side = std::max(world.map.wholeWidth(), world.map.wholeHeight());
    return side <= kAutoHydrologySide ? 1 : ceilDiv(side, kAutoHydrologySide);
}

HydrologyStage hydrologyStageShape(const World& world) {
    HydrologyStage s;
    s.factor = hydrologyFactor(world);
    s.mapWidth = world.map.wholeWidth();
    s.mapHeight = world.map.wholeHeight();
    s.gridWidth = ceilDiv(s.mapWidth, s.factor);
    s.gridHeight = ceilDiv(s.mapHeight, s.factor);
    const double low = world.elevation.minMeters;
    const double span = world.elevation.maxMeters - low;
    s.hasSea = world.hydrology.seaLevel > 0;
    s.seaLevelMeters = static_cast<float>(low + span * world.hydrology.seaLevel);
    s.facts.factor = s.factor;
    s.facts.gridWidth = s.gridWidth;
    s.facts.gridHeight = s.gridHeight;
    return s;
}

float hydrologyRiverThreshold(const World& world) {
    return static_cast<float>(world.hydrology.riverThresholdSquareMeters /
                              (world.map.groundCell() * world.map.groundCell()));
}

float hydrologyCellRain(const World& world) {
    const double factor = double(hydrologyFactor(world));
    return static_cast<float>(factor * factor);
}

std::vector<std::uint8_t> hydrologyRiverOrders(const hydro::FlowRouting& routing,
                                               const std::vector<float>& accumulation,
                                               const std::vector<float>& lakeSurface,
                                               float threshold) {
    const std::vector<std::uint8_t> river = hydro::riverMask(accumulation, threshold);
    std::vector<std::uint8_t> order = hydro::strahlerOrder(routing, river);
    for (std::size_t i = 0; i < river.size(); ++i)
        if (river[i] == 0 || !std::isnan(lakeSurface[i])) order[i] = 0;
    return order;
}

std::vector<double> hydrologyRiverLengths(const HydrologyStage& s, const World& world) {
    const double cellWorld = world.map.groundCell() * double(s.factor);
    std::vector<double> byOrder;
    const double diagonal = std::sqrt(2.0) * cellWorld;
    for (std::size_t i = 0; i < s.strahler.size(); ++i) {
        const std::uint8_t order = s.strahler[i];
        if (order == 0 || s.receiver[i] == hydro::kNoReceiver) continue;
        if (byOrder.size() < order) byOrder.resize(order, 0.0);
        const auto width = static_cast<std::uint32_t>(s.gridWidth);
        const bool straight = s.receiver[i] % width == i % width ||
                              s.receiver[i] / width == i / width;
        byOrder[order - 1] += straight ? cellWorld : diagonal;
    }
    return byOrder;
}

std::uint64_t hydrologyMemoryBytes(const World& world) {
    if (!world.hydrology.enabled) return 0;
    const std::int64_t f = hydrologyFactor(world);
    const auto cells = static_cast<std::uint64_t>(ceilDiv(world.map.wholeWidth(), f) *
                                                  ceilDiv(world.map.wholeHeight(), f));
    const std::uint64_t climate = world.climate.enabled ? kClimateBytesPerCell : 0;
    if (!world.hydrology.erosion.enabled) return cells * (kBytesPerCell + climate);
    return cells * std::max(kErodingBytesPerCell, kBytesPerCell + kErodedBytesPerCell + climate);
}

std::uint64_t hydrologyStageBytes(const World& world) {
    if (!world.hydrology.enabled) return 0;
    const std::int64_t f = hydrologyFactor(world);
    const auto cells = static_cast<std::uint64_t>(ceilDiv(world.map.wholeWidth(), f) *
                                                  ceilDiv(world.map.wholeHeight(), f));
    const std::uint64_t eroded = world.hydrology.erosion.enabled ? kErodedBytesPerCell : 0;
    const std::uint64_t climate = world.climate.enabled ? kClimateStageBytesPerCell : 0;
    return cells * (kStageBytesPerCell + eroded + climate);
}

HydrologyStage computeHydrology(const World& world, const StageProgressFn& progressFn) {
    const auto start = Clock::now();
    const HydrologyConfig& config = world.hydrology;
    const StageProgress progress(progressFn, config.erosion.enabled);
    HydrologyStage s = hydrologyStageShape(world);
    HydrologyFacts& facts = s.facts;
    facts.stepsTimed = true;

    const double cellWorld = world.map.groundCell() * double(s.factor);
    hydro::Grid dem{.width = static_cast<std::int32_t>(s.gridWidth),
                    .height = static_cast<std::int32_t>(s.gridHeight),
                    .cellSize = cellWorld,
                    .z = {}};
    std::vector<float> moisture;
    progress.at("sampling");
    auto t = Clock::now();
    sampleStageGrid(world, s, dem.z, config.rainfall == Rainfall::Moisture ? &moisture : nullptr);
    facts.sampleSeconds = secondsSince(t);
    hydro::Outlets outlets;
    if (s.hasSea) outlets.seaLevel = static_cast<float>(s.seaLevelMeters);
    outlets.edges = config.outlets != OutletMode::Sea;
    if (!outlets.edges && std::none_of(dem.z.begin(), dem.z.end(), [&](float z) {
            return z <= s.seaLevelMeters;
        }))
        throw NoOutletError("no cell of the map lies at or below the sea level (" +
                            std::to_string(s.seaLevelMeters) + " m): with the sea as the only "
                            "outlet, water has nowhere to leave");
    if (config.erosion.enabled) {
        progress.at("erosion");
        t = Clock::now();
        erodeGrid(world, dem, outlets, s, [&](int step, int steps) {
            progress.at("erosion", double(step) / double(steps));
        });
        facts.erodeSeconds = secondsSince(t);
    }

    progress.at("filling");
    // With the climate, the rain of its first pass (over the sea alone) feeds the rivers and
    // the lakes, which hold water by balance instead of filling every depression.
    std::vector<float> seaBorne;
    if (world.climate.enabled) {
        t = Clock::now();
        seaBorne = seaBornePrecipitation(world, s, dem);
        facts.climateSeconds = secondsSince(t);
    }
    t = Clock::now();
    std::vector<float> filled =
        seaBorne.empty() ? hydro::fillDepressions(dem, outlets)
                         : hydro::balancedSurface(dem, outlets, waterBudget(world, s, dem, seaBorne));
    facts.fillSeconds = secondsSince(t);

    progress.at("lakes");
    t = Clock::now();
    // Areas in hydrology cells of factor^2 map cells each.
    const double gridCellArea = cellWorld * cellWorld;
    const auto minArea =
        static_cast<std::int64_t>(std::ceil(config.minLakeAreaSquareMeters / gridCellArea));
    hydro::Lakes lakes = hydro::findLakes(dem, filled, config.minLakeDepthMeters,
                                                std::max<std::int64_t>(1, minArea));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    s.lakeSurface.assign(dem.z.size(), nan);
    std::vector<std::uint8_t> seenLake(lakes.surface.size() + 1, 0);
    for (std::size_t i = 0; i < dem.z.size(); ++i) {
        const std::uint32_t id = lakes.id[i];
        if (id == 0) continue;
        s.lakeSurface[i] = lakes.surface[id];
        ++facts.lakeCells;
        seenLake[id] = 1;
    }
    for (std::uint8_t seen : seenLake) facts.lakes += seen;
    s.lakes = std::move(lakes);
    facts.lakeCells *= s.factor * s.factor;
    if (s.hasSea) {
        for (float z : dem.z) facts.seaCells += z <= s.seaLevelMeters ? 1 : 0;
        facts.seaCells *= s.factor * s.factor;
    }
    facts.lakesSeconds = secondsSince(t);

    progress.at("routing");
    t = Clock::now();
    const hydro::Grid surface{.width = dem.width, .height = dem.height, .cellSize = cellWorld,
                              .z = std::move(filled)};
    hydro::FlowRouting routing = hydro::routeFlow(surface, outlets);
    facts.routeSeconds = secondsSince(t);

    progress.at("accumulation");
    t = Clock::now();
    // Rain in map cells' worth: each hydrology cell stands for factor^2 map cells, so the
    // threshold and the figures mean the same at every resolution.
    std::vector<float> rain(dem.z.size(), hydrologyCellRain(world));
    if (!moisture.empty())
        for (std::size_t i = 0; i < rain.size(); ++i) rain[i] *= moisture[i];
    // The climate's precipitation in metres a year: a map cell of 1 m a year counts as one.
    if (config.rainfall == Rainfall::Climate)
        for (std::size_t i = 0; i < rain.size(); ++i) rain[i] *= seaBorne[i] / 1000.0f;
    s.accumulation = hydro::accumulate(routing, rain.data());
    facts.accumulateSeconds = secondsSince(t);

    progress.at("rivers");
    t = Clock::now();
    const float riverCells = hydrologyRiverThreshold(world);
    s.strahler = hydrologyRiverOrders(routing, s.accumulation, s.lakeSurface, riverCells);
    for (const std::uint8_t order : s.strahler) facts.riverCells += order != 0 ? 1 : 0;
    // Flint's law on the ground (eroded or raw), the rivers' cells only: how river-shaped
    // the relief is (README, Hydrology).
    const hydro::SlopeAreaFit fit = hydro::fitSlopeArea(
        dem, routing.receiver, s.accumulation, {.minAccumulation = double(riverCells)});
    facts.theta = fit.theta;
    facts.thetaValid = !std::isnan(fit.theta);
    s.receiver = std::move(routing.receiver);
    facts.riverLengthByOrder = hydrologyRiverLengths(s, world);
    facts.riversSeconds = secondsSince(t);
    if (world.climate.enabled) {
        t = Clock::now();
        s.climate = climateOverWater(world, s, dem);
        facts.climateSeconds += secondsSince(t);
        s.climate.facts.seconds = facts.climateSeconds;
    }
    facts.totalSeconds = secondsSince(start);
    progress.done();
    return s;
}

namespace {

/// Marks the river lines that cross `rect` (whole-map cells [c0, c0+w) x [r0, r0+h)) into
/// `order` and `flow` (w x h): every line from a river hydrology cell's sample point to its
/// receiver's, drawn by Bresenham's algorithm (8-connected), taking the largest order and flow.
void drawRivers(const HydrologyStage& s, std::int64_t c0, std::int64_t r0, std::int64_t w,
                std::int64_t h, std::vector<std::uint8_t>& order, std::vector<float>& flow) {
    const std::int64_t f = s.factor;
    // A line joins neighbouring sample points, at most f + 1 map cells apart (the last ones
    // are clamped to the edge): two hydrology cells of margin find every line into the rect.
    const std::int64_t i0 = std::max<std::int64_t>(0, c0 / f - 2);
    const std::int64_t i1 = std::min(s.gridWidth - 1, (c0 + w - 1) / f + 2);
    const std::int64_t j0 = std::max<std::int64_t>(0, r0 / f - 2);
    const std::int64_t j1 = std::min(s.gridHeight - 1, (r0 + h - 1) / f + 2);
    const auto plot = [&](std::int64_t x, std::int64_t y, std::uint8_t o, float a) {
        if (x < c0 || x >= c0 + w || y < r0 || y >= r0 + h) return;
        const auto at = std::size_t((y - r0) * w + (x - c0));
        order[at] = std::max(order[at], o);
        flow[at] = std::max(flow[at], a);
    };
    for (std::int64_t j = j0; j <= j1; ++j) {
        for (std::int64_t i = i0; i <= i1; ++i) {
            const auto cell = std::size_t(j * s.gridWidth + i);
            const std::uint8_t o = s.strahler[cell];
            if (o == 0) continue;
            const float a = s.accumulation[cell];
            std::int64_t x = hydrologySamplePoint(i, f, s.mapWidth), y = hydrologySamplePoint(j, f, s.mapHeight);
            const std::uint32_t to = s.receiver[cell];
            if (to == hydro::kNoReceiver) {
                plot(x, y, o, a);
                continue;
            }
            const std::int64_t x1 = hydrologySamplePoint(std::int64_t(to) % s.gridWidth, f, s.mapWidth);
            const std::int64_t y1 = hydrologySamplePoint(std::int64_t(to) / s.gridWidth, f, s.mapHeight);
            const std::int64_t dx = std::abs(x1 - x), dy = -std::abs(y1 - y);
            const std::int64_t sx = x < x1 ? 1 : -1, sy = y < y1 ? 1 : -1;
            std::int64_t err = dx + dy;
            while (true) {
                plot(x, y, o, a);
                if (x == x1 && y == y1) break;
                const std::int64_t e2 = 2 * err;
                if (e2 >= dy) { err += dy; x += sx; }
                if (e2 <= dx) { err += dx; y += sy; }
            }
        }
    }
}

/// groundMeters of an eroded stage, with the cell's hydrology cell `cell` known.
float erodedGround(const HydrologyStage& s, std::size_t cell, std::int64_t col, std::int64_t row,
                   float noiseMeters) {
    if (s.factor == 1) return s.erodedHeight[cell];
    const StageGridShape shape{s.factor, s.mapWidth, s.mapHeight, s.gridWidth, s.gridHeight};
    return noiseMeters + interpolateStageField(shape, s.erosionDelta, col, row);
}

/// The water of whole-map cell (col, row) whose noise height is `noiseMeters`, given the
/// largest order and flow of the river lines drawn through it (0: none): the rule of
/// hydrologyCells, in one place.
WaterCell waterCellAt(const HydrologyStage& s, std::int64_t col, std::int64_t row,
                      float noiseMeters, std::uint8_t lineOrder, float lineFlow) {
    const std::int64_t j = std::min(row / s.factor, s.gridHeight - 1);
    const std::int64_t i = std::min(col / s.factor, s.gridWidth - 1);
    const auto cell = std::size_t(j * s.gridWidth + i);
    WaterCell w;
    float z = noiseMeters;
    if (!s.erosionDelta.empty())
        z = erodedGround(s, cell, col, row, z);
    w.elevationMeters = z;
    w.flow = s.accumulation[cell];
    const float lake = s.lakeSurface[cell];
    if (s.hasSea && z <= s.seaLevelMeters) {
        w.water = Water::Lake;
        w.depthMeters = s.seaLevelMeters - z;
    } else if (!std::isnan(lake) && lake > z) {
        w.water = Water::Lake;
        w.depthMeters = lake - z;
    } else if (lineOrder != 0) {
        w.water = Water::River;
        w.order = lineOrder;
        w.flow = lineFlow;
    }
    return w;
}

}  // namespace


float groundMeters(const HydrologyStage& s, std::int64_t col, std::int64_t row,
                   float noiseMeters) {
    if (s.erosionDelta.empty()) return noiseMeters;
    const std::int64_t j = std::min(row / s.factor, s.gridHeight - 1);
    const std::int64_t i = std::min(col / s.factor, s.gridWidth - 1);
    return erodedGround(s, std::size_t(j * s.gridWidth + i), col, row, noiseMeters);
}

void hydrologyCells(const HydrologyStage& s, const TileRect& rect, std::int64_t fullCol0,
                    std::int64_t fullRow0, const float* noiseMeters, WaterCell* out) {
    const std::int64_t c0 = rect.col0 + fullCol0, r0 = rect.row0 + fullRow0;
    std::vector<std::uint8_t> order(std::size_t(rect.cellCount()), 0);
    std::vector<float> flow(order.size(), 0.0f);
    drawRivers(s, c0, r0, rect.width, rect.height, order, flow);
    for (std::int64_t r = 0; r < rect.height; ++r) {
        for (std::int64_t c = 0; c < rect.width; ++c) {
            const auto at = std::size_t(r * rect.width + c);
            out[at] = waterCellAt(s, c0 + c, r0 + r, noiseMeters[at], order[at], flow[at]);
        }
    }
}

void hydrologyCells(const HydrologyStage& s, const CellGrid& grid, std::int64_t fullCol0,
                    std::int64_t fullRow0, const float* noiseMeters, WaterCell* out) {
    if (grid.isRect()) {
        const TileRect rect{0, grid.cols.front(), grid.rows.front(),
                            std::int64_t(grid.cols.size()), std::int64_t(grid.rows.size())};
        return hydrologyCells(s, rect, fullCol0, fullRow0, noiseMeters, out);
    }
    // Each cell on its own: the lines drawn into a one-cell rect are the lines through it.
    std::vector<std::uint8_t> order(1);
    std::vector<float> flow(1);
    std::size_t at = 0;
    for (const std::int64_t row : grid.rows) {
        for (const std::int64_t col : grid.cols) {
            order[0] = 0;
            flow[0] = 0.0f;
            drawRivers(s, col + fullCol0, row + fullRow0, 1, 1, order, flow);
            out[at] = waterCellAt(s, col + fullCol0, row + fullRow0, noiseMeters[at], order[0],
                                  flow[0]);
            ++at;
        }
    }
}

void riverOrders(const HydrologyStage& s, const TileRect& rect,
                 const NoiseHeightFn& noiseMeters, std::uint8_t* out) {
    std::vector<std::uint8_t> order(std::size_t(rect.cellCount()), 0);
    std::vector<float> flow(order.size(), 0.0f);
    drawRivers(s, rect.col0, rect.row0, rect.width, rect.height, order, flow);
    for (std::int64_t r = 0; r < rect.height; ++r) {
        for (std::int64_t c = 0; c < rect.width; ++c) {
            const auto at = std::size_t(r * rect.width + c);
            out[at] = 0;
            if (order[at] == 0) continue;
            const std::int64_t col = rect.col0 + c, row = rect.row0 + r;
            const WaterCell w = waterCellAt(s, col, row, noiseMeters(col, row), order[at], flow[at]);
            if (w.water == Water::River) out[at] = w.order;
        }
    }
}

}  // namespace terragrid

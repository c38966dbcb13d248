// The rules of hydrology_stage_rules.hpp. Each one restates a promise of the hydrology layer
// (include/terragrid/hydro/*.hpp) or of computeHydrology as a check of its results, in one or
// two passes over the cells; the rules after "water never flows in a circle" may rely on the
// receivers being neighbours without loops.

#include "io/stage/hydrology_stage_rules.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "terragrid/hydro/flow.hpp"

namespace terragrid {
namespace {

using hydro::kNoReceiver;
using Breach = std::optional<StageRuleBreach>;

/// The stage under check and what its map says it must be.
struct Check {
    HydrologyStage& s;
    const World& world;
    std::int64_t width = s.gridWidth;
    std::int64_t height = s.gridHeight;
    std::size_t cells = std::size_t(s.gridWidth * s.gridHeight);
    bool eroded = !s.erodedHeight.empty();
    /// With the climate, lakes hold water by balance: a closed basin ends its water (a pit of
    /// the water surface, an outlet inside the map), and its lake has no outlet.
    bool climate = world.climate.enabled;
    /// Whether every border cell is an outlet (hydrology.outlets edges or open).
    bool borderOutlets = world.hydrology.outlets != OutletMode::Sea;

    std::int64_t col(std::size_t i) const { return std::int64_t(i) % width; }
    std::int64_t row(std::size_t i) const { return std::int64_t(i) / width; }
    std::string cell(std::size_t i) const {
        return "hydrology cell (" + std::to_string(col(i)) + ", " + std::to_string(row(i)) + ")";
    }
    bool onBorder(std::int64_t x, std::int64_t y) const {
        return x == 0 || y == 0 || x == width - 1 || y == height - 1;
    }
    /// Calls f(i, x, y) for every cell, row by row (no division per cell: the check of a
    /// 4096^2 grid makes several passes over 16.8 million cells).
    template <typename F>
    Breach forEachCell(F&& f) const {
        std::size_t i = 0;
        for (std::int64_t y = 0; y < height; ++y)
            for (std::int64_t x = 0; x < width; ++x, ++i)
                if (Breach broken = f(i, x, y)) return broken;
        return std::nullopt;
    }
    /// Calls f(neighbour) for the 8 neighbours of cell i = (x, y) inside the grid, in
    /// increasing index.
    template <typename F>
    void forEachNeighbour(std::size_t i, std::int64_t x, std::int64_t y, F&& f) const {
        const bool inside = !onBorder(x, y);
        for (std::int64_t dy = -1; dy <= 1; ++dy)
            for (std::int64_t dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0) continue;
                const std::int64_t nx = x + dx, ny = y + dy;
                if (inside || (nx >= 0 && ny >= 0 && nx < width && ny < height))
                    f(std::size_t(std::int64_t(i) + dy * width + dx));
            }
    }
    bool isSea(float ground) const { return s.hasSea && double(ground) <= s.seaLevelMeters; }
};

Breach breach(std::string rule, std::string where) {
    return StageRuleBreach{std::move(rule), std::move(where)};
}

/// A value as the message shows it: enough digits to tell two floats apart.
std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

template <typename T>
std::size_t firstWhere(const std::vector<T>& values, bool (*broken)(T)) {
    return std::size_t(std::find_if(values.begin(), values.end(), broken) - values.begin());
}

Breach finiteValues(Check& c) {
    const HydrologyStage& s = c.s;
    const std::string rule = "its heights, levels and flows are finite numbers, flows never "
                             "negative";
    const auto notFinite = [](float v) { return !std::isfinite(v); };
    if (const auto i = firstWhere<float>(s.erosionDelta, notFinite); i < s.erosionDelta.size())
        return breach(rule, "erosion's change of height at " + c.cell(i) + " is " +
                                number(s.erosionDelta[i]));
    if (const auto i = firstWhere<float>(s.erodedHeight, notFinite); i < s.erodedHeight.size())
        return breach(rule, "the eroded height of " + c.cell(i) + " is " +
                                number(s.erodedHeight[i]));
    const auto badFlow = [](float v) { return !(std::isfinite(v) && v >= 0); };
    if (const auto i = firstWhere<float>(s.accumulation, badFlow); i < s.accumulation.size())
        return breach(rule, "the flow of " + c.cell(i) + " is " + number(s.accumulation[i]));
    for (std::size_t id = 1; id < s.lakes.surface.size(); ++id)
        if (!std::isfinite(s.lakes.surface[id]))
            return breach(rule, "lake " + std::to_string(id) + "'s level is " +
                                    number(s.lakes.surface[id]));
    const HydrologyFacts& f = s.facts;
    if (f.thetaValid ? !std::isfinite(f.theta) : !std::isnan(f.theta))
        return breach(rule, std::string("the slope-area fit's theta is ") + number(f.theta) +
                                (f.thetaValid ? ", marked valid" : ", marked invalid (NaN)"));
    return std::nullopt;
}

Breach receiversAreNeighbours(Check& c) {
    const std::string rule = "water flows to one of a cell's 8 neighbours or leaves the map";
    return c.forEachCell([&](std::size_t i, std::int64_t x, std::int64_t y) -> Breach {
        const std::uint32_t r = c.s.receiver[i];
        if (r == kNoReceiver) return std::nullopt;
        if (r >= c.cells)
            return breach(rule, c.cell(i) + " sends its water to cell " + std::to_string(r) +
                                    ", outside the grid's " + std::to_string(c.cells) +
                                    " cells");
        // r is a neighbour when it is i + dy * width + dx for a step (dx, dy) of one cell
        // that stays in the grid (the index alone does not tell at the left and right edges).
        const std::int64_t step = std::int64_t(r) - std::int64_t(i);
        for (std::int64_t dy = -1; dy <= 1; ++dy) {
            const std::int64_t dx = step - dy * c.width;
            const std::int64_t nx = x + dx, ny = y + dy;
            if (step != 0 && dx >= -1 && dx <= 1 && nx >= 0 && nx < c.width && ny >= 0 &&
                ny < c.height)
                return std::nullopt;
        }
        return breach(rule, c.cell(i) + " sends its water to " + c.cell(r) +
                                (r == i ? ", itself" : ", not one of its neighbours"));
    });
}

Breach outletsAreBorderOrSea(Check& c) {
    const HydrologyStage& s = c.s;
    // With the climate, a closed basin is where its water ends too (it evaporates there).
    const std::string rule = std::string(c.borderOutlets ? "water leaves the map across its border and into the sea only"
                                                         : "water leaves the map into the sea only (hydrology.outlets sea)") +
                             (c.climate ? ", or ends in a closed basin" : "");
    return c.forEachCell([&](std::size_t i, std::int64_t x, std::int64_t y) -> Breach {
        const bool outlet = s.receiver[i] == kNoReceiver;
        if (c.borderOutlets && c.onBorder(x, y)) {
            if (!outlet)
                return breach(rule, c.cell(i) + ", on the border, sends its water to " +
                                        c.cell(s.receiver[i]));
            return std::nullopt;
        }
        // The ground is in the file only with erosion; without it, a cell inside the map may
        // be an outlet only where there is a sea.
        if (c.eroded) {
            const float ground = s.erodedHeight[i];
            if (c.isSea(ground) && !outlet)
                return breach(rule, c.cell(i) + " lies in the sea (ground " + number(ground) +
                                        " m, sea level " + number(s.seaLevelMeters) +
                                        " m) and sends its water to " + c.cell(s.receiver[i]));
            if (!c.isSea(ground) && outlet && !c.climate)
                return breach(rule, c.cell(i) + " lets its water leave the map, inside it and "
                                    "above the sea (ground " + number(ground) + " m)");
        } else if (!s.hasSea && outlet && !c.climate) {
            return breach(rule, c.cell(i) + " lets its water leave the map, inside a map "
                                "without a sea");
        }
        return std::nullopt;
    });
}

Breach noFlowInACircle(Check& c) {
    const std::vector<std::uint32_t>& receiver = c.s.receiver;
    // Kahn's topological sort, walking down from each source as far as the last donor of a
    // cell lets it: every cell placed once, in linear time, unless a loop holds some back,
    // with a byte a cell (a cell has at most 8 donors, its neighbours).
    constexpr std::uint8_t kPlaced = 0x80;
    std::vector<std::uint8_t> waiting(c.cells, 0);  // donors not yet placed
    for (const std::uint32_t r : receiver)
        if (r != kNoReceiver) ++waiting[r];
    std::size_t placed = 0;
    for (std::size_t source = 0; source < c.cells; ++source) {
        if (waiting[source] != 0) continue;
        for (auto cell = std::uint32_t(source);;) {
            waiting[cell] = kPlaced;
            ++placed;
            const std::uint32_t r = receiver[cell];
            if (r == kNoReceiver || --waiting[r] != 0) break;
            cell = r;
        }
    }
    if (placed == c.cells) return std::nullopt;
    // Nothing leaves a loop (a cell has one receiver), so the cells never placed are those of
    // the loops themselves.
    std::size_t first = 0;
    while (waiting[first] == kPlaced) ++first;
    std::size_t length = 1;
    for (std::uint32_t at = receiver[first]; at != first; at = receiver[at]) ++length;
    return breach("water never flows in a circle",
                  c.cell(first) + "'s water comes back to it after " + std::to_string(length) +
                      " steps");
}

Breach flowAddsUp(Check& c) {
    const HydrologyStage& s = c.s;
    // hydro::accumulate adds to each cell's own rain its donors' flows in increasing index:
    // the same sums give the same bits. With moisture the rain is the factor^2 of uniform
    // rain times a moisture of 0..1, which the file does not hold: the flow then lies between
    // the sums for no rain and for full rain (a sum of floats grows with each term).
    const float rain = hydrologyCellRain(c.world);
    const bool moisture = c.world.hydrology.rainfall == Rainfall::Moisture;
    // With the climate's rain (its first pass, which the file does not hold) a cell's own rain
    // is any amount of 0 or more.
    const bool climateRain = c.world.hydrology.rainfall == Rainfall::Climate;
    const std::string rule =
        climateRain ? std::string("a cell's flow is its own rain (0 or more) plus the flows of the "
                                  "cells draining into it")
                    : "a cell's flow is its rain (" + number(rain) + " map cells' worth" +
                          (moisture ? " at most" : "") +
                          ") plus the flows of the cells draining into it";
    return c.forEachCell([&](std::size_t i, std::int64_t x, std::int64_t y) -> Breach {
        float none = 0, full = rain;
        c.forEachNeighbour(i, x, y, [&](std::size_t nb) {
            if (s.receiver[nb] != i) return;
            none += s.accumulation[nb];
            full += s.accumulation[nb];
        });
        const float flow = s.accumulation[i];
        if (climateRain) {
            if (!(flow >= none))
                return breach(rule, c.cell(i) + " has a flow of " + number(flow) +
                                        ", less than the " + number(none) +
                                        " that drains into it");
            return std::nullopt;
        }
        if (moisture ? !(flow >= none && flow <= full) : flow != full)
            return breach(rule, c.cell(i) + " has a flow of " + number(flow) + ", and that sum " +
                                    (moisture ? "lies between " + number(none) + " and " +
                                                    number(full)
                                              : "is " + number(full)));
        return std::nullopt;
    });
}

Breach lakesAreLakes(Check& c) {
    HydrologyStage& s = c.s;
    const hydro::Lakes& lakes = s.lakes;
    const std::string rule = "its lakes are level, numbered as they first appear row by row, "
                             "apart from each other, and spill outside themselves";
    // Entry 0 stands for "no lake": findLakes writes level 0 and no outlet there.
    if (lakes.surface.empty() || std::signbit(lakes.surface[0]) || lakes.surface[0] != 0 ||
        lakes.outlet[0] != kNoReceiver)
        return breach(rule, "the lake table's unused entry 0 does not hold level 0 and no outlet");
    const std::uint32_t count = lakes.count();
    std::uint32_t next = 1;  // the lake whose first cell is still to come
    for (std::size_t i = 0; i < c.cells; ++i) {
        const std::uint32_t id = lakes.id[i];
        if (id > count)
            return breach(rule, c.cell(i) + " lies in lake " + std::to_string(id) + " of " +
                                    std::to_string(count));
        if (id == next) ++next;
        if (id >= next)
            return breach(rule, c.cell(i) + " is the first cell of lake " + std::to_string(id) +
                                    ", before any cell of lake " + std::to_string(next));
        const float surface = s.lakeSurface[i];
        if (id == 0 ? !std::isnan(surface)
                    : std::memcmp(&surface, &lakes.surface[id], sizeof surface) != 0)
            return breach(rule, c.cell(i) + (id == 0 ? ", in no lake," : ", in lake " +
                                                                          std::to_string(id) +
                                                                          " of level " +
                                                                          number(lakes.surface[id]) +
                                                                          " m,") +
                                    " has a water surface of " + number(surface) + " m");
        if (id == 0) continue;
        // Half of the neighbours finds every pair once.
        const std::int64_t x = c.col(i), y = c.row(i);
        for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 1}, {0, 1}, {1, 1}}) {
            const std::int64_t nx = x + dx, ny = y + dy;
            if (nx < 0 || nx >= c.width || ny >= c.height) continue;
            const std::uint32_t other = lakes.id[std::size_t(ny * c.width + nx)];
            if (other != 0 && other != id)
                return breach(rule, "lake " + std::to_string(id) + " at " + c.cell(i) +
                                        " touches lake " + std::to_string(other) + " at (" +
                                        std::to_string(nx) + ", " + std::to_string(ny) + ")");
        }
        if (c.eroded && !(lakes.surface[id] > s.erodedHeight[i]))
            return breach(rule, "lake " + std::to_string(id) + "'s level " +
                                    number(lakes.surface[id]) + " m is not above the ground " +
                                    number(s.erodedHeight[i]) + " m of " + c.cell(i));
    }
    if (next != count + 1)
        return breach(rule, "lake " + std::to_string(next) + " of " + std::to_string(count) +
                                " has no cell");
    for (std::uint32_t id = 1; id <= count; ++id) {
        const std::uint32_t outlet = lakes.outlet[id];
        // A lake in balance below its spill point (climate) spills nowhere.
        if (c.climate && outlet == kNoReceiver) continue;
        if (outlet >= c.cells)
            return breach(rule, "lake " + std::to_string(id) + "'s outlet is cell " +
                                    std::to_string(outlet) + ", outside the grid's " +
                                    std::to_string(c.cells) + " cells");
        if (lakes.id[outlet] != 0)
            return breach(rule, "lake " + std::to_string(id) + "'s outlet " + c.cell(outlet) +
                                    " lies in lake " + std::to_string(lakes.id[outlet]));
        // The outlet is dry ground at the lake's level (where the filled surface meets it).
        if (c.eroded && s.erodedHeight[outlet] != lakes.surface[id])
            return breach(rule, "lake " + std::to_string(id) + "'s outlet " + c.cell(outlet) +
                                    " lies at " + number(s.erodedHeight[outlet]) +
                                    " m, not at the lake's level " +
                                    number(lakes.surface[id]) + " m");
    }
    return std::nullopt;
}

Breach riversFollowTheFlow(Check& c) {
    HydrologyStage& s = c.s;
    const float threshold = hydrologyRiverThreshold(c.world);
    // The orders computeHydrology would give these receivers, flows and lakes (the receivers
    // lent to the routing and given back).
    hydro::FlowRouting routing{.receiver = std::move(s.receiver), .width = static_cast<std::int32_t>(c.width)};
    const std::vector<std::uint8_t> expected =
        hydrologyRiverOrders(routing, s.accumulation, s.lakeSurface, threshold);
    s.receiver = std::move(routing.receiver);
    const auto [found, want] = std::mismatch(s.strahler.begin(), s.strahler.end(), expected.begin());
    if (found == s.strahler.end()) return std::nullopt;
    const auto i = std::size_t(found - s.strahler.begin());
    if ((*found == 0) != (*want == 0))
        return breach("its rivers are the cells outside lakes whose flow passes the river "
                      "threshold (" + number(threshold) + " map cells' worth)",
                      c.cell(i) + " has a flow of " + number(s.accumulation[i]) +
                          (s.lakes.id[i] != 0 ? ", lies in lake " + std::to_string(s.lakes.id[i])
                                              : std::string()) +
                          " and Strahler order " + std::to_string(*found));
    return breach("a river's Strahler order follows from the rivers draining into it",
                  c.cell(i) + " has order " + std::to_string(*found) +
                      ", and the rivers draining into it give it order " + std::to_string(*want));
}

Breach figuresAreTheCells(Check& c) {
    const HydrologyStage& s = c.s;
    const HydrologyFacts& f = s.facts;
    const std::int64_t perCell = s.factor * s.factor;
    const auto count = [&](auto&& counted) {
        std::int64_t n = 0;
        for (std::size_t i = 0; i < c.cells; ++i) n += counted(i) ? 1 : 0;
        return n;
    };
    const std::string rule = "its figures for stats.json are those of its cells";
    const auto differ = [&](const char* what, std::int64_t stored, std::int64_t cells) {
        return breach(rule, std::string("it counts ") + std::to_string(stored) + " " + what +
                                ", and its cells hold " + std::to_string(cells));
    };
    if (f.lakes != std::int64_t(s.lakes.count())) return differ("lakes", f.lakes, s.lakes.count());
    if (const auto n = count([&](std::size_t i) { return s.lakes.id[i] != 0; }) * perCell;
        f.lakeCells != n)
        return differ("map cells under lakes", f.lakeCells, n);
    if (const auto n = count([&](std::size_t i) { return s.strahler[i] != 0; });
        f.riverCells != n)
        return differ("river cells", f.riverCells, n);
    // The sea is where the ground is at or below its level: known with erosion; without it,
    // at most the outlets.
    if (c.eroded || !s.hasSea) {
        const auto n =
            s.hasSea ? count([&](std::size_t i) { return c.isSea(s.erodedHeight[i]); }) * perCell
                     : 0;
        if (f.seaCells != n) return differ("map cells under the sea", f.seaCells, n);
    } else {
        const auto most =
            count([&](std::size_t i) { return s.receiver[i] == kNoReceiver; }) * perCell;
        if (f.seaCells < 0 || f.seaCells > most || f.seaCells % perCell != 0)
            return breach(rule, "it counts " + std::to_string(f.seaCells) +
                                    " map cells under the sea, and its outlets hold " +
                                    std::to_string(most) + " in blocks of " +
                                    std::to_string(perCell));
    }
    const std::vector<double> lengths = hydrologyRiverLengths(s, c.world);
    // Compared bit for bit; memcmp of two empty vectors would pass it null pointers (UB).
    if (lengths.size() != f.riverLengthByOrder.size() ||
        (!lengths.empty() && std::memcmp(lengths.data(), f.riverLengthByOrder.data(),
                                         lengths.size() * sizeof(double)) != 0))
        return breach(rule, "its river lengths by order (" +
                                std::to_string(f.riverLengthByOrder.size()) +
                                " orders) are not those of its river cells (" +
                                std::to_string(lengths.size()) + " orders)");
    return std::nullopt;
}

Breach climateIsAClimate(Check& c) {
    const ClimateStage& climate = c.s.climate;
    const std::string rule = "its climate's precipitation is a finite amount of 0 or more, and "
                             "its figures are finite and bound its cells";
    const auto badRain = [](float v) { return !(std::isfinite(v) && v >= 0); };
    if (const auto i = firstWhere<float>(climate.precipitation, badRain);
        i < climate.precipitation.size())
        return breach(rule, "the precipitation of " + c.cell(i) + " is " +
                                number(climate.precipitation[i]) + " mm a year");
    if (climate.precipitation.empty()) return std::nullopt;
    const ClimateFacts& f = climate.facts;
    for (const double v : {f.precipitationMean, f.precipitationMin, f.precipitationMax,
                           f.temperatureMean, f.temperatureMin, f.temperatureMax})
        if (!std::isfinite(v)) return breach(rule, "a figure is " + number(v));
    const auto [lo, hi] =
        std::minmax_element(climate.precipitation.begin(), climate.precipitation.end());
    if (double(*lo) != f.precipitationMin || double(*hi) != f.precipitationMax ||
        !(f.precipitationMean >= f.precipitationMin && f.precipitationMean <= f.precipitationMax) ||
        !(f.temperatureMean >= f.temperatureMin && f.temperatureMean <= f.temperatureMax))
        return breach(rule, "its precipitation figures (" + number(f.precipitationMin) + " .. " +
                                number(f.precipitationMax) + " mm) are not its cells' (" +
                                number(*lo) + " .. " + number(*hi) + " mm)");
    return std::nullopt;
}

/// The rules in the order they are checked: the later ones rely on the earlier ones.
constexpr std::array<Breach (*)(Check&), 9> kRules{
    finiteValues,  receiversAreNeighbours, outletsAreBorderOrSea, noFlowInACircle,
    flowAddsUp,    lakesAreLakes,          riversFollowTheFlow,   figuresAreTheCells,
    climateIsAClimate};

}  // namespace

std::optional<StageRuleBreach> firstBrokenStageRule(HydrologyStage& stage, const World& world) {
    Check check{.s = stage, .world = world};
    for (const auto rule : kRules)
        if (Breach broken = rule(check)) return broken;
    return std::nullopt;
}

}  // namespace terragrid

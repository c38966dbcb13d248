#pragma once
// Grids and brute-force references for the hydrology tests: hand-made heightmaps, a
// deterministic noise grid, and slow obvious versions of what src/hydro computes fast.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "terragrid/hydro/depressions.hpp"
#include "terragrid/hydro/flow.hpp"
#include "terragrid/hydro/grid.hpp"

namespace terragrid::test {

inline hydro::Grid gridOf(std::int32_t w, std::int32_t h,
                          const std::function<float(std::int32_t, std::int32_t)>& height) {
    hydro::Grid g;
    g.width = w;
    g.height = h;
    g.z.resize(static_cast<std::size_t>(w) * h);
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x) g.z[static_cast<std::size_t>(y) * w + x] = height(x, y);
    return g;
}

/// A grid from rows of digits (height = digit), for small hand-made maps.
inline hydro::Grid gridFromRows(const std::vector<std::string>& rows) {
    return gridOf(static_cast<std::int32_t>(rows[0].size()), static_cast<std::int32_t>(rows.size()),
                  [&](std::int32_t x, std::int32_t y) { return float(rows[y][x] - '0'); });
}

inline std::uint32_t mix(std::uint64_t v) {
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    v *= 0xc4ceb9fe1a85ec53ULL;
    v ^= v >> 33;
    return static_cast<std::uint32_t>(v);
}

/// Value noise: a coarse random lattice (every `scale` cells), bilinear, plus a little white
/// noise, so the grid has many depressions, flats where `quantum` > 0 rounds heights to
/// steps, and ridges. Deterministic for a seed.
inline hydro::Grid noiseGrid(std::int32_t w, std::int32_t h, std::uint64_t seed, int scale = 6,
                             float quantum = 0) {
    auto lattice = [&](std::int64_t x, std::int64_t y) {
        return float(mix(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(x) * 73856093ULL + std::uint64_t(y) * 19349663ULL) % 1000) / 10.0f;
    };
    return gridOf(w, h, [&](std::int32_t x, std::int32_t y) {
        const std::int32_t gx = x / scale, gy = y / scale;
        const float fx = float(x % scale) / float(scale), fy = float(y % scale) / float(scale);
        const float top = lattice(gx, gy) * (1 - fx) + lattice(gx + 1, gy) * fx;
        const float bottom = lattice(gx, gy + 1) * (1 - fx) + lattice(gx + 1, gy + 1) * fx;
        float v = top * (1 - fy) + bottom * fy + float(mix(seed + 7 + std::uint64_t(y) * w + x) % 100) / 50.0f;
        if (quantum > 0) v = std::floor(v / quantum) * quantum;
        return v;
    });
}

/// Noise grids the property tests of filling and routing run over: sizes down to one cell
/// wide, flats (quantum > 0 rounds heights to steps), a sea level with and without the edges
/// as outlets.
struct NoiseCase {
    std::int32_t w, h;
    std::uint64_t seed;
    float quantum;
    hydro::Outlets outlets;
};

inline const NoiseCase kNoiseCases[] = {
    {48, 40, 1, 0, {}},
    {37, 53, 2, 4, {}},
    {64, 64, 3, 0, {.edges = true, .seaLevel = 30.0f}},
    {50, 31, 4, 5, {.edges = false, .seaLevel = 25.0f}},
    {1, 17, 5, 0, {}},
    {29, 2, 6, 3, {}},
    {60, 45, 7, 20, {}},
};

inline bool onBorder(const hydro::Grid& g, std::uint32_t i) {
    const std::int32_t x = std::int32_t(i % std::uint32_t(g.width)), y = std::int32_t(i / std::uint32_t(g.width));
    return x == 0 || y == 0 || x == g.width - 1 || y == g.height - 1;
}

inline bool isOutlet(const hydro::Grid& g, const hydro::Outlets& o, std::uint32_t i) {
    return (o.edges && onBorder(g, i)) || (o.seaLevel && g.z[i] <= *o.seaLevel);
}

/// The 8 neighbours of cell i inside the grid.
inline std::vector<std::uint32_t> neighboursOf(const hydro::Grid& g, std::uint32_t i) {
    std::vector<std::uint32_t> out;
    const std::int32_t x = std::int32_t(i % std::uint32_t(g.width)), y = std::int32_t(i / std::uint32_t(g.width));
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const std::int32_t nx = x + dx, ny = y + dy;
            if ((dx || dy) && nx >= 0 && ny >= 0 && nx < g.width && ny < g.height)
                out.push_back(std::uint32_t(ny * g.width + nx));
        }
    return out;
}

/// The filled surface by its definition, relaxed until nothing changes (Planchon & Darboux's
/// idea without their tricks): outlets keep their height, every other cell is the least
/// max(own height, a neighbour's water level).
inline std::vector<float> bruteForceFill(const hydro::Grid& g, const hydro::Outlets& o) {
    const std::size_t n = g.z.size();
    std::vector<float> w(n, std::numeric_limits<float>::infinity());
    for (std::uint32_t i = 0; i < n; ++i)
        if (isOutlet(g, o, i)) w[i] = g.z[i];
    for (bool changed = true; changed;) {
        changed = false;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (isOutlet(g, o, i)) continue;
            float best = w[i];
            for (std::uint32_t nb : neighboursOf(g, i)) best = std::min(best, std::max(g.z[i], w[nb]));
            if (best < w[i]) {
                w[i] = best;
                changed = true;
            }
        }
    }
    return w;
}

/// Cells visited walking the receivers from `start` (start included), at most n + 1 steps;
/// the walk is a loop if its length exceeds n.
inline std::vector<std::uint32_t> walk(const hydro::FlowRouting& r, std::uint32_t start) {
    std::vector<std::uint32_t> path{start};
    while (r.receiver[path.back()] != hydro::kNoReceiver && path.size() <= r.receiver.size())
        path.push_back(r.receiver[path.back()]);
    return path;
}

/// Accumulation by walking down from every cell (O(n * path length)).
inline std::vector<double> bruteForceAccumulation(const hydro::FlowRouting& r, const std::vector<float>* weight) {
    std::vector<double> acc(r.receiver.size(), 0);
    for (std::uint32_t i = 0; i < r.receiver.size(); ++i)
        for (std::uint32_t c : walk(r, i)) acc[c] += weight ? (*weight)[i] : 1.0;
    return acc;
}

/// Strahler order by its recursive definition over the river donors.
inline std::vector<std::uint8_t> bruteForceStrahler(const hydro::FlowRouting& r, const std::vector<std::uint8_t>& river) {
    const std::size_t n = r.receiver.size();
    std::vector<std::vector<std::uint32_t>> donors(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (river[i] && r.receiver[i] != hydro::kNoReceiver && river[r.receiver[i]]) donors[r.receiver[i]].push_back(i);
    std::vector<std::uint8_t> order(n, 0);
    std::function<std::uint8_t(std::uint32_t)> of = [&](std::uint32_t c) -> std::uint8_t {
        if (order[c]) return order[c];
        int highest = 0, count = 0;
        for (std::uint32_t d : donors[c]) {
            const int o = of(d);
            if (o > highest) { highest = o; count = 1; } else if (o == highest) ++count;
        }
        return order[c] = std::uint8_t(highest == 0 ? 1 : count >= 2 ? highest + 1 : highest);
    };
    for (std::uint32_t i = 0; i < n; ++i)
        if (river[i]) of(i);
    return order;
}

}  // namespace terragrid::test

#pragma once
// The erosion model as it was first written (Braun and Willett's stack from ErosionRouter,
// the stack-ordered area and incision, the line-by-line diffusion), kept as the reference the
// faster erode() must equal bit for bit: every change since kept each value's terms and the
// order they are added in, only the order cells are visited in changed.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hydro/erosion_edges.hpp"
#include "hydro/erosion_routing.hpp"
#include "terragrid/hydro/erosion.hpp"

namespace terragrid::test {

namespace reference {

inline void solveLine(double* x, const std::uint8_t* fixed, double* super, std::size_t count,
                      std::size_t stride, double r) {
    double previousSuper = 0, previousValue = 0;
    for (std::size_t j = 0; j < count; ++j) {
        const std::size_t at = j * stride;
        double lower = 0, diagonal = 1, upper = 0;
        if (!fixed[at]) {
            if (j > 0) lower = -r, diagonal += r;
            if (j + 1 < count) upper = -r, diagonal += r;
        }
        const double pivot = diagonal - lower * previousSuper;
        previousSuper = super[at] = upper / pivot;
        previousValue = x[at] = (x[at] - lower * previousValue) / pivot;
    }
    for (std::size_t j = count - 1; j-- > 0;) {
        const std::size_t at = j * stride;
        x[at] -= super[at] * x[at + stride];
    }
}

inline void diffuse(std::vector<double>& h, const std::vector<std::uint8_t>& fixed, std::int32_t width,
                    std::int32_t height, double r) {
    if (r == 0) return;
    std::vector<double> scratch(h.size());
    const std::size_t w = std::size_t(width);
    for (std::size_t y = 0; y < std::size_t(height); ++y)
        solveLine(h.data() + y * w, fixed.data() + y * w, scratch.data() + y * w, w, 1, r);
    for (std::size_t x = 0; x < w; ++x)
        solveLine(h.data() + x, fixed.data() + x, scratch.data() + x, std::size_t(height), w, r);
}

inline double solveDrop(double x0, double f, double n) {
    double x = x0;
    for (int iteration = 0; iteration < 50; ++iteration) {
        const double power = std::pow(x, n - 1);
        const double residual = x - x0 + f * power * x;
        const double slope = 1 + n * f * power;
        double next = x - residual / slope;
        if (!(next > 0)) next = x / 2;
        if (std::fabs(next - x) <= 1e-12 * x0) return next;
        x = next;
    }
    return x;
}

inline void incise(std::vector<double>& h, const hydro::detail::D8Routing& routing,
                   const std::vector<double>& area, const std::vector<double>& upliftDt,
                   const hydro::ErosionParams& p, std::int32_t width, double cellSize) {
    const std::uint32_t w = std::uint32_t(width);
    const double diagonal = cellSize * std::sqrt(2.0);
    for (const std::uint32_t i : routing.stack) {
        const std::uint32_t r = routing.receiver[i];
        if (r == i) continue;
        const double raised = h[i] + upliftDt[i];
        if (!(raised > h[r]) || p.k == 0) {
            h[i] = raised;
            continue;
        }
        const bool straight = i % w == r % w || i / w == r / w;
        const double length = straight ? cellSize : diagonal;
        const double drive = p.dt * p.k * (p.m == 0.5 ? std::sqrt(area[i]) : std::pow(area[i], p.m));
        if (p.n == 1) {
            const double f = drive / length;
            h[i] = (raised + f * h[r]) / (1 + f);
        } else {
            const double f = drive / std::pow(length, p.n);
            h[i] = h[r] + solveDrop(raised - h[r], f, p.n);
        }
    }
}

}  // namespace reference

/// erode() as first written (see above), on one thread.
inline void referenceErode(hydro::Grid& terrain, const hydro::ErosionParams& params,
                           const hydro::Outlets& outlets, const std::vector<float>* upliftField) {
    using namespace hydro;
    const bool open = params.edges == ErosionEdges::Open && outlets.edges;
    const std::int32_t width = terrain.width + (open ? 2 : 0);
    const std::int32_t height = terrain.height + (open ? 2 : 0);
    std::vector<double> h(terrain.z.begin(), terrain.z.end());
    std::vector<std::uint8_t> fixed;
    std::vector<float> field;
    if (upliftField) field = *upliftField;
    if (open) {
        Outlets sea = outlets;
        sea.edges = false;
        fixed = hydro::detail::withRing(sea.seaLevel ? baseLevelCells(terrain, sea)
                                              : std::vector<std::uint8_t>(terrain.z.size(), 0),
                                 terrain.width, terrain.height, std::uint8_t{1});
        h = hydro::detail::withRing(h, terrain.width, terrain.height, 0.0);
        if (upliftField) field = hydro::detail::withRing(field, terrain.width, terrain.height, 0.0f);
    } else {
        fixed = baseLevelCells(terrain, outlets);
    }
    const std::size_t n = h.size();
    std::vector<double> upliftDt(n);
    for (std::size_t i = 0; i < n; ++i)
        upliftDt[i] = fixed[i] ? 0.0 : params.uplift * params.dt * (upliftField ? double(field[i]) : 1.0);
    hydro::detail::ErosionRouter router(width, height, fixed);
    const double cellArea = terrain.cellSize * terrain.cellSize;
    std::vector<double> area(n);
    for (int step = 0; step < params.steps; ++step) {
        if (open) hydro::detail::levelRing(h, terrain.width, terrain.height);
        const hydro::detail::D8Routing& routing = router.route(h.data());
        std::fill(area.begin(), area.end(), cellArea);
        for (std::size_t s = n; s-- > 0;) {
            const std::uint32_t c = routing.stack[s];
            if (routing.receiver[c] != c) area[routing.receiver[c]] += area[c];
        }
        reference::diffuse(h, fixed, width, height,
                           params.diffusion * params.dt / (terrain.cellSize * terrain.cellSize));
        reference::incise(h, routing, area, upliftDt, params, width, terrain.cellSize);
    }
    if (open) h = hydro::detail::withoutRing(h, terrain.width, terrain.height);
    for (std::size_t i = 0; i < terrain.z.size(); ++i) terrain.z[i] = float(h[i]);
}

}  // namespace terragrid::test

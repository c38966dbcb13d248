#include "hydro/stream_power.hpp"

#include <cmath>

namespace terragrid::hydro::detail {

namespace {

/// A^m: sqrt for the usual m = 1/2 (exact and fast), pow otherwise.
double areaPower(double area, double m) { return m == 0.5 ? std::sqrt(area) : std::pow(area, m); }

/// The height x above the receiver that solves x - x0 + f x^n = 0 (x0 > 0, f > 0): Newton's
/// method from x0, which the solution lies below; a step that would cross zero halves instead.
double solveDrop(double x0, double f, double n) {
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

}  // namespace

void incise(std::vector<double>& h, const D8Routing& routing, const std::vector<double>& area,
            const std::vector<double>& upliftDt, const StreamPower& power, std::int32_t width,
            double cellSize) {
    const std::uint32_t w = std::uint32_t(width);
    const double diagonal = cellSize * std::sqrt(2.0);
    forEachStackGroup(routing, [&](std::size_t first, std::size_t last) {
        for (std::size_t s = first; s < last; ++s) {
            const std::uint32_t i = routing.stack[s];
            const std::uint32_t r = routing.receiver[i];
            if (r == i) continue;
            const double raised = h[i] + upliftDt[i];
            if (!(raised > h[r]) || power.k == 0) {
                h[i] = raised;
                continue;
            }
            const std::int64_t step = std::int64_t(r) - std::int64_t(i);
            // From the index step alone when the width is over 2 (then +-1 and +-w name the
            // straight neighbours only); divisions otherwise.
            const bool straight = w > 2 ? step == 1 || step == -1 || step == std::int64_t(w) || step == -std::int64_t(w)
                                        : i % w == r % w || i / w == r / w;
            const double length = straight ? cellSize : diagonal;
            const double drive = power.dt * power.k * areaPower(area[i], power.m);
            if (power.n == 1) {
                const double f = drive / length;
                h[i] = (raised + f * h[r]) / (1 + f);
            } else {
                const double f = drive / std::pow(length, power.n);
                h[i] = h[r] + solveDrop(raised - h[r], f, power.n);
            }
        }
    });
}

}  // namespace terragrid::hydro::detail

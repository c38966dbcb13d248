#pragma once
// The implicit stream-power incision step of Braun and Willett (2013).

#include <cstdint>
#include <vector>

#include "hydro/erosion_routing.hpp"

namespace terragrid::hydro::detail {

/// Coefficients of one incision step: K, m, n and the time step.
struct StreamPower {
    double k = 0;
    double m = 0.5;
    double n = 1;
    double dt = 0;
};

/// One step of dh/dt = U - K A^m S^n on `h`, cells visited in routing.stack order (receivers
/// first), so each cell is solved against its receiver's new height:
///   n = 1:  h' = (h + U dt + F h_r') / (1 + F),  F = dt K A^m / L
///   n != 1: h' - h - U dt + dt K A^m ((h' - h_r') / L)^n = 0 by Newton's method,
/// L the distance to the receiver. A cell not above its receiver after uplift (a depression's
/// floor, a lake the river crosses) is only uplifted: stream power cuts, it never deposits.
/// Base-level cells (their own receiver) do not change. `area` in m^2, `upliftDt` = U dt per
/// cell in metres. The stack's groups (independent outlet subtrees) run in parallel; within a
/// group, the stack's order: each cell's result is the same for any thread count.
void incise(std::vector<double>& h, const D8Routing& routing, const std::vector<double>& area,
            const std::vector<double>& upliftDt, const StreamPower& power, std::int32_t width,
            double cellSize);

}  // namespace terragrid::hydro::detail

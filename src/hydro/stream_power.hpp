#pragma once
// The implicit stream-power incision step of Braun and Willett (2013).

#include <cstdint>
#include <vector>

#include "hydro/drainage_area.hpp"
#include "hydro/erosion_flow.hpp"

namespace terragrid::hydro::detail {

/// Coefficients of one incision step: K, m, n and the time step.
struct StreamPower {
    double k = 0;
    double m = 0.5;
    double n = 1;
    double dt = 0;
};

/// U dt per cell in metres: the uplift rate times the time step, times the cell's value of the
/// uplift field when there is one. Computed where it is used, from the field's floats: the
/// same bits as a grid of doubles computed beforehand, at half the bytes to read per step.
struct UpliftDt {
    double scale = 0;             ///< U dt
    const float* field = nullptr;  ///< per cell, or none

    double operator()(std::uint32_t i) const { return field ? scale * double(field[i]) : scale; }
};

/// One step of dh/dt = U - K A^m S^n, reusable on one grid. Not thread-safe; apply() uses TBB
/// inside.
class Incision {
public:
    Incision(const StreamPower& power, double cellSize) : m_power(power), m_cellSize(cellSize) {}

    /// One step from `h` into `next` (both width * height), each cell solved against its
    /// receiver's new height (receivers first):
    ///   n = 1:  h' = (h + U dt + F h_r') / (1 + F),  F = dt K A^m / L
    ///   n != 1: h' - h - U dt + dt K A^m ((h' - h_r') / L)^n = 0 by Newton's method,
    /// L the distance to the receiver. A cell not above its receiver after uplift (a
    /// depression's floor, a lake the river crosses) is only uplifted: stream power cuts, it
    /// never deposits. Base-level cells (their own receiver) do not change. `area` gives the
    /// drainage areas in m^2 and the order its walks finished the cells in. Each cell's new height is a function of its own inputs and its
    /// receiver's new height alone, so any order with receivers first (the stack's order of
    /// Braun and Willett's solver, or this one's) gives the same bits, for any thread count.
    void apply(const CellVector<double>& h, CellVector<double>& next, const ErosionFlow& flow,
               const DrainageArea& area, const UpliftDt& upliftDt);

private:
    StreamPower m_power;
    double m_cellSize;
    CellVector<double> m_factor;  ///< each cell's F (incision_factors.hpp)
};

}  // namespace terragrid::hydro::detail

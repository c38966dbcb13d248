#pragma once
// The factor of the implicit stream-power step of each cell, F = dt K A^m / L^n (L the
// distance to its receiver; L alone for n = 1). The drainage area's walk computes it the
// moment a cell's area is final (drainage_area.hpp): there the square root and the division
// run beside the walk, off its chain of sums, where in the incision they would sit on the
// chain of receivers, and no pass of their own reads the areas back.

#include <cmath>
#include <cstdint>

#include "hydro/erosion_flow.hpp"
#include "hydro/neighbours.hpp"
#include "hydro/stream_power.hpp"

namespace terragrid::hydro::detail {

/// F of one cell from its area and its receiver's direction, the bits of the scalar
/// expression (dt K) A^m / L^n (the square root for m = 1/2, std::pow otherwise).
class IncisionFactor {
public:
    IncisionFactor(const StreamPower& power, double cellSize) : m_scale(power.dt * power.k), m_m(power.m) {
        for (int k = 0; k <= kSelf; ++k) {
            // kSelf's entry is never used: those cells are not incised.
            const double length = k < kSelf && kInvDistance[k] != 1 ? cellSize * std::sqrt(2.0) : cellSize;
            m_divisor[k] = power.n == 1 ? length : std::pow(length, power.n);
        }
    }
    double operator()(double area, std::uint8_t direction) const {
        const double drive = m_m == 0.5 ? std::sqrt(area) : std::pow(area, m_m);
        return m_scale * drive / m_divisor[direction];
    }

private:
    double m_scale;
    double m_m;
    double m_divisor[kSelf + 1];
};

}  // namespace terragrid::hydro::detail

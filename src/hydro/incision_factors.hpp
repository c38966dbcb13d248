#pragma once
// The factor of the implicit stream-power step of each cell, F = dt K A^m / L^n (L the
// distance to its receiver; L alone for n = 1), computed for the whole grid before the
// incision walks it: there the cells depend on one another, one after the other, and a
// square root and a division per cell on that path cost more than the rest of the step;
// here they run four lanes at a time with nothing to wait for.

#include <cstddef>
#include <cstdint>

#include "hydro/stream_power.hpp"

namespace terragrid::hydro::detail {

/// factor[i] = (dt K) A_i^m / divisor[direction[i]] for the cells [first, last), the bits of
/// the scalar expression (the square root for m = 1/2, std::pow otherwise). divisor has 9
/// entries: L^n per direction, and anything for kSelf (those cells' factors are not used).
void incisionFactors(const StreamPower& power, const double* area, const std::uint8_t* direction,
                     const double* divisor, std::size_t first, std::size_t last, double* factor);

}  // namespace terragrid::hydro::detail

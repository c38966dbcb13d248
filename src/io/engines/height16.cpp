#include "io/engines/height16.hpp"

#include <cmath>
#include <cstddef>

namespace terragrid {

std::uint16_t toHeight16(double elevationMeters, double minMeters, double maxMeters,
                         std::uint16_t top) noexcept {
    if (!(maxMeters > minMeters)) return 0;
    // The operations in the order the formula states them: at min the numerator is exactly 0,
    // at max the quotient is exactly 1, and each IEEE operation is monotone, so the endpoints
    // are exact and the mapping never decreases.
    const double full = static_cast<double>(top);
    const double scaled = (elevationMeters - minMeters) / (maxMeters - minMeters) * full;
    // Negated test so NaN lands on 0.
    if (!(scaled > 0.0)) return 0;
    if (scaled >= full) return top;
    // std::round without the library call (this runs three times per cell, once per 16-bit
    // output): on (0, top) the cast truncates, and scaled - whole is exact (Sterbenz), so
    // comparing it with 0.5 rounds halves away from zero exactly as std::round does.
    const auto whole = static_cast<std::uint32_t>(scaled);
    const double fraction = scaled - static_cast<double>(whole);
    return static_cast<std::uint16_t>(whole + (fraction >= 0.5 ? 1u : 0u));
}

double fromHeight16(std::uint16_t v, double minMeters, double maxMeters,
                    std::uint16_t top) noexcept {
    return minMeters + static_cast<double>(v) * (maxMeters - minMeters) / static_cast<double>(top);
}

void toHeight16(const float* elevationMeters, std::size_t count, double minMeters,
                double maxMeters, std::uint16_t* out, std::uint16_t top) noexcept {
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = toHeight16(static_cast<double>(elevationMeters[i]), minMeters, maxMeters, top);
    }
}

}  // namespace terragrid

// The incision factor F = dt K A^m / L of every cell, computed for the whole grid before the
// incision runs (stream_power.cpp), so that no cell waits for it on the chain of receivers.

#include "hydro/incision_factors.hpp"

#include "hydro/avx2_lanes.hpp"

#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace terragrid::hydro::detail {

namespace {

#if defined(__x86_64__)
/// Square roots and divisions four lanes at a time: each lane's operations and their order are
/// the scalar ones, and IEEE rounds vector lanes as it rounds scalars.
__attribute__((target("avx2"))) void squareRootFactorsAvx2(double scale, const double* area,
                                                            const std::uint8_t* direction,
                                                            const double* divisor, std::size_t first,
                                                            std::size_t last, double* factor) {
    const __m256d times = _mm256_set1_pd(scale);
    std::size_t i = first;
    for (; i + 4 <= last; i += 4) {
        const __m256d drive = _mm256_mul_pd(times, _mm256_sqrt_pd(_mm256_loadu_pd(area + i)));
        const __m256d by = _mm256_set_pd(divisor[direction[i + 3]], divisor[direction[i + 2]],
                                         divisor[direction[i + 1]], divisor[direction[i]]);
        _mm256_storeu_pd(factor + i, _mm256_div_pd(drive, by));
    }
    for (; i < last; ++i) factor[i] = scale * _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(area[i]))) / divisor[direction[i]];
}

/// The same two lanes at a time, with SSE2 (every x86-64).
void squareRootFactorsSse2(double scale, const double* area, const std::uint8_t* direction,
                           const double* divisor, std::size_t first, std::size_t last, double* factor) {
    const __m128d times = _mm_set1_pd(scale);
    std::size_t i = first;
    for (; i + 2 <= last; i += 2) {
        const __m128d drive = _mm_mul_pd(times, _mm_sqrt_pd(_mm_loadu_pd(area + i)));
        const __m128d by = _mm_set_pd(divisor[direction[i + 1]], divisor[direction[i]]);
        _mm_storeu_pd(factor + i, _mm_div_pd(drive, by));
    }
    for (; i < last; ++i) factor[i] = scale * _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(area[i]))) / divisor[direction[i]];
}

#endif

}  // namespace

void incisionFactors(const StreamPower& power, const double* area, const std::uint8_t* direction,
                     const double* divisor, std::size_t first, std::size_t last, double* factor) {
    const double scale = power.dt * power.k;
    if (power.m == 0.5) {
#if defined(__x86_64__)
        if (avx2Lanes()) return squareRootFactorsAvx2(scale, area, direction, divisor, first, last, factor);
        return squareRootFactorsSse2(scale, area, direction, divisor, first, last, factor);
#else
        for (std::size_t i = first; i < last; ++i) factor[i] = scale * std::sqrt(area[i]) / divisor[direction[i]];
        return;
#endif
    }
    for (std::size_t i = first; i < last; ++i) factor[i] = scale * std::pow(area[i], power.m) / divisor[direction[i]];
}

}  // namespace terragrid::hydro::detail

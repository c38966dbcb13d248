#include "hydro/diffusion_lanes.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace terragrid::hydro::detail {

#if defined(__x86_64__)

namespace {

/// The coefficients of one cell of four lines: solveLine's lower, diagonal and upper (+0.0,
/// never -0.0, where a fixed cell or a line's end has none, as there), and the forward step.
struct LaneStep {
    __m256d lower, diagonal, upper;
};

__attribute__((target("avx2"))) inline LaneStep coefficients(__m256d freeCell, bool hasLower,
                                                           bool hasUpper, __m256d r) {
    const __m256d zero = _mm256_setzero_pd(), minusR = _mm256_sub_pd(zero, r);
    const __m256d lowerOn = hasLower ? freeCell : zero, upperOn = hasUpper ? freeCell : zero;
    // diagonal = 1, += r below, += r above, in that order: (1 + r) + r, or 1 + r, or 1.
    __m256d diagonal = _mm256_set1_pd(1.0);
    diagonal = _mm256_blendv_pd(diagonal, _mm256_add_pd(diagonal, r), lowerOn);
    diagonal = _mm256_blendv_pd(diagonal, _mm256_add_pd(diagonal, r), upperOn);
    return {_mm256_blendv_pd(zero, minusR, lowerOn), diagonal, _mm256_blendv_pd(zero, minusR, upperOn)};
}

/// All ones in the lanes whose cell is free (fixed byte 0).
__attribute__((target("avx2"))) inline __m256d freeLanes(std::uint8_t a, std::uint8_t b, std::uint8_t c,
                                                        std::uint8_t d) {
    const __m256i fixed = _mm256_set_epi64x(d, c, b, a);
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(fixed, _mm256_setzero_si256()));
}

/// How many rows ahead of the columns' forward sweep their cells are asked for. Each row of a
/// block of columns lies a whole grid row after the last, and the sweep waited on nearly every
/// one: the hardware's prefetchers did not keep up. On the 2048^2 stage this took the
/// diffusion from 2.8-2.9 s to 2.2-2.3 s; anything from 3 to 16 rows gave the same.
constexpr std::size_t kRowsAhead = 8;

/// Asks for the cache lines of `count` cells from `at` in h and super, both to be written.
inline void prefetchRow(const double* h, const double* super, std::size_t at, std::size_t count) {
    for (std::size_t x = 0; x < count; x += 8) {
        __builtin_prefetch(h + at + x, 1);
        __builtin_prefetch(super + at + x, 1);
    }
    // The last cell's line too: the cells need not start on a line.
    __builtin_prefetch(h + at + count - 1, 1);
    __builtin_prefetch(super + at + count - 1, 1);
}

}  // namespace


__attribute__((target("avx2"))) void solveFourRows(double* h, const std::uint8_t* fixed, double* super,
                                                   std::size_t width, std::size_t y0, double r) {
    const __m256d rr = _mm256_set1_pd(r);
    const std::size_t w = width;
    double* row[4];
    const std::uint8_t* fix[4];
    double* sup[4];
    for (std::size_t l = 0; l < 4; ++l) {
        row[l] = h + (y0 + l) * w;
        fix[l] = fixed + (y0 + l) * w;
        sup[l] = super + (y0 + l) * w;
    }
    __m256d previousSuper = _mm256_setzero_pd(), previousValue = _mm256_setzero_pd();
    for (std::size_t j = 0; j < w; ++j) {
        const LaneStep c = coefficients(freeLanes(fix[0][j], fix[1][j], fix[2][j], fix[3][j]), j > 0, j + 1 < w, rr);
        const __m256d pivot = _mm256_sub_pd(c.diagonal, _mm256_mul_pd(c.lower, previousSuper));
        previousSuper = _mm256_div_pd(c.upper, pivot);
        const __m256d x = _mm256_set_pd(row[3][j], row[2][j], row[1][j], row[0][j]);
        previousValue = _mm256_div_pd(_mm256_sub_pd(x, _mm256_mul_pd(c.lower, previousValue)), pivot);
        alignas(32) double s[4], v[4];
        _mm256_store_pd(s, previousSuper);
        _mm256_store_pd(v, previousValue);
        for (std::size_t l = 0; l < 4; ++l) sup[l][j] = s[l], row[l][j] = v[l];
    }
    __m256d below = previousValue;
    for (std::size_t j = w - 1; j-- > 0;) {
        const __m256d s = _mm256_set_pd(sup[3][j], sup[2][j], sup[1][j], sup[0][j]);
        const __m256d x = _mm256_set_pd(row[3][j], row[2][j], row[1][j], row[0][j]);
        below = _mm256_sub_pd(x, _mm256_mul_pd(s, below));
        alignas(32) double v[4];
        _mm256_store_pd(v, below);
        for (std::size_t l = 0; l < 4; ++l) row[l][j] = v[l];
    }
}

__attribute__((target("avx2"))) void solveColumns(double* h, const std::uint8_t* fixed, double* super,
                                                  std::size_t width, std::size_t height, std::size_t x0,
                                                  std::size_t groups, double r) {
    const __m256d rr = _mm256_set1_pd(r);
    const std::size_t w = width;
    __m256d previousSuper[kColumnGroups], previousValue[kColumnGroups];
    for (std::size_t g = 0; g < groups; ++g) previousSuper[g] = previousValue[g] = _mm256_setzero_pd();
    for (std::size_t y = 0; y < height; ++y) {
        if (y + kRowsAhead < height) prefetchRow(h, super, (y + kRowsAhead) * w + x0, 4 * groups);
        for (std::size_t g = 0; g < groups; ++g) {
            const std::size_t at = y * w + x0 + 4 * g;
            const std::uint8_t* f = fixed + at;
            const LaneStep c = coefficients(freeLanes(f[0], f[1], f[2], f[3]), y > 0, y + 1 < height, rr);
            const __m256d pivot = _mm256_sub_pd(c.diagonal, _mm256_mul_pd(c.lower, previousSuper[g]));
            previousSuper[g] = _mm256_div_pd(c.upper, pivot);
            previousValue[g] = _mm256_div_pd(
                _mm256_sub_pd(_mm256_loadu_pd(h + at), _mm256_mul_pd(c.lower, previousValue[g])), pivot);
            _mm256_storeu_pd(super + at, previousSuper[g]);
            _mm256_storeu_pd(h + at, previousValue[g]);
        }
    }
    for (std::size_t y = height - 1; y-- > 0;)
        for (std::size_t g = 0; g < groups; ++g) {
            const std::size_t at = y * w + x0 + 4 * g;
            previousValue[g] = _mm256_sub_pd(_mm256_loadu_pd(h + at),
                                             _mm256_mul_pd(_mm256_loadu_pd(super + at), previousValue[g]));
            _mm256_storeu_pd(h + at, previousValue[g]);
        }
}

#else

void solveFourRows(double*, const std::uint8_t*, double*, std::size_t, std::size_t, double) {}
void solveColumns(double*, const std::uint8_t*, double*, std::size_t, std::size_t, std::size_t, std::size_t, double) {}

#endif

}  // namespace terragrid::hydro::detail

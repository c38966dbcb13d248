// toHeight16's rounding against the formula written with std::round, on values chosen to sit
// at and around every kind of half.

#include "io/engines/height16.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace terragrid {
namespace {

// The mapping as height16.hpp states it.
std::uint16_t reference(double elevation, double lo, double hi) {
    const double scaled = (elevation - lo) / (hi - lo) * 65535.0;
    if (!(scaled > 0.0)) return 0;
    if (scaled >= 65535.0) return 65535;
    return static_cast<std::uint16_t>(std::round(scaled));
}

TEST(Height16Test, RoundsLikeStdRoundAtAndAroundEveryHalf) {
    // With the range 0..65535 the scaled value is the elevation itself (up to rounding), so
    // halves, and the doubles just beside them, can be aimed at directly.
    for (std::uint32_t v = 0; v <= 65535; ++v) {
        for (const double base : {double(v), double(v) + 0.5}) {
            for (const double x : {std::nextafter(base, -1.0), base, std::nextafter(base, 1e9)}) {
                ASSERT_EQ(toHeight16(x, 0.0, 65535.0), reference(x, 0.0, 65535.0)) << x;
            }
        }
    }
}

TEST(Height16Test, AgreesWithStdRoundOnRandomElevationsAndRanges) {
    std::mt19937_64 random(20261122);
    std::uniform_real_distribution<double> range(-12000.0, 9000.0);
    for (int i = 0; i < 200000; ++i) {
        double lo = range(random);
        double hi = range(random);
        if (lo > hi) std::swap(lo, hi);
        if (lo == hi) continue;
        const double e = std::uniform_real_distribution<double>(lo - 10.0, hi + 10.0)(random);
        const auto f = static_cast<float>(e);
        ASSERT_EQ(toHeight16(f, lo, hi), reference(f, lo, hi)) << f << " in " << lo << ".." << hi;
    }
    EXPECT_EQ(toHeight16(std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0), 0);
}

}  // namespace
}  // namespace terragrid

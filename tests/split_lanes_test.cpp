// split_lanes::splitScaled equals lattice::splitFloat bit for bit on every SIMD target this CPU
// runs: for coordinates near 0 and far out, integral ones, negative ones whose fraction rounds
// to 1, and arrays of any length (the lanes and the scalar tail).

#include "noise/split_lanes.hpp"

#include <gtest/gtest.h>

#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "noise/lattice.hpp"
#include "noise/simplex_constants.hpp"
#include "simd_test_support.hpp"

namespace terragrid {
namespace {

// Coordinates of every kind the rows split: uniform near 0, at every scale out to 2^60,
// integers, and -tiny (whose fraction 1 - tiny rounds to 1.0f).
std::vector<double> coordinates(std::size_t n) {
    std::mt19937_64 random(20261127);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(0, 60);
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (i % 4) {
        case 0: x[i] = unit(random) * 100.0; break;
        case 1: x[i] = std::ldexp(unit(random), exponent(random)); break;
        case 2: x[i] = std::round(std::ldexp(unit(random), exponent(random))); break;
        default: x[i] = -std::ldexp(std::abs(unit(random)), -exponent(random) - 30); break;
        }
    }
    return x;
}

TEST(SplitLanesTest, EqualsSplitFloatOnEveryTarget) {
    const std::vector<double> x = coordinates(4099);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const test::OnlyTarget only(target);
        for (double scale : {1.0, simplex::kF2, simplex::kSkew2}) {
            for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{33},
                                  x.size()}) {
                std::vector<std::int64_t> index(n);
                std::vector<float> frac(n);
                split_lanes::splitScaled(x.data(), scale, n, index.data(), frac.data());
                for (std::size_t i = 0; i < n; ++i) {
                    const lattice::FloatCoord expected = lattice::splitFloat(x[i] * scale);
                    ASSERT_EQ(index[i], expected.index) << "x " << x[i] << " scale " << scale;
                    ASSERT_EQ(std::bit_cast<std::uint32_t>(frac[i]),
                              std::bit_cast<std::uint32_t>(expected.frac))
                        << "x " << x[i] << " scale " << scale;
                }
            }
        }
    }
}

}  // namespace
}  // namespace terragrid

// Tests for version 4's noise in float: the 3D and 4D noise of planets and tileable maps
// (src/noise/curved_v4.hpp) and the 2D value and Perlin noise of flat maps (flat_v4.hpp): range
// (and that it is used), Perlin's zeros and value noise's values at lattice points, continuity
// across cell walls and simplex boundaries, independent neighbouring gradients, seeds, and the
// detail of a planet 10^12 m from the origin (a flat map's: NoiseTest). (That the SIMD rows
// equal these references on every target: CurvedRowsTest, NoiseRowsTest; which maps version 4
// changes: NoiseVersionTest.)

#include "noise/curved_v4.hpp"
#include "noise/flat_v4.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "noise_test_support.hpp"

namespace terragrid {
namespace {

using Point = std::array<double, 4>;
using test::kFades;

struct Kind {
    NoiseKind noise;
    int dimensions;
};
constexpr std::array kKinds{Kind{NoiseKind::Value, 2}, Kind{NoiseKind::Perlin, 2},
                            Kind{NoiseKind::Value, 3}, Kind{NoiseKind::Perlin, 3},
                            Kind{NoiseKind::Simplex, 3}, Kind{NoiseKind::Perlin, 4},
                            Kind{NoiseKind::Simplex, 4}};

std::string describe(const Kind& k) {
    return std::string(kNoiseKindNames[static_cast<std::size_t>(k.noise)]) + " " +
           std::to_string(k.dimensions) + "D";
}

float noiseAt(const Kind& k, const Point& p, const LatticeHash& h, FadeCurve f = FadeCurve::Quintic) {
    if (k.dimensions == 2) return flat_v4::noise(k.noise, f, p[0], p[1], h);
    return curved_v4::noise(k.noise, f, p, k.dimensions, h);
}

Point randomPoint(std::mt19937_64& rng, double extent) {
    std::uniform_real_distribution<double> coord(-extent, extent);
    return {coord(rng), coord(rng), coord(rng), coord(rng)};
}

// 3D Perlin noise reaches about 1.04, as in every version (noise.hpp); the others stay in
// [-1, 1]. Each reaches well over half its range, and its mean is near 0.
TEST(NoiseV4Test, StaysInRangeAndUsesIt) {
    std::mt19937_64 rng(4);
    const LatticeHash h(HashKind::Lattice, 17);
    for (const Kind& k : kKinds)
        for (FadeCurve f : kFades) {
            if (k.noise == NoiseKind::Simplex && f != FadeCurve::Quintic) continue;
            SCOPED_TRACE(describe(k) + " " + test::name(f));
            const double bound = k.noise == NoiseKind::Perlin && k.dimensions == 3 ? 1.05 : 1.0;
            double peak = 0.0, sum = 0.0;
            constexpr int kSamples = 40000;
            for (int i = 0; i < kSamples; ++i) {
                const double n = noiseAt(k, randomPoint(rng, 1e5), h, f);
                ASSERT_LE(std::fabs(n), bound);
                peak = std::max(peak, std::fabs(n));
                sum += n;
            }
            EXPECT_GT(peak, 0.5);
            EXPECT_LT(std::fabs(sum / kSamples), 0.05);
        }
}

TEST(NoiseV4Test, LatticePointsGivePerlinZeroAndValueTheirValue) {
    const LatticeHash h(HashKind::Lattice, 2);
    for (std::int64_t i = -3; i <= 3; ++i) {
        const Point p{double(i), double(7 - i), double(i * i - 1000003), double(5 * i)};
        for (FadeCurve f : kFades) {
            EXPECT_EQ(noiseAt({NoiseKind::Perlin, 2}, p, h, f), 0.0f);
            EXPECT_EQ(noiseAt({NoiseKind::Perlin, 3}, p, h, f), 0.0f);
            EXPECT_EQ(noiseAt({NoiseKind::Perlin, 4}, p, h, f), 0.0f);
        }
        EXPECT_EQ(noiseAt({NoiseKind::Value, 2}, p, h),
                  flat_v4::cornerValue(curved_v4::input(h, {i, 7 - i, 0, 0}, 2)));
        // Value noise at a lattice point is that point's value: fade 0 weighs only the origin.
        const std::uint32_t input = curved_v4::input(
            h, {i, 7 - i, i * i - 1000003, 0}, 3);
        const float expected = std::fma(static_cast<float>(curved_v4::mixed(input) >> 8),
                                        curved_v4::kValueScale, -1.0f);
        EXPECT_EQ(noiseAt({NoiseKind::Value, 3}, p, h), expected);
    }
}

// Small steps give small changes everywhere, across cell walls and simplex boundaries (where a
// corner left out too early would jump), also beyond 2^31 cells where the hash key changes.
TEST(NoiseV4Test, IsContinuous) {
    std::mt19937_64 rng(6);
    std::normal_distribution<double> dir(0.0, 1.0);
    constexpr double kStep = 1e-4;
    const LatticeHash h(HashKind::Lattice, 31);
    for (const Kind& k : kKinds)
        for (const double origin : {0.0, 2147483600.0}) {
            SCOPED_TRACE(describe(k) + " from " + std::to_string(origin));
            for (int walk = 0; walk < 8; ++walk) {
                Point p = randomPoint(rng, 50.0);
                for (double& c : p) c += origin;
                Point d{dir(rng), dir(rng), dir(rng), dir(rng)};
                const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
                for (double& c : d) c *= kStep / len;
                float previous = noiseAt(k, p, h);
                for (int s = 0; s < 30000; ++s) {  // 3 units: walls along every axis
                    for (std::size_t a = 0; a < 4; ++a) p[a] += d[a];
                    const float next = noiseAt(k, p, h);
                    // Gradients stay well below 40 per unit; float rounding adds about 1e-6.
                    ASSERT_LT(std::fabs(next - previous), 4e-3) << "step " << s;
                    previous = next;
                }
            }
        }
}

// The gradient of a lattice point and of each of its neighbours are independent: the pairs'
// joint counts pass a chi-square test, along every axis and a diagonal, near the origin and
// beyond 2^31 cells. (A linear hash input without the finaliser's xor-shift fails it.)
TEST(NoiseV4Test, NeighbourGradientsAreIndependent) {
    constexpr int kSize = 64;
    constexpr double kPairs = double(kSize) * kSize;
    const std::array<std::array<std::int64_t, 4>, 5> offsets{
        {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}}};
    for (const std::uint64_t seed : {1u, 4242u})
        for (const std::int64_t origin : {std::int64_t{0}, std::int64_t{-3'000'000'000}}) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " origin " + std::to_string(origin));
            const LatticeHash hash(HashKind::Lattice, seed);
            const auto gradient = [&](const std::array<std::int64_t, 4>& at) {
                return curved_v4::gradient(curved_v4::input(hash, at, 4));
            };
            for (const auto& d : offsets) {
                std::array<double, 256> pairs{};
                for (int i = 0; i < kSize; ++i)
                    for (int j = 0; j < kSize; ++j) {
                        const std::array<std::int64_t, 4> at{origin + i, origin - j, 7 + i, j};
                        const std::array<std::int64_t, 4> next{at[0] + d[0], at[1] + d[1],
                                                               at[2] + d[2], at[3] + d[3]};
                        pairs[gradient(at) * 16 + gradient(next)] += 1.0;
                    }
                double chi = 0.0;
                for (const double c : pairs) chi += (c - kPairs / 256) * (c - kPairs / 256) / (kPairs / 256);
                EXPECT_LT(chi, 340.0);  // 255 degrees of freedom: the 99.9th percentile
            }
            // A flat map's 8 gradients (the top 3 bits), along both axes and the diagonals.
            const auto gradient2 = [&](std::int64_t i, std::int64_t j) {
                return simplex_v3::gradientIndex(curved_v4::input(hash, {i, j, 0, 0}, 2));
            };
            for (const auto& d : {std::array<std::int64_t, 2>{1, 0}, {0, 1}, {1, 1}, {1, -1}}) {
                std::array<double, 64> pairs{};
                for (int i = 0; i < kSize; ++i)
                    for (int j = 0; j < kSize; ++j)
                        pairs[gradient2(origin + i, origin - j) * 8 +
                              gradient2(origin + i + d[0], origin - j + d[1])] += 1.0;
                double chi = 0.0;
                for (const double c : pairs) chi += (c - kPairs / 64) * (c - kPairs / 64) / (kPairs / 64);
                // 63 degrees of freedom: p < 1e-5, NoiseTest's bound for the same 3 bits in
                // version 3's simplex (16 tables here; one reaches 111).
                EXPECT_LT(chi, 130.0) << d[0] << ", " << d[1];
            }
        }
}

TEST(NoiseV4Test, SeedsSelectTheNoise) {
    const LatticeHash a(HashKind::Lattice, 100);
    const LatticeHash b(HashKind::Lattice, 100);
    const LatticeHash other(HashKind::Lattice, 101);
    std::mt19937_64 rng(9);
    for (const Kind& k : kKinds) {
        int differing = 0;
        for (int i = 0; i < 500; ++i) {
            const Point p = randomPoint(rng, 1e3);
            EXPECT_EQ(noiseAt(k, p, a), noiseAt(k, p, b)) << describe(k);
            if (noiseAt(k, p, a) != noiseAt(k, p, other)) ++differing;
        }
        EXPECT_GT(differing, 450) << describe(k);
    }
}

// Design.md principle 2 on a planet: the lattice coordinate is an int64 index plus a float
// fraction, so a planet 10^12 m from the origin (offset along x) has the detail of one at the
// origin: along a parallel of cells 30 m apart every neighbour differs, and the mean step is the
// origin's within a factor of two.
TEST(NoiseV4Test, FarFromTheOriginKeepsTheDetailOfTheOrigin) {
    for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex}) {
        SCOPED_TRACE(std::string(kNoiseKindNames[static_cast<std::size_t>(noise)]));
        NoiseParams p = test::perlinFbm();
        p.noise = noise;
        p.version = NoiseVersion::V4;
        p.octaves = 8;
        p.frequency = 1e-4;
        test::expectTheOriginsDetailFarOut(NoiseField(p, 7), [](double origin, int i) {
            constexpr double kRadius = 6.4e6;
            const double angle = i * 30.0 / kRadius;
            return NoisePoint{
                {origin + kRadius * std::cos(angle), kRadius * std::sin(angle), 1.0e6, 0.0}, 3};
        });
    }
}

}  // namespace
}  // namespace terragrid

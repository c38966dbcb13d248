// Tests for 4D Perlin and simplex noise: range (and that the scale uses it), Perlin's zeros at
// lattice points, continuity, determinism and the 4D hash.

#include "terragrid/noise/noise.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>

#include "noise_test_support.hpp"

namespace terragrid {
namespace {

using test::kHashKinds;
using test::kFades;

using Point = std::array<double, 4>;

double perlin4(const Point& p, FadeCurve f, const LatticeHash& h) {
    return perlinNoise(p[0], p[1], p[2], p[3], f, h);
}
double simplex4(const Point& p, const LatticeHash& h) {
    return simplexNoise(p[0], p[1], p[2], p[3], h);
}

TEST(Noise4dTest, StaysInRangeAndUsesIt) {
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> coord(-1e5, 1e5);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 17);
        for (FadeCurve f : kFades) {
            double peak = 0.0;
            for (int i = 0; i < 20000; ++i) {
                const Point p{coord(rng), coord(rng), coord(rng), coord(rng)};
                const double n = perlin4(p, f, h);
                ASSERT_GE(n, -1.0);
                ASSERT_LE(n, 1.0);
                peak = std::max(peak, std::fabs(n));
            }
            EXPECT_GT(peak, 0.5);
        }
        double peak = 0.0;
        for (int i = 0; i < 20000; ++i) {
            const Point p{coord(rng), coord(rng), coord(rng), coord(rng)};
            const double n = simplex4(p, h);
            ASSERT_GE(n, -1.0);
            ASSERT_LE(n, 1.0);
            peak = std::max(peak, std::fabs(n));
        }
        EXPECT_GT(peak, 0.5);
    }
}

// The scales are the largest value any gradients can give, found numerically: random hashes
// never reach it, so no value should be clipped to +-1, while the range is still well used.
TEST(Noise4dTest, ScaleIsNotTooLoose) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> coord(-1e4, 1e4);
    const LatticeHash h(HashKind::Lattice, 23);
    int atBound = 0;
    double peakPerlin = 0.0, peakSimplex = 0.0;
    for (int i = 0; i < 200000; ++i) {
        const Point p{coord(rng), coord(rng), coord(rng), coord(rng)};
        const double a = perlin4(p, FadeCurve::Quintic, h);
        const double b = simplex4(p, h);
        if (std::fabs(a) == 1.0 || std::fabs(b) == 1.0) ++atBound;
        peakPerlin = std::max(peakPerlin, std::fabs(a));
        peakSimplex = std::max(peakSimplex, std::fabs(b));
    }
    EXPECT_EQ(atBound, 0);
    EXPECT_GT(peakPerlin, 0.6);
    EXPECT_GT(peakSimplex, 0.6);
}

TEST(Noise4dTest, PerlinIsZeroAtLatticePoints) {
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 2);
        for (FadeCurve f : kFades) {
            for (std::int64_t i = -3; i <= 3; ++i) {
                const Point p{double(i), double(7 - i), double(i * i), double(-1000003 + i)};
                EXPECT_EQ(perlin4(p, f, h), 0.0);
            }
        }
    }
}

// Small steps give small changes everywhere, including across cell walls and (for simplex)
// across the boundaries between simplexes, where a kernel radius too large would jump.
TEST(Noise4dTest, IsContinuous) {
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> coord(-50.0, 50.0);
    std::normal_distribution<double> dir(0.0, 1.0);
    constexpr double kStep = 1e-4;
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 31);
        for (int walk = 0; walk < 30; ++walk) {
            Point p{coord(rng), coord(rng), coord(rng), coord(rng)};
            Point d{dir(rng), dir(rng), dir(rng), dir(rng)};
            const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
            for (double& c : d) c *= kStep / len;
            double perlin = perlin4(p, FadeCurve::Quintic, h);
            double simplex = simplex4(p, h);
            for (int s = 0; s < 30000; ++s) {  // 3 units: many walls in every axis
                for (int a = 0; a < 4; ++a) p[a] += d[a];
                const double nextPerlin = perlin4(p, FadeCurve::Quintic, h);
                const double nextSimplex = simplex4(p, h);
                // Both have gradients well below 40 per unit: 40 * 1e-4.
                ASSERT_LT(std::fabs(nextPerlin - perlin), 4e-3);
                ASSERT_LT(std::fabs(nextSimplex - simplex), 4e-3);
                perlin = nextPerlin;
                simplex = nextSimplex;
            }
        }
    }
}

TEST(Noise4dTest, IsDeterministicAndSeeded) {
    const LatticeHash a(HashKind::Lattice, 100);
    const LatticeHash b(HashKind::Lattice, 100);
    const LatticeHash other(HashKind::Lattice, 101);
    int differing = 0;
    for (int i = 0; i < 500; ++i) {
        const Point p{i * 0.37 - 50, i * 1.13 + 1e6, -i * 0.71, i * 0.05};
        EXPECT_EQ(perlin4(p, FadeCurve::Quintic, a), perlin4(p, FadeCurve::Quintic, b));
        EXPECT_EQ(simplex4(p, a), simplex4(p, b));
        if (simplex4(p, a) != simplex4(p, other)) ++differing;
    }
    EXPECT_GT(differing, 450);
}

TEST(Noise4dTest, FourDHashUsesEveryCoordinate) {
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 8);
        std::set<std::uint32_t> seen;
        for (std::int64_t i = 0; i < 4; ++i) {
            seen.insert(h(i, 0, 0, 0));
            seen.insert(h(0, i + 4, 0, 0));
            seen.insert(h(0, 0, i + 8, 0));
            seen.insert(h(0, 0, 0, i + 12));
        }
        // 16 distinct points; an ignored coordinate would collapse four of them.
        EXPECT_GE(seen.size(), 13u);
        // The permutation kinds nest the 3D hash: p[p3(ix, iy, iz) + iw].
        if (kind != HashKind::Lattice) {
            const auto& perm = detail::LatticeHashParts::permutation(h);
            EXPECT_EQ(h(5, 6, 7, 8), perm[h(5, 6, 7) + 8]);
        }
    }
}

}  // namespace
}  // namespace terragrid

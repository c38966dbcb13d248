// Tests for cellular (Worley) noise: range, exact hand-computed values on the regular grid
// (jitter 0), F2 >= F1, the metrics' relation, continuity, determinism and the layer wiring.

#include "terragrid/noise/noise.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "noise_test_support.hpp"

namespace terragrid {
namespace {

using test::kHashKinds;

constexpr std::array kReturns{CellularReturn::F1, CellularReturn::F2, CellularReturn::F2MinusF1};
constexpr std::array kDistances{CellularDistance::Euclidean, CellularDistance::Manhattan};
constexpr std::array kJitters{0.0, 0.35, 0.8, 1.0};

/// The raw distance (F1, F2 or F2 - F1) behind a cellularNoise value.
double raw(CellularReturn r, CellularDistance d, double jitter, double x, double y,
           const LatticeHash& h) {
    return (cellularNoise(x, y, r, d, jitter, h) + 1.0) / 2.0 * cellularBound(r, d, jitter);
}

std::string describe(CellularReturn r, CellularDistance d, double jitter) {
    return std::string(kCellularReturnNames[int(r)]) + "/" +
           std::string(kCellularDistanceNames[int(d)]) + "/jitter " + std::to_string(jitter);
}

TEST(CellularTest, StaysInRangeAndUsesIt) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> coord(-1e6, 1e6);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 5);
        for (CellularReturn r : kReturns) {
            for (CellularDistance d : kDistances) {
                for (double jitter : kJitters) {
                    SCOPED_TRACE(describe(r, d, jitter));
                    double lo = 1.0, hi = -1.0;
                    for (int i = 0; i < 4000; ++i) {
                        const double n = cellularNoise(coord(rng), coord(rng), r, d, jitter, h);
                        ASSERT_GE(n, -1.0);
                        ASSERT_LE(n, 1.0);
                        lo = std::min(lo, n);
                        hi = std::max(hi, n);
                    }
                    // Not squeezed into a corner of the range by a loose bound. (F2 is at
                    // least 1/2 with jitter 0, so only the spread is asserted.)
                    EXPECT_GT(hi - lo, 0.6);
                    EXPECT_GT(hi, 0.2);
                }
            }
        }
    }
}

// Jitter 0 puts every feature point at its cell's centre: distances computable by hand.
TEST(CellularTest, JitterZeroIsTheRegularGrid) {
    const LatticeHash h(HashKind::Lattice, 3);
    const auto e = CellularDistance::Euclidean;
    const auto m = CellularDistance::Manhattan;
    const auto f1 = CellularReturn::F1;
    const auto f2 = CellularReturn::F2;
    const auto diff = CellularReturn::F2MinusF1;
    // (10.25, -6.5): centre (10.5, -6.5) is 0.25 away, the next (9.5, -6.5) 0.75.
    EXPECT_NEAR(raw(f1, e, 0.0, 10.25, -6.5, h), 0.25, 1e-12);
    EXPECT_NEAR(raw(f2, e, 0.0, 10.25, -6.5, h), 0.75, 1e-12);
    EXPECT_NEAR(raw(diff, e, 0.0, 10.25, -6.5, h), 0.5, 1e-12);
    // (3.2, 7.9): own centre (3.5, 7.5), next (3.5, 8.5).
    EXPECT_NEAR(raw(f1, e, 0.0, 3.2, 7.9, h), std::hypot(0.3, 0.4), 1e-12);
    EXPECT_NEAR(raw(f2, e, 0.0, 3.2, 7.9, h), std::hypot(0.3, 0.6), 1e-12);
    EXPECT_NEAR(raw(f1, m, 0.0, 3.2, 7.9, h), 0.7, 1e-12);
    EXPECT_NEAR(raw(f2, m, 0.0, 3.2, 7.9, h), 0.9, 1e-12);
    // The bounds are reached: F1 at a cell corner, F2 and F2 - F1 at a cell centre.
    EXPECT_DOUBLE_EQ(cellularNoise(4.0, -2.0, f1, e, 0.0, h), 1.0);
    EXPECT_DOUBLE_EQ(cellularNoise(4.0, -2.0, f1, m, 0.0, h), 1.0);
    EXPECT_DOUBLE_EQ(cellularNoise(4.5, -2.5, f2, e, 0.0, h), 1.0);
    EXPECT_DOUBLE_EQ(cellularNoise(4.5, -2.5, diff, m, 0.0, h), 1.0);
    EXPECT_DOUBLE_EQ(cellularNoise(4.5, -2.5, f1, e, 0.0, h), -1.0);
}

TEST(CellularTest, SecondNearestIsNeverNearerAndMetricsAgree) {
    std::mt19937_64 rng(12);
    std::uniform_real_distribution<double> coord(-500.0, 500.0);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 9);
        for (double jitter : kJitters) {
            for (int i = 0; i < 3000; ++i) {
                const double x = coord(rng), y = coord(rng);
                const auto e = CellularDistance::Euclidean;
                const auto m = CellularDistance::Manhattan;
                const double f1e = raw(CellularReturn::F1, e, jitter, x, y, h);
                const double f2e = raw(CellularReturn::F2, e, jitter, x, y, h);
                const double f1m = raw(CellularReturn::F1, m, jitter, x, y, h);
                const double f2m = raw(CellularReturn::F2, m, jitter, x, y, h);
                ASSERT_GE(f2e, f1e - 1e-12);
                ASSERT_GE(f2m, f1m - 1e-12);
                ASSERT_NEAR(raw(CellularReturn::F2MinusF1, e, jitter, x, y, h), f2e - f1e, 1e-12);
                // |d|_2 <= |d|_1 <= sqrt(2) |d|_2 for each point, so for the nearest ones too.
                ASSERT_GE(f1m, f1e - 1e-12);
                ASSERT_LE(f1m, std::sqrt(2.0) * f1e + 1e-12);
                ASSERT_GE(f2m, f2e - 1e-12);
                ASSERT_LE(f2m, std::sqrt(2.0) * f2e + 1e-12);
            }
        }
    }
}

// F1 and F2 are 1-Lipschitz in the metric they use: a step of length s changes them by at
// most s (Manhattan: at most the step's Manhattan length). A search that missed a cell would
// jump by up to the gap between points. Walks cross many cell walls and corners.
TEST(CellularTest, F1AndF2AreContinuous) {
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> coord(-1000.0, 1000.0);
    std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
    constexpr double kStep = 1e-3;
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 21);
        for (CellularReturn r : {CellularReturn::F1, CellularReturn::F2}) {
            for (CellularDistance d : kDistances) {
                for (double jitter : kJitters) {
                    SCOPED_TRACE(describe(r, d, jitter));
                    for (int walk = 0; walk < 20; ++walk) {
                        double x = coord(rng), y = coord(rng);
                        const double a = angle(rng);
                        const double sx = kStep * std::cos(a), sy = kStep * std::sin(a);
                        const double limit =
                            (d == CellularDistance::Manhattan ? std::fabs(sx) + std::fabs(sy)
                                                              : kStep) +
                            1e-9;
                        double previous = raw(r, d, jitter, x, y, h);
                        for (int s = 0; s < 3000; ++s) {
                            x += sx;
                            y += sy;
                            const double next = raw(r, d, jitter, x, y, h);
                            ASSERT_LE(std::fabs(next - previous), limit) << x << ", " << y;
                            previous = next;
                        }
                    }
                }
            }
        }
    }
}

TEST(CellularTest, IsAPureFunctionOfItsArguments) {
    const LatticeHash a(HashKind::Lattice, 77);
    const LatticeHash b(HashKind::Lattice, 77);
    const LatticeHash other(HashKind::Lattice, 78);
    int differing = 0;
    for (int i = 0; i < 200; ++i) {
        const double x = -3.3e5 + i * 17.13, y = 2.2e6 - i * 5.71;
        for (CellularReturn r : kReturns) {
            const double n = cellularNoise(x, y, r, CellularDistance::Euclidean, 0.9, a);
            EXPECT_EQ(n, cellularNoise(x, y, r, CellularDistance::Euclidean, 0.9, b));
            EXPECT_EQ(n, cellularNoise(x, y, r, CellularDistance::Euclidean, 0.9, a));
            if (n != cellularNoise(x, y, r, CellularDistance::Euclidean, 0.9, other)) ++differing;
        }
    }
    // Another seed moves the points.
    EXPECT_GT(differing, 500);
}

TEST(CellularTest, LayerSettingsReachTheField) {
    NoiseParams p = test::perlinFbm();
    p.noise = NoiseKind::Cellular;
    p.fractal = FractalKind::None;
    p.frequency = 0.01;
    p.cellularJitter = 0.0;
    // With jitter 0 and one octave the field is the regular grid, shifted by the octave's
    // domain shift: F1 values are spread over [0, 1]; a different return changes the field.
    const NoiseField f1(p, 1);
    p.cellularReturn = CellularReturn::F2;
    const NoiseField f2(p, 1);
    p.cellularDistance = CellularDistance::Manhattan;
    const NoiseField f2m(p, 1);
    int differing = 0, differingMetric = 0;
    for (int i = 0; i < 100; ++i) {
        const double x = i * 37.0, y = i * 11.0;
        if (f1.sample(x, y) != f2.sample(x, y)) ++differing;
        if (f2.sample(x, y) != f2m.sample(x, y)) ++differingMetric;
        EXPECT_GE(f2.sample(x, y), 0.0);
        EXPECT_LE(f2.sample(x, y), 1.0);
    }
    EXPECT_GT(differing, 90);
    EXPECT_GT(differingMetric, 50);
}

}  // namespace
}  // namespace terragrid

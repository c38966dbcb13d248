// Tests for generic lattice noise (genericLatticeNoise, latticeProximity, the grid
// displacement) and the marble fractal: the two proximities that must reproduce value and
// Perlin noise, the bound of the others, continuity, determinism and marble's definition.

#include "terragrid/noise/noise.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "noise_test_support.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using test::kHashKinds;
using test::kFades;
using test::Points;
using test::name;

using ::testing::AllOf;
using ::testing::Each;
using ::testing::Ge;
using ::testing::Le;

constexpr std::array kProximities{Proximity::Constant, Proximity::Gradient, Proximity::Triangular,
                                  Proximity::Ridged, Proximity::SemiRidged};
constexpr double kTwoPi = 6.283185307179586;

std::string name(Proximity p) { return std::string(kProximityNames[static_cast<int>(p)]); }

/// A point mostly near the origin, every fourth far out where lattice indices are large.
std::array<double, 2> pointAt(Points& points, int i) {
    const double span = i % 4 == 0 ? 1e7 : 1e3;
    return {points.next(-span, span), points.next(-span, span)};
}

NoiseParams genericLayer(Proximity p, FractalKind fractal = FractalKind::Fbm) {
    NoiseParams params = test::perlinFbm();
    params.noise = NoiseKind::GenericLattice;
    params.proximity = p;
    params.fractal = fractal;
    params.frequency = 1e-3;
    return params;
}

// ---------------------------------------------------------------------------------------------
// Value and Perlin noise are two of the family

TEST(GenericLatticeTest, ConstantProximityIsValueNoiseBitForBit) {
    Points points(1);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 41);
        for (FadeCurve f : kFades) {
            for (int i = 0; i < 2000; ++i) {
                const auto [x, y] = pointAt(points, i);
                ASSERT_EQ(std::bit_cast<std::uint64_t>(
                              genericLatticeNoise(x, y, Proximity::Constant, f, h)),
                          std::bit_cast<std::uint64_t>(valueNoise(x, y, f, h)))
                    << name(kind) << "/" << name(f) << " at " << x << ", " << y;
            }
        }
    }
}

// Perlin's form factors the x fraction out of the corners (separable-inl.hpp), the generic
// sum evaluates each corner: equal in exact arithmetic, a few units in the last place apart.
TEST(GenericLatticeTest, GradientProximityIsPerlinNoise) {
    constexpr double kTolerance = 1e-14;
    Points points(2);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 43);
        for (FadeCurve f : kFades) {
            double largest = 0.0;
            for (int i = 0; i < 2000; ++i) {
                const auto [x, y] = pointAt(points, i);
                largest = std::max(largest,
                                   std::fabs(genericLatticeNoise(x, y, Proximity::Gradient, f, h) -
                                             perlinNoise(x, y, f, h)));
            }
            EXPECT_LE(largest, kTolerance) << name(kind) << "/" << name(f);
        }
    }
}

TEST(GenericLatticeTest, BaseNoiseDispatchesToTheGradientProximity) {
    const LatticeHash h(HashKind::Lattice, 5);
    EXPECT_EQ(baseNoise(NoiseKind::GenericLattice, 3.3, -7.9, FadeCurve::Quintic, h),
              genericLatticeNoise(3.3, -7.9, Proximity::Gradient, FadeCurve::Quintic, h));
}

TEST(GenericLatticeTest, LayerOfConstantProximityIsTheValueNoiseLayer) {
    NoiseParams value = genericLayer(Proximity::Constant);
    value.noise = NoiseKind::Value;
    const NoiseField generic(genericLayer(Proximity::Constant), 9);
    const NoiseField reference(value, 9);
    Points points(3);
    for (int i = 0; i < 500; ++i) {
        const auto [x, y] = pointAt(points, i);
        ASSERT_EQ(generic.sample(x, y), reference.sample(x, y)) << x << ", " << y;
    }
}

// ---------------------------------------------------------------------------------------------
// The bound: every proximity but Gradient within [-1, 1] on the whole cell neighbourhood, so
// the convex blend of the corners is too; each reaches its bound (no wasted range).

TEST(GenericLatticeTest, ProximitiesOtherThanGradientStayWithinOneAndReachIt) {
    const LatticeHash h(HashKind::Lattice, 1);
    constexpr int kSteps = 64;
    for (Proximity p : kProximities) {
        if (p == Proximity::Gradient) continue;
        double largest = 0.0;
        for (std::uint32_t hash = 0; hash < 4096; hash += hash < 256 ? 1 : 97) {
            for (int i = 0; i <= kSteps; ++i) {
                for (int j = 0; j <= kSteps; ++j) {
                    const double dx = -1.0 + 2.0 * i / kSteps;
                    const double dy = -1.0 + 2.0 * j / kSteps;
                    const double c = latticeProximity(p, dx, dy, hash, h);
                    ASSERT_LE(std::fabs(c), 1.0) << name(p) << " d " << dx << ", " << dy;
                    largest = std::max(largest, std::fabs(c));
                }
            }
        }
        EXPECT_GE(largest, 0.99) << name(p);
    }
}

TEST(GenericLatticeTest, NoiseStaysInRange) {
    Points points(4);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 99);
        for (FadeCurve f : kFades) {
            for (Proximity p : kProximities) {
                std::vector<double> values;
                for (int i = 0; i < 2000; ++i) {
                    const auto [x, y] = pointAt(points, i);
                    values.push_back(genericLatticeNoise(x, y, p, f, h));
                }
                // Cell centres: where Perlin's bound is reached.
                for (int ix = -20; ix < 20; ++ix) {
                    for (int iy = -20; iy < 20; ++iy)
                        values.push_back(genericLatticeNoise(ix + 0.5, iy + 0.5, p, f, h));
                }
                EXPECT_THAT(values, Each(AllOf(Ge(-1.0), Le(1.0))))
                    << name(kind) << "/" << name(f) << "/" << name(p);
            }
        }
    }
}

// The ridged proximities are what they say: crests (|value| 1) on the lattice points, where
// one corner has all the weight and the offset is 0.
TEST(GenericLatticeTest, RidgedProximitiesPutACrestOnEveryLatticePoint) {
    const LatticeHash h(HashKind::Permutation, 12);
    for (Proximity p : {Proximity::Triangular, Proximity::Ridged}) {
        for (int ix = -30; ix < 30; ++ix) {
            for (int iy = -30; iy < 30; ++iy) {
                EXPECT_EQ(std::fabs(genericLatticeNoise(ix, iy, p, FadeCurve::Quintic, h)), 1.0)
                    << name(p) << " at " << ix << ", " << iy;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Continuity

TEST(GenericLatticeTest, NoiseIsContinuousAcrossCellWalls) {
    constexpr double kEps = 1e-9;
    Points points(5);
    for (HashKind kind : kHashKinds) {
        const LatticeHash h(kind, 8);
        for (FadeCurve f : kFades) {
            for (Proximity p : kProximities) {
                for (int i = 0; i < 200; ++i) {
                    const double wall = std::floor(points.next(-1e5, 1e5));
                    const double y = points.next(-100.0, 100.0);
                    SCOPED_TRACE(name(kind) + "/" + name(f) + "/" + name(p));
                    EXPECT_NEAR(genericLatticeNoise(wall - kEps, y, p, f, h),
                                genericLatticeNoise(wall + kEps, y, p, f, h), 1e-7);
                    EXPECT_NEAR(genericLatticeNoise(y, wall - kEps, p, f, h),
                                genericLatticeNoise(y, wall + kEps, p, f, h), 1e-7);
                }
            }
        }
    }
}

// Along a line through dozens of cells no step jumps: the noise is continuous inside cells
// too. The proximities' slopes are at most 2 per lattice unit and the fades' at most 15/8.
TEST(GenericLatticeTest, NoiseIsContinuousAlongALine) {
    constexpr double kStep = 1e-3;
    constexpr double kMaxSlope = 16.0;
    Points points(6);
    for (FadeCurve f : kFades) {
        const LatticeHash h(HashKind::Lattice, 21);
        for (Proximity p : kProximities) {
            const double x0 = points.next(-500.0, 500.0);
            const double y0 = points.next(-500.0, 500.0);
            double previous = genericLatticeNoise(x0, y0, p, f, h);
            double largest = 0.0;
            for (int i = 1; i <= 20'000; ++i) {
                const double n = genericLatticeNoise(x0 + i * kStep * 0.6, y0 + i * kStep * 0.8,
                                                     p, f, h);
                largest = std::max(largest, std::fabs(n - previous));
                previous = n;
            }
            EXPECT_LE(largest, kMaxSlope * kStep) << name(f) << "/" << name(p);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Layers: determinism, seeds, grid displacement

TEST(GenericLatticeTest, LayerIsDeterministicAndSeeded) {
    Points points(7);
    for (Proximity p : kProximities) {
        const NoiseField a(genericLayer(p), 1);
        const NoiseField again(genericLayer(p), 1);
        const NoiseField other(genericLayer(p), 2);
        int differs = 0;
        constexpr int kTrials = 200;
        for (int i = 0; i < kTrials; ++i) {
            const double x = points.next(-1e6, 1e6);
            const double y = points.next(-1e6, 1e6);
            const double v = a.sample(x, y);
            ASSERT_EQ(std::bit_cast<std::uint64_t>(v),
                      std::bit_cast<std::uint64_t>(again.sample(x, y)));
            ASSERT_GE(v, 0.0);
            ASSERT_LE(v, 1.0);
            differs += v != other.sample(x, y) ? 1 : 0;
        }
        EXPECT_GE(differs, kTrials * 95 / 100) << name(p);
    }
}

TEST(GenericLatticeTest, ProximitiesGiveDifferentLayers) {
    Points points(8);
    for (std::size_t a = 0; a < kProximities.size(); ++a) {
        for (std::size_t b = a + 1; b < kProximities.size(); ++b) {
            const NoiseField first(genericLayer(kProximities[a]), 3);
            const NoiseField second(genericLayer(kProximities[b]), 3);
            int differs = 0;
            for (int i = 0; i < 100; ++i) {
                const double x = points.next(-1e5, 1e5);
                const double y = points.next(-1e5, 1e5);
                differs += std::fabs(first.sample(x, y) - second.sample(x, y)) > 1e-6 ? 1 : 0;
            }
            EXPECT_GE(differs, 90) << name(kProximities[a]) << " vs " << name(kProximities[b]);
        }
    }
}

// The displacement is in lattice cells of each octave, as the layer offset is: half a step is
// the offset moved by [0.5, 0.5] (to rounding: the two add in a different order), quarter by
// [0.25, 0.25]; and it changes the layer. A sign error or a displacement scaled by the octave
// would fail this.
TEST(GenericLatticeTest, GridDisplacementMovesEveryOctaveByItsFractionOfAStep) {
    Points points(9);
    for (auto [displacement, cells] : {std::pair{GridDisplacement::Half, 0.5},
                                       std::pair{GridDisplacement::Quarter, 0.25}}) {
        NoiseParams moved = genericLayer(Proximity::Ridged);
        moved.displacement = displacement;
        NoiseParams offset = genericLayer(Proximity::Ridged);
        offset.offsetX += cells;
        offset.offsetY += cells;
        const NoiseField displaced(moved, 4);
        const NoiseField shifted(offset, 4);
        const NoiseField plain(genericLayer(Proximity::Ridged), 4);
        int differs = 0;
        for (int i = 0; i < 300; ++i) {
            const double x = points.next(-1e5, 1e5);
            const double y = points.next(-1e5, 1e5);
            EXPECT_NEAR(displaced.sample(x, y), shifted.sample(x, y), 1e-9) << x << ", " << y;
            differs += std::fabs(displaced.sample(x, y) - plain.sample(x, y)) > 1e-6 ? 1 : 0;
        }
        EXPECT_GE(differs, 270) << cells;
    }
}

TEST(GenericLatticeTest, GridDisplacementLeavesOtherNoisesAlone) {
    NoiseParams perlin = genericLayer(Proximity::Gradient);
    perlin.noise = NoiseKind::Perlin;
    NoiseParams displaced = perlin;
    displaced.displacement = GridDisplacement::Half;
    const NoiseField a(perlin, 6);
    const NoiseField b(displaced, 6);
    Points points(10);
    for (int i = 0; i < 100; ++i) {
        const double x = points.next(-1e5, 1e5);
        const double y = points.next(-1e5, 1e5);
        ASSERT_EQ(a.sample(x, y), b.sample(x, y));
    }
}

// ---------------------------------------------------------------------------------------------
// Marble

NoiseParams marbleLayer(double frequency, double turbulence) {
    NoiseParams p = test::perlinFbm();
    p.fractal = FractalKind::Marble;
    p.frequency = 1e-3;
    p.marbleFrequency = frequency;
    p.marbleTurbulence = turbulence;
    return p;
}

TEST(MarbleTest, WithoutTurbulenceIsASineOfX) {
    constexpr double kFrequency = 3e-3;
    const NoiseField field(marbleLayer(kFrequency, 0.0), 5);
    Points points(11);
    for (int i = 0; i < 1000; ++i) {
        const double x = points.next(-1e4, 1e4);
        const double y = points.next(-1e6, 1e6);
        EXPECT_NEAR(field.sample(x, y), (std::sin(kTwoPi * kFrequency * x) + 1.0) / 2.0, 1e-12)
            << x << ", " << y;
    }
}

// sin(2 pi (k x + s T)) with T the same layer summed as turbulence: the definition, computed
// here without marble's reduction of the phase.
TEST(MarbleTest, TurbulenceMovesThePhase) {
    constexpr double kFrequency = 1e-3;
    constexpr double kStrength = 2.5;
    NoiseParams turbulence = marbleLayer(kFrequency, kStrength);
    turbulence.fractal = FractalKind::Turbulence;
    const NoiseField marble(marbleLayer(kFrequency, kStrength), 5);
    const NoiseField straight(marbleLayer(kFrequency, 0.0), 5);
    const NoiseField t(turbulence, 5);
    Points points(12);
    int bent = 0;
    for (int i = 0; i < 1000; ++i) {
        const double x = points.next(-1e4, 1e4);
        const double y = points.next(-1e4, 1e4);
        const double expected =
            (std::sin(kTwoPi * (kFrequency * x + kStrength * t.sample(x, y))) + 1.0) / 2.0;
        EXPECT_NEAR(marble.sample(x, y), expected, 1e-9) << x << ", " << y;
        bent += std::fabs(marble.sample(x, y) - straight.sample(x, y)) > 1e-3 ? 1 : 0;
    }
    EXPECT_GE(bent, 900);
}

TEST(MarbleTest, StaysInUnitIntervalAndUsesIt) {
    Points points(13);
    for (NoiseKind noise : {NoiseKind::Perlin, NoiseKind::Simplex, NoiseKind::GenericLattice}) {
        for (double strength : {0.0, 1.0, 64.0}) {
            NoiseParams p = marbleLayer(2e-3, strength);
            p.noise = noise;
            const NoiseField field(p, 8);
            double lo = 1.0;
            double hi = 0.0;
            for (int i = 0; i < 3000; ++i) {
                // Far out too: the phase is reduced before the sine.
                const double span = i % 3 == 0 ? 1e12 : 1e4;
                const double v = field.sample(points.next(-span, span), points.next(-span, span));
                ASSERT_GE(v, 0.0);
                ASSERT_LE(v, 1.0);
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            EXPECT_LE(lo, 0.01) << strength;
            EXPECT_GE(hi, 0.99) << strength;
        }
    }
}

TEST(MarbleTest, IsDeterministicAndRowsEqualSamples) {
    const NoiseField a(marbleLayer(1e-3, 1.5), 21);
    const NoiseField b(marbleLayer(1e-3, 1.5), 21);
    std::vector<double> xs(257);
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = -98765.4321 + 30.0 * i;
    std::vector<double> row(xs.size());
    for (double y : {-1e5, 0.5, 33333.3}) {
        a.sampleRow(xs.data(), xs.size(), y, row.data());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            ASSERT_EQ(std::bit_cast<std::uint64_t>(row[i]),
                      std::bit_cast<std::uint64_t>(b.sample(xs[i], y)));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Whole maps: generic lattice noise under marble (both in the point kernels' rows), with
// cellular moisture, are bit-identical for any thread count and tile size.

test::MapCollector collectMap(const std::string& tileSize, int threads) {
    const Config config = defaultConfig(
        {"map.width=200", "map.height=136", "map.tile_size=" + tileSize,
         R"(output.files=["height.tif", "classes.tif"])", "height.noise=generic_lattice",
         "height.proximity=semi_ridged", "height.grid_displacement=quarter",
         "height.fractal=marble", "height.frequency=0.002", "height.marble.frequency=0.001",
         "moisture.noise=cellular", "moisture.cellular.return=f2_minus_f1",
         "moisture.frequency=0.003"});
    const Terrain terrain = makeTerrain(config);
    test::MapCollector map;
    test::inArena(threads, [&] { generateMap(config, &terrain, {&map}); });
    return map;
}

TEST(GenericLatticeTest, MapIsBitIdenticalForAnyThreadsAndTileSize) {
    const test::MapCollector reference = collectMap("1000", 1);
    ASSERT_EQ(reference.elevation.size(), 200u * 136u);
    ASSERT_EQ(reference.classIndex.size(), reference.elevation.size());
    // Classes that vary (moisture decides forest and desert), so comparing them can fail.
    const auto [lowest, highest] =
        std::minmax_element(reference.classIndex.begin(), reference.classIndex.end());
    ASSERT_LT(*lowest, *highest);
    for (int threads : {1, 2, 8}) {
        for (const char* tile : {"16", "64", "7"}) {
            const test::MapCollector map = collectMap(tile, threads);
            ASSERT_EQ(map.elevation.size(), reference.elevation.size());
            EXPECT_EQ(0, std::memcmp(map.elevation.data(), reference.elevation.data(),
                                     map.elevation.size() * sizeof(float)))
                << threads << " threads, tile " << tile;
            EXPECT_EQ(map.classIndex, reference.classIndex) << threads << " threads, tile " << tile;
        }
    }
}

}  // namespace
}  // namespace terragrid

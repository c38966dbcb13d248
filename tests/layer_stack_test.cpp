// Layer stacks: rows equal the scalar reference bit for bit for every combination, surface
// and shaping; the normalisation's range holds every value; falloff, redistribution and warp
// do what they say.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "terragrid/model/layer_stack.hpp"
#include "noise_test_support.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

NoiseParams layer(NoiseKind kind, FractalKind fractal, double frequency) {
    NoiseParams p = test::perlinFbm();
    p.noise = kind;
    p.fractal = fractal;
    p.octaves = 4;
    p.frequency = frequency;
    return p;
}

/// The stacks the tests run on: one of each combine and mask, warp, falloff, redistribution.
std::vector<LayerStackParams> stacks() {
    std::vector<LayerStackParams> all;
    LayerStackParams lone;
    lone.base = layer(NoiseKind::Simplex, FractalKind::Fbm, 0.01);
    all.push_back(lone);
    LayerStackParams continents = lone;
    continents.layers.push_back({layer(NoiseKind::Perlin, FractalKind::Ridged, 0.04),
                                 Combine::Add, 0.6, LayerMask::Base});
    continents.layers.push_back({layer(NoiseKind::Value, FractalKind::Turbulence, 0.08),
                                 Combine::Add, -0.2, LayerMask::None});
    all.push_back(continents);
    for (const Combine how : {Combine::Multiply, Combine::Min, Combine::Max}) {
        LayerStackParams s = lone;
        s.layers.push_back({layer(NoiseKind::Perlin, FractalKind::Fbm, 0.02), how, 0.9,
                            LayerMask::None});
        all.push_back(s);
    }
    LayerStackParams warped = lone;
    warped.base.warp = {.amplitude = 40.0, .frequency = 0.01, .octaves = 2};
    all.push_back(warped);
    LayerStackParams island = continents;
    island.falloff = {Falloff::Radial, 0.8, 1.5};
    island.redistribution = 1.7;
    all.push_back(island);
    LayerStackParams square = lone;
    square.falloff = {Falloff::Square, 1.0, 3.0};
    all.push_back(square);
    return all;
}

std::vector<MapConfig> surfaces() {
    MapConfig plane = test::mapOf(70, 50, 16, 10);
    MapConfig torus = plane;
    torus.wrap = true;
    MapConfig sphere = test::mapOf(100, 50, 16, 10);
    sphere.projection = Projection::Equirectangular;
    return {plane, torus, sphere};
}

/// The stack with every layer at `version` (version 5 tiles value and Perlin layers by their
/// lattice on a torus, beside the torus's 4D simplex; version 6 tiles simplex too).
LayerStackParams atVersion(LayerStackParams params, NoiseVersion version) {
    params.base.version = version;
    for (StackedLayer& layer : params.layers) layer.noise.version = version;
    return params;
}

TEST(LayerStackTest, RowsEqualTheReferenceBitForBit) {
    for (const MapConfig& map : surfaces())
        for (const NoiseVersion version : {NoiseVersion::V1, NoiseVersion::V5, NoiseVersion::V6})
        for (const LayerStackParams& stackParams : stacks()) {
            const LayerStackParams params = atVersion(stackParams, version);
            // Value noise has no 4D form before version 5's tiling.
            if (map.wrap && params.layers.size() > 1 && version < NoiseVersion::V5) continue;
            const Surface surface(map);
            const LayerStack stack(params, surface, 99);
            // Odd columns, in an odd order; rows down, repeated and back.
            const std::vector<std::int64_t> cols{3, 4, 5, 40, 41, 0, map.width - 1};
            LayerStackRows rows(stack, cols.data(), cols.size());
            std::vector<double> out(cols.size());
            for (const std::int64_t row : std::vector<std::int64_t>{0, 1, 2, 2, 30, 1, map.height - 1}) {
                rows.row(row, out.data());
                for (std::size_t i = 0; i < cols.size(); ++i)
                    ASSERT_TRUE(sameBits(out[i], stack.sample(cols[i], row)))
                        << "surface " << int(surface.kind()) << ", cell " << cols[i] << ","
                        << row << ": " << out[i] << " vs " << stack.sample(cols[i], row);
            }
        }
}

TEST(LayerStackTest, EveryValueLiesInTheUnitInterval) {
    const MapConfig map = test::mapOf(64, 64, 16, 10);
    const Surface surface(map);
    for (const LayerStackParams& params : stacks()) {
        const LayerStack stack(params, surface, 5);
        for (std::int64_t row = 0; row < 64; row += 3)
            for (std::int64_t col = 0; col < 64; col += 3) {
                const double h = stack.sample(col, row);
                ASSERT_GE(h, 0.0);
                ASSERT_LE(h, 1.0);
            }
    }
}

TEST(LayerStackTest, CombinedRangeHoldsEveryCombinationOfLayerValues) {
    std::mt19937_64 random(17);
    std::uniform_real_distribution<double> weight(-3.0, 3.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int trial = 0; trial < 300; ++trial) {
        LayerStackParams params;
        const int count = 1 + trial % 4;
        for (int i = 0; i < count; ++i)
            params.layers.push_back({test::perlinFbm(), static_cast<Combine>(random() % 4),
                                     weight(random), static_cast<LayerMask>(random() % 2)});
        const ValueRange range = combinedRange(params);
        ASSERT_LE(range.lo, range.hi);
        // Values at the corners of [0, 1]^n and inside: the combination stays in range.
        for (int sample = 0; sample < 64; ++sample) {
            std::vector<double> v(count + 1);
            for (double& x : v) x = sample < 16 ? double(random() % 2) : unit(random);
            double acc = v[0];
            for (int i = 0; i < count; ++i) {
                const StackedLayer& l = params.layers[std::size_t(i)];
                double term = l.weight * v[std::size_t(i) + 1];
                if (l.mask == LayerMask::Base) term *= v[0];
                switch (l.combine) {
                case Combine::Add: acc += term; break;
                case Combine::Multiply: acc *= term; break;
                case Combine::Min: acc = std::min(acc, term); break;
                case Combine::Max: acc = std::max(acc, term); break;
                }
            }
            ASSERT_GE(acc, range.lo - 1e-12) << "trial " << trial;
            ASSERT_LE(acc, range.hi + 1e-12) << "trial " << trial;
        }
    }
}

TEST(LayerStackTest, WeightsThatSumToOneAddWithoutRescaling) {
    LayerStackParams params;
    params.layers.push_back({test::perlinFbm(), Combine::Add, 0.5, LayerMask::None});
    params.layers.push_back({test::perlinFbm(), Combine::Multiply, 2.0 / 3.0, LayerMask::None});
    const ValueRange range = combinedRange(params);
    EXPECT_EQ(range.lo, 0.0);
    EXPECT_EQ(range.hi, 1.0);  // [0, 1.5] times [0, 2/3]
}

TEST(LayerStackTest, FalloffLowersTheEdgesByItsFormulaAndRedistributionIsAPower) {
    const MapConfig map = test::mapOf(61, 41, 16, 10);
    const Surface surface(map);
    LayerStackParams plain;
    plain.base = layer(NoiseKind::Perlin, FractalKind::Fbm, 0.02);
    LayerStackParams shaped = plain;
    shaped.falloff = {Falloff::Radial, 0.75, 2.0};
    shaped.redistribution = 3.0;
    const LayerStack a(plain, surface, 1);
    const LayerStack b(shaped, surface, 1);
    for (std::int64_t row = 0; row < 41; row += 4)
        for (std::int64_t col = 0; col < 61; col += 4) {
            const double x = surface.acrossX(col), y = surface.acrossY(row);
            const double d = std::min(1.0, std::sqrt(x * x + y * y));
            const double expected = std::pow(a.sample(col, row) * (1 - 0.75 * d * d), 3.0);
            EXPECT_NEAR(b.sample(col, row), expected, 1e-12) << col << "," << row;
        }
    // The centre cell is untouched by the falloff (d = 0).
    EXPECT_NEAR(b.sample(30, 20), std::pow(a.sample(30, 20), 3.0), 1e-15);
    EXPECT_EQ(surface.acrossX(30), 0.0);
}

TEST(LayerStackTest, WarpMovesThePatternSmoothly) {
    const MapConfig map = test::mapOf(200, 4, 16, 1);
    const Surface surface(map);
    LayerStackParams plain;
    plain.base = layer(NoiseKind::Simplex, FractalKind::Fbm, 0.02);
    LayerStackParams warped = plain;
    warped.base.warp = {.amplitude = 20.0, .frequency = 0.01, .octaves = 3};
    const LayerStack a(plain, surface, 3);
    const LayerStack b(warped, surface, 3);
    double differs = 0.0, jump = 0.0;
    for (std::int64_t col = 0; col < 200; ++col) {
        differs = std::max(differs, std::fabs(a.sample(col, 1) - b.sample(col, 1)));
        if (col > 0) jump = std::max(jump, std::fabs(b.sample(col, 1) - b.sample(col - 1, 1)));
    }
    EXPECT_GT(differs, 0.05);  // the warp moved the pattern
    EXPECT_LT(jump, 0.1);      // and kept it continuous
    warped.base.warp.amplitude = 0.0;
    const LayerStack c(warped, surface, 3);
    for (std::int64_t col = 0; col < 200; col += 7)
        EXPECT_TRUE(sameBits(c.sample(col, 2), a.sample(col, 2)));
}

TEST(LayerStackTest, EachStackedLayerDrawsItsOwnNoise) {
    const MapConfig map = test::mapOf(32, 8, 16, 10);
    const Surface surface(map);
    LayerStackParams params;
    params.base = layer(NoiseKind::Perlin, FractalKind::Fbm, 0.05);
    // Base, and a stacked copy of it under min: equal noise would give the base back.
    params.layers.push_back({params.base, Combine::Min, 1.0, LayerMask::None});
    const LayerStack stack(params, surface, 11);
    LayerStackParams lone;
    lone.base = params.base;
    const LayerStack base(lone, surface, 11);
    int lower = 0;
    for (std::int64_t col = 0; col < 32; ++col) lower += stack.sample(col, 3) < base.sample(col, 3);
    EXPECT_GT(lower, 4);
}

}  // namespace
}  // namespace terragrid

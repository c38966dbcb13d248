// Tileable layers on their own 2D lattice (NoiseParams::period, tilesByLattice): version 5's
// value and Perlin noise, and version 6's simplex, with the lattice hash on a wrapping map.
// Their rows (and a warped layer's points) equal the reference bit for bit on every SIMD target,
// across the wrap and beyond one period; the field repeats with the period; each octave takes a
// whole number of cells across it; version 6's simplex keeps flat simplex's contrast and scale.

#include "terragrid/noise/noise.hpp"

#include <gtest/gtest.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "noise_test_support.hpp"
#include "sanitizer_build.hpp"
#include "simd_test_support.hpp"

namespace terragrid {
namespace {

using test::OnlyTarget;

constexpr std::array kFractals{FractalKind::None, FractalKind::Fbm, FractalKind::Turbulence,
                               FractalKind::Ridged, FractalKind::Marble};

/// A layer of a tileable map `period` world units wide and high: version 5, or 6 for simplex
/// (the first that tiles it on its lattice).
NoiseParams tiling(NoiseKind noise, FractalKind fractal, std::array<double, 2> period) {
    NoiseParams p = test::perlinFbm();
    p.noise = noise;
    p.fractal = fractal;
    p.version = noise == NoiseKind::Simplex ? NoiseVersion::V6 : NoiseVersion::V5;
    p.period = period;
    p.octaves = 5;
    return p;
}

std::string describe(const NoiseParams& p) {
    return std::string(kNoiseKindNames[int(p.noise)]) + "/" +
           std::string(kFractalKindNames[int(p.fractal)]) + "/" +
           std::string(kFadeCurveNames[int(p.fade)]) + " frequency " + std::to_string(p.frequency) +
           " period " + std::to_string(p.period[0]) + " x " + std::to_string(p.period[1]) +
           (p.warp.amplitude > 0.0 ? " warped" : "");
}

bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Rows of `field` over columns from before 0 to past two periods (negative lattice indices, the
// wrap inside a row, whole periods over), in windows of odd starts and lengths, against sample().
bool rowsEqualSamples(const NoiseField& field, double cell) {
    const double width = field.params().period[0];
    std::vector<double> xs;
    for (double x = -0.7 * width; x < 2.3 * width; x += cell) xs.push_back(x);
    const double height = field.params().period[1];
    std::vector<double> ys;
    for (double y = -0.4 * height; ys.size() < 9; y += 0.31 * height) ys.push_back(y);
    // Rows just above a period's end, in its last lattice row, whose next lattice row is the
    // period's first (simplex: the row pair's second row wraps to the first, moved along x).
    for (double y : {height - 1e-4 * height, -1e-4 * height, 2.0 * height - 3e-5 * height}) ys.push_back(y);
    struct Window {
        std::size_t start, count;
    };
    for (const Window w : {Window{0, xs.size()}, Window{3, 1}, Window{5, 13}, Window{1, 33}}) {
        if (w.start + w.count > xs.size()) continue;
        NoiseRows rows(field, xs.data() + w.start, w.count);
        std::vector<double> out(w.count);
        for (double y : ys) {
            rows.row(y, out.data());
            for (std::size_t i = 0; i < w.count; ++i) {
                const double expected = field.sample(xs[w.start + i], y);
                if (!sameBits(out[i], expected)) {
                    ADD_FAILURE() << describe(field.params()) << ": x " << xs[w.start + i] << ", y " << y
                                  << ": row " << out[i] << " sample " << expected;
                    return false;
                }
            }
        }
    }
    return true;
}

TEST(TilingLatticeTest, RowsEqualSamplesBitForBitOnEveryTarget) {
    // Periods of many cells, of a few (odd, not a multiple of anything), and one where the
    // first octaves round to a single cell across the map.
    const std::array<std::array<double, 2>, 3> periods{{{61440.0, 30720.0}, {3030.0, 5190.0}, {2000.0, 1500.0}}};
    const std::array<double, 3> cells{240.0, 30.0, 25.0};
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex})
            for (FractalKind fractal : kFractals)
                for (FadeCurve fade : test::kFades) {
                    if (test::kAddressSanitizer && fade != FadeCurve::Quintic && fractal != FractalKind::Fbm)
                        continue;
                    if (noise == NoiseKind::Simplex && fade != FadeCurve::Quintic) continue;  // no fade
                    for (std::size_t k = 0; k < periods.size(); ++k) {
                        NoiseParams p = tiling(noise, fractal, periods[k]);
                        p.fade = fade;
                        ASSERT_TRUE(rowsEqualSamples(NoiseField(p, 17 + k), cells[k]));
                    }
                }
        // Warped tiling layers: their warp fields tile too (rows), their moved points wrap in
        // the point kernel (simplex: the reference), far across the period's edges.
        for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex})
            for (std::size_t k = 0; k < periods.size(); ++k) {
                NoiseParams warped = tiling(noise, FractalKind::Fbm, periods[k]);
                warped.warp = {.amplitude = 0.3 * periods[k][0], .frequency = 4.0 / periods[k][0], .octaves = 3};
                ASSERT_TRUE(rowsEqualSamples(NoiseField(warped, 5 + k), cells[k]));
            }
    }
}

// The greatest difference between the field at (x, y) and at the point `period` along `axis`
// (0 or 1), over a grid of points.
double largestChangeAlong(const NoiseField& field, const std::array<double, 2>& period, int axis) {
    double largest = 0.0;
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j) {
            const double x = -period[0] + i * period[0] / 17.0;
            const double y = 0.5 * period[1] + j * period[1] / 23.0;
            const double there = axis == 0 ? field.sample(x + period[0], y) : field.sample(x, y + period[1]);
            largest = std::max(largest, std::fabs(there - field.sample(x, y)));
        }
    return largest;
}

TEST(TilingLatticeTest, TheFieldRepeatsWithThePeriod) {
    for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex})
        for (FractalKind fractal : kFractals) {
            const std::array<double, 2> period{30000.0, 17010.0};
            NoiseParams p = tiling(noise, fractal, period);
            p.warp = {.amplitude = fractal == FractalKind::Fbm ? 2500.0 : 0.0, .frequency = 3e-4, .octaves = 2};
            const NoiseField field(p, 3);
            SCOPED_TRACE(describe(p));
            // Equal up to the rounding of the lattice coordinate a period on.
            EXPECT_LT(largestChangeAlong(field, period, 0), 1e-6);
            EXPECT_LT(largestChangeAlong(field, period, 1), 1e-6);
            // The measure can fail: without the period the field does not repeat.
            p.period = {0.0, 0.0};
            const NoiseField plain(p, 3);
            EXPECT_GT(largestChangeAlong(plain, period, 0), 0.05);
        }
}

TEST(TilingLatticeTest, OnlyVersionFiveValueAndPerlinAndVersionSixSimplexWithTheLatticeHashTile) {
    NoiseParams p = tiling(NoiseKind::Perlin, FractalKind::Fbm, {1000.0, 1000.0});
    EXPECT_TRUE(tilesByLattice(p));
    EXPECT_TRUE(NoiseField(p, 1).tiles());
    p.noise = NoiseKind::Value;
    EXPECT_TRUE(NoiseField(p, 1).tiles());
    for (NoiseKind other : {NoiseKind::Simplex, NoiseKind::GenericLattice, NoiseKind::Cellular}) {
        p.noise = other;
        EXPECT_FALSE(tilesByLattice(p)) << kNoiseKindNames[int(other)];
    }
    p.version = NoiseVersion::V6;
    p.noise = NoiseKind::Simplex;
    EXPECT_TRUE(NoiseField(p, 1).tiles());
    p.hash = HashKind::Permutation;
    EXPECT_FALSE(tilesByLattice(p));
    p.hash = HashKind::Lattice;
    p.noise = NoiseKind::Perlin;
    p.version = NoiseVersion::V5;
    p.noise = NoiseKind::Perlin;
    p.hash = HashKind::Permutation;
    EXPECT_FALSE(tilesByLattice(p));
    p.hash = HashKind::Lattice;
    p.version = NoiseVersion::V4;
    EXPECT_FALSE(tilesByLattice(p));
    p.version = NoiseVersion::V5;
    p.period = {0.0, 0.0};  // a flat map's layer
    EXPECT_FALSE(NoiseField(p, 1).tiles());
}

// A torus point's 4D coordinates do not matter to a tiling layer, only its plane: the same
// field value wherever the point's circles are.
TEST(TilingLatticeTest, ATilingLayerSamplesATorusPointAtItsPlane) {
    const NoiseField field(tiling(NoiseKind::Perlin, FractalKind::Fbm, {9000.0, 6000.0}), 8);
    for (double x : {15.0, 4321.0, 8985.0})
        for (double y : {15.0, 3000.0}) {
            const NoisePoint torus{{1.0, 2.0, 3.0, 4.0}, 4, {x, y}};
            const NoisePoint other{{-7.0, 0.5, 9.0, -1.0}, 4, {x, y}};
            EXPECT_TRUE(sameBits(field.sample(torus), field.sample(x, y)));
            EXPECT_TRUE(sameBits(field.sample(other), field.sample(x, y)));
        }
}

// How many of a row of 200 points two fields give the same bits at.
int agreeing(const NoiseField& a, const NoiseField& b) {
    int same = 0;
    for (int i = 0; i < 200; ++i) {
        const double x = 10.0 + i * 131.0;
        same += sameBits(a.sample(x, 77.0 + i), b.sample(x, 77.0 + i)) ? 1 : 0;
    }
    return same;
}

// Each octave's frequency becomes the nearest whole number of cells across the map, at least
// one: frequencies that round to the same cells give the same field, bit for bit, and one that
// rounds to one cell more gives another.
TEST(TilingLatticeTest, EachOctaveTakesTheNearestWholeCellsAcrossTheMap) {
    const double width = 25600.0;
    const auto field = [&](double cellsAcross) {
        NoiseParams p = tiling(NoiseKind::Perlin, FractalKind::Fbm, {width, 0.75 * width});
        p.frequency = cellsAcross / width;
        return NoiseField(p, 4);
    };
    // 100 and 100.01 cells (and 2, 4, 8, 16 times that for the later octaves) round alike.
    EXPECT_EQ(agreeing(field(100.0), field(100.01)), 200);
    EXPECT_LT(agreeing(field(100.0), field(100.6)), 10);
    // Octaves coarser than the map take one cell: 0.01 .. 0.16 and 0.02 .. 0.32 cells alike.
    EXPECT_EQ(agreeing(field(0.01), field(0.02)), 200);
    // ... and a single cell still varies across the map (it is not constant).
    const NoiseField coarse = field(0.01);
    EXPECT_NE(coarse.sample(100.0, 100.0), coarse.sample(12000.0, 9000.0));
    // The finest octaves stop at 2^30 cells across (indices in 32-bit lanes): a frequency far
    // beyond gives the map of 2^30, its rows still the reference's.
    const NoiseField fine = field(1e15);
    EXPECT_EQ(agreeing(fine, field(1073741824.0 * 1.5)), 200);  // (down the map too: 0.75 of that)
    EXPECT_TRUE(rowsEqualSamples(fine, 7.0));
}

// Version 6's simplex: n = round(f W sqrt(3/2)) edges across and m = round(f H / sqrt 2) row
// pairs down, so the same rounding holds on those numbers.
TEST(TilingLatticeTest, SimplexOctavesTakeTheNearestWholeEdgesAndRowPairs) {
    const double width = 25600.0;
    const auto field = [&](double edgesAcross) {
        NoiseParams p = tiling(NoiseKind::Simplex, FractalKind::Fbm, {width, 0.75 * width});
        p.frequency = edgesAcross / (width * std::sqrt(1.5));
        return NoiseField(p, 4);
    };
    // 100 edges and 43.3 row pairs (75 / sqrt 3), and 100.01 and 43.31: alike; 100.6: not.
    EXPECT_EQ(agreeing(field(100.0), field(100.01)), 200);
    EXPECT_LT(agreeing(field(100.0), field(100.6)), 10);
    // From below too (and 16 times that for the last octave: 1599.52 edges, 692.6 row pairs);
    // 99.4 edges round to 99: not.
    EXPECT_EQ(agreeing(field(100.0), field(99.97)), 200);
    EXPECT_LT(agreeing(field(100.0), field(99.4)), 10);
    const NoiseField fine = field(1e15);  // capped at 2^30 edges and 2^29 row pairs
    EXPECT_EQ(agreeing(fine, field(1e16)), 200);
    EXPECT_TRUE(rowsEqualSamples(fine, 7.0));
}

// The spread of a field's values over a grid of points, and the mean step between neighbours a
// `step` apart: the contrast and the scale of its features.
struct Texture {
    double spread, meanStep;
};

Texture textureOf(const NoiseField& field, double extent, double step) {
    double sum = 0.0, sum2 = 0.0, steps = 0.0;
    int count = 0;
    for (double y = 0.5 * step; y < extent; y += 7.3 * step)
        for (double x = 0.5 * step; x < extent; x += 1.9 * step) {
            const double v = field.sample(x, y);
            sum += v;
            sum2 += v * v;
            steps += std::fabs(field.sample(x + step, y) - v) + std::fabs(field.sample(x, y + step) - v);
            ++count;
        }
    const double mean = sum / count;
    return {std::sqrt(sum2 / count - mean * mean), steps / (2.0 * count)};
}

// A tiling simplex layer is simplex noise at the layer's frequency: the same contrast and the
// same scale of features as the flat layer (within the rounding of its edges and row pairs and
// the sampling's noise). A wrong scale of the fitted lattice (sqrt(3/2) or 1/sqrt 2 left out)
// moves the mean step by a fifth or more.
TEST(TilingLatticeTest, TilingSimplexHasFlatSimplexContrastAndScale) {
    const double extent = 40000.0;
    NoiseParams p = tiling(NoiseKind::Simplex, FractalKind::Fbm, {extent, extent});
    p.frequency = 1.0 / 1500.0;
    const Texture tiled = textureOf(NoiseField(p, 9), extent, 60.0);
    p.period = {0.0, 0.0};
    const Texture flat = textureOf(NoiseField(p, 9), extent, 60.0);
    EXPECT_NEAR(tiled.spread / flat.spread, 1.0, 0.08) << tiled.spread << " " << flat.spread;
    EXPECT_NEAR(tiled.meanStep / flat.meanStep, 1.0, 0.06) << tiled.meanStep << " " << flat.meanStep;
}

}  // namespace
}  // namespace terragrid

// Tests for NoiseRows: the SIMD rows equal the scalar NoiseField::sample bit for bit, for
// every noise, fractal, hash and fade, on every SIMD target this CPU can run, for rows that
// start and end at odd offsets, and for rows in any order.

#include "terragrid/noise/noise.hpp"

#include <gtest/gtest.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "noise/simplex_constants.hpp"
#include "noise_test_support.hpp"
#include "sanitizer_build.hpp"
#include "simd_test_support.hpp"

namespace terragrid {
namespace {

using test::kHashKinds;
using test::kFades;
using test::OnlyTarget;

constexpr std::array kNoiseKinds{NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex,
                                 NoiseKind::GenericLattice, NoiseKind::Cellular};
constexpr std::array kFractals{FractalKind::None, FractalKind::Fbm, FractalKind::Turbulence,
                               FractalKind::Ridged, FractalKind::Marble};

constexpr double kCellSize = 30.0;

constexpr std::array kVersions{NoiseVersion::V1, NoiseVersion::V2, NoiseVersion::V3,
                               NoiseVersion::V4};

// Whether `version` changes the 2D noise `noise` from the version before (versions 2 and 3
// simplex, version 4 value and Perlin): the versions the tests take each noise in.
bool changes(NoiseVersion version, NoiseKind noise) {
    switch (version) {
    case NoiseVersion::V1: return true;
    case NoiseVersion::V4: return noise == NoiseKind::Value || noise == NoiseKind::Perlin;
    default: return noise == NoiseKind::Simplex;
    }
}

// Under AddressSanitizer (tests/sanitizer_build.hpp) the tests below take each fractal with
// the default hash and fade, and each other hash and fade with fBm only: the fractal's sum is
// the same code whatever lattice values the hash and the fade give it, so every kernel still
// runs instrumented with every noise; the whole cross product (about three times the cases:
// 107 s of the ASan suite's 837) is the normal suite's.
bool sampledUnderAsan(FractalKind fractal, HashKind hash, FadeCurve fade) {
    return !test::kAddressSanitizer || fractal == FractalKind::Fbm ||
           (hash == HashKind::Lattice && fade == FadeCurve::Quintic);
}

constexpr std::size_t kColumns = 300;

// Columns of a map far from the origin at an odd offset, so no column lands on a round number.
std::vector<double> columns(double originX, double cellSize = kCellSize) {
    std::vector<double> xs(kColumns);
    for (std::size_t i = 0; i < kColumns; ++i)
        xs[i] = originX + (static_cast<double>(i) + 0.5) * cellSize;
    return xs;
}

// Rows down the map (the cache's common case), a repeat, a jump back, a jump far away, and
// rows going up.
std::vector<double> rowOrder() {
    const double y0 = 7654321.123;
    std::vector<double> ys;
    for (int r = 0; r < 12; ++r) ys.push_back(y0 + (r + 0.5) * kCellSize);
    ys.push_back(ys[5]);
    ys.push_back(ys[0]);
    ys.push_back(-y0 * 3.0);
    for (int r = 5; r > 0; --r) ys.push_back(-5000.0 + (r + 0.5) * kCellSize);
    return ys;
}

// Windows of the columns: whole, one column, shorter than any vector, odd start and length.
struct Window {
    std::size_t start, count;
};
// Whole vectors (32: the kernels write straight into the row) and not.
constexpr std::array kWindows{Window{0, kColumns}, Window{3, 1}, Window{5, 13}, Window{11, 250},
                              Window{0, 8}, Window{1, 17}, Window{7, 32}};

std::string describe(const NoiseParams& p) {
    return "v" + std::to_string(versionNumber(p.version)) + " " +
           std::string(kNoiseKindNames[int(p.noise)]) + "/" +
           std::string(kFractalKindNames[int(p.fractal)]) + "/" +
           std::string(kHashKindNames[int(p.hash)]) + "/" +
           std::string(kFadeCurveNames[int(p.fade)]) +
           (p.noise == NoiseKind::GenericLattice
                ? " proximity " + std::string(kProximityNames[int(p.proximity)]) +
                      " displacement " +
                      std::string(kGridDisplacementNames[int(p.displacement)])
                : std::string()) +
           " frequency " + std::to_string(p.frequency);
}

// Checks every window and row of `field` against the scalar reference; false at the first
// difference (reported).
bool rowsEqualSamples(const NoiseField& field, const std::vector<double>& xs) {
    for (const Window& w : kWindows) {
        NoiseRows rows(field, xs.data() + w.start, w.count);
        std::vector<double> out(w.count);
        for (double y : rowOrder()) {
            rows.row(y, out.data());
            for (std::size_t i = 0; i < w.count; ++i) {
                const double expected = field.sample(xs[w.start + i], y);
                if (std::bit_cast<std::uint64_t>(out[i]) != std::bit_cast<std::uint64_t>(expected)) {
                    ADD_FAILURE() << describe(field.params()) << ": column " << w.start + i
                                  << " of window (" << w.start << ", " << w.count << "), y " << y
                                  << ": row " << out[i] << " sample " << expected;
                    return false;
                }
            }
        }
    }
    return true;
}


TEST(NoiseRowsTest, RowsEqualSamplesBitForBitOnEveryTarget) {
    const std::vector<double> xs = columns(-1234567.891);
    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_FALSE(targets.empty());
    for (std::int64_t target : targets) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (NoiseKind noise : kNoiseKinds) {
            for (FractalKind fractal : kFractals) {
                for (HashKind hash : kHashKinds) {
                    for (FadeCurve fade : kFades) {
                        // Simplex has no fade curve: one pass is enough.
                        if (noise == NoiseKind::Simplex && fade != FadeCurve::Quintic) continue;
                        // Cellular noise has no fade either.
                        if (noise == NoiseKind::Cellular && fade != FadeCurve::Quintic) continue;
                        if (!sampledUnderAsan(fractal, hash, fade)) continue;
                        // Low (many columns per cell), about one cell per column, and several
                        // cells per column (cells skipped between columns).
                        for (double frequency : {1e-4, 3e-2, 0.11})
                          for (NoiseVersion version : kVersions) {
                            if (!changes(version, noise)) continue;
                            NoiseParams p = test::perlinFbm();
                            p.version = version;
                            p.noise = noise;
                            p.fractal = fractal;
                            p.hash = hash;
                            p.fade = fade;
                            p.frequency = frequency;
                            p.octaves = 5;
                            // Non-zero offsets: a row adding offset and shift in another
                            // order rounds differently and fails.
                            p.offsetX = 0.3;
                            p.offsetY = -17.7;
                            ASSERT_TRUE(rowsEqualSamples(NoiseField(p, 7), xs));
                        }
                    }
                }
            }
        }
    }
}

// Eight rows from (originX, originY) down, one cell apart, against sample(); false at the first
// difference (reported).
bool eightRowsEqualSamples(const NoiseField& field, double originX, double originY) {
    const std::vector<double> xs = columns(originX);
    NoiseRows rows(field, xs.data(), xs.size());
    std::vector<double> out(xs.size());
    for (int r = 0; r < 8; ++r) {
        const double y = originY + (r + 0.5) * kCellSize;
        rows.row(y, out.data());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            if (std::bit_cast<std::uint64_t>(out[i]) == std::bit_cast<std::uint64_t>(field.sample(xs[i], y)))
                continue;
            ADD_FAILURE() << "origin (" << originX << ", " << originY << "), column " << i
                          << " row " << r;
            return false;
        }
    }
    return true;
}

// Version 2 simplex splits lattice indices into 32-bit halves, and rows compute the hash key
// of the high halves once per row: rows whose lattice crosses +-2^31 cells (in x and in y,
// where the high half changes) must still equal the scalar reference, and so must rows
// across 0, with many octaves, on every target.
// Version 3 shares the split and its rows check the same condition: the same for it.
class SimplexRowsAcrossHighHalves : public ::testing::TestWithParam<NoiseVersion> {};

TEST_P(SimplexRowsAcrossHighHalves, EqualSamples) {
    NoiseParams p = test::perlinFbm();
    p.noise = NoiseKind::Simplex;
    p.version = GetParam();
    p.octaves = 16;
    p.lacunarity = 1.5;
    // Eight lattice cells per column at the first octave: the 300 columns span 2400 cells,
    // more than the octave's shift (< 256 cells) can move a crossing by.
    p.frequency = 8.0 / kCellSize;
    // The high half (of index + 2^31) changes at index +-2^31: x (1 + F) and x F reach it at
    // different x. Windows across each, and across 0 (where it does not change).
    const double kTwo31 = 2147483648.0;
    const double atA = kTwo31 / simplex::kSkew2 / p.frequency;
    const double atB = kTwo31 / simplex::kF2 / p.frequency;
    const std::vector<double> origins{atA - 150.0 * kCellSize, atB - 150.0 * kCellSize,
                                      -150.0 * kCellSize, -atA - 150.0 * kCellSize,
                                      -atB - 150.0 * kCellSize};
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (double originX : origins) {
            for (double originY : {0.5, atB - 3.0 * kCellSize, -atA - 1.0 * kCellSize}) {
                ASSERT_TRUE(eightRowsEqualSamples(NoiseField(p, 99), originX, originY));
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(NoiseRowsTest, SimplexRowsAcrossHighHalves,
                         ::testing::Values(NoiseVersion::V2, NoiseVersion::V3),
                         [](const auto& info) {
                             return "V" + std::to_string(versionNumber(info.param));
                         });

// Version 4's value and Perlin rows hash with one key per octave, that of high halves 0, so they
// serve only rows whose lattice indices stay within +-(2^31 - 2) and leave the others to the
// scalar reference: rows across that bound in x and in y, with many octaves (each its own
// crossing), must equal sample() on every target, as must rows around 0.
TEST(NoiseRowsTest, VersionFourRowsAcrossTheIndexBoundEqualSamples) {
    NoiseParams p = test::perlinFbm();
    p.version = NoiseVersion::V4;
    p.octaves = 16;
    p.lacunarity = 1.5;
    p.frequency = 8.0 / kCellSize;  // 8 cells per column: 2400 over a row
    const double atBound = 2147483646.0 / p.frequency;
    const std::vector<double> origins{atBound - 150.0 * kCellSize, -150.0 * kCellSize,
                                      -atBound - 150.0 * kCellSize};
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin}) {
            p.noise = noise;
            const NoiseField field(p, 99);
            for (double originX : origins) {
                for (double originY : {0.5, atBound - 3.0 * kCellSize, -atBound - 1.0 * kCellSize})
                    ASSERT_TRUE(eightRowsEqualSamples(field, originX, originY)) << describe(p);
            }
        }
    }
}

// Version 2's SIMD rows take simplex gradients from simplex::kGradX / kGradY / kGradZ as
// (gx x + gy y) + z instead of simplex.cpp's grad2 (hash bits selecting and negating x and y,
// then adding the second term or +0): both must give the same bits for every hash and every
// offset, signed zeros included (zeros are where a selection and a product differ).
TEST(NoiseRowsTest, SimplexGradientTableHasGrad2sBits) {
    const auto grad2 = [](std::uint32_t hash, float x, float y) {  // simplex.cpp's definition
        const bool negate = (hash & 1u) != 0;
        const bool yAxis = (hash & 2u) != 0;
        const bool diagonal = (hash & 4u) != 0;
        const float first = yAxis && !diagonal ? y : x;
        const float second = diagonal ? (yAxis ? -y : y) : 0.0f;
        return (negate ? -first : first) + second;
    };
    const float values[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 0.25f, -0.7071f, 1.0f, -3.5f};
    for (std::uint32_t hash = 0; hash < 8; ++hash)
        for (float x : values)
            for (float y : values) {
                const float table = (simplex::kGradX[hash] * x + simplex::kGradY[hash] * y) +
                                    simplex::kGradZ[hash];
                EXPECT_EQ(std::bit_cast<std::uint32_t>(table),
                          std::bit_cast<std::uint32_t>(grad2(hash, x, y)))
                    << "hash " << hash << " x " << x << " y " << y;
            }
}

// A warped layer's seed, octaves, frequency, warp, and the first column of its rows.
struct WarpCase {
    std::uint64_t seed;
    int octaves;
    double frequency;
    WarpParams warp;
    double originX;
    double cellSize;  ///< world units between columns
};

bool warpedRowsEqualSamples(NoiseParams p, const WarpCase& c) {
    p.frequency = c.frequency;
    p.octaves = c.octaves;
    p.offsetX = 0.3;
    p.offsetY = -17.7;
    p.warp = c.warp;
    SCOPED_TRACE(testing::Message() << "origin " << c.originX << ", seed " << c.seed);
    return rowsEqualSamples(NoiseField(p, c.seed), columns(c.originX, c.cellSize));
}

// A layer whose rows run the point kernels (generic lattice, cellular): its rows at a low and a
// high frequency (one cell per vector, cells smaller than a column), then warped.
bool pointRowsEqualSamples(NoiseParams p) {
    const WarpCase warped{5, 7, 3e-3, {.amplitude = 250.0, .frequency = 2e-3, .octaves = 4},
                          -1234567.891, kCellSize};
    const std::vector<double> xs = columns(-1234567.891);
    p.offsetX = 0.3;
    p.offsetY = -17.7;
    for (double frequency : {1e-4, 0.11}) {
        p.frequency = frequency;
        if (!rowsEqualSamples(NoiseField(p, 7), xs)) return false;
    }
    return warpedRowsEqualSamples(p, warped);
}

// A warped layer evaluates its noise at points each moved its own way: the point kernels
// (every noise, simplex in versions 1, 2 and 3, value and Perlin in version 4, and version 4's
// warp fields beside simplex; every fractal, marble's stripes added to the
// kernels' turbulence at each moved x) must equal sample() for every hash and fade, with warps
// strong enough that neighbouring columns land cells apart, far from the origin on both sides
// (lattice indices beyond 32 bits included), for several seeds, octave counts and frequencies.
TEST(NoiseRowsTest, WarpedRowsEqualSamplesOnEveryTarget) {
    const std::array cases{
        WarpCase{5, 7, 3e-3, {.amplitude = 250.0, .frequency = 2e-3, .octaves = 4}, -1234567.891,
                 kCellSize},
        WarpCase{17, 3, 0.11, {.amplitude = 5000.0, .frequency = 1e-2, .octaves = 2}, 15.0,
                 kCellSize},
        WarpCase{0xDEADBEEFCAFEULL, 8, 1e-4, {.amplitude = 1e5, .frequency = 3e-5, .octaves = 5},
                 3.3e7, kCellSize},
        // Lattice indices near -2^32: the int64 split must not truncate to 32 bits.
        WarpCase{99, 2, 1.0, {.amplitude = 40.0, .frequency = 0.05, .octaves = 1}, -4.3e9,
                 kCellSize},
        // Lattice indices beyond 2^51, where the point kernels' fast int64 conversion (below
        // AVX-512) gives way to the general one.
        WarpCase{3, 2, 1.0, {.amplitude = 40.0, .frequency = 0.05, .octaves = 1}, 3.1e15,
                 kCellSize},
        // Version 2's x (1 + F) + y F crosses 2^31, where its hash key's high half changes, on
        // the rows near y = -5000 (whatever the octave's shift), two cells per column: some
        // points lie in the cell just below, whose far corners take another key.
        WarpCase{7, 1, 1.0, {.amplitude = 40.0, .frequency = 0.05, .octaves = 1}, 1572068067.18,
                 1.5},
        // Version 4's points across its index bound (2^31 - 2, whatever the shift below 256):
        // vectors within it split without checks, vectors across it check every lane and
        // leave those beyond it to the reference.
        WarpCase{11, 1, 1.0, {.amplitude = 40.0, .frequency = 0.05, .octaves = 1}, 2147483346.0,
                 1.5},
    };
    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    for (std::int64_t target : targets) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        std::size_t next = 0;
        for (NoiseKind noise : kNoiseKinds) {
            for (NoiseVersion version : kVersions) {
                // Version 4's warp fields are version 4 Perlin: it changes every warped layer.
                // Simplex takes them (its points kernel beside version 4's warp rows); generic
                // lattice and cellular would repeat that at twice the cost under ASan.
                const bool v4Warp = version == NoiseVersion::V4 && noise == NoiseKind::Simplex;
                if (!changes(version, noise) && !v4Warp) continue;
                for (FractalKind fractal : kFractals) {
                    for (HashKind hash : kHashKinds) {
                        for (FadeCurve fade : kFades) {
                            // Simplex and cellular noise have no fade: one pass is enough.
                            if ((noise == NoiseKind::Simplex || noise == NoiseKind::Cellular) &&
                                fade != FadeCurve::Quintic)
                                continue;
                            if (!sampledUnderAsan(fractal, hash, fade)) continue;
                            NoiseParams p = test::perlinFbm();
                            p.noise = noise;
                            p.version = version;
                            p.fractal = fractal;
                            p.hash = hash;
                            p.fade = fade;
                            // The default hash and fade meet every case, the others take the
                            // cases in turn.
                            if (hash == HashKind::Lattice && fade == FadeCurve::Quintic) {
                                for (const WarpCase& c : cases)
                                    ASSERT_TRUE(warpedRowsEqualSamples(p, c));
                            } else {
                                ASSERT_TRUE(warpedRowsEqualSamples(p, cases[next++ % cases.size()]));
                            }
                        }
                    }
                }
            }
        }
    }
}

// Generic lattice noise has no separable form, so its rows run the point kernels (every lane
// its own point, as for a warped layer): on every target they must equal sample() for every
// proximity (each its own formula, signed zeros included), grid displacement and fractal;
// hashes and fades on fBm; unwarped and warped, at a low and a high frequency.
TEST(NoiseRowsTest, GenericLatticeRowsEqualSamplesOnEveryTarget) {
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (Proximity proximity : {Proximity::Constant, Proximity::Gradient,
                                    Proximity::Triangular, Proximity::Ridged,
                                    Proximity::SemiRidged}) {
            for (GridDisplacement displacement :
                 {GridDisplacement::None, GridDisplacement::Half, GridDisplacement::Quarter}) {
                for (FractalKind fractal : kFractals) {
                    for (HashKind hash : kHashKinds) {
                        for (FadeCurve fade : kFades) {
                            const bool defaults =
                                hash == HashKind::Lattice && fade == FadeCurve::Quintic;
                            if (!defaults && (fractal != FractalKind::Fbm ||
                                              displacement != GridDisplacement::None))
                                continue;
                            NoiseParams p = test::perlinFbm();
                            p.noise = NoiseKind::GenericLattice;
                            p.proximity = proximity;
                            p.displacement = displacement;
                            p.fractal = fractal;
                            p.hash = hash;
                            p.fade = fade;
                            p.octaves = 5;
                            ASSERT_TRUE(pointRowsEqualSamples(p));
                        }
                    }
                }
            }
        }
    }
}

// Cellular noise's rows run the point kernels too: the feature points from the reference's own
// function, the distances, the two nearest and the outer ring's skip test in lanes. On every
// target they must equal sample() for every return, metric and a range of jitters (0: a
// regular grid, where distances tie; 1: points anywhere, where the outer ring is searched),
// unwarped at a low and a high frequency (one cell per vector, cells smaller than a column)
// and warped; the other hashes with the defaults. (The fractals are the same sum for every
// noise: the test above runs each on cellular noise too.)
TEST(NoiseRowsTest, CellularRowsEqualSamplesOnEveryTarget) {
    const auto check = [&](CellularReturn r, CellularDistance metric, double jitter,
                           HashKind hash) {
        NoiseParams p = test::perlinFbm();
        p.noise = NoiseKind::Cellular;
        p.cellularReturn = r;
        p.cellularDistance = metric;
        p.cellularJitter = jitter;
        p.hash = hash;
        p.octaves = 4;
        SCOPED_TRACE(testing::Message() << "return " << kCellularReturnNames[int(r)] << ", "
                                        << kCellularDistanceNames[int(metric)] << ", jitter "
                                        << jitter << ", hash " << kHashKindNames[int(hash)]);
        return pointRowsEqualSamples(p);
    };
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (CellularReturn r : {CellularReturn::F1, CellularReturn::F2, CellularReturn::F2MinusF1})
            for (CellularDistance metric :
                 {CellularDistance::Euclidean, CellularDistance::Manhattan})
                for (double jitter : {0.0, 0.3, 0.75, 1.0})
                    ASSERT_TRUE(check(r, metric, jitter, HashKind::Lattice));
        for (HashKind hash : {HashKind::Permutation, HashKind::Reference})
            ASSERT_TRUE(check(CellularReturn::F1, CellularDistance::Euclidean, 1.0, hash));
    }
}

// The tests above would pass vacuously if the CPU offered one target only; on x86-64 Highway
// always builds several, and every machine we run on has at least SSE4 and the emulated one.
TEST(NoiseRowsTest, SeveralTargetsAreChecked) {
    EXPECT_GE(hwy::SupportedAndGeneratedTargets().size(), 2u);
}

TEST(NoiseRowsTest, SampleRowIsTheSameRow) {
    NoiseParams p = test::perlinFbm();
    p.noise = NoiseKind::Perlin;
    const NoiseField field(p, 11);
    const std::vector<double> xs = columns(1000.0);
    std::vector<double> a(kColumns), b(kColumns);
    field.sampleRow(xs.data(), kColumns, 12345.0, a.data());
    NoiseRows rows(field, xs.data(), kColumns);
    rows.row(12345.0, b.data());
    EXPECT_EQ(a, b);
    EXPECT_EQ(rows.size(), kColumns);
}

}  // namespace
}  // namespace terragrid

// Tests for CurvedRows: the SIMD rows of planets (3D, a sphere) and tileable maps (4D, a torus)
// equal the scalar NoiseField::sample bit for bit, for every 3D / 4D noise, fractal, hash and
// fade, in noise versions 2 (double lanes, curved_rows_kernels.cpp) and 4 (float lanes,
// curved_v4_rows.cpp), on every SIMD target this CPU can run; for windows that start mid-map,
// odd widths, rows in any order (the cell cache carries from row to row) and points far from
// the origin.

#include "terragrid/noise/curved_rows.hpp"

#include <gtest/gtest.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "noise_test_support.hpp"
#include "sanitizer_build.hpp"
#include "simd_test_support.hpp"

namespace terragrid {
namespace {

using test::kFades;
using test::OnlyTarget;
using test::kHashKinds;

constexpr std::array kFractals{FractalKind::None, FractalKind::Fbm, FractalKind::Turbulence,
                               FractalKind::Ridged, FractalKind::Marble};

/// Columns and rows of a 4096 x 2048 map with 30 world-unit cells, as surface.hpp places them.
constexpr double kWidth = 4096;
constexpr double kHeight = 2048;
constexpr std::size_t kColumns = 300;
constexpr std::int64_t kFirstColumn = 1777;  // mid-map

double turn(double index, double count) { return 2.0 * std::numbers::pi * (index + 0.5) / count; }

struct Geometry {
    CurvedShape shape;
    double radius;  ///< of the sphere, or of both circles of the torus
    std::vector<double> a, b;
};

Geometry geometry(CurvedShape shape, double radius) {
    Geometry g{shape, radius, {}, {}};
    for (std::size_t i = 0; i < kColumns; ++i) {
        const double t = turn(static_cast<double>(kFirstColumn) + static_cast<double>(i), kWidth);
        if (shape == CurvedShape::Sphere) {
            g.a.push_back(std::cos(t - std::numbers::pi));
            g.b.push_back(std::sin(t - std::numbers::pi));
        } else {
            g.a.push_back(radius * std::cos(t));
            g.b.push_back(radius * std::sin(t));
        }
    }
    return g;
}

/// A row's pair (A, B): latitude on the sphere, the second circle on the torus.
std::array<double, 2> rowPart(const Geometry& g, std::int64_t row) {
    if (g.shape == CurvedShape::Sphere) {
        const double lat = std::numbers::pi / 2.0 - turn(static_cast<double>(row), kHeight) / 2.0;
        return {g.radius * std::cos(lat), g.radius * std::sin(lat)};
    }
    const double p = turn(static_cast<double>(row), kHeight);
    return {g.radius * std::cos(p), g.radius * std::sin(p)};
}

NoisePoint pointOf(const Geometry& g, std::size_t column, const std::array<double, 2>& row) {
    if (g.shape == CurvedShape::Sphere)
        return {{row[0] * g.a[column], row[0] * g.b[column], row[1], 0.0}, 3};
    return {{g.a[column], g.b[column], row[0], row[1]}, 4};
}

/// Rows down the map (the cache's common case), a repeat, a jump back, the poles, the equator
/// and rows going up.
const std::vector<std::int64_t> kRows{900, 901, 902, 903, 904, 904, 900, 0, 1, 2047, 1024, 1023,
                                      1022, 300};

struct Window {
    std::size_t start, count;
};
constexpr std::array kWindows{Window{0, kColumns}, Window{5, 13}, Window{1, 17}, Window{7, 1}};

std::string describe(const NoiseParams& p, const Geometry& g) {
    return std::string(g.shape == CurvedShape::Sphere ? "sphere" : "torus") + " radius " +
           std::to_string(g.radius) + " " + std::string(kNoiseKindNames[int(p.noise)]) + "/" +
           std::string(kFractalKindNames[int(p.fractal)]) + "/" +
           std::string(kHashKindNames[int(p.hash)]) + "/" +
           std::string(kFadeCurveNames[int(p.fade)]) + " frequency " +
           std::to_string(p.frequency) + " octaves " + std::to_string(p.octaves);
}

// Every window and row of `field` against the scalar reference; false at the first
// difference (reported).
bool rowsEqualSamples(const NoiseField& field, const Geometry& g) {
    for (const Window& w : kWindows) {
        CurvedRows rows(field, g.shape, g.a.data() + w.start, g.b.data() + w.start, w.count);
        std::vector<double> out(w.count);
        for (std::int64_t r : kRows) {
            const std::array<double, 2> part = rowPart(g, r);
            rows.row(part[0], part[1], out.data());
            for (std::size_t i = 0; i < w.count; ++i) {
                const double expected = field.sample(pointOf(g, w.start + i, part));
                if (std::bit_cast<std::uint64_t>(out[i]) != std::bit_cast<std::uint64_t>(expected)) {
                    ADD_FAILURE() << describe(field.params(), g) << ": column " << w.start + i
                                  << " of window (" << w.start << ", " << w.count << "), row " << r
                                  << ": row " << out[i] << " sample " << expected;
                    return false;
                }
            }
        }
    }
    return true;
}


void checkShape(CurvedShape shape, NoiseVersion version) {
    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_FALSE(targets.empty());
    const int dimensions = shape == CurvedShape::Sphere ? 3 : 4;
    // The map's own radius (4096 cells of 30 units round the equator), and a planet so big that
    // its points lie millions of units from the origin.
    const double mapRadius = kWidth * 30.0 / (2.0 * std::numbers::pi);
    const std::array geometries{geometry(shape, mapRadius), geometry(shape, 3.3e6)};
    for (std::int64_t target : targets) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex}) {
            if (!hasDimensions(noise, dimensions)) continue;
            for (FractalKind fractal : kFractals) {
                for (HashKind hash : kHashKinds) {
                    for (FadeCurve fade : kFades) {
                        // Simplex has no fade; the permutation hashes share the lattice
                        // hash's fade code, so one fade checks them.
                        if ((noise == NoiseKind::Simplex || hash != HashKind::Lattice) &&
                            fade != FadeCurve::Quintic)
                            continue;
                        // Many columns and rows per cell, about one, and several cells per
                        // column (lanes of one vector in different cells). Under ASan not the
                        // first: its 8 octaves were most of these tests' 50 s there, and the
                        // kernels read and write the same lanes at any frequency.
                        for (double frequency : {1e-4, 3e-2, 0.11}) {
                            if (test::kAddressSanitizer && frequency < 1e-3) continue;
                            NoiseParams p = test::perlinFbm();
                            p.noise = noise;
                            p.fractal = fractal;
                            p.hash = hash;
                            p.fade = fade;
                            p.frequency = frequency;
                            p.octaves = frequency < 1e-3 ? 8 : 3;
                            p.version = version;
                            // Offsets move x and y only: a row adding them in another order,
                            // or to z and w, rounds differently and fails.
                            p.offsetX = 0.3;
                            p.offsetY = -17.7;
                            const std::uint64_t seed = 7 + static_cast<std::uint64_t>(frequency * 1e4);
                            for (const Geometry& g : geometries)
                                ASSERT_TRUE(rowsEqualSamples(NoiseField(p, seed), g));
                        }
                    }
                }
            }
        }
    }
}

TEST(CurvedRowsTest, PlanetRowsEqualSamplesBitForBitOnEveryTarget) {
    checkShape(CurvedShape::Sphere, NoiseVersion::V2);
}

TEST(CurvedRowsTest, TileableRowsEqualSamplesBitForBitOnEveryTarget) {
    checkShape(CurvedShape::Torus, NoiseVersion::V2);
}

TEST(CurvedRowsTest, VersionFourPlanetRowsEqualSamplesBitForBitOnEveryTarget) {
    checkShape(CurvedShape::Sphere, NoiseVersion::V4);
}

TEST(CurvedRowsTest, VersionFourTileableRowsEqualSamplesBitForBitOnEveryTarget) {
    checkShape(CurvedShape::Torus, NoiseVersion::V4);
}

// Version 4's lanes hash every corner with the key of high index halves 0: a row whose lattice
// indices reach 2^31 - 2 is computed by the reference instead. The offset puts x's indices of a
// window's rows on both sides of that bound and of 2^31, where the high half and so the key
// change: rows of one rows object take either path.
TEST(CurvedRowsTest, VersionFourRowsBeyondTheHashBoundStillEqualSamples) {
    const double radius = kWidth * 30.0 / (2.0 * std::numbers::pi);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex})
            for (CurvedShape shape : {CurvedShape::Sphere, CurvedShape::Torus}) {
                if (!hasDimensions(noise, shape == CurvedShape::Sphere ? 3 : 4)) continue;
                NoiseParams p = test::perlinFbm();
                p.noise = noise;
                p.version = NoiseVersion::V4;
                p.frequency = 3e-3;
                p.offsetX = 2147483600.0;  // 2^31 - 48; the map's x reaches +-58 cells
                ASSERT_TRUE(rowsEqualSamples(NoiseField(p, 5), geometry(shape, radius)));
                // Warped: moved points beyond the bound leave their rows to the reference.
                p.warp = {.amplitude = 20000.0, .frequency = 2e-4, .octaves = 2};
                ASSERT_TRUE(rowsEqualSamples(NoiseField(p, 5), geometry(shape, radius)));
            }
    }
}

// A warped layer moves each point its own way: its warp fields come from their own rows (SIMD),
// the layer at the moved points from version 4's point kernels on a planet (every axis in the
// lanes) or the reference, and the whole equals sample(): every noise with a 3D and 4D form,
// versions 2 and 4, marble (its stripes at the moved point), a warp within a cell and one of
// many cells, every target.
TEST(CurvedRowsTest, WarpedLayersEqualSamplesOnEveryTarget) {
    const double radius = kWidth * 30.0 / (2.0 * std::numbers::pi);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (NoiseVersion version : {NoiseVersion::V2, NoiseVersion::V4})
            for (NoiseKind noise : {NoiseKind::Value, NoiseKind::Perlin, NoiseKind::Simplex})
                for (FractalKind fractal : {FractalKind::Fbm, FractalKind::Marble})
                    for (CurvedShape shape : {CurvedShape::Sphere, CurvedShape::Torus}) {
                        if (!hasDimensions(noise, shape == CurvedShape::Sphere ? 3 : 4)) continue;
                        NoiseParams p = test::perlinFbm();
                        p.noise = noise;
                        p.fractal = fractal;
                        p.version = version;
                        p.octaves = 3;
                        for (double amplitude : {400.0, 40000.0}) {
                            p.warp = {.amplitude = amplitude, .frequency = 2e-4, .octaves = 2};
                            ASSERT_TRUE(rowsEqualSamples(NoiseField(p, 3), geometry(shape, radius)));
                        }
                    }
    }
}

// The checks above would pass vacuously if rows never left a cell, or if only one target ran.
TEST(CurvedRowsTest, TheChecksReachSeveralTargetsAndManyCells) {
    EXPECT_GE(hwy::SupportedAndGeneratedTargets().size(), 2u);
    // At 0.11 cycles per unit a 30-unit cell crosses 3 lattice cells: neighbouring lanes differ.
    const Geometry g = geometry(CurvedShape::Sphere, kWidth * 30.0 / (2.0 * std::numbers::pi));
    const std::array<double, 2> part = rowPart(g, 900);
    const NoisePoint first = pointOf(g, 0, part);
    const NoisePoint second = pointOf(g, 1, part);
    EXPECT_GT(std::floor(first.at[0] * 0.11) != std::floor(second.at[0] * 0.11) ||
                  std::floor(first.at[1] * 0.11) != std::floor(second.at[1] * 0.11),
              0);
}

}  // namespace
}  // namespace terragrid

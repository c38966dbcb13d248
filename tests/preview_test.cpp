// The picture math behind preview.png and height.png: downsampling, hill shading, the ramp.

#include "io/png/preview.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

namespace terragrid {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

constexpr double kDegrees = std::numbers::pi / 180.0;

// ---------------------------------------------------------------------------------------------
// Geometry

TEST(PreviewGeometryTest, ScaleIsTheSmallestIntegerThatFits) {
    EXPECT_EQ(previewGeometry(300, 200, 64), (PreviewGeometry{5, 60, 40}));
    EXPECT_EQ(previewGeometry(301, 200, 64), (PreviewGeometry{5, 61, 40}));
    EXPECT_EQ(previewGeometry(200, 300, 64), (PreviewGeometry{5, 40, 60}));
    EXPECT_EQ(previewGeometry(100, 70, 128), (PreviewGeometry{1, 100, 70}));
    EXPECT_EQ(previewGeometry(64, 64, 64), (PreviewGeometry{1, 64, 64}));
    EXPECT_EQ(previewGeometry(65, 10, 64), (PreviewGeometry{2, 33, 5}));
    EXPECT_EQ(previewGeometry(1, 1, 1), (PreviewGeometry{1, 1, 1}));
    EXPECT_THROW(previewGeometry(0, 10, 64), std::invalid_argument);
    EXPECT_THROW(previewGeometry(10, 10, 0), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Downsampling

// Adds a width x height map in tiles of `tile` cells, in the given order of tile indices.
void addInTiles(PreviewDownsampler& sampler, const std::vector<float>& heights,
                const std::vector<std::uint8_t>& classes, std::int64_t width,
                std::int64_t height, std::int64_t tile, bool reversed = false) {
    std::vector<TileRect> rects;
    for (std::int64_t r = 0; r < height; r += tile) {
        for (std::int64_t c = 0; c < width; c += tile) {
            rects.push_back({static_cast<std::int64_t>(rects.size()), c, r,
                             std::min(tile, width - c), std::min(tile, height - r)});
        }
    }
    if (reversed) std::reverse(rects.begin(), rects.end());
    for (const TileRect& rect : rects) {
        std::vector<float> h;
        std::vector<std::uint8_t> k;
        for (std::int64_t y = rect.row0; y < rect.row0 + rect.height; ++y) {
            for (std::int64_t x = rect.col0; x < rect.col0 + rect.width; ++x) {
                h.push_back(heights[static_cast<std::size_t>(y * width + x)]);
                if (!classes.empty()) k.push_back(classes[static_cast<std::size_t>(y * width + x)]);
            }
        }
        sampler.add(rect, h.data(), classes.empty() ? nullptr : k.data());
    }
}

TEST(PreviewDownsamplerTest, MeansOfBlocksAndClassesOfCentreCells) {
    // 7 x 5 cells at scale 3: pixels cover 3x3, 3x3, 1x3 / 3x2, 3x2, 1x2 cells.
    const std::int64_t w = 7, h = 5;
    std::vector<float> heights;
    std::vector<std::uint8_t> classes;
    for (std::int64_t r = 0; r < h; ++r) {
        for (std::int64_t c = 0; c < w; ++c) {
            heights.push_back(static_cast<float>(10 * r + c));
            classes.push_back(static_cast<std::uint8_t>(10 * r + c));
        }
    }
    PreviewDownsampler sampler(w, h, 3, 100.0, true);
    ASSERT_EQ(sampler.geometry(), (PreviewGeometry{3, 3, 2}));
    addInTiles(sampler, heights, classes, w, h, 2);
    EXPECT_THAT(sampler.meanHeights(), ElementsAre(11.0, 14.0, 16.0,  // rows 0-2
                                                   36.0, 39.0, 41.0));  // rows 3-4
    // Centre offset 3 / 2 = 1; clipped to the last column (6) and row (4).
    EXPECT_THAT(sampler.classes(), ElementsAre(11, 14, 16, 41, 44, 46));
}

TEST(PreviewDownsamplerTest, WithoutClassesKeepsNone) {
    PreviewDownsampler sampler(4, 4, 2, 10.0, false);
    addInTiles(sampler, std::vector<float>(16, 2.5f), {}, 4, 4, 4);
    EXPECT_TRUE(sampler.classes().empty());
    EXPECT_THAT(sampler.meanHeights(), Each(2.5));
}

// Values whose double sums would round differently in another order without the
// quantisation: tiny and large magnitudes side by side.
TEST(PreviewDownsamplerTest, ResultDoesNotDependOnTilesOrOrder) {
    const std::int64_t w = 150, h = 110;
    std::vector<float> heights;
    std::mt19937 random(5);
    std::uniform_real_distribution<float> large(-9999.0f, 9999.0f);
    std::uniform_real_distribution<float> small(-1e-6f, 1e-6f);
    for (std::int64_t i = 0; i < w * h; ++i) heights.push_back(i % 3 ? large(random) : small(random));
    std::vector<double> first;
    for (const std::int64_t tile : {7, 16, 64, 150}) {
        for (const bool reversed : {false, true}) {
            PreviewDownsampler sampler(w, h, 16, 10000.0, false);
            addInTiles(sampler, heights, {}, w, h, tile, reversed);
            const std::vector<double> means = sampler.meanHeights();
            if (first.empty()) first = means;
            ASSERT_TRUE(means == first) << "tile " << tile << (reversed ? " reversed" : "");
        }
    }
    // And the quantisation is invisible: every mean is within 1e-9 m of the exact one.
    const PreviewGeometry g = previewGeometry(w, h, 16);
    for (std::int64_t py = 0; py < g.height; ++py) {
        for (std::int64_t px = 0; px < g.width; ++px) {
            long double sum = 0;
            int n = 0;
            for (std::int64_t y = py * g.scale; y < std::min(h, (py + 1) * g.scale); ++y) {
                for (std::int64_t x = px * g.scale; x < std::min(w, (px + 1) * g.scale); ++x) {
                    sum += heights[static_cast<std::size_t>(y * w + x)];
                    ++n;
                }
            }
            ASSERT_NEAR(first[static_cast<std::size_t>(py * g.width + px)],
                        static_cast<double>(sum / n), 1e-9);
        }
    }
}

TEST(PreviewDownsamplerTest, MissingCellsAreReported) {
    PreviewDownsampler sampler(10, 10, 5, 10.0, false);
    const std::vector<float> cells(50, 1.0f);
    sampler.add({0, 0, 0, 10, 4}, cells.data(), nullptr);  // pixel rows 0 and 1 only
    EXPECT_THAT([&] { sampler.meanHeights(); },
                ThrowsMessage<std::logic_error>(HasSubstr("received 0 of its 4 cells")));
    EXPECT_THROW(sampler.add({1, 5, 5, 10, 5}, cells.data(), nullptr), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Hill shade

// ESRI's formulation of the same quantity, from slope and aspect.
double trigShade(double dzEast, double dzSouth, const Sun& sun) {
    const double zenith = (90.0 - sun.altitudeDegrees) * kDegrees;
    const double azimuth = (360.0 - sun.azimuthDegrees + 90.0) * kDegrees;
    const double slope = std::atan(std::hypot(dzEast, dzSouth));
    const double aspect = std::atan2(dzSouth, -dzEast);
    return std::max(0.0, std::cos(zenith) * std::cos(slope) +
                             std::sin(zenith) * std::sin(slope) * std::cos(azimuth - aspect));
}

// A plane z = a * col + b * row on a 5x5 grid; returns the centre pixel's shade.
double planeShade(double a, double b, double pixelSize, const Sun& sun = {}) {
    std::vector<double> heights;
    for (int r = 0; r < 5; ++r) {
        for (int c = 0; c < 5; ++c) heights.push_back(a * c + b * r);
    }
    return hillshade(heights, 5, 5, pixelSize, sun)[12];
}

TEST(HillshadeTest, FlatSurfaceIsSinOfAltitude) {
    for (const double altitude : {45.0, 30.0, 60.0, 90.0}) {
        const Sun sun{315.0, altitude};
        const std::vector<double> shade = hillshade(std::vector<double>(12, 123.0), 4, 3, 30.0, sun);
        EXPECT_THAT(shade, Each(::testing::DoubleEq(std::sin(altitude * kDegrees))))
            << "altitude " << altitude;
    }
    EXPECT_DOUBLE_EQ(hillshade({7.0}, 1, 1, 1.0)[0], std::sin(45.0 * kDegrees));
}

TEST(HillshadeTest, AgreesWithSlopeAndAspectFormula) {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> gradient(-3.0, 3.0);
    for (int i = 0; i < 200; ++i) {
        const double a = gradient(random), b = gradient(random);
        const Sun sun{std::fmod(i * 37.0, 360.0), 20.0 + i % 60};
        // Pixel size 2: dz/dx = a / 2 east, b / 2 south.
        EXPECT_NEAR(planeShade(a, b, 2.0, sun), trigShade(a / 2, b / 2, sun), 1e-12)
            << a << ", " << b;
    }
}

TEST(HillshadeTest, SlopeFacingTheSunIsBrighterThanOneFacingAway) {
    // Rising to the south-east faces north-west, where the default sun stands.
    const double facing = planeShade(1.0, 1.0, 1.0);
    const double away = planeShade(-1.0, -1.0, 1.0);
    const double flat = planeShade(0.0, 0.0, 1.0);
    EXPECT_GT(facing, flat);
    EXPECT_LT(away, flat);
    // A slope of 45 degrees facing a sun 45 degrees up meets its rays square on.
    EXPECT_NEAR(planeShade(std::sqrt(0.5), std::sqrt(0.5), 1.0), 1.0, 1e-12);
    // Steeper than the sun is high, facing away: in its own shadow.
    EXPECT_EQ(planeShade(-5.0, -5.0, 1.0), 0.0);
}

TEST(HillshadeTest, PixelSizeScalesTheSlope) {
    EXPECT_DOUBLE_EQ(planeShade(10.0, 0.0, 10.0), planeShade(1.0, 0.0, 1.0));
    EXPECT_GT(std::abs(planeShade(10.0, 0.0, 100.0) - planeShade(0.0, 0.0, 1.0)), 0.0);
    EXPECT_LT(std::abs(planeShade(10.0, 0.0, 100.0) - planeShade(0.0, 0.0, 1.0)),
              std::abs(planeShade(10.0, 0.0, 10.0) - planeShade(0.0, 0.0, 1.0)));
}

TEST(HillshadeTest, EdgesReuseTheNearestPixels) {
    // A single ridge column at the left edge: its own pixel sees the clamped neighbours as
    // itself, so the slope there is half the interior's (one pixel apart, not two).
    const std::vector<double> heights = {0, 1, 2, 0, 1, 2, 0, 1, 2};  // z = col, 3x3
    const std::vector<double> shade = hillshade(heights, 3, 3, 1.0);
    EXPECT_DOUBLE_EQ(shade[0], planeShade(0.5, 0.0, 1.0));
    EXPECT_DOUBLE_EQ(shade[4], planeShade(1.0, 0.0, 1.0));
    EXPECT_DOUBLE_EQ(shade[0], shade[2]);
    EXPECT_THROW(hillshade(heights, 2, 3, 1.0), std::invalid_argument);
}

// Every pixel's shade is a function of its 3 x 3 neighbourhood, the picture's edge pixels
// reused beyond it: the same bits as the centre of a 3 x 3 picture of those heights, for
// pictures of any shape (inner pixels, edges, corners, pictures one pixel wide or high).
TEST(HillshadeTest, APixelsShadeIsItsNeighbourhoodsWhateverThePicturesShape) {
    std::mt19937 random(5);
    std::uniform_real_distribution<double> z(-50.0, 900.0);
    const std::pair<std::int64_t, std::int64_t> shapes[] = {{1, 1}, {1, 5}, {5, 1}, {2, 2},
                                                            {3, 3}, {7, 4}, {16, 9}};
    for (const auto& [w, h] : shapes) {
        std::vector<double> heights(static_cast<std::size_t>(w * h));
        for (double& v : heights) v = z(random);
        const std::vector<double> shade = hillshade(heights, w, h, 30.0);
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                std::vector<double> around;
                for (std::int64_t dy = -1; dy <= 1; ++dy)
                    for (std::int64_t dx = -1; dx <= 1; ++dx) {
                        const std::int64_t cx = std::clamp<std::int64_t>(x + dx, 0, w - 1);
                        const std::int64_t cy = std::clamp<std::int64_t>(y + dy, 0, h - 1);
                        around.push_back(heights[static_cast<std::size_t>(cy * w + cx)]);
                    }
                ASSERT_EQ(shade[static_cast<std::size_t>(y * w + x)], hillshade(around, 3, 3, 30.0)[4])
                    << w << "x" << h << " at " << x << "," << y;
            }
    }
}

// ---------------------------------------------------------------------------------------------
// Colour ramp and shading

bool sameColour(const ColourF& c, const Rgb& stop) {
    return c.r == stop.r && c.g == stop.g && c.b == stop.b;
}

TEST(HypsometricColourTest, EndpointsAndStopsAreTheStopColours) {
    EXPECT_TRUE(sameColour(hypsometricColour(0.0, 0.0, 1000.0), kHypsometricStops.front()));
    EXPECT_TRUE(sameColour(hypsometricColour(1000.0, 0.0, 1000.0), kHypsometricStops.back()));
    for (std::size_t i = 0; i < kHypsometricStops.size(); ++i) {
        const double elevation = -500.0 + 300.0 * static_cast<double>(i);  // range -500..1000
        EXPECT_TRUE(sameColour(hypsometricColour(elevation, -500.0, 1000.0), kHypsometricStops[i]))
            << "stop " << i;
    }
    // Outside the range (and NaN) the ramp holds its end colours.
    EXPECT_TRUE(sameColour(hypsometricColour(-1.0, 0.0, 10.0), kHypsometricStops.front()));
    EXPECT_TRUE(sameColour(hypsometricColour(11.0, 0.0, 10.0), kHypsometricStops.back()));
    EXPECT_TRUE(sameColour(hypsometricColour(std::nan(""), 0.0, 10.0), kHypsometricStops.front()));
}

TEST(HypsometricColourTest, MonotoneBetweenNeighbouringStops) {
    const double lo = 0.0, hi = 1000.0;
    const double segment = (hi - lo) / static_cast<double>(kHypsometricStops.size() - 1);
    for (std::size_t k = 0; k + 1 < kHypsometricStops.size(); ++k) {
        const Rgb& from = kHypsometricStops[k];
        const Rgb& to = kHypsometricStops[k + 1];
        ColourF previous = hypsometricColour(lo + segment * static_cast<double>(k), lo, hi);
        for (int step = 1; step <= 100; ++step) {
            const double e = lo + segment * (static_cast<double>(k) + step / 100.0);
            const ColourF c = hypsometricColour(e, lo, hi);
            const auto check = [&](double before, double now, int a, int b, const char* channel) {
                // Each channel moves from the lower stop's value towards the upper one's, never
                // back, and stays between the two.
                EXPECT_GE((now - before) * (b - a), 0.0) << channel << " segment " << k;
                EXPECT_GE(now, std::min(a, b)) << channel << " segment " << k;
                EXPECT_LE(now, std::max(a, b)) << channel << " segment " << k;
            };
            check(previous.r, c.r, from.r, to.r, "red");
            check(previous.g, c.g, from.g, to.g, "green");
            check(previous.b, c.b, from.b, to.b, "blue");
            previous = c;
        }
    }
}

TEST(ShadeColourTest, ScalesByShadeFactorAndRounds) {
    EXPECT_DOUBLE_EQ(shadeFactor(0.0), 0.45);
    EXPECT_DOUBLE_EQ(shadeFactor(1.0), 1.0);
    EXPECT_DOUBLE_EQ(shadeFactor(2.0), 1.0);
    EXPECT_EQ(shadeColour({200.0, 100.0, 11.0}, 1.0), (Rgb{200, 100, 11}));
    EXPECT_EQ(shadeColour({200.0, 100.0, 11.0}, 0.0), (Rgb{90, 45, 5}));  // 4.95 rounds up
    const double shade = std::sin(45.0 * kDegrees);
    const double factor = 0.45 + 0.55 * shade;
    EXPECT_EQ(shadeColour({58, 110, 165}, shade),
              (Rgb{static_cast<std::uint8_t>(std::lround(58 * factor)),
                   static_cast<std::uint8_t>(std::lround(110 * factor)),
                   static_cast<std::uint8_t>(std::lround(165 * factor))}));
}

}  // namespace
}  // namespace terragrid

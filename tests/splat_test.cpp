// splat_N.png and weight_<class>.png through makeSinks, read back with libpng: weights summing
// to 255, the class in the right channel and the right place (against height16.png), soft
// borders equal to a plain count of the square around each cell, and the same bytes whatever
// the tile size.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/engines/height16.hpp"
#include "io/sinks.hpp"
#include "io/engines/splat_weights.hpp"
#include "terragrid/io/outputs.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::readFile;
using ::testing::ElementsAre;

constexpr std::int64_t kWidth = 100;
constexpr std::int64_t kHeight = 70;
constexpr int kClasses = 6;

// Six classes (two splat images, the second half full), two of whose names make the same
// file name once cut to plain characters.
Terrain sixClasses() {
    std::vector<TerrainClass> classes;
    for (const char* name : {"lake", "beach", "tall grass", "tall_grass", "rock", "snow/ice"})
        classes.push_back({name, {10, 20, 30}, true, 0.0, 1.0, 0.0, 1.0});
    return Terrain(classes);
}

// Elevation rises to the south and a little to the east, and the class is the elevation's
// band: a map read upside down or sideways puts classes where height16.png disagrees.
float elevationAt(std::int64_t c, std::int64_t r) {
    return static_cast<float>(10.0 * static_cast<double>(r) + 2.0 * static_cast<double>(c));
}
std::uint8_t classOf(float elevation) { return static_cast<std::uint8_t>(std::min(5.0f, elevation / 160.0f)); }

test::SyntheticMap splatMap(const Terrain& terrain) {
    return test::classifiedMap(kWidth, kHeight, elevationAt,
                               [](std::int64_t c, std::int64_t r) { return classOf(elevationAt(c, r)); },
                               terrain);
}

Config splatConfig(const fs::path& directory, std::int64_t blend) {
    Config config = test::outputConfig(
        directory.string(), {OutputFile::SplatPng, OutputFile::WeightPng, OutputFile::Height16Png});
    config.elevation = {0.0, 1000.0};
    config.output.splatBlendCells = blend;
    return config;
}

// The weight of class `c` at (x, y) as a plain count of the clipped square, for comparison.
std::uint8_t bruteWeight(const test::SyntheticMap& map, std::int64_t blend, std::int64_t x,
                         std::int64_t y, int c) {
    std::vector<std::uint32_t> counts(kClasses);
    for (std::int64_t r = std::max<std::int64_t>(0, y - blend); r <= std::min(kHeight - 1, y + blend); ++r)
        for (std::int64_t q = std::max<std::int64_t>(0, x - blend); q <= std::min(kWidth - 1, x + blend); ++q)
            ++counts[map.classIndex[static_cast<std::size_t>(r * kWidth + q)]];
    std::vector<std::uint8_t> weights(kClasses);
    splitWeights(counts, weights.data());
    return weights[static_cast<std::size_t>(c)];
}

class SplatTest : public ::testing::Test {
protected:
    const Terrain m_terrain = sixClasses();
    const test::SyntheticMap m_map = splatMap(m_terrain);
    test::TempDir m_dir;
};

TEST(SplitWeightsTest, SharesSumTo255WithRemaindersToTheLargest) {
    std::vector<std::uint8_t> w(3);
    splitWeights({1, 1, 1}, w.data());
    EXPECT_THAT(w, ElementsAre(85, 85, 85));
    splitWeights({2, 1, 1}, w.data());  // 127.5, 63.75, 63.75: the two .75 get the steps
    EXPECT_THAT(w, ElementsAre(127, 64, 64));
    splitWeights({0, 7, 0}, w.data());
    EXPECT_THAT(w, ElementsAre(0, 255, 0));
    std::vector<std::uint8_t> two(2);
    splitWeights({1, 1}, two.data());  // 127.5 each: the tie goes to the lower index
    EXPECT_THAT(two, ElementsAre(128, 127));
}

TEST_F(SplatTest, FileNamesFollowTheClassTable) {
    EXPECT_THAT(splatFileNames(6), ElementsAre("splat_0.png", "splat_1.png"));
    EXPECT_THAT(splatFileNames(4), ElementsAre("splat_0.png"));
    EXPECT_THAT(weightFileNames(m_terrain.classes()),
                ElementsAre("weight_lake.png", "weight_beach.png", "weight_tall_grass.png",
                            "weight_tall_grass_3.png", "weight_rock.png", "weight_snow_ice.png"));
}

// Hard borders: each pixel is all its own class, in channel class % 4 of splat_(class / 4),
// where height16.png's elevation says that class is.
TEST_F(SplatTest, HardSplatsPutEachCellsClassWhereHeight16PngHasIt) {
    test::writeOutputs(splatConfig(m_dir.path(), 0), &m_terrain, nullptr, m_map, 32);
    const std::vector<test::PngImage> splats{test::readPng(m_dir / "splat_0.png"),
                                             test::readPng(m_dir / "splat_1.png")};
    const test::Grey16Png height = test::readGrey16Png(m_dir / "height16.png");
    for (const test::PngImage& png : splats) {
        ASSERT_EQ(png.width, std::uint32_t(kWidth));
        ASSERT_EQ(png.height, std::uint32_t(kHeight));
        EXPECT_EQ(png.colourType, 6) << "RGBA";
        EXPECT_EQ(png.bitDepth, 8);
    }
    std::vector<int> seen(kClasses);
    for (std::uint32_t y = 0; y < kHeight; ++y) {
        for (std::uint32_t x = 0; x < kWidth; ++x) {
            // The class band height16.png's value lies in: the 16-bit values of the band
            // edges (160 m apart) bound it exactly, where metres read back would be rounded.
            const std::uint16_t v = height.values[y * kWidth + x];
            int c = 0;
            for (int k = 1; k <= 5; ++k) c += v >= toHeight16(160.0 * k, 0.0, 1000.0);
            ++seen[static_cast<std::size_t>(c)];
            int sum = 0;
            for (int k = 0; k < 8; ++k) {
                const std::uint8_t w = splats[std::size_t(k / 4)].rgbaAt(x, y)[std::size_t(k % 4)];
                sum += w;
                ASSERT_EQ(w, k == c ? 255 : 0) << "channel " << k << " at " << x << ", " << y;
            }
            ASSERT_EQ(sum, 255);
        }
    }
    for (int c = 0; c < kClasses; ++c) EXPECT_GT(seen[std::size_t(c)], 0) << "class " << c;
}

// Soft borders over 3 cells: every pixel's weights sum to 255 across both images and equal a
// plain count of its 7 x 7 square; Unreal's weightmaps hold the same weights.
TEST_F(SplatTest, BlendedWeightsCountTheSquareAndSumTo255) {
    constexpr std::int64_t kBlend = 3;
    test::writeOutputs(splatConfig(m_dir.path(), kBlend), &m_terrain, nullptr, m_map, 32);
    const std::vector<test::PngImage> splats{test::readPng(m_dir / "splat_0.png"),
                                             test::readPng(m_dir / "splat_1.png")};
    std::vector<test::PngImage> weights;
    for (const std::string& name : weightFileNames(m_terrain.classes())) {
        weights.push_back(test::readPng(m_dir / name));
        EXPECT_EQ(weights.back().colourType, 0) << name << " is grey";
    }
    int blended = 0;
    for (std::uint32_t y = 0; y < kHeight; ++y) {
        for (std::uint32_t x = 0; x < kWidth; ++x) {
            int sum = 0;
            for (int c = 0; c < kClasses; ++c) {
                const std::uint8_t w = splats[std::size_t(c / 4)].rgbaAt(x, y)[std::size_t(c % 4)];
                sum += w;
                ASSERT_EQ(w, bruteWeight(m_map, kBlend, x, y, c)) << "class " << c << " at " << x << ", " << y;
                ASSERT_EQ(weights[std::size_t(c)].at(x, y)[0], w) << "weight map of class " << c;
            }
            ASSERT_EQ(sum, 255) << x << ", " << y;
            blended += splats[0].rgbaAt(x, y)[0] != 0 && splats[0].rgbaAt(x, y)[0] != 255;
            EXPECT_EQ(splats[1].rgbaAt(x, y)[2], 0) << "no seventh class";
            EXPECT_EQ(splats[1].rgbaAt(x, y)[3], 0) << "no eighth class";
        }
    }
    EXPECT_GT(blended, 0) << "some lake cells are partly beach";
}

TEST_F(SplatTest, SameBytesWhateverTheTileSize) {
    test::writeOutputs(splatConfig(m_dir.path(), 5), &m_terrain, nullptr, m_map, 32);
    std::vector<std::string> names = splatFileNames(kClasses);
    for (const std::string& name : weightFileNames(m_terrain.classes())) names.push_back(name);
    for (std::int64_t tileSize : {7, 16, 100}) {
        test::TempDir other;
        test::writeOutputs(splatConfig(other.path(), 5), &m_terrain, nullptr, m_map, tileSize);
        for (const std::string& name : names)
            EXPECT_TRUE(readFile(other / name) == readFile(m_dir / name)) << name << ", tiles of " << tileSize;
    }
}

TEST_F(SplatTest, MakeSinksNeedsATerrain) {
    EXPECT_THROW(makeSinks(splatConfig(m_dir.path(), 0), nullptr, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace terragrid

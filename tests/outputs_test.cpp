// makeSinks and the class rasters: classes.tif and walkable.tif read back with libtiff.

#include "terragrid/io/outputs.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tiffio.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "io/geotiff/geotiff_writer.hpp"
#include "io/sinks.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::readByteTiff;
using test::sinkPointers;
using test::testTerrain;
using test::TiffReader;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::ThrowsMessage;

// The shared output map, with the elevation range and preview size the PNG sinks need.
Config testConfig(const std::string& directory, std::vector<OutputFile> files) {
    Config config = test::outputConfig(directory, std::move(files));
    config.elevation = {0.0, 1000.0};
    config.output.previewMaxSize = 64;
    return config;
}

// Classes in stripes and blobs, walkability from the class, as the generator would give.
test::SyntheticMap testMap(const Config& config, const Terrain& terrain) {
    return test::classifiedMap(
        config.map.width, config.map.height,
        [](std::int64_t c, std::int64_t r) { return static_cast<float>(c * 3 + r); },
        [](std::int64_t c, std::int64_t r) {
            return static_cast<std::uint8_t>((c / 7 + r / 5) % 3);
        },
        terrain);
}

class OutputsTest : public ::testing::Test {
protected:
    fs::path pathOf(const std::string& name) const { return m_dir / name; }

    // The georeferencing and layout tags two rasters must share to overlay cell for cell.
    static void expectSameGrid(const fs::path& a, const fs::path& b) {
        TiffReader first(a), second(b);
        ASSERT_NE(first.tif, nullptr);
        ASSERT_NE(second.tif, nullptr);
        for (std::uint32_t tag : {33550u, 33922u}) {
            EXPECT_EQ(first.arrayFieldOrEmpty<double>(tag), second.arrayFieldOrEmpty<double>(tag))
                << tag;
            EXPECT_FALSE(first.arrayFieldOrEmpty<double>(tag).empty()) << tag;
        }
        EXPECT_EQ(first.arrayFieldOrEmpty<std::uint16_t>(34735),
                  second.arrayFieldOrEmpty<std::uint16_t>(34735));
        for (std::uint32_t tag : {TIFFTAG_IMAGEWIDTH, TIFFTAG_IMAGELENGTH, TIFFTAG_TILEWIDTH,
                                  TIFFTAG_TILELENGTH}) {
            EXPECT_EQ(first.field<std::uint32_t>(tag), second.field<std::uint32_t>(tag)) << tag;
        }
        EXPECT_EQ(first.field<std::uint16_t>(TIFFTAG_COMPRESSION),
                  second.field<std::uint16_t>(TIFFTAG_COMPRESSION));
    }

    test::TempDir m_dir;  // a fresh directory per test, removed afterwards
};

// ---------------------------------------------------------------------------------------------
// makeSinks

TEST_F(OutputsTest, SinksFollowConfigOrderWithoutStats) {
    const Terrain terrain = testTerrain();
    WalkableRegions regions(false);
    const Config config =
        testConfig(m_dir.path().string(),
                   {OutputFile::HeightPng, OutputFile::WalkableTif, OutputFile::StatsJson,
                    OutputFile::ClassesTif, OutputFile::HeightTif, OutputFile::PreviewPng});
    const auto sinks = makeSinks(config, &terrain, &regions);
    std::vector<std::string> paths;
    for (const auto& sink : sinks) paths.push_back(sink->path());
    EXPECT_THAT(paths, ElementsAre(pathOf("height.png"), pathOf("walkable.tif"),
                                   pathOf("classes.tif"), pathOf("height.tif"),
                                   pathOf("preview.png")));
}

TEST_F(OutputsTest, MissingTerrainOrRegionsIsRejected) {
    const Terrain terrain = testTerrain();
    const std::string dir = m_dir.path().string();
    EXPECT_THAT([&] { makeSinks(testConfig(dir, {OutputFile::ClassesTif}), nullptr, nullptr); },
                ThrowsMessage<std::invalid_argument>(HasSubstr("classes.tif needs a Terrain")));
    EXPECT_THAT([&] { makeSinks(testConfig(dir, {OutputFile::PreviewPng}), nullptr, nullptr); },
                ThrowsMessage<std::invalid_argument>(HasSubstr("preview.png needs a Terrain")));
    EXPECT_THAT(
        [&] { makeSinks(testConfig(dir, {OutputFile::WalkableTif}), &terrain, nullptr); },
        ThrowsMessage<std::invalid_argument>(HasSubstr("walkable.tif needs the WalkableRegions")));
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(OutputsTest, DroppedSinksLeaveNoFiles) {
    const Terrain terrain = testTerrain();
    WalkableRegions regions(false);
    const Config config = testConfig(
        m_dir.path().string(), {OutputFile::HeightTif, OutputFile::ClassesTif,
                                OutputFile::WalkableTif, OutputFile::PreviewPng,
                                OutputFile::HeightPng});
    {
        const auto sinks = makeSinks(config, &terrain, &regions);
        test::feedTiles(sinkPointers(sinks, {&regions}), testMap(config, terrain), 32);
    }
    {
        const auto sinks = makeSinks(config, &terrain, &regions);  // never fed at all
    }
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

// ---------------------------------------------------------------------------------------------
// classes.tif

TEST_F(OutputsTest, ClassesTifHoldsClassIndicesWithPalette) {
    const Terrain terrain = testTerrain();
    const Config config =
        testConfig(m_dir.path().string(), {OutputFile::HeightTif, OutputFile::ClassesTif});
    const test::SyntheticMap map = testMap(config, terrain);
    test::writeOutputs(config, &terrain, nullptr, map, config.map.tileSizeCells);

    const fs::path path = pathOf("classes.tif");
    std::uint32_t width = 0, height = 0;
    EXPECT_EQ(readByteTiff(path, &width, &height), map.classIndex);
    EXPECT_EQ(width, 100u);
    EXPECT_EQ(height, 70u);
    expectSameGrid(path, pathOf("height.tif"));

    TiffReader tiff(path);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_BITSPERSAMPLE), 8);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_SAMPLEFORMAT), SAMPLEFORMAT_UINT);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PHOTOMETRIC), PHOTOMETRIC_PALETTE);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PREDICTOR), PREDICTOR_HORIZONTAL);
    std::vector<Rgb> palette;
    for (const TerrainClass& c : terrain.classes()) palette.push_back(c.colour);
    ASSERT_NO_FATAL_FAILURE(tiff.expectColorMap(palette));

    const std::string metadata = tiff.stringField(42112);
    const std::vector<std::string> items = {
        "<Item name=\"TERRAGRID_SEED\">42</Item>",
        "<Item name=\"TERRAGRID_CONFIG_HASH\">0123456789abcdef</Item>",
        "<Item name=\"TERRAGRID_VERSION\">" + std::string(kVersion) + "</Item>",
        "<Item name=\"TERRAGRID_CLASSES\">lake,forest,open ground</Item>",
        "<Item name=\"TERRAGRID_CLASS_0\">lake</Item>",
        "<Item name=\"TERRAGRID_CLASS_0_WALKABLE\">false</Item>",
        "<Item name=\"TERRAGRID_CLASS_1\">forest</Item>",
        "<Item name=\"TERRAGRID_CLASS_1_WALKABLE\">true</Item>",
        "<Item name=\"TERRAGRID_CLASS_2\">open ground</Item>",
        "<Item name=\"TERRAGRID_CLASS_2_WALKABLE\">true</Item>",
    };
    for (const std::string& item : items) EXPECT_THAT(metadata, HasSubstr(item));
    EXPECT_THAT(metadata, ::testing::Not(HasSubstr("UNITTYPE")));
}

TEST_F(OutputsTest, ClassesSinkRejectsTilesWithoutClasses) {
    const Terrain terrain = testTerrain();
    const Config config = testConfig(m_dir.path().string(), {OutputFile::ClassesTif});
    test::SyntheticMap map = testMap(config, terrain);
    map.classIndex.clear();
    const auto sinks = makeSinks(config, &terrain, nullptr);
    EXPECT_THAT([&] { test::feedTiles(sinkPointers(sinks), map, 32); },
                ThrowsMessage<std::logic_error>(HasSubstr("lacks values for some of its cells")));
}

// ---------------------------------------------------------------------------------------------
// walkable.tif

TEST_F(OutputsTest, WalkableTifHoldsTheRegionsMask) {
    const Terrain terrain = testTerrain();
    WalkableRegions regions(false);
    const Config config =
        testConfig(m_dir.path().string(), {OutputFile::HeightTif, OutputFile::WalkableTif});
    const test::SyntheticMap map = testMap(config, terrain);
    test::writeOutputs(config, &terrain, &regions, map, config.map.tileSizeCells);

    const fs::path path = pathOf("walkable.tif");
    EXPECT_EQ(readByteTiff(path), map.walkable);
    expectSameGrid(path, pathOf("height.tif"));
    TiffReader tiff(path);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PHOTOMETRIC), PHOTOMETRIC_MINISBLACK);
    const std::string metadata = tiff.stringField(42112);
    EXPECT_THAT(metadata, HasSubstr("<Item name=\"TERRAGRID_WALKABLE\">1 = walkable, "
                                    "0 = not walkable</Item>"));
    EXPECT_THAT(metadata, HasSubstr("<Item name=\"TERRAGRID_CONNECTIVITY\">report</Item>"));
    EXPECT_THAT(metadata, HasSubstr("<Item name=\"TERRAGRID_SEED\">42</Item>"));
}

// The file is the mask after connectivity, not the tiles' walkable bytes: with `largest`,
// the smaller of two walkable areas is dropped.
TEST_F(OutputsTest, WalkableTifIsTheMaskAfterConnectivity) {
    const Terrain terrain = testTerrain();
    WalkableRegions regions(true);
    Config config = testConfig(m_dir.path().string(), {OutputFile::WalkableTif});
    config.terrain.connectivity = Connectivity::Largest;
    test::SyntheticMap map = testMap(config, terrain);
    std::vector<std::uint8_t> expected(map.walkable.size(), 0);
    for (std::int64_t r = 0; r < map.height; ++r) {
        for (std::int64_t c = 0; c < map.width; ++c) {
            const auto at = static_cast<std::size_t>(r * map.width + c);
            const bool big = c >= 40 && r >= 10;          // 60 x 60 cells
            const bool small = c < 20 && r >= 2 && r < 8;  // 20 x 6, apart from the big one
            map.walkable[at] = big || small;
            expected[at] = big;
        }
    }
    test::writeOutputs(config, &terrain, &regions, map, 16);
    EXPECT_EQ(readByteTiff(pathOf("walkable.tif")), expected);
    EXPECT_THAT(TiffReader(pathOf("walkable.tif")).stringField(42112),
                HasSubstr("<Item name=\"TERRAGRID_CONNECTIVITY\">largest</Item>"));
}

TEST_F(OutputsTest, WalkableSinkBeforeRegionsFinishedThrows) {
    const Terrain terrain = testTerrain();
    WalkableRegions regions(false);
    const Config config = testConfig(m_dir.path().string(), {OutputFile::WalkableTif});
    const auto sinks = makeSinks(config, &terrain, &regions);
    // The regions never see the map: listed after the sink, or not at all.
    EXPECT_THAT([&] { test::feedTiles(sinkPointers(sinks), testMap(config, terrain), 32); },
                ThrowsMessage<std::logic_error>(HasSubstr("must come before this sink")));
}

// writeMask on its own, for rasters that fill their last TIFF tiles partly or exactly.
class WriteMaskTest : public OutputsTest,
                      public ::testing::WithParamInterface<std::pair<int, int>> {};

TEST_P(WriteMaskTest, FileEqualsMaskBitForBit) {
    const auto [width, height] = GetParam();
    BitRaster mask(width, height);
    std::mt19937 random(static_cast<unsigned>(width * 1000 + height));
    std::vector<std::uint8_t> expected;
    for (int r = 0; r < height; ++r) {
        for (int c = 0; c < width; ++c) {
            const bool bit = (random() & 1) != 0;
            mask.set(c, r, bit);
            expected.push_back(bit);
        }
    }
    GeoTiffOptions options;
    options.width = width;
    options.height = height;
    options.tileSize = 32;
    options.sampleFormat = SampleFormat::UInt8;
    options.geo = {3857, 0.0, 0.0, 1.0};
    const fs::path path = pathOf("walkable.tif");
    {
        GeoTiffWriter writer(path.string(), options);
        writeMask(writer, mask, options.tileSize);
        EXPECT_EQ(writer.peakPendingTiles(), 1u) << "one TIFF tile of bytes at a time";
        writer.close();
        writer.commit();
    }
    EXPECT_EQ(readByteTiff(path), expected);
}

INSTANTIATE_TEST_SUITE_P(Sizes, WriteMaskTest,
                         ::testing::Values(std::pair{1, 1}, std::pair{33, 17},
                                           std::pair{64, 64}, std::pair{100, 70},
                                           std::pair{31, 97}),
                         [](const auto& info) {
                             return std::to_string(info.param.first) + "x" +
                                    std::to_string(info.param.second);
                         });

}  // namespace
}  // namespace terragrid

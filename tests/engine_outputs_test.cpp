// The engine heightmaps through makeSinks: height.r16 with its sidecar, height16.png and
// height16.tif, fed tile by tile and read back (raw bytes, nlohmann, libpng, libtiff).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tiffio.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/engines/height16.hpp"
#include "terragrid/model/engine.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::listDir;
using test::readFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// The size of test::outputConfig's map: neither side a multiple of any tile size used.
constexpr std::int64_t kWidth = 100;
constexpr std::int64_t kHeight = 70;

// The shared output map, for Unreal, with a range of 1000 m from -100 m.
Config engineConfig(const fs::path& directory, std::vector<OutputFile> files) {
    Config config = test::outputConfig(directory.string(), std::move(files));
    config.elevation = {-100.0, 900.0};
    config.output.engine = Engine::Unreal;
    return config;
}

// A smooth surface: at most 400 m * 0.02 rad/cell = 8 m per cell, so neighbours differ by at
// most 8 / 1000 * 65535 ~ 524 steps.
test::SyntheticMap smoothMap() {
    return test::elevationMap(kWidth, kHeight, [](std::int64_t c, std::int64_t r) {
        return static_cast<float>(400.0 + 400.0 * std::sin(0.02 * static_cast<double>(c)) *
                                              std::cos(0.013 * static_cast<double>(r)));
    });
}

// The smooth surface with the range's ends and values beyond them at known cells.
test::SyntheticMap testMap() {
    test::SyntheticMap map = smoothMap();
    map.elevation[0] = -100.0f;                          // min: 0
    map.elevation[1] = -250.0f;                          // below min: 0
    map.elevation[kWidth * kHeight - 1] = 900.0f;        // max: 65535
    map.elevation[kWidth * kHeight - 2] = 1500.0f;       // above max: 65535
    return map;
}

std::vector<std::uint16_t> expectedValues(const test::SyntheticMap& map, const Config& config,
                                          std::uint16_t top = kHeight16Max) {
    std::vector<std::uint16_t> values;
    for (float e : map.elevation) {
        values.push_back(
            toHeight16(e, config.elevation.minMeters, config.elevation.maxMeters, top));
    }
    return values;
}

// height.r16 decoded as little-endian, whatever the host.
std::vector<std::uint16_t> readR16(const fs::path& path) {
    const std::string bytes = readFile(path);
    std::vector<std::uint16_t> values(bytes.size() / 2);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<std::uint16_t>(std::uint8_t(bytes[2 * i]) |
                                               std::uint8_t(bytes[2 * i + 1]) << 8);
    }
    return values;
}

const std::vector<OutputFile> kEngineFiles{OutputFile::HeightR16, OutputFile::Height16Png,
                                           OutputFile::Height16Tif};

// Tile sizes that split the 100 x 70 map differently: partial edge tiles, TIFF-tile aligned or
// not, a single tile row.
const std::vector<std::int64_t> kTileSizes{16, 32, 37, 100};

class EngineOutputsTest : public ::testing::Test {
protected:
    // All three files written once per tile size, each into its own directory.
    static void SetUpTestSuite() {
        s_dirs = new std::vector<std::unique_ptr<test::TempDir>>;
        for (std::int64_t tileSize : kTileSizes) {
            s_dirs->push_back(std::make_unique<test::TempDir>());
            test::writeOutputs(engineConfig(s_dirs->back()->path(), kEngineFiles), nullptr,
                               nullptr, testMap(), tileSize);
        }
    }
    static void TearDownTestSuite() {
        delete s_dirs;
        s_dirs = nullptr;
    }

    static fs::path fileOf(std::size_t tileSizeIndex, const std::string& name) {
        return *(*s_dirs)[tileSizeIndex] / name;
    }

    static std::vector<std::unique_ptr<test::TempDir>>* s_dirs;
    const Config m_config = engineConfig("unused", kEngineFiles);
    const std::vector<std::uint16_t> m_expected = expectedValues(testMap(), m_config);
    // height16.tif keeps 65535 for nodata: its heights spread over 0..65534.
    const std::vector<std::uint16_t> m_expectedTif =
        expectedValues(testMap(), m_config, kHeight16TifMax);
};

std::vector<std::unique_ptr<test::TempDir>>* EngineOutputsTest::s_dirs = nullptr;

TEST_F(EngineOutputsTest, WritesTheThreeFilesAndTheSidecar) {
    EXPECT_THAT(listDir((*s_dirs)[0]->path()),
                ElementsAre("height.r16", "height.r16.json", "height16.pgw", "height16.png",
                            "height16.png.aux.xml", "height16.tif"));
}

TEST_F(EngineOutputsTest, R16HoldsTheMappingOfEveryCellLittleEndian) {
    const fs::path path = fileOf(0, "height.r16");
    EXPECT_EQ(fs::file_size(path), static_cast<std::uintmax_t>(kWidth * kHeight * 2));
    const std::vector<std::uint16_t> values = readR16(path);
    EXPECT_EQ(values, m_expected);
    EXPECT_EQ(values[0], 0);
    EXPECT_EQ(values[1], 0);
    EXPECT_EQ(values[kWidth * kHeight - 1], 65535);
    EXPECT_EQ(values[kWidth * kHeight - 2], 65535);
    // The bytes themselves: 65535 is ff ff either way, so look at a value that is not.
    const std::string bytes = readFile(path);
    const std::uint16_t v = m_expected[5];
    ASSERT_NE(v & 0xff, v >> 8);
    EXPECT_EQ(std::uint8_t(bytes[10]), v & 0xff) << "low byte first";
    EXPECT_EQ(std::uint8_t(bytes[11]), v >> 8);
}

TEST_F(EngineOutputsTest, EveryFileIsTheSameWhateverTheTileSize) {
    for (const char* name : {"height.r16", "height.r16.json", "height16.png"}) {
        const std::string first = readFile(fileOf(0, name));
        for (std::size_t i = 1; i < kTileSizes.size(); ++i) {
            EXPECT_TRUE(readFile(fileOf(i, name)) == first)
                << name << " differs with tiles of " << kTileSizes[i];
        }
    }
    // The GeoTIFF writer stores TIFF tiles in the order they complete, which follows the
    // generator's tiles when those do not line up with the TIFF's: the same cells, not always
    // the same bytes.
    for (std::size_t i = 0; i < kTileSizes.size(); ++i) {
        EXPECT_EQ(test::readUInt16Tiff(fileOf(i, "height16.tif")), m_expectedTif)
            << "tiles of " << kTileSizes[i];
    }
}

TEST_F(EngineOutputsTest, SidecarDescribesTheFile) {
    const json j = json::parse(readFile(fileOf(0, "height.r16.json")));
    EXPECT_EQ(j.value("width", 0), kWidth);
    EXPECT_EQ(j.value("height", 0), kHeight);
    EXPECT_EQ(j.value("byte_order", ""), "little-endian");
    EXPECT_EQ(j.value("rows", ""), "top-to-bottom");
    EXPECT_EQ(j["elevation"].value("min_m", 0.0), -100.0);
    EXPECT_EQ(j["elevation"].value("max_m", 0.0), 900.0);
    EXPECT_EQ(j.value("cell_size", 0.0), 30.0);
    EXPECT_EQ(j.value("mapping", ""), kHeight16Formula);
    EXPECT_EQ(j.value("engine", ""), "unreal");
    EXPECT_EQ(j.value("seed", 0u), 42u);
    EXPECT_EQ(j.value("config_hash", ""), "0123456789abcdef");
    EXPECT_EQ(j.value("terragrid_version", ""), kVersion);

    const EngineScale s = engineScale(-100.0, 900.0, 30.0, 30.0, kWidth, kHeight);
    EXPECT_EQ(j["unreal"].value("scale_x_percent", 0.0), s.unrealScaleXPercent);
    EXPECT_EQ(j["unreal"].value("scale_y_percent", 0.0), s.unrealScaleYPercent);
    EXPECT_EQ(j["cell_size_m"], nlohmann::json({{"x", 30.0}, {"y", 30.0}}));
    EXPECT_EQ(j["unreal"].value("scale_z_percent", 0.0), s.unrealScaleZPercent);
    EXPECT_EQ(j["unreal"].value("location_z_cm", 0.0), s.unrealLocationZCm);
    EXPECT_EQ(j["unity"].value("terrain_width_m", 0.0), s.unityTerrainWidthMeters);
    EXPECT_EQ(j["unity"].value("terrain_length_m", 0.0), s.unityTerrainLengthMeters);
    EXPECT_EQ(j["unity"].value("terrain_height_m", 0.0), s.unityTerrainHeightMeters);
    EXPECT_EQ(j["godot"].value("height_scale", 0.0), s.godotHeightScale);
    // The hidden assumptions, spelled out.
    EXPECT_EQ(j["orientation"].value("first_row_edge", ""), "north");
    EXPECT_EQ(j["orientation"].value("first_column_edge", ""), "west");
    EXPECT_EQ(j["levels"].value("value_0_m", 0.0), -100.0);
    EXPECT_EQ(j["levels"].value("value_65535_m", 0.0), 900.0);
    EXPECT_DOUBLE_EQ(j["levels"].value("value_of_0_m", 0.0), 0.1 * 65535.0);
    // Every field of Unity's Import Raw dialog: top-to-bottom rows need Flip Vertically.
    const json& raw = j["unity"]["import_raw"];
    EXPECT_EQ(raw.value("depth", ""), "Bit 16");
    EXPECT_EQ(raw.value("width", 0), kWidth);
    EXPECT_EQ(raw.value("height", 0), kHeight);
    EXPECT_EQ(raw.value("byte_order", ""), "Windows");
    EXPECT_EQ(raw.value("flip_vertically", false), true);
    EXPECT_EQ(raw["terrain_size"].value("x", 0.0), 99 * 30.0);
    EXPECT_EQ(raw["terrain_size"].value("z", 0.0), 69 * 30.0);
    EXPECT_EQ(raw["terrain_size"].value("y", 0.0), s.unityTerrainHeightMeters);
    // Spot values, so the test does not only agree with itself.
    EXPECT_EQ(j["unreal"].value("scale_z_percent", 0.0), 1000.0 * 100.0 / 512.0);
    EXPECT_EQ(j["unity"].value("terrain_width_m", 0.0), 99 * 30.0);
}

TEST_F(EngineOutputsTest, Png16IsLinearSixteenBitGreyWithTheSameValues) {
    const test::Grey16Png png = test::readGrey16Png(fileOf(0, "height16.png"));
    EXPECT_EQ(png.width, static_cast<std::uint32_t>(kWidth));
    EXPECT_EQ(png.height, static_cast<std::uint32_t>(kHeight));
    EXPECT_EQ(png.bitDepth, 16);
    EXPECT_EQ(png.colourType, 0);
    ASSERT_GE(png.chunks.size(), 3u);
    EXPECT_EQ(png.chunks.front(), "IHDR");
    EXPECT_EQ(png.chunks.back(), "IEND");
    for (const std::string& chunk : png.chunks) {
        EXPECT_THAT(chunk, ::testing::AnyOf("IHDR", "IDAT", "IEND"));
    }
    EXPECT_EQ(png.values, m_expected);
}

TEST_F(EngineOutputsTest, Tif16IsUInt16WithPredictorAndScale) {
    const fs::path path = fileOf(0, "height16.tif");
    std::uint32_t w = 0, h = 0;
    const std::vector<std::uint16_t> values = test::readUInt16Tiff(path, &w, &h);
    EXPECT_EQ(values, m_expectedTif);
    EXPECT_EQ(std::count(values.begin(), values.end(), kHeight16Nodata), 0);
    EXPECT_EQ(*std::max_element(values.begin(), values.end()), kHeight16TifMax)
        << "the map reaches elevation.max";
    EXPECT_EQ(w, static_cast<std::uint32_t>(kWidth));
    EXPECT_EQ(h, static_cast<std::uint32_t>(kHeight));

    const test::TiffReader tiff(path);
    ASSERT_NE(tiff.tif, nullptr);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_BITSPERSAMPLE), 16);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_SAMPLEFORMAT), SAMPLEFORMAT_UINT);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PREDICTOR), PREDICTOR_HORIZONTAL);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_COMPRESSION), COMPRESSION_ADOBE_DEFLATE);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILEWIDTH), 32u);
    const std::string metadata = tiff.stringField(42112);  // GDAL_METADATA
    EXPECT_THAT(metadata, HasSubstr("<Item name=\"OFFSET\" sample=\"0\" role=\"offset\">-100<"));
    EXPECT_THAT(metadata, HasSubstr("<Item name=\"SCALE\" sample=\"0\" role=\"scale\">"));
    EXPECT_THAT(metadata, HasSubstr("role=\"unittype\">metre<"));
    // The scale as written reads back as the same double.
    const std::size_t at = metadata.find("role=\"scale\">") + 13;
    EXPECT_EQ(std::strtod(metadata.c_str() + at, nullptr), 1000.0 / 65534.0);
    EXPECT_EQ(tiff.stringField(42113), "65535");  // GDAL_NODATA
}

// Byte-swapped or misplaced values would jump by thousands between neighbours.
TEST(EngineOutputsSmoothTest, NeighbouringR16ValuesDifferLittle) {
    test::TempDir dir;
    const Config config = engineConfig(dir.path(), {OutputFile::HeightR16});
    test::writeOutputs(config, nullptr, nullptr, smoothMap(), 32);
    const std::vector<std::uint16_t> v = readR16(dir / "height.r16");
    ASSERT_EQ(v.size(), static_cast<std::size_t>(kWidth * kHeight));
    int largest = 0;
    for (std::int64_t r = 0; r < kHeight; ++r) {
        for (std::int64_t c = 0; c < kWidth; ++c) {
            const auto at = static_cast<std::size_t>(r * kWidth + c);
            if (c + 1 < kWidth) largest = std::max(largest, std::abs(v[at + 1] - v[at]));
            if (r + 1 < kHeight) largest = std::max(largest, std::abs(v[at + kWidth] - v[at]));
        }
    }
    EXPECT_LE(largest, 525);  // see smoothMap
    EXPECT_GT(largest, 0);
}

TEST(EngineOutputsFlipTest, FlipYReversesTheRows) {
    test::TempDir plainDir, flippedDir;
    test::writeOutputs(engineConfig(plainDir.path(), {OutputFile::HeightR16}), nullptr, nullptr,
                       testMap(), 37);
    Config flipped = engineConfig(flippedDir.path(), {OutputFile::HeightR16});
    flipped.output.r16FlipY = true;
    test::writeOutputs(flipped, nullptr, nullptr, testMap(), 37);

    const std::vector<std::uint16_t> plain = readR16(plainDir / "height.r16");
    const std::vector<std::uint16_t> flip = readR16(flippedDir / "height.r16");
    ASSERT_EQ(flip.size(), plain.size());
    for (std::int64_t r = 0; r < kHeight; ++r) {
        const auto row = plain.begin() + r * kWidth;
        const auto mirrored = flip.begin() + (kHeight - 1 - r) * kWidth;
        ASSERT_TRUE(std::equal(row, row + kWidth, mirrored)) << "row " << r;
    }
    EXPECT_NE(plain, flip);
    const json j = json::parse(readFile(flippedDir / "height.r16.json"));
    EXPECT_EQ(j.value("rows", ""), "bottom-to-top");
    EXPECT_EQ(j["orientation"].value("first_row_edge", ""), "south");
    EXPECT_EQ(j["unity"]["import_raw"].value("flip_vertically", true), false);
}

TEST(EngineOutputsCommitTest, R16CommitPublishesBothFilesTogether) {
    test::TempDir dir;
    const Config config = engineConfig(dir.path(), {OutputFile::HeightR16});
    const auto sinks = makeSinks(config, nullptr, nullptr);
    ASSERT_EQ(sinks.size(), 1u);
    EXPECT_EQ(sinks[0]->path(), (dir / "height.r16").string());
    test::feedTiles(test::sinkPointers(sinks), testMap(), 32);
    EXPECT_THAT(listDir(dir.path()), Not(::testing::Contains(::testing::StartsWith("height"))))
        << "nothing under its name before commit()";
    sinks[0]->commit();
    EXPECT_THAT(listDir(dir.path()), ElementsAre("height.r16", "height.r16.json"));
}

TEST(EngineOutputsCommitTest, UncommittedSinksLeaveNothing) {
    test::TempDir dir;
    const Config config = engineConfig(dir.path(), kEngineFiles);
    {
        const auto sinks = makeSinks(config, nullptr, nullptr);
        ASSERT_EQ(sinks.size(), 3u);
        test::feedTiles(test::sinkPointers(sinks), testMap(), 32);  // finished, never committed
    }
    { const auto sinks = makeSinks(config, nullptr, nullptr); }  // never begun
    {
        // Abandoned halfway: two tiles of many.
        const auto sinks = makeSinks(config, nullptr, nullptr);
        const TileLayout layout(config.map);
        Tile tile;
        for (const auto& sink : sinks) sink->begin(layout);
        for (std::int64_t index = 0; index < 2; ++index) {
            tile.rect = layout.tile(index);
            tile.elevationMeters.assign(static_cast<std::size_t>(tile.rect.cellCount()), 1.0f);
            for (const auto& sink : sinks) sink->consume(tile);
        }
    }
    EXPECT_THAT(listDir(dir.path()), IsEmpty());
}

TEST(EngineOutputsCommitTest, MissingTilesFailTheFinish) {
    test::TempDir dir;
    const Config config = engineConfig(dir.path(), kEngineFiles);
    const auto sinks = makeSinks(config, nullptr, nullptr);
    const TileLayout layout(config.map);
    Tile tile;
    tile.rect = layout.tile(0);
    tile.elevationMeters.assign(static_cast<std::size_t>(tile.rect.cellCount()), 1.0f);
    for (const auto& sink : sinks) {
        sink->begin(layout);
        sink->consume(tile);
        EXPECT_ANY_THROW(sink->finish()) << sink->path();
    }
}

TEST(EngineOutputsCommitTest, Png16RefusesTilesOutOfOrder) {
    test::TempDir dir;
    const Config config = engineConfig(dir.path(), {OutputFile::Height16Png});
    const auto sinks = makeSinks(config, nullptr, nullptr);
    const TileLayout layout(config.map);
    sinks[0]->begin(layout);
    Tile tile;
    tile.rect = layout.tile(1);  // tile 0 never came
    tile.elevationMeters.assign(static_cast<std::size_t>(tile.rect.cellCount()), 1.0f);
    EXPECT_THROW(sinks[0]->consume(tile), std::logic_error);
}

}  // namespace
}  // namespace terragrid

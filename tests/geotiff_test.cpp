// GeoTiffWriter and the height sink, checked by reading the files back with libtiff.

#include "io/geotiff/geotiff_writer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tiffio.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "terragrid/pipeline/generator.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::FileSizeLimit;
using test::listDir;
using test::readFile;
using test::TiffReader;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::ThrowsMessage;

// ---------------------------------------------------------------------------------------------
// Helpers

constexpr std::int64_t kTiffWidth = 301;  // odd sizes: the right and bottom TIFF tiles are partial
constexpr std::int64_t kTiffHeight = 203;

// Distinct, hard-to-compress values, with the awkward ones (NaN, -0, infinities, subnormals,
// extremes) at fixed cells: the round trip must preserve every bit.
std::vector<float> makeRaster(std::int64_t width, std::int64_t height) {
    std::vector<float> cells(static_cast<std::size_t>(width * height));
    std::uint32_t state = 12345;
    for (float& cell : cells) {
        state = state * 1664525u + 1013904223u;
        cell = static_cast<float>(state >> 8) * 0.001f - 5000.0f;
    }
    const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                             -0.0f,
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::denorm_min(),
                             std::numeric_limits<float>::max(),
                             std::numeric_limits<float>::lowest()};
    for (std::size_t i = 0; i < std::size(special); ++i) cells[i * 97 % cells.size()] = special[i];
    return cells;
}

using test::sameBits;

GeoTiffOptions smallOptions(Compression compression = Compression::Deflate,
                            std::int64_t tileSize = 32) {
    GeoTiffOptions options;
    options.width = kTiffWidth;
    options.height = kTiffHeight;
    options.tileSize = tileSize;
    options.compression = compression;
    options.geo = {3857, 600000.0, 5400000.0, 30.0};
    options.metadata = {{"TERRAGRID_SEED", "42"}, {"NOTE", "a < b & \"c\""}};
    options.unit = "metre";
    return options;
}

// Writes `cells` (width x height, row-major) as blocks of blockWidth x blockHeight, in
// row-major block order or shuffled.
void writeInBlocks(GeoTiffWriter& writer, const std::vector<float>& cells, std::int64_t width,
                   std::int64_t height, std::int64_t blockWidth, std::int64_t blockHeight,
                   bool shuffled = false) {
    struct Block {
        std::int64_t col0, row0, width, height;
    };
    std::vector<Block> blocks;
    for (std::int64_t r = 0; r < height; r += blockHeight) {
        for (std::int64_t c = 0; c < width; c += blockWidth) {
            blocks.push_back({c, r, std::min(blockWidth, width - c),
                              std::min(blockHeight, height - r)});
        }
    }
    if (shuffled) std::shuffle(blocks.begin(), blocks.end(), std::mt19937(7));
    std::vector<float> part;
    for (const Block& b : blocks) {
        part.clear();
        for (std::int64_t r = b.row0; r < b.row0 + b.height; ++r) {
            const auto first = cells.begin() + r * width + b.col0;
            part.insert(part.end(), first, first + b.width);
        }
        writer.writeBlock(b.col0, b.row0, b.width, b.height, part.data());
    }
}

class GeoTiffTest : public ::testing::Test {
protected:
    std::string pathOf(const std::string& name) const { return (m_dir / name).string(); }

    // Writes `cells` whole into a new file and commits it.
    std::string writeFile(const std::string& name, const GeoTiffOptions& options,
                          const std::vector<float>& cells) {
        const std::string path = pathOf(name);
        GeoTiffWriter writer(path, options);
        writer.writeBlock(0, 0, options.width, options.height, cells.data());
        writer.close();
        writer.commit();
        return path;
    }

    test::TempDir m_dir;  // a fresh directory per test, removed afterwards
};

// ---------------------------------------------------------------------------------------------
// What the file holds

TEST_F(GeoTiffTest, ReopensWithTagsAndPixels) {
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    const std::string path = writeFile("height.tif", smallOptions(), cells);

    TiffReader tiff(path);
    ASSERT_NE(tiff.tif, nullptr);
    EXPECT_FALSE(TIFFIsBigTIFF(tiff.tif));
    EXPECT_TRUE(TIFFIsTiled(tiff.tif));
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_IMAGEWIDTH), kTiffWidth);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_IMAGELENGTH), kTiffHeight);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILEWIDTH), 32u);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILELENGTH), 32u);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_SAMPLESPERPIXEL), 1);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_BITSPERSAMPLE), 32);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_SAMPLEFORMAT), SAMPLEFORMAT_IEEEFP);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PHOTOMETRIC), PHOTOMETRIC_MINISBLACK);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_COMPRESSION), COMPRESSION_ADOBE_DEFLATE);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PREDICTOR), PREDICTOR_FLOATINGPOINT);
    EXPECT_EQ(tiff.stringField(TIFFTAG_SOFTWARE), std::string("terragrid ") + kVersion);
    const char* dateTime = nullptr;
    EXPECT_EQ(TIFFGetField(tiff.tif, TIFFTAG_DATETIME, &dateTime), 0) << "no time stamps";

    EXPECT_THAT(tiff.arrayField<double>(33550), ElementsAre(30.0, 30.0, 0.0));
    EXPECT_THAT(tiff.arrayField<double>(33922),
                ElementsAre(0.0, 0.0, 0.0, 600000.0, 5400000.0, 0.0));
    EXPECT_THAT(tiff.arrayField<std::uint16_t>(34735),
                ElementsAre(1, 1, 0, 3,            //
                            1024, 0, 1, 1,         // ModelType projected
                            1025, 0, 1, 1,         // RasterType PixelIsArea
                            3072, 0, 1, 3857));    // ProjectedCRS
    EXPECT_EQ(tiff.stringField(42112),
              "<GDALMetadata>\n"
              "  <Item name=\"TERRAGRID_SEED\">42</Item>\n"
              "  <Item name=\"NOTE\">a &lt; b &amp; &quot;c&quot;</Item>\n"
              "  <Item name=\"UNITTYPE\" sample=\"0\" role=\"unittype\">metre</Item>\n"
              "</GDALMetadata>");

    EXPECT_TRUE(sameBits(tiff.pixels(), cells));
}

TEST_F(GeoTiffTest, GeographicEpsgWritesGeodeticCrsKey) {
    GeoTiffOptions options = smallOptions();
    options.geo = {4326, -10.0, 50.0, 0.25, /*geographic=*/true};
    const std::string path = writeFile("height.tif", options, makeRaster(kTiffWidth, kTiffHeight));
    TiffReader tiff(path);
    EXPECT_THAT(tiff.arrayField<std::uint16_t>(34735),
                ElementsAre(1, 1, 0, 3,            //
                            1024, 0, 1, 2,         // ModelType geographic
                            1025, 0, 1, 1,         // RasterType PixelIsArea
                            2048, 0, 1, 4326));    // GeodeticCRS
    EXPECT_THAT(tiff.arrayField<double>(33550), ElementsAre(0.25, 0.25, 0.0));
    EXPECT_THAT(tiff.arrayField<double>(33922), ElementsAre(0.0, 0.0, 0.0, -10.0, 50.0, 0.0));
}

TEST_F(GeoTiffTest, EdgeTilesArePaddedWithZeros) {
    const std::string path = writeFile("height.tif", smallOptions(), makeRaster(kTiffWidth, kTiffHeight));
    TiffReader tiff(path);
    std::vector<float> tile(32 * 32, 1.0f);
    // The bottom-right tile holds cells 288..300 x 192..202; the rest is padding.
    const tmsize_t bytes = static_cast<tmsize_t>(tile.size() * sizeof(float));
    ASSERT_EQ(TIFFReadEncodedTile(tiff.tif, TIFFComputeTile(tiff.tif, 300, 202, 0, 0),
                                  tile.data(), bytes),
              bytes);
    for (int r = 0; r < 32; ++r) {
        for (int c = 0; c < 32; ++c) {
            if (288 + c >= kTiffWidth || 192 + r >= kTiffHeight) {
                ASSERT_EQ(tile[r * 32 + c], 0.0f) << "padding at " << c << ", " << r;
            }
        }
    }
}

TEST_F(GeoTiffTest, NoMetadataOrUnitWritesNoGdalMetadataTag) {
    GeoTiffOptions options = smallOptions();
    options.metadata.clear();
    options.unit.clear();
    const std::string path = writeFile("height.tif", options, makeRaster(kTiffWidth, kTiffHeight));
    TiffReader tiff(path);
    const char* text = nullptr;
    EXPECT_EQ(TIFFGetField(tiff.tif, 42112, &text), 0);
}

TEST_F(GeoTiffTest, UncompressedFileHasNoPredictor) {
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    const std::string path = writeFile("height.tif", smallOptions(Compression::None), cells);
    TiffReader tiff(path);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_COMPRESSION), COMPRESSION_NONE);
    std::uint16_t predictor = 0;
    EXPECT_EQ(TIFFGetField(tiff.tif, TIFFTAG_PREDICTOR, &predictor), 0);
    EXPECT_TRUE(sameBits(tiff.pixels(), cells));
}

TEST_F(GeoTiffTest, IdenticalInputGivesIdenticalBytes) {
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    const std::string first = writeFile("first.tif", smallOptions(), cells);
    const std::string second = writeFile("second.tif", smallOptions(), cells);
    const std::string bytes = readFile(first);
    EXPECT_GT(bytes.size(), 1000u);
    EXPECT_TRUE(bytes == readFile(second)) << "the two files differ";
}

// ---------------------------------------------------------------------------------------------
// Blocks of any size

struct Delivery {
    const char* name;
    std::int64_t blockWidth;  // 0: the TIFF tile size
    std::int64_t blockHeight;
    bool shuffled;
};

constexpr Delivery kDeliveries[] = {
    {"whole TIFF tiles", 0, 0, false},
    {"70x70 blocks", 70, 70, false},
    {"the whole map at once", kTiffWidth, kTiffHeight, false},
    {"single rows", kTiffWidth, 1, false},
    {"37x23 blocks, shuffled", 37, 23, true},
};

class GeoTiffBlocksTest
    : public GeoTiffTest,
      public ::testing::WithParamInterface<std::tuple<Compression, std::int64_t>> {};

TEST_P(GeoTiffBlocksTest, AnyBlockSizeGivesSamePixels) {
    const auto [compression, tileSize] = GetParam();
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    const GeoTiffOptions options = smallOptions(compression, tileSize);
    // Whole TIFF tiles of an uncompressed file go to it without being assembled first: still
    // the bytes of every other delivery.
    std::string firstBytes;
    for (const Delivery& delivery : kDeliveries) {
        SCOPED_TRACE(delivery.name);
        const std::string path = pathOf("height.tif");
        {
            GeoTiffWriter writer(path, options);
            writeInBlocks(writer, cells, kTiffWidth, kTiffHeight,
                          delivery.blockWidth ? delivery.blockWidth : tileSize,
                          delivery.blockHeight ? delivery.blockHeight : tileSize,
                          delivery.shuffled);
            writer.close();
            writer.commit();
        }
        TiffReader tiff(path);
        ASSERT_NE(tiff.tif, nullptr);
        EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILEWIDTH), tileSize);
        EXPECT_TRUE(sameBits(tiff.pixels(), cells));
        const std::string bytes = readFile(path);
        if (firstBytes.empty()) firstBytes = bytes;
        EXPECT_TRUE(bytes == firstBytes);
    }
}

// Tile 16 only where it is cheap: libtiff sets up a zstd stream per tile, which at 16x16
// costs more than the compressing.
INSTANTIATE_TEST_SUITE_P(
    EveryCompression, GeoTiffBlocksTest,
    ::testing::Values(std::tuple{Compression::None, std::int64_t{16}},
                      std::tuple{Compression::Deflate, std::int64_t{16}},
                      std::tuple{Compression::None, std::int64_t{32}},
                      std::tuple{Compression::Deflate, std::int64_t{32}},
                      std::tuple{Compression::Lzw, std::int64_t{32}},
                      std::tuple{Compression::Zstd, std::int64_t{32}}),
    [](const auto& info) {
        return std::string(kCompressionNames[static_cast<std::size_t>(std::get<0>(info.param))]) +
               "_tile" + std::to_string(std::get<1>(info.param));
    });

TEST_F(GeoTiffTest, MatchingBlocksKeepOnlyOneTilePending) {
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    GeoTiffWriter writer(pathOf("height.tif"), smallOptions());
    writeInBlocks(writer, cells, kTiffWidth, kTiffHeight, 32, 32);
    EXPECT_EQ(writer.peakPendingTiles(), 1u);
}

TEST_F(GeoTiffTest, PendingTilesGrowWithWidthNotArea) {
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    GeoTiffWriter writer(pathOf("height.tif"), smallOptions());
    writeInBlocks(writer, cells, kTiffWidth, kTiffHeight, kTiffWidth, 1);  // one row at a time
    EXPECT_EQ(writer.peakPendingTiles(), 10u);                 // one row of TIFF tiles
}

TEST_F(GeoTiffTest, OverlappingBlocksAreRejected) {
    const std::vector<float> cells(70 * 70, 1.0f);
    GeoTiffWriter writer(pathOf("height.tif"), smallOptions());
    writer.writeBlock(0, 0, 70, 70, cells.data());
    EXPECT_THROW(writer.writeBlock(0, 0, 70, 70, cells.data()), std::invalid_argument);
}

TEST_F(GeoTiffTest, BlocksOutsideTheRasterAreRejected) {
    const std::vector<float> cells(70 * 70, 1.0f);
    GeoTiffWriter writer(pathOf("height.tif"), smallOptions());
    EXPECT_THROW(writer.writeBlock(kTiffWidth - 69, 0, 70, 70, cells.data()), std::invalid_argument);
    EXPECT_THROW(writer.writeBlock(0, -1, 70, 70, cells.data()), std::invalid_argument);
    EXPECT_THROW(writer.writeBlock(0, 0, 0, 70, cells.data()), std::invalid_argument);
}

TEST_F(GeoTiffTest, ImpossibleOptionsAreRejected) {
    GeoTiffOptions options = smallOptions();
    options.tileSize = 40;
    EXPECT_THROW(GeoTiffWriter(pathOf("a.tif"), options), std::invalid_argument);
    options = smallOptions();
    options.width = 0;
    EXPECT_THROW(GeoTiffWriter(pathOf("b.tif"), options), std::invalid_argument);
    options = smallOptions();
    options.geo.epsg = 0;
    EXPECT_THROW(GeoTiffWriter(pathOf("c.tif"), options), std::invalid_argument);
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

// ---------------------------------------------------------------------------------------------
// BigTIFF

TEST_F(GeoTiffTest, ForcedBigTiffReadsBack) {
    GeoTiffOptions options = smallOptions();
    options.bigTiff = BigTiffMode::Always;
    const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
    std::string path;
    {
        GeoTiffWriter writer(pathOf("height.tif"), options);
        EXPECT_TRUE(writer.isBigTiff());
        writer.writeBlock(0, 0, kTiffWidth, kTiffHeight, cells.data());
        writer.close();
        writer.commit();
        path = writer.path();
    }
    EXPECT_EQ(readFile(path).substr(0, 4), std::string("II\x2b\0", 4)) << "BigTIFF magic 43";
    TiffReader tiff(path);
    ASSERT_NE(tiff.tif, nullptr);
    EXPECT_TRUE(TIFFIsBigTIFF(tiff.tif));
    EXPECT_THAT(tiff.arrayField<double>(33550), ElementsAre(30.0, 30.0, 0.0));
    EXPECT_TRUE(sameBits(tiff.pixels(), cells));
}

TEST_F(GeoTiffTest, AutoModeWritesClassicTiffForSmallMaps) {
    const std::string path = writeFile("height.tif", smallOptions(), makeRaster(kTiffWidth, kTiffHeight));
    EXPECT_EQ(readFile(path).substr(0, 4), std::string("II\x2a\0", 4)) << "TIFF magic 42";
}

TEST(NeedsBigTiffTest, Thresholds) {
    EXPECT_FALSE(needsBigTiff(1024, 1024, 4, 256));
    EXPECT_FALSE(needsBigTiff(20000, 20000, 4, 256));  // 1.6 GB of floats
    EXPECT_TRUE(needsBigTiff(32768, 32768, 4, 256));   // 4 GiB of floats
    // 3.6 GB of floats: under 4 GiB as raw data, but not if compression grows it.
    EXPECT_TRUE(needsBigTiff(30000, 30000, 4, 256));
    // The same cells as bytes are a quarter of the size.
    EXPECT_FALSE(needsBigTiff(30000, 30000, 1, 256));
    // Tiles count at their padded size: a one-cell-wide strip still fills whole tiles.
    EXPECT_TRUE(needsBigTiff(1, 256 * 11000, 4, 256));
    // The exact edge, which pins the margin (growth 1.5, 8 bytes a tile, 1 MiB of tags):
    // 10919 tiles of 256 KiB fit, 10920 do not.
    EXPECT_FALSE(needsBigTiff(256, 256 * 10919, 4, 256));
    EXPECT_TRUE(needsBigTiff(256, 256 * 10920, 4, 256));
}

// ---------------------------------------------------------------------------------------------
// Failures leave nothing broken

TEST_F(GeoTiffTest, AbandonedWriterLeavesNoFile) {
    {
        GeoTiffWriter writer(pathOf("height.tif"), smallOptions());
        writeInBlocks(writer, makeRaster(kTiffWidth, kTiffHeight), kTiffWidth, kTiffHeight, 70, 70);
    }
    {
        GeoTiffWriter writer(pathOf("closed.tif"), smallOptions());
        writer.writeBlock(0, 0, kTiffWidth, kTiffHeight, makeRaster(kTiffWidth, kTiffHeight).data());
        writer.close();  // closed but never committed
    }
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(GeoTiffTest, AbandonedWriterKeepsOlderFileByteForByte) {
    const std::string path = writeFile("height.tif", smallOptions(), makeRaster(kTiffWidth, kTiffHeight));
    const std::string old = readFile(path);
    {
        GeoTiffWriter writer(path, smallOptions(Compression::Zstd));
        writer.writeBlock(0, 0, 100, 100, std::vector<float>(100 * 100, 3.0f).data());
    }
    EXPECT_TRUE(readFile(path) == old);
    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("height.tif"));
}

TEST_F(GeoTiffTest, MissingCellsFailCloseAndKeepOlderFile) {
    const std::string path = writeFile("height.tif", smallOptions(), makeRaster(kTiffWidth, kTiffHeight));
    const std::string old = readFile(path);
    {
        GeoTiffWriter writer(path, smallOptions());
        writer.writeBlock(0, 0, 64, 32, std::vector<float>(64 * 32, 3.0f).data());
        EXPECT_THAT([&] { writer.close(); },
                    ThrowsMessage<OutputError>(HasSubstr("writing '" + path +
                                                         "': only 2 of 70 TIFF tiles received "
                                                         "all their cells")));
    }
    EXPECT_TRUE(readFile(path) == old);
    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("height.tif"));
}

TEST_F(GeoTiffTest, FailedWriteNamesFileAndKeepsOlderFile) {
    const std::string path = writeFile("height.tif", smallOptions(), makeRaster(kTiffWidth, kTiffHeight));
    const std::string old = readFile(path);
    {
        GeoTiffOptions options = smallOptions(Compression::None, 256);
        options.width = 256;
        options.height = 256;
        GeoTiffWriter writer(path, options);
        const std::vector<float> cells = makeRaster(256, 256);
        EXPECT_THAT(
            [&] {
                FileSizeLimit limit(64 * 1024);  // a 256x256 float tile is 256 KiB
                writer.writeBlock(0, 0, 256, 256, cells.data());
            },
            ThrowsMessage<OutputError>(::testing::AllOf(
                HasSubstr("writing '" + path + "': "),  // then libtiff's words, then errno's
                HasSubstr("File too large"))));
        EXPECT_THAT([&] { writer.close(); },
                    ThrowsMessage<OutputError>(HasSubstr("an earlier write failed")));
    }
    EXPECT_TRUE(readFile(path) == old);
    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("height.tif"));
}

// Tests may run as root, whom permission bits do not stop; a parent that is a regular file
// stops everyone.
TEST_F(GeoTiffTest, UnwritableDirectoryThrowsNamingFile) {
    std::ofstream(pathOf("plain")) << "not a directory";
    const std::string path = pathOf("plain") + "/height.tif";
    EXPECT_THAT([&] { GeoTiffWriter writer(path, smallOptions()); },
                ThrowsMessage<OutputError>(HasSubstr("writing '" + path + "': Not a directory")));
    const std::string missing = pathOf("missing") + "/height.tif";
    EXPECT_THAT([&] { GeoTiffWriter writer(missing, smallOptions()); },
                ThrowsMessage<OutputError>(HasSubstr("writing '" + missing + "': ")));
}

// ---------------------------------------------------------------------------------------------
// UInt8 rasters and palettes

std::vector<std::uint8_t> makeBytes(std::int64_t width, std::int64_t height) {
    std::vector<std::uint8_t> cells(static_cast<std::size_t>(width * height));
    for (std::size_t i = 0; i < cells.size(); ++i) {
        cells[i] = static_cast<std::uint8_t>((i * 7 + i / 13) % 251);
    }
    return cells;
}

GeoTiffOptions byteOptions(Compression compression = Compression::Deflate) {
    GeoTiffOptions options = smallOptions(compression);
    options.sampleFormat = SampleFormat::UInt8;
    options.unit.clear();
    return options;
}

std::string writeBytes(const std::string& path, const GeoTiffOptions& options,
                       const std::vector<std::uint8_t>& cells) {
    GeoTiffWriter writer(path, options);
    writer.writeBlock(0, 0, options.width, options.height, cells.data());
    writer.close();
    writer.commit();
    return path;
}

class GeoTiffBytesTest : public GeoTiffTest,
                         public ::testing::WithParamInterface<Compression> {};

TEST_P(GeoTiffBytesTest, UInt8RoundTripsWithHorizontalPredictor) {
    const std::vector<std::uint8_t> cells = makeBytes(kTiffWidth, kTiffHeight);
    const std::string path = pathOf("bytes.tif");
    {
        GeoTiffWriter writer(path, byteOptions(GetParam()));
        EXPECT_FALSE(writer.isBigTiff());
        // In pieces that straddle TIFF tiles, as the generator's tiles may.
        for (std::int64_t row0 = 0; row0 < kTiffHeight; row0 += 50) {
            for (std::int64_t col0 = 0; col0 < kTiffWidth; col0 += 45) {
                const std::int64_t w = std::min<std::int64_t>(45, kTiffWidth - col0);
                const std::int64_t h = std::min<std::int64_t>(50, kTiffHeight - row0);
                std::vector<std::uint8_t> part;
                for (std::int64_t r = row0; r < row0 + h; ++r) {
                    part.insert(part.end(), cells.begin() + r * kTiffWidth + col0,
                                cells.begin() + r * kTiffWidth + col0 + w);
                }
                writer.writeBlock(col0, row0, w, h, part.data());
            }
        }
        writer.close();
        writer.commit();
    }
    TiffReader tiff(path);
    ASSERT_NE(tiff.tif, nullptr);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_BITSPERSAMPLE), 8);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_SAMPLEFORMAT), SAMPLEFORMAT_UINT);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PHOTOMETRIC), PHOTOMETRIC_MINISBLACK);
    std::uint16_t predictor = 0;
    if (GetParam() == Compression::None) {
        EXPECT_EQ(TIFFGetField(tiff.tif, TIFFTAG_PREDICTOR, &predictor), 0);
    } else {
        EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PREDICTOR), PREDICTOR_HORIZONTAL);
    }
    EXPECT_EQ(test::readByteTiff(path), cells);
}

INSTANTIATE_TEST_SUITE_P(EveryCompression, GeoTiffBytesTest,
                         ::testing::Values(Compression::None, Compression::Deflate,
                                           Compression::Lzw, Compression::Zstd),
                         [](const auto& info) {
                             return std::string(
                                 kCompressionNames[static_cast<std::size_t>(info.param)]);
                         });

TEST_F(GeoTiffTest, PaletteIsWrittenAsColorMapTimes257) {
    GeoTiffOptions options = byteOptions();
    options.palette = {{58, 110, 165}, {255, 0, 1}, {0, 0, 0}, {128, 170, 90}};
    const std::string path = writeBytes(pathOf("classes.tif"), options, makeBytes(kTiffWidth, kTiffHeight));
    TiffReader tiff(path);
    ASSERT_NE(tiff.tif, nullptr);
    EXPECT_EQ(tiff.field<std::uint16_t>(TIFFTAG_PHOTOMETRIC), PHOTOMETRIC_PALETTE);
    ASSERT_NO_FATAL_FAILURE(tiff.expectColorMap(options.palette));
}

TEST_F(GeoTiffTest, UInt8IdenticalInputGivesIdenticalBytes) {
    GeoTiffOptions options = byteOptions(Compression::Lzw);
    options.palette = {{1, 2, 3}, {4, 5, 6}};
    const std::vector<std::uint8_t> cells = makeBytes(kTiffWidth, kTiffHeight);
    const std::string first = readFile(writeBytes(pathOf("a.tif"), options, cells));
    EXPECT_TRUE(first == readFile(writeBytes(pathOf("b.tif"), options, cells)));
}

TEST_F(GeoTiffTest, WrongSampleTypeOrPaletteIsRejected) {
    {
        GeoTiffWriter floats(pathOf("floats.tif"), smallOptions());
        const std::vector<std::uint8_t> bytes(10, 1);
        EXPECT_THROW(floats.writeBlock(0, 0, 10, 1, bytes.data()), std::invalid_argument);
    }
    {
        GeoTiffWriter bytes(pathOf("bytes.tif"), byteOptions());
        const std::vector<float> floats(10, 1.0f);
        EXPECT_THROW(bytes.writeBlock(0, 0, 10, 1, floats.data()), std::invalid_argument);
    }
    GeoTiffOptions options = smallOptions();
    options.palette = {{1, 2, 3}};
    EXPECT_THROW(GeoTiffWriter(pathOf("a.tif"), options), std::invalid_argument);
    options = byteOptions();
    options.palette.assign(257, Rgb{});
    EXPECT_THROW(GeoTiffWriter(pathOf("b.tif"), options), std::invalid_argument);
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

// ---------------------------------------------------------------------------------------------
// Tiles compressed on TBB workers

using test::inArena;

// How a parallel-encoding case writes: the tile jobs and the arena's threads.
struct Encoding {
    const char* name;
    std::size_t tileJobs;  // 1 serial, 0 automatic
    int threads;
};

constexpr Encoding kSerial{"serial (one job)", 1, 1};
constexpr Encoding kEncodings[] = {
    {"automatic, 1 thread", 0, 1},  {"automatic, 8 threads", 0, 8},
    {"3 jobs, 8 threads", 3, 8},    {"8 jobs, 8 threads", 8, 8},
    {"8 jobs, 1 thread", 8, 1},
};

// Cells of every sample format, the same hard-to-compress pattern as makeRaster.
template <typename T>
std::vector<T> patternOf(std::int64_t width, std::int64_t height) {
    if constexpr (std::is_same_v<T, float>) {
        return makeRaster(width, height);
    } else {
        std::vector<T> cells(static_cast<std::size_t>(width * height));
        std::uint32_t state = 99;
        for (T& cell : cells) {
            state = state * 1664525u + 1013904223u;
            // Runs and noise, so predictors and codecs both have work.
            cell = static_cast<T>((state >> 20) % 4 == 0 ? state >> 9 : (&cell - cells.data()) / 7);
        }
        return cells;
    }
}

template <typename T>
std::vector<T> readBack(const std::string& path) {
    if constexpr (std::is_same_v<T, float>) return test::readFloatTiff(path);
    if constexpr (std::is_same_v<T, std::uint8_t>) return test::readByteTiff(path);
    if constexpr (std::is_same_v<T, std::uint16_t>) return test::readUInt16Tiff(path);
}

class GeoTiffParallelTest
    : public GeoTiffTest,
      public ::testing::WithParamInterface<std::tuple<SampleFormat, Compression, BigTiffMode>> {
protected:
    // Writes `cells` in 70x45 blocks, which straddle the 32-cell TIFF tiles, so tiles complete
    // out of index order and some wait for several blocks. Returns the file's bytes.
    template <typename T>
    std::string write(const std::string& name, const std::vector<T>& cells,
                      const Encoding& encoding) {
        const auto [format, compression, bigTiff] = GetParam();
        GeoTiffOptions options = smallOptions(compression);
        options.sampleFormat = format;
        options.bigTiff = bigTiff;
        options.tileJobs = encoding.tileJobs;
        if (format != SampleFormat::Float32) options.unit.clear();
        if (format == SampleFormat::UInt8) options.palette = {{10, 20, 30}, {200, 100, 0}};
        const std::string path = pathOf(name);
        inArena(encoding.threads, [&] {
            GeoTiffWriter writer(path, options);
            std::vector<T> part;
            for (std::int64_t row0 = 0; row0 < kTiffHeight; row0 += 45) {
                for (std::int64_t col0 = 0; col0 < kTiffWidth; col0 += 70) {
                    const std::int64_t w = std::min<std::int64_t>(70, kTiffWidth - col0);
                    const std::int64_t h = std::min<std::int64_t>(45, kTiffHeight - row0);
                    part.clear();
                    for (std::int64_t r = row0; r < row0 + h; ++r) {
                        const auto first = cells.begin() + r * kTiffWidth + col0;
                        part.insert(part.end(), first, first + w);
                    }
                    writer.writeBlock(col0, row0, w, h, part.data());
                }
            }
            writer.close();
            writer.commit();
        });
        return readFile(path);
    }

    template <typename T>
    void expectSameBytesEverywhere() {
        const std::vector<T> cells = patternOf<T>(kTiffWidth, kTiffHeight);
        const std::string serial = write("serial.tif", cells, kSerial);
        ASSERT_TRUE(sameBits(readBack<T>(pathOf("serial.tif")), cells)) << "serial pixels";
        for (const Encoding& encoding : kEncodings) {
            SCOPED_TRACE(encoding.name);
            const std::string bytes = write("parallel.tif", cells, encoding);
            EXPECT_TRUE(bytes == serial) << "the file differs from the serial writer's";
            EXPECT_TRUE(sameBits(readBack<T>(pathOf("parallel.tif")), cells)) << "pixels";
        }
    }
};

// Same bytes as the serial writer (hence the same pixels) for every thread count, job limit,
// sample format, codec and TIFF flavour.
TEST_P(GeoTiffParallelTest, EveryThreadCountGivesTheSerialWritersBytes) {
    switch (std::get<0>(GetParam())) {
        case SampleFormat::Float32: expectSameBytesEverywhere<float>(); break;
        case SampleFormat::UInt8: expectSameBytesEverywhere<std::uint8_t>(); break;
        case SampleFormat::UInt16: expectSameBytesEverywhere<std::uint16_t>(); break;
    }
}

std::string parallelCaseName(const std::tuple<SampleFormat, Compression, BigTiffMode>& param) {
    constexpr const char* kFormats[] = {"Float32", "UInt8", "UInt16"};
    return std::string(kFormats[static_cast<std::size_t>(std::get<0>(param))]) + "_" +
           std::string(kCompressionNames[static_cast<std::size_t>(std::get<1>(param))]) +
           (std::get<2>(param) == BigTiffMode::Always ? "_BigTiff" : "_Classic");
}

INSTANTIATE_TEST_SUITE_P(
    FormatsAndCodecs, GeoTiffParallelTest,
    ::testing::Combine(::testing::Values(SampleFormat::Float32, SampleFormat::UInt8,
                                         SampleFormat::UInt16),
                       ::testing::Values(Compression::None, Compression::Deflate,
                                         Compression::Lzw, Compression::Zstd),
                       ::testing::Values(BigTiffMode::Auto, BigTiffMode::Always)),
    [](const auto& info) { return parallelCaseName(info.param); });

// A tile that cannot be written surfaces, from writeBlock or close(), as this file's
// OutputError, and the older file stays.
TEST_F(GeoTiffTest, ParallelWriteFailureNamesFileAndKeepsOlderFile) {
    const std::string path = writeFile("height.tif", smallOptions(), makeRaster(kTiffWidth, kTiffHeight));
    const std::string old = readFile(path);
    inArena(4, [&] {
        GeoTiffOptions options = smallOptions(Compression::Deflate, 256);
        options.width = 1024;
        options.height = 512;
        options.tileJobs = 4;
        GeoTiffWriter writer(path, options);
        const std::vector<float> cells = makeRaster(1024, 512);  // ~200 KiB per tile compressed
        EXPECT_THAT(
            [&] {
                FileSizeLimit limit(64 * 1024);
                writer.writeBlock(0, 0, 1024, 512, cells.data());
                writer.close();
            },
            ThrowsMessage<OutputError>(::testing::AllOf(HasSubstr("writing '" + path + "': "),
                                                        HasSubstr("File too large"))));
        EXPECT_THAT([&] { writer.close(); },
                    ThrowsMessage<OutputError>(HasSubstr("an earlier write failed")));
    });
    EXPECT_TRUE(readFile(path) == old);
    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("height.tif"));
}

// A writer dropped while tiles are being encoded waits for them and leaves nothing behind.
TEST_F(GeoTiffTest, ParallelWriterDroppedMidwayLeavesNoFile) {
    inArena(8, [&] {
        GeoTiffOptions options = smallOptions(Compression::Zstd);
        options.tileJobs = 16;
        GeoTiffWriter writer(pathOf("height.tif"), options);
        const std::vector<float> cells = makeRaster(kTiffWidth, kTiffHeight);
        writer.writeBlock(0, 0, kTiffWidth, 160, cells.data());  // 50 tiles complete, 20 do not
    });
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

// ---------------------------------------------------------------------------------------------
// The height sink (outputs.hpp) over the writer

// The shared output map, height.tif alone, in tiles of `tileSizeCells`.
Config heightConfig(const std::string& directory, std::int64_t tileSizeCells) {
    Config config = test::outputConfig(directory, {OutputFile::HeightTif});
    config.map.tileSizeCells = tileSizeCells;
    return config;
}

float elevationAt(std::int64_t col, std::int64_t row) {
    return static_cast<float>(col) * 1.5f - static_cast<float>(row) * 0.25f + 100.0f;
}

// Feeds the sink tiles of config.map.tileSizeCells, as the generator would.
void runSink(OutputSink& sink, const Config& config) {
    test::feedElevationTiles(sink, config.map, elevationAt);
}

using HeightSinkTest = GeoTiffTest;

TEST_F(HeightSinkTest, WritesHeightTifOnlyOnCommit) {
    const Config config = heightConfig(m_dir.path().string(), 32);
    auto sinks = makeSinks(config, nullptr, nullptr);
    ASSERT_EQ(sinks.size(), 1u);
    EXPECT_EQ(sinks[0]->path(), pathOf("height.tif"));
    runSink(*sinks[0], config);
    EXPECT_FALSE(fs::exists(pathOf("height.tif")));
    sinks[0]->commit();
    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("height.tif"));

    TiffReader tiff(pathOf("height.tif"));
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILEWIDTH), 32u);
    EXPECT_THAT(tiff.arrayField<double>(33922),
                ElementsAre(0.0, 0.0, 0.0, 600000.0, 5400000.0, 0.0));
    const std::string metadata = tiff.stringField(42112);
    EXPECT_THAT(metadata, HasSubstr("<Item name=\"TERRAGRID_SEED\">42</Item>"));
    EXPECT_THAT(metadata,
                HasSubstr("<Item name=\"TERRAGRID_CONFIG_HASH\">0123456789abcdef</Item>"));
    EXPECT_THAT(metadata, HasSubstr(std::string("<Item name=\"TERRAGRID_VERSION\">") + kVersion));
    EXPECT_THAT(metadata, HasSubstr("role=\"unittype\">metre</Item>"));
    const std::vector<float> pixels = tiff.pixels();
    ASSERT_EQ(pixels.size(), 100u * 70u);
    for (std::int64_t r = 0; r < 70; ++r) {
        for (std::int64_t c = 0; c < 100; ++c) {
            ASSERT_EQ(pixels[static_cast<std::size_t>(r * 100 + c)], elevationAt(c, r));
        }
    }
}

// The TIFF tiles follow output.geotiff.block_size, never map.tile_size (an execution
// parameter): tiles of 50 cells, not a multiple of 16, assembled into blocks of 48.
TEST_F(HeightSinkTest, TiffTilesFollowTheBlockSizeNotTheTileSize) {
    Config config = heightConfig(m_dir.path().string(), 50);
    config.output.geotiffBlockSize = 48;
    auto sinks = makeSinks(config, nullptr, nullptr);
    runSink(*sinks[0], config);
    sinks[0]->commit();
    TiffReader tiff(pathOf("height.tif"));
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILEWIDTH), 48u);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILELENGTH), 48u);
    EXPECT_EQ(tiff.pixels()[69 * 100 + 99], elevationAt(99, 69));
}

TEST_F(HeightSinkTest, DroppedSinkLeavesNoFile) {
    const Config config = heightConfig(m_dir.path().string(), 32);
    {
        auto sinks = makeSinks(config, nullptr, nullptr);
        runSink(*sinks[0], config);
    }
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(HeightSinkTest, MissingDirectoryThrowsOutputError) {
    const Config config = heightConfig(pathOf("missing"), 32);
    EXPECT_THAT([&] { makeSinks(config, nullptr, nullptr); },
                ThrowsMessage<OutputError>(HasSubstr("writing '" + pathOf("missing") +
                                                     "/height.tif': No such file or directory")));
}

}  // namespace
}  // namespace terragrid

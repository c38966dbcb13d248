// PngWriter, preview.png and height.png, read back with libpng.

#include "terragrid/config/crs.hpp"
#include "io/png/png_writer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "io/png/preview.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/model/terrain.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::FileSizeLimit;
using test::listDir;
using test::PngImage;
using test::readFile;
using test::readPng;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::ThrowsMessage;

const double kFlatShade = std::sin(std::numbers::pi / 4);  // sun 45 degrees up

std::uint8_t shaded(std::uint8_t channel, double shade) {
    return static_cast<std::uint8_t>(std::lround(channel * (0.45 + 0.55 * shade)));
}

std::array<std::uint8_t, 3> shaded(const Rgb& colour, double shade) {
    return {shaded(colour.r, shade), shaded(colour.g, shade), shaded(colour.b, shade)};
}

// ---------------------------------------------------------------------------------------------
// PngWriter

std::vector<std::uint8_t> gradientRgb(std::uint32_t width, std::uint32_t height) {
    std::vector<std::uint8_t> rgb;
    for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
            rgb.insert(rgb.end(), {static_cast<std::uint8_t>(x * 255 / width),
                                   static_cast<std::uint8_t>(y * 255 / height),
                                   static_cast<std::uint8_t>((x * y) % 256)});
        }
    }
    return rgb;
}

class PngWriterTest : public ::testing::Test {
protected:
    std::string pathOf(const std::string& name) const { return (m_dir / name).string(); }

    std::string writePng(const std::string& name, std::uint32_t width, std::uint32_t height,
                         const std::vector<std::uint8_t>& rgb) {
        PngWriter writer(pathOf(name));
        writer.write(width, height, rgb);
        writer.commit();
        return writer.path();
    }

    test::TempDir m_dir;
};

TEST_F(PngWriterTest, RoundTripsAsEightBitRgbWithOnlyFixedChunks) {
    const std::vector<std::uint8_t> rgb = gradientRgb(123, 45);
    const PngImage image = readPng(writePng("a.png", 123, 45, rgb));
    EXPECT_EQ(image.width, 123u);
    EXPECT_EQ(image.height, 45u);
    EXPECT_EQ(image.bitDepth, 8);
    EXPECT_EQ(image.colourType, 2);  // RGB, no alpha, no palette
    EXPECT_EQ(image.rgb, rgb);
    // No tIME, gAMA, tEXt or anything else that could differ between identical pictures.
    EXPECT_EQ(image.chunks.front(), "IHDR");
    EXPECT_EQ(image.chunks.back(), "IEND");
    for (std::size_t i = 1; i + 1 < image.chunks.size(); ++i) EXPECT_EQ(image.chunks[i], "IDAT");
}

// An indexed picture decodes to its palette's colours, alpha included (tRNS up to the last
// colour that is not opaque, none when every colour is); a picture of more than 256 colours
// has no palette; what cannot be a palette picture is refused.
TEST(PalettePngTest, IndexedPicturesDecodeToTheirColours) {
    const std::uint32_t w = 37, h = 23;
    std::vector<std::uint8_t> rgba(std::size_t{w} * h * 4);
    for (std::size_t i = 0; i < std::size_t{w} * h; ++i) {
        const std::size_t colour = (i / 5 + i % 3) % 7;  // 7 colours in runs and steps
        const std::uint8_t alpha = colour == 4 ? 0 : colour == 2 ? 120 : 255;
        const std::uint8_t px[4] = {std::uint8_t(30 * colour), std::uint8_t(200 - colour),
                                    std::uint8_t(colour * colour), alpha};
        std::copy(px, px + 4, rgba.begin() + std::ptrdiff_t(4 * i));
    }
    const auto indexed = indexColours(rgba.data(), std::size_t{w} * h);
    ASSERT_TRUE(indexed.has_value());
    EXPECT_EQ(indexed->palette.size(), 7u);
    const auto png = encodePalettePng(w, h, indexed->indices.data(), indexed->indices.size(), indexed->palette);
    const PngImage image = test::decodePng(std::string(png.begin(), png.end()), "indexed");
    EXPECT_EQ(image.colourType, 3);  // palette
    EXPECT_EQ(image.bitDepth, 8);
    EXPECT_EQ(image.rgba, rgba);
    EXPECT_THAT(image.chunks, ElementsAre("IHDR", "PLTE", "tRNS", "IDAT", "IEND"));

    // Opaque colours only: no tRNS.
    for (std::size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
    const auto opaque = indexColours(rgba.data(), std::size_t{w} * h);
    ASSERT_TRUE(opaque.has_value());
    const auto opaquePng = encodePalettePng(w, h, opaque->indices.data(), opaque->indices.size(), opaque->palette);
    const PngImage opaqueImage = test::decodePng(std::string(opaquePng.begin(), opaquePng.end()), "opaque");
    EXPECT_EQ(opaqueImage.rgba, rgba);
    EXPECT_THAT(opaqueImage.chunks, ElementsAre("IHDR", "PLTE", "IDAT", "IEND"));

    // 256 colours still fit; 257 do not.
    std::vector<std::uint8_t> many(257 * 4, 255);
    for (std::size_t i = 0; i < 257; ++i) many[4 * i] = std::uint8_t(i), many[4 * i + 1] = std::uint8_t(i >> 8);
    EXPECT_TRUE(indexColours(many.data(), 256).has_value());
    EXPECT_FALSE(indexColours(many.data(), 257).has_value());

    const std::vector<std::uint8_t> indices(6, 1);
    EXPECT_THROW(encodePalettePng(3, 2, indices.data(), indices.size(), {{}}), std::invalid_argument);  // index 1 of 1
    EXPECT_THROW(encodePalettePng(3, 2, indices.data(), 5, {{}, {}}), std::invalid_argument);
    EXPECT_THROW(encodePalettePng(3, 2, indices.data(), indices.size(), {}), std::invalid_argument);
    EXPECT_THROW(encodePalettePng(3, 2, indices.data(), indices.size(), std::vector<PngColour>(257)),
                 std::invalid_argument);
    EXPECT_NO_THROW(encodePalettePng(3, 2, indices.data(), indices.size(), {{}, {}}));
}

TEST_F(PngWriterTest, IdenticalPixelsGiveIdenticalBytes) {
    const std::vector<std::uint8_t> rgb = gradientRgb(300, 200);  // more than one buffer's worth
    const std::string first = readFile(writePng("a.png", 300, 200, rgb));
    EXPECT_GT(first.size(), 1000u);
    EXPECT_TRUE(first == readFile(writePng("b.png", 300, 200, rgb)));
}

// Big enough for many compressed pieces (about 256 KiB of rows each): the pieces, compressed
// on different threads and joined into one zlib stream, decode to the pixels (libpng checks
// every chunk's CRC and the stream's Adler-32), and the bytes do not depend on the threads.
TEST_F(PngWriterTest, PiecesCompressedOnManyThreadsJoinIntoTheSameValidFile) {
    const std::uint32_t width = 1000, height = 700;  // 3000-byte rows: 87 per piece, 9 pieces
    const std::vector<std::uint8_t> rgb = gradientRgb(width, height);
    const std::string one =
        test::inArena(1, [&] { return readFile(writePng("one.png", width, height, rgb)); });
    const std::string four =
        test::inArena(4, [&] { return readFile(writePng("four.png", width, height, rgb)); });
    EXPECT_TRUE(one == four);
    const PngImage image = readPng(pathOf("four.png"));
    EXPECT_EQ(image.rgb, rgb);
    EXPECT_GT(std::count(image.chunks.begin(), image.chunks.end(), "IDAT"), 9);
}

// 16-bit rows go in band by band, in bands that do not match the pieces.
TEST_F(PngWriterTest, Grey16InBandsRoundTripsAcrossPieces) {
    const std::uint32_t width = 700, height = 300;  // 1400-byte rows: 187 per piece
    std::vector<std::uint16_t> grey(std::size_t{width} * height);
    for (std::size_t i = 0; i < grey.size(); ++i) grey[i] = static_cast<std::uint16_t>(i * 2654435761u >> 7);
    test::inArena(2, [&] {
        PngWriter writer(pathOf("g.png"));
        writer.start(width, height, PngFormat::Grey16);
        for (std::uint32_t row = 0; row < height; row += 37)
            writer.writeRows(grey.data() + std::size_t{row} * width, std::min(37u, height - row));
        writer.close();
        writer.commit();
    });
    const test::Grey16Png image = test::readGrey16Png(pathOf("g.png"));
    EXPECT_EQ(image.width, width);
    EXPECT_EQ(image.height, height);
    EXPECT_EQ(image.values, grey);
}

TEST_F(PngWriterTest, AppearsOnlyOnCommitAndAbandonedLeavesNothing) {
    {
        PngWriter writer(pathOf("a.png"));
        writer.write(2, 2, std::vector<std::uint8_t>(12, 7));
        EXPECT_FALSE(fs::exists(pathOf("a.png")));
    }
    { PngWriter writer(pathOf("b.png")); }
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(PngWriterTest, WrongSizesAreRejected) {
    PngWriter writer(pathOf("a.png"));
    EXPECT_THROW(writer.write(0, 2, {}), std::invalid_argument);
    EXPECT_THROW(writer.write(2, 2, std::vector<std::uint8_t>(11)), std::invalid_argument);
    EXPECT_THROW(writer.commit(), std::logic_error);
}

TEST_F(PngWriterTest, FailedWriteNamesFileAndKeepsOlderFile) {
    const std::string path = writePng("a.png", 4, 4, gradientRgb(4, 4));
    const std::string old = readFile(path);
    // Noise does not compress: far more than the limit reaches libpng's write callback.
    std::vector<std::uint8_t> noise(512 * 512 * 3);
    std::uint32_t state = 1;
    for (auto& byte : noise) byte = static_cast<std::uint8_t>((state = state * 1664525u + 1013904223u) >> 24);
    {
        PngWriter writer(path);
        EXPECT_THAT(
            [&] {
                FileSizeLimit limit(64 * 1024);
                writer.write(512, 512, noise);
            },
            ThrowsMessage<OutputError>(HasSubstr("writing '" + path + "': File too large")));
        EXPECT_THROW(writer.commit(), std::logic_error);
    }
    EXPECT_TRUE(readFile(path) == old);
    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("a.png"));
}

// libpng refuses pictures wider than its default user limit of a million pixels: its own words
// reach the message.
TEST_F(PngWriterTest, LibpngErrorsBecomeOutputErrors) {
    PngWriter writer(pathOf("wide.png"));
    const std::string expected = "writing '" + writer.path() +
                                 "': Invalid IHDR data (Image width exceeds user limit in IHDR)";
    EXPECT_THAT([&] { writer.write(1000001, 1, std::vector<std::uint8_t>(3000003)); },
                ThrowsMessage<OutputError>(::testing::StrEq(expected)));
    EXPECT_THROW(writer.commit(), std::logic_error);
}

TEST_F(PngWriterTest, UnwritableDirectoryThrowsNamingFile) {
    const std::string path = pathOf("missing") + "/a.png";
    EXPECT_THAT([&] { PngWriter writer(path); },
                ThrowsMessage<OutputError>(HasSubstr("writing '" + path + "': ")));
}

// ---------------------------------------------------------------------------------------------
// preview.png and height.png through makeSinks

// Classes by quadrant, so pixels far from a border show one known class.
Terrain previewTerrain() {
    return Terrain({
        {"lake", {58, 110, 165}, false, 0.0, 0.3, 0.0, 1.0},
        {"forest", {46, 110, 52}, true, 0.0, 1.0, 0.6, 1.0},
        {"desert", {222, 200, 140}, true, 0.0, 1.0, 0.0, 0.2},
        {"ground", {128, 170, 90}, true, 0.0, 1.0, 0.0, 1.0},
    });
}

Config previewConfig(const std::string& directory, std::int64_t width, std::int64_t height,
                     std::int64_t maxSize) {
    Config config;
    config.seed = 9;
    config.map.width = width;
    config.map.height = height;
    config.map.tileSizeCells = 16;
    config.map.cellSize = 30.0;
    config.output.directory = directory;
    config.output.files = {OutputFile::PreviewPng, OutputFile::HeightPng};
    config.output.crs = crsFromEpsg(3857);
    config.output.previewMaxSize = maxSize;
    config.elevation = {0.0, 1000.0};
    config.hash = "feedfacefeedface";
    return config;
}

using ElevationFn = float (*)(std::int64_t col, std::int64_t row);

test::SyntheticMap previewMap(std::int64_t width, std::int64_t height, ElevationFn elevation) {
    test::SyntheticMap map;
    map.width = width;
    map.height = height;
    for (std::int64_t r = 0; r < height; ++r) {
        for (std::int64_t c = 0; c < width; ++c) {
            map.elevation.push_back(elevation(c, r));
            map.classIndex.push_back(
                static_cast<std::uint8_t>((c * 2 >= width ? 1 : 0) + (r * 2 >= height ? 2 : 0)));
        }
    }
    return map;
}

float flat(std::int64_t, std::int64_t) { return 400.0f; }
float hills(std::int64_t c, std::int64_t r) {
    return static_cast<float>(500.0 + 300.0 * std::sin(c * 0.05) * std::cos(r * 0.07) +
                              0.001 * ((c * 7 + r * 13) % 17));
}

class PreviewSinkTest : public ::testing::Test {
protected:
    fs::path pathOf(const std::string& name) const { return m_dir / name; }

    // Writes config.output.files from `map` fed in tiles of `tileSize`, committing them.
    void writePreviews(const Config& config, const test::SyntheticMap& map,
                       std::int64_t tileSize) {
        test::writeOutputs(config, &m_terrain, nullptr, map, tileSize);
    }

    Terrain m_terrain = previewTerrain();
    test::TempDir m_dir;
};

TEST_F(PreviewSinkTest, SmallMapIsNotDownsampled) {
    const Config config = previewConfig(m_dir.path().string(), 100, 70, 128);
    writePreviews(config, previewMap(100, 70, flat), 16);
    for (const char* name : {"preview.png", "height.png"}) {
        const PngImage image = readPng(pathOf(name));
        EXPECT_EQ(image.width, 100u) << name;
        EXPECT_EQ(image.height, 70u) << name;
        EXPECT_EQ(image.bitDepth, 8) << name;
        EXPECT_EQ(image.colourType, 2) << name;
    }
}

TEST_F(PreviewSinkTest, LargeMapIsDownsampledByAnIntegerFactor) {
    // ceil(301 / 64) = 5: 61 x 40 pixels.
    const Config config = previewConfig(m_dir.path().string(), 301, 200, 64);
    writePreviews(config, previewMap(301, 200, flat), 64);
    for (const char* name : {"preview.png", "height.png"}) {
        const PngImage image = readPng(pathOf(name));
        EXPECT_EQ(image.width, 61u) << name;
        EXPECT_EQ(image.height, 40u) << name;
    }
}

TEST_F(PreviewSinkTest, FlatMapShowsClassColoursUniformlyShaded) {
    const Config config = previewConfig(m_dir.path().string(), 300, 200, 64);  // scale 5
    const test::SyntheticMap map = previewMap(300, 200, flat);
    writePreviews(config, map, 16);
    const PngImage preview = readPng(pathOf("preview.png"));
    ASSERT_EQ(preview.width, 60u);
    for (std::uint32_t y = 0; y < preview.height; ++y) {
        for (std::uint32_t x = 0; x < preview.width; ++x) {
            // The centre cell (x * 5 + 2, y * 5 + 2) decides the class.
            const std::uint8_t cls =
                map.classIndex[std::size_t(y * 5 + 2) * 300 + std::size_t(x * 5 + 2)];
            ASSERT_EQ(preview.at(x, y), shaded(m_terrain.classes()[cls].colour, kFlatShade))
                << x << ", " << y;
        }
    }
    // 400 m is 0.4 of the way up 0..1000 m, where the third of the six stops sits.
    const PngImage height = readPng(pathOf("height.png"));
    for (std::uint32_t y = 0; y < height.height; ++y) {
        for (std::uint32_t x = 0; x < height.width; ++x) {
            ASSERT_EQ(height.at(x, y), shaded(kHypsometricStops[2], kFlatShade));
        }
    }
}

float risingSouthEast(std::int64_t c, std::int64_t r) { return static_cast<float>(4 * (c + r)); }
float fallingSouthEast(std::int64_t c, std::int64_t r) {
    return static_cast<float>(1000 - 4 * (c + r));
}

TEST_F(PreviewSinkTest, SlopeFacingTheSunIsBrighter) {
    Config config = previewConfig(m_dir.path().string(), 64, 64, 64);
    config.output.files = {OutputFile::PreviewPng};
    config.map.cellSize = 10.0;
    writePreviews(config, previewMap(64, 64, risingSouthEast), 16);  // faces north-west
    const PngImage lit = readPng(pathOf("preview.png"));
    writePreviews(config, previewMap(64, 64, fallingSouthEast), 16);  // faces south-east
    const PngImage dark = readPng(pathOf("preview.png"));
    writePreviews(config, previewMap(64, 64, flat), 16);
    const PngImage level = readPng(pathOf("preview.png"));
    for (const auto& [x, y] : {std::pair{10u, 10u}, std::pair{50u, 10u}, std::pair{50u, 50u}}) {
        for (int channel = 0; channel < 3; ++channel) {
            EXPECT_GT(lit.at(x, y)[channel], level.at(x, y)[channel]) << x << ", " << y;
            EXPECT_LT(dark.at(x, y)[channel], level.at(x, y)[channel]) << x << ", " << y;
        }
    }
}

// Every pixel equals the class colour of its centre cell times the shade factor of the
// hillshade of the block means, both worked out here from the whole map.
TEST_F(PreviewSinkTest, PreviewPixelsAreClassColourTimesShade) {
    const std::int64_t w = 300, h = 200, s = 5;
    const Config config = previewConfig(m_dir.path().string(), w, h, 64);
    const test::SyntheticMap map = previewMap(w, h, hills);
    writePreviews(config, map, 16);
    std::vector<double> means;
    for (std::int64_t py = 0; py < h / s; ++py) {
        for (std::int64_t px = 0; px < w / s; ++px) {
            double sum = 0;
            for (std::int64_t y = py * s; y < py * s + s; ++y) {
                for (std::int64_t x = px * s; x < px * s + s; ++x) sum += map.elevation[y * w + x];
            }
            means.push_back(sum / (s * s));
        }
    }
    const std::vector<double> shade = hillshade(means, w / s, h / s, config.map.cellSize * s);
    const PngImage preview = readPng(pathOf("preview.png"));
    const PngImage height = readPng(pathOf("height.png"));
    int differing = 0;
    for (std::uint32_t y = 0; y < preview.height; ++y) {
        for (std::uint32_t x = 0; x < preview.width; ++x) {
            const std::size_t i = std::size_t(y) * preview.width + x;
            const std::uint8_t cls = map.classIndex[(y * s + 2) * w + x * s + 2];
            ASSERT_EQ(preview.at(x, y), shaded(m_terrain.classes()[cls].colour, shade[i]))
                << x << ", " << y;
            const Rgb ramp = shadeColour(hypsometricColour(means[i], 0.0, 1000.0), shade[i]);
            ASSERT_EQ(height.at(x, y), (std::array<std::uint8_t, 3>{ramp.r, ramp.g, ramp.b}));
            differing += shade[i] != kFlatShade;
        }
    }
    EXPECT_GT(differing, 1000) << "the hills should shade most pixels";
}

TEST_F(PreviewSinkTest, TileSizeDoesNotChangeTheBytes) {
    const Config config = previewConfig(m_dir.path().string(), 300, 200, 64);
    const test::SyntheticMap map = previewMap(300, 200, hills);
    std::string preview, height;
    for (const std::int64_t tileSize : {7, 16, 64}) {
        writePreviews(config, map, tileSize);
        if (preview.empty()) {
            preview = readFile(pathOf("preview.png"));
            height = readFile(pathOf("height.png"));
            continue;
        }
        EXPECT_TRUE(readFile(pathOf("preview.png")) == preview) << "tile size " << tileSize;
        EXPECT_TRUE(readFile(pathOf("height.png")) == height) << "tile size " << tileSize;
    }
}

TEST_F(PreviewSinkTest, IdenticalInputGivesIdenticalFiles) {
    test::TempDir other;
    const test::SyntheticMap map = previewMap(120, 90, hills);
    writePreviews(previewConfig(m_dir.path().string(), 120, 90, 50), map, 32);
    writePreviews(previewConfig(other.path().string(), 120, 90, 50), map, 32);
    for (const char* name : {"preview.png", "height.png"}) {
        EXPECT_TRUE(readFile(pathOf(name)) == readFile(other / name)) << name;
    }
}

// A geographic map's cell size is in degrees, measured in metres at the map's centre latitude
// (cellMetres): the preview equals a projected map's with cells of that many metres.
TEST_F(PreviewSinkTest, GeographicCellSizeIsTakenInDegrees) {
    test::TempDir other;
    Config geographic = previewConfig(other.path().string(), 120, 90, 50);
    geographic.output.crs = crsFromEpsg(4326);
    geographic.map.cellSize = 0.25;
    geographic.map.originX = 10.0;
    geographic.map.originY = 60.0;
    Config projected = previewConfig(m_dir.path().string(), 120, 90, 50);
    projected.map.cellSize = cellMetres(geographic.map, geographic.output.crs).square();
    // Centre latitude 48.75: a quarter degree is ~18.4 km east-west and ~27.8 km north-south.
    EXPECT_NEAR(projected.map.cellSize, std::sqrt(18380.0 * 27800.0), 100.0);
    const test::SyntheticMap map = previewMap(120, 90, [](std::int64_t c, std::int64_t r) {
        return static_cast<float>(500.0 + 400.0 * std::sin(c * 0.1) * std::cos(r * 0.08));
    });
    writePreviews(projected, map, 32);
    writePreviews(geographic, map, 32);
    EXPECT_TRUE(readFile(pathOf("preview.png")) == readFile(other / "preview.png"));
}

TEST_F(PreviewSinkTest, DroppedSinksLeaveNoFiles) {
    const Config config = previewConfig(m_dir.path().string(), 100, 70, 64);
    {
        const auto sinks = makeSinks(config, &m_terrain, nullptr);
        // Finished, never committed.
        test::feedTiles(test::sinkPointers(sinks), previewMap(100, 70, hills), 16);
    }
    {
        const auto sinks = makeSinks(config, &m_terrain, nullptr);  // never fed
    }
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(PreviewSinkTest, MissingTilesFailFinish) {
    const Config config = previewConfig(m_dir.path().string(), 100, 70, 64);
    const auto sinks = makeSinks(config, &m_terrain, nullptr);
    OutputSink& sink = *sinks[0];
    sink.begin(TileLayout(config.map));
    EXPECT_THAT([&] { sink.finish(); },
                ThrowsMessage<std::logic_error>(HasSubstr("received 0 of its")));
}

}  // namespace
}  // namespace terragrid

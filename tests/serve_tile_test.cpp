// The explorer's tiles against the batch pictures (design.md principle 9): at the highest zoom
// a tile is the batch picture's pixels where that picture has one pixel per cell, with and
// without hydrology; at every lower zoom a pixel shows its block's centre cell; terrarium
// tiles decode to the batch heights; the tile PNG is the batch encoder's bytes.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/png/png_writer.hpp"
#include "serve/tile_renderer.hpp"
#include "terragrid/app/run.hpp"
#include "test_support.hpp"

namespace terragrid::serve {
namespace {

namespace fs = std::filesystem;

/// The config of `overrides` writing preview.png and height.png at one pixel per cell (no
/// legend) and height.tif into `dir`.
LoadedConfig pictureConfig(const test::TempDir& dir, std::vector<std::string> overrides) {
    overrides.push_back("output.preview_max_size=4096");
    overrides.push_back("output.preview_legend=off");
    overrides.push_back(R"(output.files=["preview.png","height.png","height.tif","classes.tif"])");
    overrides.push_back("output.directory=" + nlohmann::json(dir.path().string()).dump());
    return defaultConfig(overrides);
}

/// The map's water, as the explorer's hydrology job makes it.
std::shared_ptr<const MapWater> waterOf(const ExploredMap& map) {
    return std::make_shared<const MapWater>(
        std::make_unique<HydrologyStage>(computeHydrology(map.config())), map.config(),
        map.terrain(), map.pyramid().maxZoom(), [] { return false; });
}

/// Every pixel of every tile of `layer` at the highest zoom against `picture`: the same RGB
/// inside the map, opaque; transparent outside. Returns the pixels compared.
std::int64_t expectTilesArePicture(const ExploredMap& map, const MapWater* water,
                                   TileLayer layer, const test::PngImage& picture) {
    const TilePyramid& p = map.pyramid();
    const int z = p.maxZoom();
    EXPECT_EQ(picture.width, std::uint32_t(p.mapWidth()));
    EXPECT_EQ(picture.height, std::uint32_t(p.mapHeight()));
    std::int64_t compared = 0, differing = 0;
    for (std::int64_t ty = 0; ty < p.tilesDown(z); ++ty)
        for (std::int64_t tx = 0; tx < p.tilesAcross(z); ++tx) {
            const std::vector<std::uint8_t> rgba = renderTileRgba(map, water, {layer, z, tx, ty});
            for (std::int64_t y = 0; y < kTilePixels; ++y)
                for (std::int64_t x = 0; x < kTilePixels; ++x) {
                    const std::int64_t col = tx * kTilePixels + x, row = ty * kTilePixels + y;
                    const std::uint8_t* px = &rgba[std::size_t(4 * (y * kTilePixels + x))];
                    if (col >= p.mapWidth() || row >= p.mapHeight()) {
                        EXPECT_EQ(px[3], 0) << "outside the map at " << col << "," << row;
                        continue;
                    }
                    const auto want = picture.at(std::uint32_t(col), std::uint32_t(row));
                    ++compared;
                    if (px[0] != want[0] || px[1] != want[1] || px[2] != want[2] || px[3] != 255) {
                        if (++differing <= 5)
                            ADD_FAILURE() << nameOf(layer) << " cell " << col << "," << row
                                          << ": tile " << int(px[0]) << "," << int(px[1]) << ","
                                          << int(px[2]) << "," << int(px[3]) << ", picture "
                                          << int(want[0]) << "," << int(want[1]) << ","
                                          << int(want[2]);
                    }
                }
        }
    EXPECT_EQ(differing, 0) << nameOf(layer) << ": pixels unlike the batch picture";
    return compared;
}

// 300 x 200: two tiles across at the highest zoom (zoom 1), the second and the row below
// partly outside the map.
TEST(ServeTileTest, HighestZoomIsTheBatchPicturePixelForPixel) {
    test::TempDir dir;
    const LoadedConfig config = pictureConfig(dir, {"map.width=300", "map.height=200", "seed=5"});
    runMap(config);
    const ExploredMap map(config);
    ASSERT_EQ(map.pyramid().maxZoom(), 1);
    EXPECT_EQ(expectTilesArePicture(map, nullptr, TileLayer::Preview, test::readPng(dir / "preview.png")),
              300 * 200);
    expectTilesArePicture(map, nullptr, TileLayer::Height, test::readPng(dir / "height.png"));
}

// With the hydrology stage on a grid coarser than the map (lakes, sea, rivers of order 3 and
// more, widened over their neighbours, eroded heights): the same pictures.
TEST(ServeTileTest, HighestZoomWithHydrologyIsTheBatchPicture) {
    test::TempDir dir;
    for (const char* resolution : {"1", "2"}) {
        const LoadedConfig config = pictureConfig(
            dir, {"map.width=300", "map.height=200", "seed=11", "hydrology.enabled=true",
                  "hydrology.river_threshold=180000", "hydrology.sea_level=0.3",
                  "hydrology.erosion.enabled=true", "hydrology.erosion.steps=5",
                  std::string("hydrology.resolution=") + resolution});
        runMap(config);
        const ExploredMap map(config);
        const auto water = waterOf(map);
        ASSERT_GE(water->maxOrder, 3) << "rivers wide enough to widen";
        expectTilesArePicture(map, water.get(), TileLayer::Preview, test::readPng(dir / "preview.png"));
        expectTilesArePicture(map, water.get(), TileLayer::Height, test::readPng(dir / "height.png"));
    }
}

// At zoom z a pixel shows the centre cell of its 2^k x 2^k block: the classes layer's pixel
// is that cell's class colour at the highest zoom, whatever the zoom.
TEST(ServeTileTest, LowerZoomsShowTheCentreCellOfEachBlock) {
    const LoadedConfig config = defaultConfig({"map.width=700", "map.height=530", "seed=9"});
    const ExploredMap map(config);
    const TilePyramid& p = map.pyramid();
    ASSERT_EQ(p.maxZoom(), 2);
    // The whole map at the highest zoom, as class colours.
    std::vector<std::uint8_t> full(std::size_t(p.mapWidth() * p.mapHeight() * 4));
    for (std::int64_t ty = 0; ty < p.tilesDown(2); ++ty)
        for (std::int64_t tx = 0; tx < p.tilesAcross(2); ++tx) {
            const auto rgba = renderTileRgba(map, nullptr, {TileLayer::Classes, 2, tx, ty});
            for (std::int64_t y = 0; y < kTilePixels; ++y)
                for (std::int64_t x = 0; x < kTilePixels; ++x) {
                    const std::int64_t col = tx * kTilePixels + x, row = ty * kTilePixels + y;
                    if (col >= p.mapWidth() || row >= p.mapHeight()) continue;
                    std::copy_n(&rgba[std::size_t(4 * (y * kTilePixels + x))], 4,
                                &full[std::size_t(4 * (row * p.mapWidth() + col))]);
                }
        }
    for (const int z : {0, 1}) {
        const std::int64_t s = p.step(z);
        EXPECT_EQ(p.tilesAcross(z), z == 0 ? 1 : 2);
        for (std::int64_t ty = 0; ty < p.tilesDown(z); ++ty)
            for (std::int64_t tx = 0; tx < p.tilesAcross(z); ++tx) {
                const auto rgba = renderTileRgba(map, nullptr, {TileLayer::Classes, z, tx, ty});
                for (std::int64_t y = 0; y < kTilePixels; ++y)
                    for (std::int64_t x = 0; x < kTilePixels; ++x) {
                        const std::int64_t px = tx * kTilePixels + x, py = ty * kTilePixels + y;
                        const std::uint8_t* got = &rgba[std::size_t(4 * (y * kTilePixels + x))];
                        if (px >= p.pixelsAcross(z) || py >= p.pixelsDown(z)) {
                            ASSERT_EQ(got[3], 0);
                            continue;
                        }
                        const std::int64_t col = std::min(px * s + s / 2, p.mapWidth() - 1);
                        const std::int64_t row = std::min(py * s + s / 2, p.mapHeight() - 1);
                        const std::uint8_t* want = &full[std::size_t(4 * (row * p.mapWidth() + col))];
                        ASSERT_TRUE(std::equal(got, got + 4, want))
                            << "zoom " << z << " pixel " << px << "," << py;
                    }
            }
    }
}

// Terrarium tiles decode (red * 256 + green + blue / 256 - 32768) to the batch heights,
// rounded down to 1/256 m.
TEST(ServeTileTest, TerrariumTilesDecodeToTheBatchHeights) {
    test::TempDir dir;
    const LoadedConfig config =
        pictureConfig(dir, {"map.width=200", "map.height=150", "elevation.min=-300"});
    runMap(config);
    std::uint32_t w = 0, h = 0;
    const std::vector<float> heights = test::readFloatTiff(dir / "height.tif", &w, &h);
    const ExploredMap map(config);
    const test::PngImage tile = test::decodePng(
        [&] {
            const auto png = renderTilePng(map, nullptr, {TileLayer::Terrarium, 0, 0, 0});
            return std::string(png.begin(), png.end());
        }(),
        "terrarium tile");
    EXPECT_EQ(tile.colourType, 2) << "RGB: its alpha would carry nothing";
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const auto c = tile.at(x, y);
            const double decoded = c[0] * 256.0 + c[1] + c[2] / 256.0 - 32768.0;
            const double want = std::floor(double(heights[y * w + x]) * 256.0) / 256.0;
            ASSERT_EQ(decoded, want) << x << "," << y;
        }
    // Beyond the map: the elevation range's floor.
    const auto outside = tile.at(255, 255);
    EXPECT_EQ(outside[0] * 256.0 + outside[1] + outside[2] / 256.0 - 32768.0, -300.0);
}

TEST(ServeTileTest, TerrariumEncodingClampsToItsBytes) {
    EXPECT_EQ(terrariumRgb(0.0), (std::array<std::uint8_t, 3>{128, 0, 0}));
    EXPECT_EQ(terrariumRgb(-32768.0), (std::array<std::uint8_t, 3>{0, 0, 0}));
    EXPECT_EQ(terrariumRgb(-1e9), (std::array<std::uint8_t, 3>{0, 0, 0}));
    EXPECT_EQ(terrariumRgb(1e9), (std::array<std::uint8_t, 3>{255, 255, 255}));
    EXPECT_EQ(terrariumRgb(1.5), (std::array<std::uint8_t, 3>{128, 1, 128}));
    EXPECT_EQ(terrariumRgb(std::nan("")), (std::array<std::uint8_t, 3>{0, 0, 0}));
}

// The water overlay: every lake and sea cell coloured, every river cell in the river colour.
TEST(ServeTileTest, WaterTilesShowTheStagesLakesAndRivers) {
    const LoadedConfig config = defaultConfig(
        {"map.width=300", "map.height=200", "seed=11", "hydrology.enabled=true",
         "hydrology.river_threshold=180000", "hydrology.sea_level=0.3"});
    const ExploredMap map(config);
    const auto water = waterOf(map);
    CellValues cells;
    generateCells(water->fields, CellGrid::strided(0, 0, 256, 200, 1), cells);
    const auto rgba = renderTileRgba(map, water.get(), {TileLayer::Water, 1, 0, 0});
    std::int64_t lakes = 0, rivers = 0;
    for (std::int64_t y = 0; y < 200; ++y)
        for (std::int64_t x = 0; x < 256; ++x) {
            const auto i = std::size_t(y * 256 + x);
            const std::uint8_t alpha = rgba[4 * i + 3];
            const auto kind = static_cast<Water>(cells.water[i]);
            if (kind == Water::Lake) {
                ++lakes;
                EXPECT_GT(alpha, 0) << x << "," << y;
            } else if (kind == Water::River) {
                ++rivers;
                EXPECT_EQ(alpha, 255) << x << "," << y;
                const Rgb river = config.hydrology.riverColour;
                EXPECT_EQ(rgba[4 * i], river.r);
            }
        }
    EXPECT_GT(lakes, 0);
    EXPECT_GT(rivers, 0);
}

// A tile's cost does not grow with the zoom-out: zoom 0 of a map of 2^20 x 2^20 cells is one
// tile of 256 x 256 sampled cells, made at once.
TEST(ServeTileTest, ZoomZeroOfAHugeMapIsOneTilesWorth) {
    const LoadedConfig config = defaultConfig({"map.width=1048576", "map.height=1048576"});
    const ExploredMap map(config);
    EXPECT_EQ(map.pyramid().maxZoom(), 12);
    const auto rgba = renderTileRgba(map, nullptr, {TileLayer::Preview, 0, 0, 0});
    for (std::size_t i = 3; i < rgba.size(); i += 4) ASSERT_EQ(rgba[i], 255);
}

// What a tile's PNG must keep of the batch writer's file: the pixels (decoded by libpng), the
// header and the chunks' order; its image data is libdeflate's (encodePng), not the bytes.
void expectSamePicture(const std::string& tile, const std::filesystem::path& file) {
    const test::PngImage fromTile = test::decodePng(tile, "tile");
    const test::PngImage fromFile = test::readPng(file);
    EXPECT_EQ(fromTile.width, fromFile.width);
    EXPECT_EQ(fromTile.height, fromFile.height);
    EXPECT_EQ(fromTile.bitDepth, fromFile.bitDepth);
    EXPECT_EQ(fromTile.colourType, fromFile.colourType);
    EXPECT_EQ(fromTile.rgba, fromFile.rgba);
    // The file's pieces are IDAT chunks of their own; the tile has one.
    std::vector<std::string> fileChunks;
    for (const std::string& chunk : fromFile.chunks)
        if (chunk != "IDAT" || fileChunks.empty() || fileChunks.back() != "IDAT") fileChunks.push_back(chunk);
    EXPECT_EQ(fromTile.chunks, fileChunks);
}

TEST(ServeTileTest, TilePngIsTheBatchEncodersPicture) {
    test::TempDir dir;
    std::vector<std::uint8_t> rgba(97 * 61 * 4);
    for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = std::uint8_t((i * 7919) >> 3);
    for (const PngFormat format : {PngFormat::Rgba8, PngFormat::Rgb8}) {
        const std::size_t bytes = 97 * 61 * pngBytesPerPixel(format);
        const std::vector<std::uint8_t> pixels(rgba.begin(), rgba.begin() + std::ptrdiff_t(bytes));
        PngWriter writer((dir / "p.png").string());
        writer.write(97, 61, pixels, format);
        writer.commit();
        const std::vector<std::uint8_t> memory = encodePng(97, 61, pixels.data(), pixels.size(), format);
        expectSamePicture(std::string(memory.begin(), memory.end()), dir / "p.png");
    }
    EXPECT_THROW(encodePng(2, 2, rgba.data(), 15, PngFormat::Rgba8), std::invalid_argument);
}

// Pictures taller than a piece of the batch writer's stream (kPieceBytes), which it compresses
// in several, come out the same too; and a tile of the default map is no larger than the file.
TEST(ServeTileTest, TallPngsAreTheBatchEncodersPictureToo) {
    test::TempDir dir;
    std::vector<std::uint8_t> rgb(300 * 700 * 3);
    for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t((i * 31) ^ (i >> 9));
    PngWriter writer((dir / "t.png").string());
    writer.write(300, 700, rgb);
    writer.commit();
    const auto memory = encodePng(300, 700, rgb.data(), rgb.size(), PngFormat::Rgb8);
    expectSamePicture(std::string(memory.begin(), memory.end()), dir / "t.png");
}

// The layers of few colours go out as indexed PNGs of the same pixels, smaller than RGBA; the
// shaded ones and terrarium's as RGB (inside the map) or RGBA.
TEST(ServeTileTest, FewColourLayersAreIndexedPngsOfTheSamePixels) {
    const LoadedConfig config = defaultConfig({"map.width=300", "map.height=200", "seed=11", "hydrology.enabled=true",
                                               "hydrology.river_threshold=180000", "hydrology.sea_level=0.3"});
    const ExploredMap map(config);
    const auto water = waterOf(map);
    for (const TileLayer layer : {TileLayer::Classes, TileLayer::Walkable, TileLayer::Water, TileLayer::Preview,
                                  TileLayer::Height, TileLayer::Terrarium}) {
        for (const TileAddress a : {TileAddress{layer, 0, 0, 0}, TileAddress{layer, map.pyramid().maxZoom(), 1, 0}}) {
            const std::string what = std::string(kTileLayerNames[std::size_t(layer)]) + " zoom " + std::to_string(a.zoom);
            const auto rgba = renderTileRgba(map, water.get(), a);
            const auto png = renderTilePng(map, water.get(), a);
            const test::PngImage image = test::decodePng(std::string(png.begin(), png.end()), what);
            EXPECT_EQ(image.rgba, rgba) << what;
            const bool few = layer == TileLayer::Classes || layer == TileLayer::Walkable || layer == TileLayer::Water;
            EXPECT_EQ(image.colourType == 3, few) << what;
            if (few) {
                EXPECT_LT(png.size(), encodePng(256, 256, rgba.data(), rgba.size(), PngFormat::Rgba8).size()) << what;
            }
        }
    }
}

TEST(ServeTileTest, ATileOfTheDefaultMapIsNoLargerThanTheBatchWritersFile) {
    test::TempDir dir;
    const ExploredMap map(defaultConfig({}));
    const auto rgba = renderTileRgba(map, nullptr, {TileLayer::Preview, map.pyramid().maxZoom(), 1, 1});
    PngWriter writer((dir / "tile.png").string());
    writer.write(256, 256, rgba, PngFormat::Rgba8);
    writer.commit();
    const auto memory = encodePng(256, 256, rgba.data(), rgba.size(), PngFormat::Rgba8);
    expectSamePicture(std::string(memory.begin(), memory.end()), dir / "tile.png");
    // libdeflate's level 1 against zlib's Z_RLE: within 2 % of the file's size (measured: smaller).
    EXPECT_LE(double(memory.size()), 1.02 * double(std::filesystem::file_size(dir / "tile.png")));
}

}  // namespace
}  // namespace terragrid::serve

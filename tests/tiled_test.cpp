// The Tiled export (map.tmj, the tilesets and their images, chunk maps and map.world), read
// back with nlohmann, zlib and libpng.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/sinks.hpp"
#include "io/tiled/tiled_tileset.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/version.hpp"
#include "json_file.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::listDir;
using test::readFile;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::ThrowsMessage;

// The three test classes make 3 solid tiles and 14 transition tiles for each of the 3 pairs:
// 45 terrain tiles, so the blocked tileset starts at gid 46.
constexpr std::uint32_t kBlockedGid = 46;

// Writes the Tiled export through makeSinks, the map fed in tiles of `tileSize` after the
// walkable regions (without the connectivity rule, so the mask is map.walkable), committed.
// Returns the sink's path().
std::string writeTiled(const Config& config, const Terrain& terrain,
                       const test::SyntheticMap& map, std::int64_t tileSize) {
    WalkableRegions regions(false);
    const std::vector<std::string> paths =
        test::writeOutputs(config, &terrain, &regions, map, tileSize);
    EXPECT_EQ(paths.size(), 1u);
    return paths.at(0);
}

using test::readJson;

// The gids of a .tmj layer, after checking it says how they are encoded.
std::vector<std::uint32_t> layerGids(const json& layer) {
    EXPECT_EQ(layer.at("encoding"), "base64");
    EXPECT_EQ(layer.at("compression"), "zlib");
    return test::decodeTiledLayerData(layer.at("data").get<std::string>(), "zlib");
}

// What the layers must hold for the cells of `map` in [col0, col0 + width) x [row0, ...).
std::vector<std::uint32_t> expectedTerrain(const test::SyntheticMap& map, std::int64_t col0,
                                           std::int64_t row0, std::int64_t width,
                                           std::int64_t height) {
    std::vector<std::uint32_t> gids;
    for (std::int64_t r = row0; r < row0 + height; ++r)
        for (std::int64_t c = col0; c < col0 + width; ++c)
            gids.push_back(map.classIndex[std::size_t(r * map.width + c)] + 1u);
    return gids;
}

std::vector<std::uint32_t> expectedBlocked(const test::SyntheticMap& map, std::uint32_t gid,
                                           std::int64_t col0, std::int64_t row0,
                                           std::int64_t width, std::int64_t height) {
    std::vector<std::uint32_t> gids;
    for (std::int64_t r = row0; r < row0 + height; ++r)
        for (std::int64_t c = col0; c < col0 + width; ++c)
            gids.push_back(map.walkable[std::size_t(r * map.width + c)] ? 0u : gid);
    return gids;
}

// A map property's {type, value}, by name.
std::map<std::string, std::pair<std::string, json>> properties(const json& owner) {
    std::map<std::string, std::pair<std::string, json>> byName;
    for (const json& p : owner.at("properties")) {
        byName[p.at("name").get<std::string>()] = {p.at("type").get<std::string>(),
                                                   p.at("value")};
    }
    return byName;
}

class TiledTest : public ::testing::Test {
protected:
    // A map of `config`'s size whose classes are noise from `seed`, which zlib cannot shrink
    // much; walkability from the class.
    test::SyntheticMap noisyMap(const Config& config, unsigned seed) const {
        test::SyntheticMap map = test::tiledMap(config, m_terrain);
        std::minstd_rand random(seed);
        for (std::size_t i = 0; i < map.classIndex.size(); ++i) {
            map.classIndex[i] = static_cast<std::uint8_t>(random() % 3);
            map.walkable[i] = m_terrain.walkable(map.classIndex[i]);
        }
        return map;
    }

    test::TempDir m_dir;
    Terrain m_terrain = test::tiledTerrain();
};

TEST_F(TiledTest, MapHoldsEveryCellsClassAndBlockedFlag) {
    const Config config = test::tiledConfig(m_dir.path());
    const test::SyntheticMap map = test::tiledMap(config, m_terrain);
    EXPECT_EQ(writeTiled(config, m_terrain, map, 16), (m_dir / "map.tmj").string());

    // No scratch or temporary file is left beside the outputs.
    EXPECT_THAT(listDir(m_dir.path()),
                ElementsAre("blocked.png", "blocked.tsj", "map.tmj", "terrain.png", "terrain.tsj"));

    const json tmj = readJson(m_dir / "map.tmj");
    EXPECT_EQ(tmj.at("type"), "map");
    EXPECT_EQ(tmj.at("version"), "1.10");
    EXPECT_EQ(tmj.at("orientation"), "orthogonal");
    EXPECT_EQ(tmj.at("renderorder"), "right-down");
    EXPECT_EQ(tmj.at("infinite"), false);
    EXPECT_EQ(tmj.at("width"), 45);
    EXPECT_EQ(tmj.at("height"), 37);
    EXPECT_EQ(tmj.at("tilewidth"), 16);
    EXPECT_EQ(tmj.at("tileheight"), 16);
    EXPECT_EQ(tmj.at("nextlayerid"), 3);
    EXPECT_EQ(tmj.at("tilesets"),
              json::parse(R"([{"firstgid": 1, "source": "terrain.tsj"},
                              {"firstgid": 46, "source": "blocked.tsj"}])"));

    const auto props = properties(tmj);
    EXPECT_EQ(props.size(), 4u);
    const auto text = [](const json& v) { return std::make_pair(std::string("string"), v); };
    EXPECT_EQ(props.at("seed"), text("18446744073709551557"));
    EXPECT_EQ(props.at("config_hash"), text("0123456789abcdef"));
    EXPECT_EQ(props.at("terragrid_version"), text(kVersion));
    EXPECT_EQ(props.at("noise_version"), std::make_pair(std::string("int"), json(2)));

    const json& layers = tmj.at("layers");
    ASSERT_EQ(layers.size(), 2u);
    for (const json& layer : layers) {
        EXPECT_EQ(layer.at("type"), "tilelayer");
        EXPECT_EQ(layer.at("width"), 45);
        EXPECT_EQ(layer.at("height"), 37);
        EXPECT_EQ(layer.at("x"), 0);
        EXPECT_EQ(layer.at("y"), 0);
        EXPECT_EQ(layer.at("visible"), true);
    }
    EXPECT_EQ(layers[0].at("name"), "terrain");
    EXPECT_EQ(layers[0].at("id"), 1);
    EXPECT_EQ(layers[0].at("opacity"), 1.0);
    EXPECT_EQ(layers[1].at("name"), "blocked");
    EXPECT_EQ(layers[1].at("id"), 2);
    EXPECT_EQ(layers[1].at("opacity"), 1.0);

    EXPECT_EQ(layerGids(layers[0]), expectedTerrain(map, 0, 0, 45, 37));
    EXPECT_EQ(layerGids(layers[1]), expectedBlocked(map, kBlockedGid, 0, 0, 45, 37));
}

TEST_F(TiledTest, SameBytesWhateverTheTileSize) {
    const std::vector<std::string> files = {"map.tmj", "terrain.tsj", "terrain.png",
                                            "blocked.tsj", "blocked.png"};
    std::vector<std::string> reference;
    for (const std::int64_t tileSize : {7, 16, 64}) {
        test::TempDir dir;
        const Config config = test::tiledConfig(dir.path());
        writeTiled(config, m_terrain, test::tiledMap(config, m_terrain), tileSize);
        std::vector<std::string> bytes;
        for (const std::string& file : files) bytes.push_back(readFile(dir / file));
        if (reference.empty()) {
            reference = bytes;
            continue;
        }
        for (std::size_t i = 0; i < files.size(); ++i) {
            EXPECT_TRUE(bytes[i] == reference[i]) << files[i] << " with tiles of " << tileSize;
        }
    }
}

// Noise that zlib cannot shrink much: the compressed stream spans more than one of the encoder's
// buffers, whose lengths are not multiples of 3, so base64 groups run across them.
TEST_F(TiledTest, LargeNoisyMapsRoundTrip) {
    Config config = test::tiledConfig(m_dir.path());
    config.map.width = 600;
    config.map.height = 400;
    const test::SyntheticMap map = noisyMap(config, 11);
    writeTiled(config, m_terrain, map, 64);
    const json tmj = readJson(m_dir / "map.tmj");
    EXPECT_GT(tmj.at("layers")[0].at("data").get<std::string>().size(), (1u << 16) * 4 / 3);
    EXPECT_EQ(layerGids(tmj.at("layers")[0]), expectedTerrain(map, 0, 0, 600, 400));
    EXPECT_EQ(layerGids(tmj.at("layers")[1]), expectedBlocked(map, kBlockedGid, 0, 0, 600, 400));
}

TEST_F(TiledTest, TerrainTilesetNamesEveryClass) {
    const Config config = test::tiledConfig(m_dir.path());
    writeTiled(config, m_terrain, test::tiledMap(config, m_terrain), 16);

    const json tsj = readJson(m_dir / "terrain.tsj");
    EXPECT_EQ(tsj.at("type"), "tileset");
    EXPECT_EQ(tsj.at("version"), "1.10");
    EXPECT_EQ(tsj.at("name"), "terrain");
    EXPECT_EQ(tsj.at("tilewidth"), 16);
    EXPECT_EQ(tsj.at("tileheight"), 16);
    EXPECT_EQ(tsj.at("tilecount"), 45);
    EXPECT_EQ(tsj.at("columns"), 45);
    EXPECT_EQ(tsj.at("margin"), 0);
    EXPECT_EQ(tsj.at("spacing"), 0);
    EXPECT_EQ(tsj.at("image"), "terrain.png");
    EXPECT_EQ(tsj.at("imagewidth"), 45 * 16);
    EXPECT_EQ(tsj.at("imageheight"), 16);

    // The class is Tiled's built-in Class field, not a custom property.
    const json& tiles = tsj.at("tiles");
    ASSERT_EQ(tiles.size(), 45u);
    for (std::size_t i = 0; i < 3; ++i) {
        const TerrainClass& c = m_terrain.classes()[i];
        EXPECT_EQ(tiles[i].at("id"), i);
        EXPECT_EQ(tiles[i].at("type"), c.name);
        EXPECT_EQ(tiles[i].at("class"), c.name);
        const auto props = properties(tiles[i]);
        EXPECT_EQ(props.size(), 1u);
        EXPECT_EQ(props.at("walkable"), std::make_pair(std::string("bool"), json(c.walkable)));
    }
    // A transition tile has no class; walkable only when both its classes are.
    EXPECT_FALSE(tiles[3].contains("type"));
    EXPECT_EQ(properties(tiles[3]).at("walkable").second, false);  // lake and mountain
    EXPECT_EQ(properties(tiles[44]).at("walkable").second, false);  // mountain and tall grass

    const json blocked = readJson(m_dir / "blocked.tsj");
    EXPECT_EQ(blocked.at("name"), "blocked");
    EXPECT_EQ(blocked.at("tilecount"), 1);
    EXPECT_EQ(blocked.at("columns"), 1);
    EXPECT_EQ(blocked.at("image"), "blocked.png");
    EXPECT_EQ(blocked.at("imagewidth"), 16);
    EXPECT_EQ(blocked.at("imageheight"), 16);
    EXPECT_FALSE(blocked.contains("wangsets"));
    EXPECT_EQ(blocked.at("tiles"), json::parse(R"([{"id": 0, "properties": [
                  {"name": "walkable", "type": "bool", "value": false}]}])"));
}

// A corner Wang set with one colour per class and a tile for every two-colour corner pattern,
// so Tiled's terrain brush finds a tile for any border between two classes.
TEST_F(TiledTest, WangSetCoversEveryCornerPatternOfTwoClasses) {
    const Config config = test::tiledConfig(m_dir.path());
    writeTiled(config, m_terrain, test::tiledMap(config, m_terrain), 16);
    const json tsj = readJson(m_dir / "terrain.tsj");
    ASSERT_EQ(tsj.at("wangsets").size(), 1u);
    const json& set = tsj.at("wangsets")[0];
    EXPECT_EQ(set.at("type"), "corner");
    EXPECT_EQ(set.at("name"), "terrain");
    const json& colours = set.at("colors");
    ASSERT_EQ(colours.size(), 3u);
    EXPECT_EQ(colours[0], json::parse(
        R"({"name": "lake", "color": "#3a6ea5", "tile": 0, "probability": 1})"));
    EXPECT_EQ(colours[2].at("name"), "tall grass");
    EXPECT_EQ(colours[2].at("tile"), 2);

    std::set<std::vector<int>> patterns;
    const json& wangTiles = set.at("wangtiles");
    ASSERT_EQ(wangTiles.size(), 45u);
    for (std::size_t i = 0; i < wangTiles.size(); ++i) {
        EXPECT_EQ(wangTiles[i].at("tileid"), i);
        const std::vector<int> id = wangTiles[i].at("wangid").get<std::vector<int>>();
        ASSERT_EQ(id.size(), 8u);
        for (std::size_t edge : {0, 2, 4, 6}) EXPECT_EQ(id[edge], 0) << "tile " << i;
        patterns.insert(id);
    }
    EXPECT_EQ(patterns.size(), 45u) << "every tile a different pattern";
    // Solid tiles first: tile i is class i + 1 at every corner.
    EXPECT_EQ(wangTiles[1].at("wangid"), json::parse("[0, 2, 0, 2, 0, 2, 0, 2]"));
    // Every pattern of lake (1) and tall grass (3) is there.
    for (unsigned mask = 0; mask < 16; ++mask) {
        std::vector<int> id(8, 0);
        for (std::size_t corner = 0; corner < 4; ++corner)
            id[corner * 2 + 1] = (mask >> corner & 1U) != 0 ? 3 : 1;
        EXPECT_EQ(patterns.count(id), 1u) << "pattern " << mask;
    }
}

// Tiles of 256 pixels: 45 of them would pass kMaxTerrainTilesetPixels, so only the solid tiles
// are written and the Wang set still names every class.
TEST_F(TiledTest, LargeTilesKeepOnlyTheSolidTiles) {
    Config config = test::tiledConfig(m_dir.path());
    config.output.tiled.tilePixels = 256;
    const test::SyntheticMap map = test::tiledMap(config, m_terrain);
    writeTiled(config, m_terrain, map, 16);
    const json tsj = readJson(m_dir / "terrain.tsj");
    EXPECT_EQ(tsj.at("tilecount"), 3);
    EXPECT_EQ(tsj.at("wangsets")[0].at("wangtiles").size(), 3u);
    const json tmj = readJson(m_dir / "map.tmj");
    EXPECT_EQ(tmj.at("tilesets")[1].at("firstgid"), 4);
    EXPECT_EQ(layerGids(tmj.at("layers")[1]), expectedBlocked(map, 4, 0, 0, 45, 37));
}

TEST_F(TiledTest, TilesetImagesShowTheClassColours) {
    const Config config = test::tiledConfig(m_dir.path());
    writeTiled(config, m_terrain, test::tiledMap(config, m_terrain), 16);

    const test::PngImage terrain = test::readPng(m_dir / "terrain.png");
    ASSERT_EQ(terrain.width, 45u * 16u);
    ASSERT_EQ(terrain.height, 16u);
    EXPECT_EQ(terrain.colourType, 6) << "RGBA";
    for (std::uint32_t i = 0; i < 3; ++i) {
        const Rgb c = m_terrain.classes()[i].colour;
        const Rgb b = tileBorderColour(c);
        const std::uint32_t x0 = i * 16;
        for (std::uint32_t y = 0; y < 16; ++y) {
            for (std::uint32_t x = 0; x < 16; ++x) {
                const bool border = x == 0 || y == 0 || x == 15 || y == 15;
                const Rgb want = border ? b : c;
                ASSERT_EQ(terrain.rgbaAt(x0 + x, y),
                          (std::array<std::uint8_t, 4>{want.r, want.g, want.b, 255}))
                    << "class " << i << " at " << x << ", " << y;
            }
        }
    }
    EXPECT_EQ(tileBorderColour({200, 101, 0}), (Rgb{150, 75, 0}));
    // Tile 3, lake with mountain at the top-left corner (mask 1): each quarter its corner's
    // colour.
    const Rgb lake = m_terrain.classes()[0].colour, mountain = m_terrain.classes()[1].colour;
    EXPECT_EQ(terrain.at(3 * 16 + 4, 4), (std::array<std::uint8_t, 3>{mountain.r, mountain.g,
                                                                        mountain.b}));
    EXPECT_EQ(terrain.at(3 * 16 + 12, 4), (std::array<std::uint8_t, 3>{lake.r, lake.g, lake.b}));
    EXPECT_EQ(terrain.at(3 * 16 + 12, 12), (std::array<std::uint8_t, 3>{lake.r, lake.g, lake.b}));
    EXPECT_EQ(terrain.at(3 * 16 + 4, 12), (std::array<std::uint8_t, 3>{lake.r, lake.g, lake.b}));

    // The blocked tile: outlined and hatched in red, clear in between, so it does not tint.
    const test::PngImage blocked = test::readPng(m_dir / "blocked.png");
    ASSERT_EQ(blocked.width, 16u);
    ASSERT_EQ(blocked.height, 16u);
    const std::array<std::uint8_t, 4> red{kBlockedColour.r, kBlockedColour.g, kBlockedColour.b,
                                          255};
    EXPECT_EQ(blocked.rgbaAt(0, 7), red);
    EXPECT_EQ(blocked.rgbaAt(15, 7), red);
    EXPECT_EQ(blocked.rgbaAt(4, 4), red);   // on a diagonal: (x + y) % 8 == 0
    EXPECT_EQ(blocked.rgbaAt(5, 5)[3], 0);  // between two
    std::size_t clear = 0;
    for (std::size_t i = 3; i < blocked.rgba.size(); i += 4) clear += blocked.rgba[i] == 0;
    EXPECT_GT(clear, 16u * 16u / 2) << "mostly see-through";
}

TEST_F(TiledTest, SmallTilesHaveNoBorder) {
    Config config = test::tiledConfig(m_dir.path());
    config.output.tiled.tilePixels = 3;
    writeTiled(config, m_terrain, test::tiledMap(config, m_terrain), 16);

    const test::PngImage terrain = test::readPng(m_dir / "terrain.png");
    ASSERT_EQ(terrain.width, 45u * 3u);
    ASSERT_EQ(terrain.height, 3u);
    const Rgb c = m_terrain.classes()[1].colour;
    EXPECT_EQ(terrain.at(3, 0), (std::array<std::uint8_t, 3>{c.r, c.g, c.b}));
    EXPECT_EQ(readJson(m_dir / "map.tmj").at("tilewidth"), 3);
    // Too small to hatch: the blocked tile is solid.
    EXPECT_EQ(test::readPng(m_dir / "blocked.png").rgbaAt(1, 1)[3], 255);
}

TEST_F(TiledTest, WithoutTheWalkableLayerOnlyTerrain) {
    Config config = test::tiledConfig(m_dir.path());
    config.output.tiled.walkableLayer = false;
    const test::SyntheticMap map = test::tiledMap(config, m_terrain);
    writeTiled(config, m_terrain, map, 16);

    EXPECT_THAT(listDir(m_dir.path()), ElementsAre("map.tmj", "terrain.png", "terrain.tsj"));
    const json tmj = readJson(m_dir / "map.tmj");
    ASSERT_EQ(tmj.at("layers").size(), 1u);
    EXPECT_EQ(tmj.at("nextlayerid"), 2);
    EXPECT_EQ(tmj.at("tilesets"), json::parse(R"([{"firstgid": 1, "source": "terrain.tsj"}])"));
    EXPECT_EQ(layerGids(tmj.at("layers")[0]), expectedTerrain(map, 0, 0, 45, 37));
}

// 45 x 37 cells in chunks of 16: 3 x 3 chunks, the last column 13 wide, the last row 5 high.
TEST_F(TiledTest, LargeMapsSplitIntoChunksPlacedByAWorld) {
    Config config = test::tiledConfig(m_dir.path(), 16);
    config.output.tiled.tilePixels = 8;
    const test::SyntheticMap map = test::tiledMap(config, m_terrain);
    EXPECT_EQ(writeTiled(config, m_terrain, map, 7), (m_dir / "map.world").string());

    EXPECT_THAT(listDir(m_dir.path()),
                ElementsAre("blocked.png", "blocked.tsj", "map.world", "map_0_0.tmj",
                            "map_0_1.tmj", "map_0_2.tmj", "map_1_0.tmj", "map_1_1.tmj",
                            "map_1_2.tmj", "map_2_0.tmj", "map_2_1.tmj", "map_2_2.tmj",
                            "terrain.png", "terrain.tsj"));

    const json world = readJson(m_dir / "map.world");
    EXPECT_EQ(world.at("type"), "world");
    const json& entries = world.at("maps");
    ASSERT_EQ(entries.size(), 9u);

    // The union of the chunks, put where the world places them, is the whole map.
    std::vector<std::uint32_t> terrain(45 * 37, 0), blocked(45 * 37, 0xffffffff);
    std::size_t entry = 0;
    for (std::int64_t cy = 0; cy < 3; ++cy) {
        for (std::int64_t cx = 0; cx < 3; ++cx, ++entry) {
            const std::string name =
                "map_" + std::to_string(cx) + "_" + std::to_string(cy) + ".tmj";
            const std::int64_t width = cx < 2 ? 16 : 13;
            const std::int64_t height = cy < 2 ? 16 : 5;
            SCOPED_TRACE(name);
            EXPECT_EQ(entries[entry], (json{{"fileName", name},
                                            {"x", cx * 16 * 8},
                                            {"y", cy * 16 * 8},
                                            {"width", width * 8},
                                            {"height", height * 8}}));

            const json tmj = readJson(m_dir / name);
            EXPECT_EQ(tmj.at("width"), width);
            EXPECT_EQ(tmj.at("height"), height);
            EXPECT_EQ(tmj.at("tilewidth"), 8);
            EXPECT_EQ(tmj.at("tilesets").size(), 2u);
            const auto props = properties(tmj);
            EXPECT_EQ(props.at("chunk_x"), std::make_pair(std::string("int"), json(cx)));
            EXPECT_EQ(props.at("chunk_y"), std::make_pair(std::string("int"), json(cy)));
            EXPECT_EQ(props.at("cell_x"), std::make_pair(std::string("int"), json(cx * 16)));
            EXPECT_EQ(props.at("cell_y"), std::make_pair(std::string("int"), json(cy * 16)));
            EXPECT_EQ(props.at("seed").second, "18446744073709551557");
            EXPECT_EQ(props.at("config_hash").second, "0123456789abcdef");

            const auto t = layerGids(tmj.at("layers")[0]);
            const auto b = layerGids(tmj.at("layers")[1]);
            ASSERT_EQ(t.size(), std::size_t(width * height));
            ASSERT_EQ(b.size(), t.size());
            for (std::int64_t r = 0; r < height; ++r) {
                for (std::int64_t c = 0; c < width; ++c) {
                    const auto at = std::size_t((cy * 16 + r) * 45 + cx * 16 + c);
                    terrain[at] = t[std::size_t(r * width + c)];
                    blocked[at] = b[std::size_t(r * width + c)];
                }
            }
        }
    }
    EXPECT_EQ(terrain, expectedTerrain(map, 0, 0, 45, 37));
    EXPECT_EQ(blocked, expectedBlocked(map, kBlockedGid, 0, 0, 45, 37));

    // Tiles larger than a chunk (64) and smaller (7) give the same chunk files.
    test::TempDir other;
    config.output.directory = other.path().string();
    writeTiled(config, m_terrain, map, 64);
    for (const std::string& name : listDir(m_dir.path())) {
        EXPECT_TRUE(readFile(m_dir / name) == readFile(other / name)) << name;
    }
}

TEST_F(TiledTest, MapsThatFitAChunkStayWhole) {
    // Chunks of 45 cells, the longer side: not above it, so no chunks.
    const Config config = test::tiledConfig(m_dir.path(), 45);
    writeTiled(config, m_terrain, test::tiledMap(config, m_terrain), 16);
    EXPECT_THAT(listDir(m_dir.path()),
                ElementsAre("blocked.png", "blocked.tsj", "map.tmj", "terrain.png", "terrain.tsj"));
    EXPECT_FALSE(properties(readJson(m_dir / "map.tmj")).contains("chunk_x"));
}

TEST_F(TiledTest, UncommittedSinkLeavesNoFiles) {
    for (const std::int64_t chunkCells : {0, 16}) {
        const Config config = test::tiledConfig(m_dir.path(), chunkCells);
        const test::SyntheticMap map = test::tiledMap(config, m_terrain);
        {
            WalkableRegions regions(false);
            auto sinks = makeSinks(config, &m_terrain, &regions);
            test::feedTiles({&regions, sinks.at(0).get()}, map, 16);  // finished, never committed
        }
        EXPECT_THAT(listDir(m_dir.path()), IsEmpty()) << "chunks of " << chunkCells;
    }
}

TEST_F(TiledTest, FailedWriteNamesTheMapAndLeavesNothing) {
    Config config = test::tiledConfig(m_dir.path());
    config.map.width = 300;
    config.map.height = 200;
    const test::SyntheticMap map = noisyMap(config, 7);
    {
        WalkableRegions regions(false);
        auto sinks = makeSinks(config, &m_terrain, &regions);
        const test::FileSizeLimit limit(8192);
        const std::string message =
            "writing '" + (m_dir / "map.tmj").string() + "': File too large";
        EXPECT_THAT([&] { test::feedTiles({&regions, sinks.at(0).get()}, map, 64); },
                    ThrowsMessage<OutputError>(HasSubstr(message)));
    }
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(TiledTest, ClassesOutsideTheTilesetAreRefused) {
    const Config config = test::tiledConfig(m_dir.path());
    test::SyntheticMap map = test::tiledMap(config, m_terrain);
    map.classIndex[45 * 20 + 30] = 3;
    WalkableRegions regions(false);
    auto sinks = makeSinks(config, &m_terrain, &regions);
    // Cell (30, 20) is in tile 4 of the 3 x 3 tiles of 16 cells.
    EXPECT_THAT([&] { test::feedTiles({&regions, sinks.at(0).get()}, map, 16); },
                ThrowsMessage<std::logic_error>(
                    HasSubstr("class 3 in tile 4 is not in the tileset of 3 classes")));
}

TEST_F(TiledTest, MapsTooWideForTiledAreRefusedUpFront) {
    Config config = test::tiledConfig(m_dir.path());
    config.map.width = std::int64_t{1} << 20;
    config.output.tiled.tilePixels = 4096;
    WalkableRegions regions(false);
    EXPECT_THAT([&] { makeSinks(config, &m_terrain, &regions); },
                ThrowsMessage<OutputError>(HasSubstr("lower 'output.tiled.tile_pixels'")));
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

// Every chunk map's temporary file stays open until commit (AtomicFile), so a map cut into
// more chunks than the process may open files fails before any work, not after it.
TEST_F(TiledTest, MoreChunksThanOpenFilesAreRefusedUpFront) {
    Config config = test::tiledConfig(m_dir.path());
    config.map.width = 200;
    config.map.height = 200;
    config.output.tiled.chunkCells = 16;  // 13 x 13 = 169 chunk maps
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &old), 0);
    rlimit lowered = old;
    lowered.rlim_cur = 150;
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
    WalkableRegions regions(false);
    EXPECT_THAT([&] { makeSinks(config, &m_terrain, &regions); },
                ThrowsMessage<OutputError>(HasSubstr(
                    "169 chunk maps stay open until the run commits them, more than the 150 "
                    "files this process may open; raise 'output.tiled.chunk_cells' (now 16)")));
    ::setrlimit(RLIMIT_NOFILE, &old);
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
}

TEST_F(TiledTest, MakeSinksNeedsATerrain) {
    const Config config = test::tiledConfig(m_dir.path());
    EXPECT_THAT([&] { makeSinks(config, nullptr, nullptr); },
                ThrowsMessage<std::invalid_argument>(HasSubstr("map.tmj needs a Terrain")));
}

// The blocked layer is written from the regions' mask; without the layer none are needed.
TEST_F(TiledTest, MakeSinksNeedsTheRegionsForTheBlockedLayer) {
    Config config = test::tiledConfig(m_dir.path());
    EXPECT_THAT([&] { makeSinks(config, &m_terrain, nullptr); },
                ThrowsMessage<std::invalid_argument>(HasSubstr(
                    "map.tmj needs the WalkableRegions for 'output.tiled.walkable_layer'")));
    EXPECT_THAT(listDir(m_dir.path()), IsEmpty());
    EXPECT_THAT([&] { makeTiledSink(config, m_terrain, nullptr); },
                ThrowsMessage<std::invalid_argument>(
                    HasSubstr("'output.tiled.walkable_layer' needs the WalkableRegions")));

    config.output.tiled.walkableLayer = false;
    EXPECT_EQ(makeSinks(config, &m_terrain, nullptr).size(), 1u);
}

// The regions finish before the Tiled sink does, or the blocked layer would be read from an
// empty mask.
TEST_F(TiledTest, RegionsThatHaveNotFinishedAreRefused) {
    for (const std::int64_t chunkCells : {0, 16}) {
        const Config config = test::tiledConfig(m_dir.path(), chunkCells);
        WalkableRegions regions(false);
        auto sinks = makeSinks(config, &m_terrain, &regions);
        EXPECT_THAT(
            [&] { test::feedTiles({sinks.at(0).get()}, test::tiledMap(config, m_terrain), 16); },
            ThrowsMessage<std::logic_error>(HasSubstr("they must come before this sink")))
            << "chunks of " << chunkCells;
    }
}

// The gids of one layer over the whole map, from map.tmj or put together from the chunk maps.
std::vector<std::uint32_t> wholeLayer(const fs::path& dir, const Config& config,
                                      std::size_t layer) {
    const std::int64_t width = config.map.width, height = config.map.height;
    const std::int64_t chunk = config.output.tiled.chunkCells;
    if (!fs::exists(dir / "map.world")) {
        return layerGids(readJson(dir / "map.tmj").at("layers").at(layer));
    }
    std::vector<std::uint32_t> gids(std::size_t(width * height), 0xffffffff);
    for (std::int64_t row0 = 0; row0 < height; row0 += chunk) {
        for (std::int64_t col0 = 0; col0 < width; col0 += chunk) {
            const std::string name = "map_" + std::to_string(col0 / chunk) + "_" +
                                     std::to_string(row0 / chunk) + ".tmj";
            const std::int64_t w = std::min(chunk, width - col0);
            const std::int64_t h = std::min(chunk, height - row0);
            const auto part = layerGids(readJson(dir / name).at("layers").at(layer));
            EXPECT_EQ(part.size(), std::size_t(w * h)) << name;
            if (part.size() != std::size_t(w * h)) continue;
            for (std::int64_t r = 0; r < h; ++r)
                for (std::int64_t c = 0; c < w; ++c)
                    gids[std::size_t((row0 + r) * width + col0 + c)] =
                        part[std::size_t(r * w + c)];
        }
    }
    return gids;
}

// With `terrain.connectivity: largest` the walkable cells outside the largest region are not
// walkable in walkable.tif, so they must be blocked in the map too: the blocked layer is the
// regions' final mask, not the class flags the tiles carry.
TEST_F(TiledTest, BlockedLayerIsTheMaskAfterConnectivity) {
    for (const std::int64_t chunkCells : {0, 16}) {
        SCOPED_TRACE("chunks of " + std::to_string(chunkCells));
        test::TempDir dir;
        const Config config = test::tiledConfig(dir.path(), chunkCells);
        const test::SyntheticMap map = test::tiledMap(config, m_terrain);
        WalkableRegions regions(true);
        test::writeOutputs(config, &m_terrain, &regions, map, 7);

        // The test means something only when pruning took walkable cells away.
        const BitRaster& mask = regions.mask();
        ASSERT_GT(regions.stats().regionCount, 1);
        ASSERT_GT(mask.count(), 0);
        ASSERT_LT(mask.count(), regions.stats().walkableCells);

        const std::vector<std::uint32_t> blocked = wholeLayer(dir.path(), config, 1);
        ASSERT_EQ(blocked.size(), std::size_t(45 * 37));
        std::int64_t pruned = 0;
        for (std::int64_t r = 0; r < 37; ++r) {
            for (std::int64_t c = 0; c < 45; ++c) {
                const auto at = std::size_t(r * 45 + c);
                ASSERT_EQ(blocked[at], mask.get(c, r) ? 0u : kBlockedGid) << "cell " << c << ", " << r;
                pruned += map.walkable[at] && !mask.get(c, r);
            }
        }
        EXPECT_EQ(pruned, regions.stats().walkableCells - mask.count());
        EXPECT_EQ(wholeLayer(dir.path(), config, 0), expectedTerrain(map, 0, 0, 45, 37));
    }
}

}  // namespace
}  // namespace terragrid

// What the Tiled editor itself makes of the Tiled export: each test writes a map through
// makeSinks, has Tiled 1.8 load it headless and save it again as TMX
// (`tiled --export-map map.tmj out.tmx`), and checks what Tiled wrote: the map's size, the
// tileset references, the tilesets as Tiled read them (Class, Wang set), and every cell of
// every layer. One more has Tiled's tmxrasterizer draw the map and checks the picture, and
// another loads a map with hydrology and checks its river layer as Tiled read it.
//
// One Tiled run takes about 0.1 s; the tests make eight.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "terragrid/app/run.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "io/tiled/tiled_tileset.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::runCommand;
using test::shellQuote;
using ::testing::ElementsAre;

// 3 classes: 3 solid tiles and 14 transition tiles per pair, so blocked.tsj starts at 46.
constexpr std::uint32_t kBlockedGid = 46;

// An XML element as Tiled writes them: its attributes and the text up to its closing tag
// (empty for an element that closes itself). Enough XML for TMX, whose elements of one name
// never nest.
struct Element {
    std::map<std::string, std::string> attributes;
    std::string body;

    const std::string& operator[](const std::string& name) const {
        static const std::string kMissing = "(missing)";
        const auto it = attributes.find(name);
        return it == attributes.end() ? kMissing : it->second;
    }
};

std::vector<Element> elements(const std::string& xml, const std::string& name) {
    static const std::regex kAttribute(R"re(([A-Za-z_:][-\w:.]*)="([^"]*)")re");
    std::vector<Element> found;
    for (std::size_t at = xml.find("<" + name); at != std::string::npos;
         at = xml.find("<" + name, at + 1)) {
        const char next = xml.at(at + 1 + name.size());
        if (next != ' ' && next != '>' && next != '/') continue;  // <tileset> is not <tile>
        const std::size_t end = xml.find('>', at);
        const std::string tag = xml.substr(at, end - at);
        Element element;
        for (std::sregex_iterator it(tag.begin(), tag.end(), kAttribute), last; it != last; ++it)
            element.attributes[(*it)[1]] = (*it)[2];
        if (tag.back() != '/') {
            const std::size_t close = xml.find("</" + name + ">", end);
            element.body = xml.substr(end + 1, close - end - 1);
        }
        found.push_back(std::move(element));
    }
    return found;
}

// The gids of a <data> element in whichever encoding Tiled chose: CSV or base64 (compressed
// or not). Tiled keeps the map's own choice, base64 + zlib, but may not always.
std::vector<std::uint32_t> dataGids(const Element& data) {
    const std::string& encoding = data["encoding"];
    if (encoding == "csv") {
        std::vector<std::uint32_t> gids;
        std::stringstream text(data.body);
        std::string item;
        while (std::getline(text, item, ',')) gids.push_back(std::uint32_t(std::stoul(item)));
        return gids;
    }
    EXPECT_EQ(encoding, "base64") << "Tiled wrote the layer as XML <tile> elements";
    const std::string& compression = data["compression"];
    return test::decodeTiledLayerData(data.body,
                                      compression == "(missing)" ? "" : compression);
}

// The map properties Tiled wrote: name -> value.
std::map<std::string, std::string> properties(const std::string& xml) {
    std::map<std::string, std::string> byName;
    for (const Element& p : elements(xml, "property")) byName[p["name"]] = p["value"];
    return byName;
}

class TiledToolTest : public ::testing::Test {
protected:
    void SetUp() override {
        // Fails, never skips: a missing tool must not look like a passing test.
        ASSERT_EQ(runCommand("command -v tiled").exitCode, 0)
            << "the Tiled map editor ('tiled') is not on PATH; scripts/deps.sh installs it "
               "(Debian package tiled)";
        fs::create_directories(m_home / "runtime");
        // Qt insists on a private runtime directory and complains on stderr without one.
        fs::permissions(m_home / "runtime", fs::perms::owner_all, fs::perm_options::replace);
    }

    // Writes the map with `chunkCells` through makeSinks into m_dir.
    test::SyntheticMap writeMap(std::int64_t chunkCells) {
        const Config config = test::tiledConfig(m_dir.path(), chunkCells);
        const test::SyntheticMap map = test::tiledMap(config, m_terrain);
        WalkableRegions regions(false);  // no connectivity rule: the mask is map.walkable
        test::writeOutputs(config, &m_terrain, &regions, map, 16);
        return map;
    }

    // Has Tiled load m_dir/`map` and save it as TMX; returns what it saved. Tiled runs headless
    // with its settings in a scratch home, so the user's own are neither read nor changed.
    std::string exportTmx(const std::string& map, const std::string& options = "") {
        // Tiled picks the format from everything after the first dot: "map-out.tmx", not
        // "map.out.tmx".
        const fs::path out = m_dir / (fs::path(map).stem().string() + "-out.tmx");
        const std::string command =
            "env QT_QPA_PLATFORM=offscreen HOME=" + shellQuote(m_home.path().string()) +
            " XDG_CONFIG_HOME=" + shellQuote((m_home / "config").string()) +
            " XDG_RUNTIME_DIR=" + shellQuote((m_home / "runtime").string()) + " tiled " +
            options + " --export-map " + shellQuote((m_dir / map).string()) + " " +
            shellQuote(out.string());
        const test::CommandResult result = runCommand(command);
        EXPECT_EQ(result.exitCode, 0) << command << "\n" << result.out << result.err;
        // Tiled 1.8 reports a missing tileset or broken data on stderr ("Failed to load
        // source map.", "Invalid tile: 1", "Corrupt layer data ..."). A missing image it
        // passes over in silence, which is why the images are checked separately.
        static const std::regex kTrouble(
            "fail|error|could not|not found|missing|invalid|corrupt|warning|cannot",
            std::regex::icase);
        EXPECT_FALSE(std::regex_search(result.err, kTrouble)) << command << "\n" << result.err;
        return test::readFile(out);
    }

    // Checks the layers Tiled saved against the cells [col0, col0 + width) x [row0, ...) of
    // `map`: terrain gid = class + 1 everywhere (never 0, a missing tile), blocked gid
    // kBlockedGid where the cell is not walkable.
    static void expectLayers(const std::string& tmx, const test::SyntheticMap& map,
                             std::int64_t col0, std::int64_t row0, std::int64_t width,
                             std::int64_t height) {
        const std::vector<Element> layers = elements(tmx, "layer");
        const std::vector<Element> data = elements(tmx, "data");
        ASSERT_EQ(layers.size(), 2u);
        ASSERT_EQ(data.size(), 2u);
        EXPECT_EQ(layers[0]["name"], "terrain");
        EXPECT_EQ(layers[1]["name"], "blocked");
        EXPECT_EQ(layers[1]["opacity"], "(missing)") << "opaque: Tiled leaves out opacity 1";
        std::vector<std::uint32_t> terrain, blocked;
        for (std::int64_t r = row0; r < row0 + height; ++r) {
            for (std::int64_t c = col0; c < col0 + width; ++c) {
                const auto i = static_cast<std::size_t>(r * map.width + c);
                terrain.push_back(map.classIndex[i] + 1u);
                blocked.push_back(map.walkable[i] ? 0u : kBlockedGid);
            }
        }
        for (const Element& layer : layers) {
            EXPECT_EQ(layer["width"], std::to_string(width));
            EXPECT_EQ(layer["height"], std::to_string(height));
        }
        const std::vector<std::uint32_t> terrainGids = dataGids(data[0]);
        EXPECT_EQ(std::count(terrainGids.begin(), terrainGids.end(), 0u), 0);
        EXPECT_EQ(terrainGids, terrain);
        EXPECT_EQ(dataGids(data[1]), blocked);
    }

    test::TempDir m_dir;
    test::TempDir m_home;
    Terrain m_terrain = test::tiledTerrain();
};

TEST_F(TiledToolTest, TiledLoadsTheMapWithEveryCell) {
    const test::SyntheticMap map = writeMap(0);
    const std::string tmx = exportTmx("map.tmj");

    const std::vector<Element> maps = elements(tmx, "map");
    ASSERT_EQ(maps.size(), 1u);
    EXPECT_EQ(maps[0]["orientation"], "orthogonal");
    EXPECT_EQ(maps[0]["renderorder"], "right-down");
    EXPECT_EQ(maps[0]["infinite"], "0");
    EXPECT_EQ(maps[0]["width"], "45");
    EXPECT_EQ(maps[0]["height"], "37");
    EXPECT_EQ(maps[0]["tilewidth"], "16");
    EXPECT_EQ(maps[0]["tileheight"], "16");

    const std::vector<Element> tilesets = elements(tmx, "tileset");
    ASSERT_EQ(tilesets.size(), 2u);
    EXPECT_EQ(tilesets[0].attributes,
              (std::map<std::string, std::string>{{"firstgid", "1"}, {"source", "terrain.tsj"}}));
    EXPECT_EQ(tilesets[1].attributes,
              (std::map<std::string, std::string>{{"firstgid", "46"}, {"source", "blocked.tsj"}}));

    EXPECT_EQ(properties(tmx), (std::map<std::string, std::string>{
                                   {"config_hash", "0123456789abcdef"},
                                   {"noise_version", "2"},
                                   {"seed", "18446744073709551557"},
                                   {"terragrid_version", kVersion}}));
    expectLayers(tmx, map, 0, 0, 45, 37);
}

// With the tilesets embedded, the TMX shows the tilesets as Tiled read them from the .tsj files.
TEST_F(TiledToolTest, TiledReadsTheTilesets) {
    writeMap(0);
    const std::string tmx = exportTmx("map.tmj", "--embed-tilesets");

    const std::vector<Element> tilesets = elements(tmx, "tileset");
    ASSERT_EQ(tilesets.size(), 2u);
    EXPECT_EQ(tilesets[0]["name"], "terrain");
    EXPECT_EQ(tilesets[0]["firstgid"], "1");
    EXPECT_EQ(tilesets[0]["tilecount"], "45");
    EXPECT_EQ(tilesets[0]["columns"], "45");
    EXPECT_EQ(tilesets[0]["tilewidth"], "16");
    EXPECT_EQ(tilesets[1]["name"], "blocked");
    EXPECT_EQ(tilesets[1]["firstgid"], "46");
    EXPECT_EQ(tilesets[1]["tilecount"], "1");

    // Tiled 1.8 does not complain about a missing image, so each must be there in the size
    // Tiled expects.
    const std::vector<Element> images = elements(tmx, "image");
    ASSERT_EQ(images.size(), 2u);
    for (const Element& image : images) {
        SCOPED_TRACE(image["source"]);
        const test::PngImage png = test::readPng(m_dir / image["source"]);
        EXPECT_EQ(std::to_string(png.width), image["width"]);
        EXPECT_EQ(std::to_string(png.height), image["height"]);
    }
    EXPECT_EQ(images[0]["source"], "terrain.png");
    EXPECT_EQ(images[1]["source"], "blocked.png");

    // The class tiles as Tiled read them: the class in the tile's type (Tiled 1.8's Type, the
    // Class field of 1.10 and later), walkable a typed bool. The transition tiles have no class.
    const std::vector<Element> tiles = elements(tilesets[0].body, "tile");
    ASSERT_EQ(tiles.size(), 45u);
    for (std::size_t i = 0; i < 3; ++i) {
        const TerrainClass& c = m_terrain.classes()[i];
        EXPECT_EQ(tiles[i]["id"], std::to_string(i));
        EXPECT_EQ(tiles[i]["type"], c.name);
        const std::vector<Element> props = elements(tiles[i].body, "property");
        ASSERT_EQ(props.size(), 1u);
        EXPECT_EQ(props[0].attributes,
                  (std::map<std::string, std::string>{{"name", "walkable"},
                                                      {"type", "bool"},
                                                      {"value", c.walkable ? "true" : "false"}}));
    }
    EXPECT_EQ(tiles[3]["type"], "(missing)");

    // The Wang set as Tiled read it: a corner set, a colour per class, a Wang tile per tile.
    const std::vector<Element> sets = elements(tilesets[0].body, "wangset");
    ASSERT_EQ(sets.size(), 1u);
    EXPECT_EQ(sets[0]["type"], "corner");
    const std::vector<Element> colours = elements(sets[0].body, "wangcolor");
    ASSERT_EQ(colours.size(), 3u);
    EXPECT_EQ(colours[1]["name"], "mountain");
    EXPECT_EQ(colours[1]["color"], "#8c8278");
    EXPECT_EQ(colours[1]["tile"], "1");
    const std::vector<Element> wangTiles = elements(sets[0].body, "wangtile");
    ASSERT_EQ(wangTiles.size(), 45u);
    EXPECT_EQ(wangTiles[0]["wangid"], "0,1,0,1,0,1,0,1");
    EXPECT_EQ(wangTiles[3]["wangid"], "0,1,0,1,0,1,0,2") << "lake, mountain at top-left";

    const std::vector<Element> blocked = elements(tilesets[1].body, "property");
    ASSERT_EQ(blocked.size(), 1u);
    EXPECT_EQ(blocked[0]["name"], "walkable");
    EXPECT_EQ(blocked[0]["value"], "false");
}

// Tiled's own renderer (tmxrasterizer, from the tiled package) draws the map at 16 pixels per
// cell: each cell shows its class colour untinted, and a blocked cell shows it between red
// hatch lines.
TEST_F(TiledToolTest, TmxrasterizerDrawsTheClassesAndTheBlockedHatching) {
    const test::SyntheticMap map = writeMap(0);
    const fs::path picture = m_dir / "render.png";
    const std::string command =
        "env QT_QPA_PLATFORM=offscreen HOME=" + shellQuote(m_home.path().string()) +
        " XDG_RUNTIME_DIR=" + shellQuote((m_home / "runtime").string()) + " tmxrasterizer " +
        shellQuote((m_dir / "map.tmj").string()) + " " + shellQuote(picture.string());
    const test::CommandResult result = runCommand(command);
    ASSERT_EQ(result.exitCode, 0) << command << "\n" << result.out << result.err;
    const test::PngImage png = test::readPng(picture);
    ASSERT_EQ(png.width, 45u * 16u);
    ASSERT_EQ(png.height, 37u * 16u);
    const auto rgb = [](Rgb c) { return std::array<std::uint8_t, 3>{c.r, c.g, c.b}; };
    std::size_t blockedCells = 0;
    for (std::uint32_t r = 0; r < 37; ++r) {
        for (std::uint32_t c = 0; c < 45; ++c) {
            const auto i = static_cast<std::size_t>(r * 45 + c);
            const Rgb colour = m_terrain.classes()[map.classIndex[i]].colour;
            // (5, 6) inside the cell lies off every hatch line ((x + y) % 8 == 0) and border.
            EXPECT_EQ(png.at(c * 16 + 5, r * 16 + 6), rgb(colour)) << "cell " << c << ", " << r;
            if (map.walkable[i]) {
                EXPECT_EQ(png.at(c * 16 + 4, r * 16 + 4), rgb(colour)) << "cell " << c << ", " << r;
            } else {
                ++blockedCells;
                EXPECT_EQ(png.at(c * 16 + 4, r * 16 + 4), rgb(kBlockedColour))
                    << "cell " << c << ", " << r;
            }
        }
    }
    EXPECT_GT(blockedCells, 0u);
}

// With hydrology, Tiled reads the water layers: an object group "lakes" with every polygon and
// one "rivers" with every polyline object of map.tmj, its class ("type") river and its
// properties typed as written.
TEST_F(TiledToolTest, TiledReadsTheRiverLayer) {
    const Config config = defaultConfig(
        {"map.width=150", "map.height=110", "map.tile_size=32", "hydrology.enabled=true",
         "hydrology.river_threshold=90000", R"(output.files=["map.tmj"])",
         "output.directory=" + nlohmann::json(m_dir.path().string()).dump()});
    test::inArena(2, [&] { return runMap(config); });
    const nlohmann::json map = nlohmann::json::parse(test::readFile(m_dir / "map.tmj"));
    const nlohmann::json& objects = map.at("layers").back().at("objects");
    const nlohmann::json& lakes = map.at("layers")[2].at("objects");
    ASSERT_GT(objects.size(), 10u);
    ASSERT_GT(lakes.size(), 0u);
    const std::string tmx = exportTmx("map.tmj");

    const std::vector<Element> groups = elements(tmx, "objectgroup");
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0]["name"], "lakes");
    EXPECT_EQ(groups[0]["color"], "#3a6ea5");
    const std::vector<Element> shores = elements(groups[0].body, "polygon");
    ASSERT_EQ(shores.size(), lakes.size());
    for (std::size_t i = 0; i < shores.size(); ++i) {
        const std::string& points = shores[i]["points"];
        EXPECT_EQ(std::count(points.begin(), points.end(), ' ') + 1,
                  std::ptrdiff_t(lakes[i].at("polygon").size()));
    }
    EXPECT_EQ(groups[1]["name"], "rivers");
    EXPECT_EQ(groups[1]["color"], "#4a90d9");
    const std::vector<Element> read = elements(groups[1].body, "object");
    ASSERT_EQ(read.size(), objects.size());
    const std::vector<Element> lines = elements(groups[1].body, "polyline");
    ASSERT_EQ(lines.size(), objects.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
        SCOPED_TRACE("object " + std::to_string(i + 1));
        EXPECT_EQ(read[i]["id"], std::to_string(lakes.size() + i + 1));
        EXPECT_EQ(read[i]["type"], "river");
        // Tiled writes "x,y x,y ..." relative to the object, as many points as the JSON has.
        const std::string& points = lines[i]["points"];
        EXPECT_EQ(std::count(points.begin(), points.end(), ' ') + 1,
                  std::ptrdiff_t(objects[i].at("polyline").size()));
        EXPECT_EQ(points.substr(0, 4), "0,0 ");
        const std::vector<Element> props = elements(read[i].body, "property");
        ASSERT_EQ(props.size(), 3u);
        EXPECT_EQ(props[1]["name"], "strahler");
        EXPECT_EQ(props[1]["type"], "int");
        EXPECT_EQ(props[1]["value"],
                  std::to_string(int(objects[i]["properties"][1]["value"])));
        EXPECT_EQ(props[0]["name"], "discharge_cells");
        EXPECT_EQ(props[0]["type"], "float");
    }
    EXPECT_EQ(elements(tmx, "map")[0]["nextobjectid"],
              std::to_string(lakes.size() + objects.size() + 1));
}

// Tiled 1.8 cannot load a .world from the command line ("Not a map file."), so each chunk map
// is loaded on its own: 45 x 37 cells in chunks of 24 are 2 x 2 maps.
TEST_F(TiledToolTest, TiledLoadsEveryChunkMap) {
    const test::SyntheticMap map = writeMap(24);
    ASSERT_THAT(test::listDir(m_dir.path()),
                ElementsAre("blocked.png", "blocked.tsj", "map.world", "map_0_0.tmj",
                            "map_0_1.tmj", "map_1_0.tmj", "map_1_1.tmj", "terrain.png",
                            "terrain.tsj"));
    for (std::int64_t cy = 0; cy < 2; ++cy) {
        for (std::int64_t cx = 0; cx < 2; ++cx) {
            const std::string name =
                "map_" + std::to_string(cx) + "_" + std::to_string(cy) + ".tmj";
            SCOPED_TRACE(name);
            const std::string tmx = exportTmx(name);
            const std::int64_t width = cx == 0 ? 24 : 21;
            const std::int64_t height = cy == 0 ? 24 : 13;
            const std::vector<Element> maps = elements(tmx, "map");
            ASSERT_EQ(maps.size(), 1u);
            EXPECT_EQ(maps[0]["width"], std::to_string(width));
            EXPECT_EQ(maps[0]["height"], std::to_string(height));
            EXPECT_EQ(elements(tmx, "tileset").size(), 2u);
            const auto props = properties(tmx);
            EXPECT_EQ(props.at("chunk_x"), std::to_string(cx));
            EXPECT_EQ(props.at("chunk_y"), std::to_string(cy));
            EXPECT_EQ(props.at("cell_x"), std::to_string(cx * 24));
            EXPECT_EQ(props.at("cell_y"), std::to_string(cy * 24));
            expectLayers(tmx, map, cx * 24, cy * 24, width, height);
        }
    }
}

}  // namespace
}  // namespace terragrid

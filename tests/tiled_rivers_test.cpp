// The Tiled export's river layer (io/tiled_rivers): real runs with hydrology, map.tmj read back
// with nlohmann and checked against the stage's reaches and rivers.geojson; chunk maps hold
// the same lines cut at their borders.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/river_reaches.hpp"
#include "terragrid/app/run.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kTilePixels = 16;  // the default output.tiled.tile_pixels

Config riverMap(const fs::path& directory, std::vector<std::string> more = {}) {
    more.insert(more.begin(),
                {"map.width=150", "map.height=110", "map.tile_size=32", "hydrology.enabled=true",
                 "hydrology.river_threshold=90000",
                 R"(output.files=["map.tmj", "rivers.geojson"])",
                 "output.directory=" + json(directory.string()).dump()});
    return defaultConfig(more);
}

json readJson(const fs::path& path) { return json::parse(test::readFile(path)); }

const json& riverLayer(const json& map) {
    for (const json& layer : map.at("layers"))
        if (layer.at("name") == "rivers") return layer;
    throw std::runtime_error("no river layer");
}

json property(const json& object, const std::string& name) {
    for (const json& p : object.at("properties"))
        if (p.at("name") == name) return p;
    return nullptr;
}

/// Total length, in pixels, of a layer's polylines.
double totalLength(const json& layer) {
    double length = 0;
    for (const json& object : layer.at("objects")) {
        const json& line = object.at("polyline");
        for (std::size_t k = 1; k < line.size(); ++k)
            length += std::hypot(double(line[k]["x"]) - double(line[k - 1]["x"]),
                                 double(line[k]["y"]) - double(line[k - 1]["y"]));
    }
    return length;
}

TEST(TiledRiversTest, OneMapHasAPolylinePerReachThroughItsCellCentres) {
    test::TempDir dir;
    const Config config = riverMap(dir.path());
    test::inArena(2, [&] { return runMap(config); });
    const json map = readJson(dir / "map.tmj");
    const json geojson = readJson(dir / "rivers.geojson");

    // The layer after the tile layers, ids distinct, nextlayerid and nextobjectid beyond them.
    ASSERT_EQ(map.at("layers").size(), 3u);
    const json& layer = map["layers"][2];
    EXPECT_EQ(layer.at("name"), "rivers");
    EXPECT_EQ(layer.at("type"), "objectgroup");
    EXPECT_EQ(layer.at("id"), 3);
    EXPECT_EQ(layer.at("color"), "#4a90d9");  // hydrology.river.colour
    EXPECT_EQ(map.at("nextlayerid"), 4);
    const json& objects = layer.at("objects");
    ASSERT_GT(objects.size(), 10u);
    EXPECT_EQ(map.at("nextobjectid"), objects.size() + 1);

    // The same reaches, in the same order, as rivers.geojson and the stage.
    const HydrologyStage stage = computeHydrology(config);
    std::vector<std::vector<MapCellPoint>> reaches;
    forEachRiverReach(stage, [&](const std::vector<MapCellPoint>& points,
                                 const hydro::RiverPolyline&) { reaches.push_back(points); });
    const json& features = geojson.at("features");
    ASSERT_EQ(objects.size(), reaches.size());
    ASSERT_EQ(objects.size(), features.size());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const json& o = objects[i];
        EXPECT_EQ(o.at("id"), i + 1);
        EXPECT_EQ(o.at("type"), "river");
        const json& line = o.at("polyline");
        ASSERT_EQ(line.size(), reaches[i].size()) << "object " << i;
        EXPECT_EQ(line[0]["x"], 0.0);
        EXPECT_EQ(line[0]["y"], 0.0);
        for (std::size_t k = 0; k < line.size(); ++k) {
            // Pixel coordinates relative to the object's x, y: the cell's centre.
            EXPECT_EQ(double(o["x"]) + double(line[k]["x"]),
                      (double(reaches[i][k].col) + 0.5) * kTilePixels);
            EXPECT_EQ(double(o["y"]) + double(line[k]["y"]),
                      (double(reaches[i][k].row) + 0.5) * kTilePixels);
        }
        const json& f = features[i].at("properties");
        EXPECT_EQ(property(o, "strahler"), (json{{"name", "strahler"}, {"type", "int"},
                                                 {"value", f.at("strahler")}}));
        EXPECT_EQ(property(o, "discharge_cells").at("value"), f.at("discharge_cells"));
        EXPECT_EQ(property(o, "discharge_cells").at("type"), "float");
        EXPECT_EQ(property(o, "upstream_area").at("value"), f.at("upstream_area"));
        EXPECT_GE(int(property(o, "strahler")["value"]), 1);
    }
}

// Chunk maps hold the single map's lines cut at their borders: every point inside the chunk,
// and the lengths add up to the single map's (nothing lost, nothing twice).
TEST(TiledRiversTest, ChunkMapsHoldTheLinesCutAtTheirBorders) {
    test::TempDir whole, chunks;
    test::inArena(2, [&] { return runMap(riverMap(whole.path())); });
    test::inArena(2, [&] {
        return runMap(riverMap(chunks.path(), {"output.tiled.chunk_cells=40"}));
    });
    const double expected = totalLength(riverLayer(readJson(whole / "map.tmj")));
    ASSERT_GT(expected, 0);
    double length = 0;
    std::int64_t cut = 0;
    for (std::int64_t cy = 0; cy < 3; ++cy)
        for (std::int64_t cx = 0; cx < 4; ++cx) {
            const std::string name =
                "map_" + std::to_string(cx) + "_" + std::to_string(cy) + ".tmj";
            SCOPED_TRACE(name);
            const json map = readJson(chunks / name);
            const json& layer = riverLayer(map);
            EXPECT_EQ(map.at("nextobjectid"), layer.at("objects").size() + 1);
            const double w = double(map.at("width")) * kTilePixels;
            const double h = double(map.at("height")) * kTilePixels;
            for (const json& o : layer.at("objects")) {
                for (const json& p : o.at("polyline")) {
                    const double x = double(o["x"]) + double(p["x"]);
                    const double y = double(o["y"]) + double(p["y"]);
                    EXPECT_TRUE(x >= 0 && x <= w && y >= 0 && y <= h) << x << ", " << y;
                    cut += x == 0 || x == w || y == 0 || y == h;
                }
            }
            length += totalLength(layer);
        }
    EXPECT_GT(cut, 0) << "some river crosses a chunk border";
    EXPECT_NEAR(length, expected, expected * 1e-9);
}

// A window's map shows the rivers in its own pixels: the whole map's lines moved by the
// window's corner and cut to it.
TEST(TiledRiversTest, AWindowShowsTheWholeMapsRiversInItsOwnPixels) {
    test::TempDir whole, part;
    test::inArena(2, [&] { return runMap(riverMap(whole.path())); });
    const Config config = riverMap(part.path());
    test::inArena(2, [&] {
        return runMap(config, MapWindow{CellWindow{40, 30, 150 - 40, 110 - 30}, std::nullopt});
    });
    const json wholeLayer = riverLayer(readJson(whole / "map.tmj"));
    const json partLayer = riverLayer(readJson(part / "map.tmj"));
    // Every point of the window's lines lies on the window; those that are cell centres are
    // points of the whole map's lines, moved by (40, 30) cells.
    std::set<std::pair<double, double>> wholePoints;
    for (const json& o : wholeLayer.at("objects"))
        for (const json& p : o.at("polyline"))
            wholePoints.insert({double(o["x"]) + double(p["x"]), double(o["y"]) + double(p["y"])});
    std::int64_t centres = 0;
    for (const json& o : partLayer.at("objects"))
        for (const json& p : o.at("polyline")) {
            const double x = double(o["x"]) + double(p["x"]), y = double(o["y"]) + double(p["y"]);
            ASSERT_TRUE(x >= 0 && y >= 0 && x <= 110 * kTilePixels && y <= 80 * kTilePixels);
            if (x != 0 && y != 0) {
                ++centres;
                EXPECT_EQ(wholePoints.count({x + 40 * kTilePixels, y + 30 * kTilePixels}), 1u)
                    << x << ", " << y;
            }
        }
    EXPECT_GT(centres, 0);
}

TEST(TiledRiversTest, WithoutHydrologyTheMapHasNoRiverLayer) {
    test::TempDir dir;
    const Config config = defaultConfig(
        {"map.width=40", "map.height=30", R"(output.files=["map.tmj"])",
         "output.directory=" + json(dir.path().string()).dump()});
    test::inArena(2, [&] { return runMap(config); });
    const json map = readJson(dir / "map.tmj");
    for (const json& layer : map.at("layers")) EXPECT_EQ(layer.at("type"), "tilelayer");
    EXPECT_EQ(map.at("nextobjectid"), 1);
}

}  // namespace
}  // namespace terragrid

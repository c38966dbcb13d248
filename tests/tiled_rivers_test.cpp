// The Tiled export's water layers (io/tiled_rivers, io/tiled_lakes): real runs with hydrology,
// map.tmj read back with nlohmann and checked against the stage's reaches and lakes and
// rivers.geojson; chunk maps hold the same lines and shores cut at their borders.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/water/river_reaches.hpp"
#include "terragrid/app/run.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "json_file.hpp"
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
                 R"(output.files=["map.tmj", "rivers.geojson", "lakes.geojson"])",
                 "output.directory=" + json(directory.string()).dump()});
    return defaultConfig(more);
}

using test::readJson;

const json& layerNamed(const json& map, const std::string& name) {
    for (const json& layer : map.at("layers"))
        if (layer.at("name") == name) return layer;
    throw std::runtime_error("no layer " + name);
}

const json& riverLayer(const json& map) { return layerNamed(map, "rivers"); }

/// A polygon object's points in the map's pixels.
std::vector<std::pair<double, double>> polygonOf(const json& object) {
    std::vector<std::pair<double, double>> points;
    for (const json& p : object.at("polygon"))
        points.push_back({double(object["x"]) + double(p["x"]), double(object["y"]) + double(p["y"])});
    return points;
}

/// The area of a polygon (shoelace), in pixels.
double areaOf(const std::vector<std::pair<double, double>>& ring) {
    double sum = 0;
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const auto& [ax, ay] = ring[i];
        const auto& [bx, by] = ring[(i + 1) % ring.size()];
        sum += ax * by - bx * ay;
    }
    return std::abs(sum) / 2;
}

/// Whether (x, y) lies inside `ring` (even-odd rule; never on its edges here).
bool inside(const std::vector<std::pair<double, double>>& ring, double x, double y) {
    bool in = false;
    for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const auto& [xi, yi] = ring[i];
        const auto& [xj, yj] = ring[j];
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
    }
    return in;
}

double totalArea(const json& layer) {
    double area = 0;
    for (const json& o : layer.at("objects")) area += areaOf(polygonOf(o));
    return area;
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

    // The layers after the tile layers, lakes then rivers, ids distinct, nextlayerid and
    // nextobjectid beyond them; object ids run on from the lakes to the rivers.
    ASSERT_EQ(map.at("layers").size(), 4u);
    const json& lakes = map["layers"][2];
    const json& layer = map["layers"][3];
    EXPECT_EQ(lakes.at("name"), "lakes");
    EXPECT_EQ(lakes.at("type"), "objectgroup");
    EXPECT_EQ(lakes.at("id"), 3);
    EXPECT_EQ(lakes.at("color"), "#3a6ea5");  // the lake class's colour
    EXPECT_EQ(layer.at("name"), "rivers");
    EXPECT_EQ(layer.at("type"), "objectgroup");
    EXPECT_EQ(layer.at("id"), 4);
    EXPECT_EQ(layer.at("color"), "#4a90d9");  // hydrology.river.colour
    EXPECT_EQ(map.at("nextlayerid"), 5);
    const json& objects = layer.at("objects");
    ASSERT_GT(objects.size(), 10u);
    const std::size_t lakeObjects = lakes.at("objects").size();
    EXPECT_EQ(map.at("nextobjectid"), lakeObjects + objects.size() + 1);
    for (std::size_t i = 0; i < lakeObjects; ++i) EXPECT_EQ(lakes["objects"][i]["id"], i + 1);

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
        EXPECT_EQ(o.at("id"), lakeObjects + i + 1);
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

// One polygon per part of a lake in lakes.geojson, its outer shore along the lake's cells: every
// lake cell's centre lies inside a polygon of its lake, with the lake's surface.
TEST(TiledRiversTest, OneMapHasAPolygonPerLakePartAroundItsCells) {
    test::TempDir dir;
    const Config config = riverMap(dir.path());
    test::inArena(2, [&] { return runMap(config); });
    const json lakes = layerNamed(readJson(dir / "map.tmj"), "lakes");
    const json geojson = readJson(dir / "lakes.geojson");
    std::size_t parts = 0;
    for (const json& f : geojson.at("features")) parts += f.at("geometry").at("coordinates").size();
    const json& objects = lakes.at("objects");
    ASSERT_GT(objects.size(), 0u) << "the map needs lakes to test";
    ASSERT_EQ(objects.size(), parts);

    const HydrologyStage stage = computeHydrology(config);
    ASSERT_EQ(stage.factor, 1);
    std::int64_t lakeCells = 0;
    for (std::int64_t r = 0; r < stage.gridHeight; ++r)
        for (std::int64_t c = 0; c < stage.gridWidth; ++c) {
            const std::uint32_t id = stage.lakes.id[std::size_t(r * stage.gridWidth + c)];
            if (id == 0) continue;
            ++lakeCells;
            const double x = (double(c) + 0.5) * kTilePixels, y = (double(r) + 0.5) * kTilePixels;
            bool found = false;
            for (const json& o : objects)
                if (property(o, "lake_id")["value"] == id && inside(polygonOf(o), x, y)) {
                    found = true;
                    EXPECT_EQ(property(o, "surface_m")["value"], stage.lakes.surface[id]);
                }
            ASSERT_TRUE(found) << "lake cell " << c << ", " << r << " of lake " << id;
        }
    // Outer shores only: the polygons cover the lakes' cells and any islands in them.
    EXPECT_GE(totalArea(lakes), double(lakeCells) * kTilePixels * kTilePixels);
    for (const json& o : objects) EXPECT_EQ(o.at("type"), "lake");
}

// Chunk maps hold the single map's lines cut at their borders: every point inside the chunk,
// and the lengths add up to the single map's (nothing lost, nothing twice).
TEST(TiledRiversTest, ChunkMapsHoldTheLinesCutAtTheirBorders) {
    test::TempDir whole, chunks;
    test::inArena(2, [&] { return runMap(riverMap(whole.path())); });
    test::inArena(2, [&] {
        return runMap(riverMap(chunks.path(), {"output.tiled.chunk_cells=40"}));
    });
    const json wholeMap = readJson(whole / "map.tmj");
    const double expected = totalLength(riverLayer(wholeMap));
    const double expectedArea = totalArea(layerNamed(wholeMap, "lakes"));
    ASSERT_GT(expected, 0);
    double length = 0, area = 0;
    std::int64_t cut = 0;
    for (std::int64_t cy = 0; cy < 3; ++cy)
        for (std::int64_t cx = 0; cx < 4; ++cx) {
            const std::string name =
                "map_" + std::to_string(cx) + "_" + std::to_string(cy) + ".tmj";
            SCOPED_TRACE(name);
            const json map = readJson(chunks / name);
            const json& layer = riverLayer(map);
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
            area += totalArea(layerNamed(map, "lakes"));
            const std::size_t lakeObjects = layerNamed(map, "lakes").at("objects").size();
            EXPECT_EQ(map.at("nextobjectid"), lakeObjects + layer.at("objects").size() + 1);
        }
    EXPECT_GT(cut, 0) << "some river crosses a chunk border";
    EXPECT_NEAR(length, expected, expected * 1e-9);
    // The shores cut at the borders lose and double no area (rectilinear: exact).
    EXPECT_EQ(area, expectedArea);
    EXPECT_GT(area, 0);
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

// Existing maps keep their cells: data/map_hashes_v1.txt holds FNV-1a 64 hashes of every cell
// of the built-in default, every preset and a set of hydrology and erosion configs (heights,
// classes, walkability, water, depth, flow, Strahler order, the class table) together with
// their config and hydrology hashes, computed at main 9f2a33b, the commit before climate,
// biomes, water-balance lakes and erosion boundaries existed (data/README.md says how). These
// tests load the same configs today and compare: a config that does not ask for the new
// features gets the same map, and the same hashes that its files carry, bit for bit.
//
// The maps that issue 29 changes on purpose (eroded maps: open edges and classes on the
// eroded relief) are loaded with the keys that select the earlier behaviour
// (kEarlierErosion), which must give their earlier cells exactly.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

struct Case {
    std::string name;
    std::string file;  ///< configs/<file>.json, or "" for the built-in default
    std::vector<std::string> overrides;
    bool eroded = false;  ///< loaded with kEarlierErosion today
};

std::vector<Case> cases() {
    std::vector<Case> all{{"default", "", {}}};
    for (const char* preset : {"archipelago", "continent", "custom-classes", "desert", "islands",
                               "planet", "rivers", "small", "tileable"}) {
        const std::string name(preset);
        const bool eroded = name == "archipelago" || name == "continent" || name == "islands" ||
                            name == "rivers";
        all.push_back({name, name, {}, eroded});
    }
    const std::string on = "hydrology.enabled=true";
    all.push_back({"hydrology", "", {on}});
    all.push_back({"hydrology-sea", "", {on, "hydrology.sea_level=0.35"}});
    all.push_back({"hydrology-coarse", "", {on, "hydrology.resolution=3"}});
    all.push_back({"hydrology-moisture", "", {on, "hydrology.rainfall=\"moisture\""}});
    all.push_back({"hydrology-custom-classes", "custom-classes", {on}});
    const std::string erode = "hydrology.erosion.enabled=true";
    all.push_back({"erosion", "", {on, erode}, true});
    all.push_back({"erosion-uplift", "", {on, erode, "hydrology.erosion.mode=\"uplift\""}, true});
    all.push_back({"erosion-sea", "", {on, erode, "hydrology.sea_level=0.3"}, true});
    all.push_back({"erosion-coverage", "",
                   {on, erode, "terrain.mountain_above={\"coverage\": 0.1}",
                    "terrain.forest_above={\"coverage\": 0.2}"},
                   true});
    all.push_back({"erosion-coarse", "", {on, erode, "hydrology.resolution=2"}, true});
    return all;
}

/// The keys that give an eroded map as terragrid made it before issue 29: its edges held at
/// their initial height, its classes read on elevation.min..max and their coverages on the
/// noise.
const std::vector<std::string> kEarlierErosion{"hydrology.outlets=\"edges\"",
                                               "terrain.eroded_heights=\"elevation_range\""};

Config load(const Case& c) {
    std::vector<std::string> overrides = c.overrides;
    // Small maps (a planet must be twice as wide as high); every cell through the generator.
    overrides.push_back("map.width=96");
    overrides.push_back("map.height=48");
    overrides.push_back("map.tile_size=40");
    if (c.eroded) overrides.insert(overrides.end(), kEarlierErosion.begin(), kEarlierErosion.end());
    if (c.file.empty()) return defaultConfig(overrides);
    return loadConfig((test::sourceDir() / "configs" / (c.file + ".json")).string(), overrides);
}

class Fnv {
public:
    template <typename T>
    void add(const T& value) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            m_hash ^= bytes[i];
            m_hash *= 0x100000001B3ULL;
        }
    }
    template <typename T>
    void addAll(const std::vector<T>& values) {
        add(std::uint64_t(values.size()));
        for (const T& v : values) add(v);
    }
    void addText(const std::string& text) {
        add(std::uint64_t(text.size()));
        for (char c : text) add(c);
    }
    std::string hex() const {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m_hash));
        return text;
    }

private:
    std::uint64_t m_hash = 0xCBF29CE484222325ULL;
};

/// Every tile's cells, assembled row-major.
class CellCollector : public TileSink {
public:
    void begin(const TileLayout& layout) override {
        width = layout.mapWidth();
        height = layout.mapHeight();
        const auto n = std::size_t(width * height);
        elevation.assign(n, 0);
        classIndex.assign(n, 0);
        walkable.assign(n, 0);
        water.assign(n, 0);
        depth.assign(n, 0);
        flow.assign(n, 0);
        order.assign(n, 0);
    }
    void consume(const Tile& tile) override {
        const TileRect& r = tile.rect;
        for (std::int64_t y = 0; y < r.height; ++y)
            for (std::int64_t x = 0; x < r.width; ++x) {
                const auto from = std::size_t(y * r.width + x);
                const auto to = std::size_t((r.row0 + y) * width + r.col0 + x);
                elevation[to] = tile.elevationMeters[from];
                if (!tile.classIndex.empty()) classIndex[to] = tile.classIndex[from];
                if (!tile.walkable.empty()) walkable[to] = tile.walkable[from];
                if (tile.water.empty()) continue;
                water[to] = tile.water[from];
                depth[to] = tile.waterDepth[from];
                flow[to] = tile.flow[from];
                order[to] = tile.riverOrder[from];
            }
    }
    void finish() override {}

    std::int64_t width = 0, height = 0;
    std::vector<float> elevation, depth, flow;
    std::vector<std::uint8_t> classIndex, walkable, water, order;
};

/// FNV-1a 64 of the map's cells (every vector of CellCollector in turn), its class table
/// (names, colours, walkability) and its hydrology figures (counts and lengths, no timings).
std::string cellsHash(const Config& config) {
    const Terrain terrain = makeTerrain(config);
    std::optional<HydrologyStage> stage;
    if (config.hydrology.enabled) stage.emplace(computeHydrology(config));
    CellCollector cells;
    generateMap(config, &terrain, {&cells}, {}, stage ? &*stage : nullptr);
    Fnv h;
    h.addAll(cells.elevation);
    h.addAll(cells.classIndex);
    h.addAll(cells.walkable);
    h.addAll(cells.water);
    h.addAll(cells.depth);
    h.addAll(cells.flow);
    h.addAll(cells.order);
    for (const TerrainClass& c : terrain.classes()) {
        h.addText(c.name);
        h.add(c.colour.r);
        h.add(c.colour.g);
        h.add(c.colour.b);
        h.add(c.walkable);
    }
    if (stage) {
        const HydrologyFacts& f = stage->facts;
        for (std::int64_t v : {f.lakes, f.lakeCells, f.seaCells, f.riverCells}) h.add(v);
        h.addAll(f.riverLengthByOrder);
        h.add(f.thetaValid ? f.theta : -1.0);
    }
    return h.hex();
}

struct Stored {
    std::string cells, configHash, hydrologyHash;
};

std::map<std::string, Stored> storedHashes() {
    std::ifstream in(test::sourceDir() / "data" / "map_hashes_v1.txt");
    std::map<std::string, Stored> hashes;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string name;
        Stored s;
        fields >> name >> s.cells >> s.configHash >> s.hydrologyHash;
        hashes[name] = s;
    }
    return hashes;
}

// TERRAGRID_PRINT_MAP_HASHES=1 prints the table instead (how data/map_hashes_v1.txt was made).
TEST(MapHashesTest, ConfigsWithoutTheNewFeaturesKeepTheirCellsAndHashes) {
    if (std::getenv("TERRAGRID_PRINT_MAP_HASHES")) {
        for (const Case& c : cases()) {
            const Config config = load(c);
            std::cout << c.name << ' ' << cellsHash(config) << ' ' << config.hash << ' '
                      << config.hydrologyHash << '\n';
        }
        return;
    }
    const auto stored = storedHashes();
    ASSERT_EQ(stored.size(), cases().size()) << "data/map_hashes_v1.txt";
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const auto it = stored.find(c.name);
        ASSERT_NE(it, stored.end());
        const Config config = load(c);
        EXPECT_EQ(cellsHash(config), it->second.cells);
        EXPECT_EQ(config.hash, it->second.configHash);
        EXPECT_EQ(config.hydrologyHash, it->second.hydrologyHash);
    }
}

}  // namespace
}  // namespace terragrid

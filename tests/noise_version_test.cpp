// noise_version: every older version reproduces the maps main made before the next one
// existed, bit for bit. data/noise_v1_hashes.txt to data/noise_v6_hashes.txt hold FNV-1a 64
// hashes of the height and moisture values of several configs, computed at the commit before
// the next version (data/README.md says how); these tests load the same configs with that
// noise_version and compare.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "terragrid/app/run.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/model/layer_stack.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

/// The configs the stored hashes cover: the built-in default, every config in configs/, and
/// the default with each other noise of both layers.
struct VersionCase {
    std::string name;
    std::string file;  ///< configs/<file>.json, or "" for the built-in default
    std::vector<std::string> overrides;
};

/// The overrides that select version 1.
const std::vector<std::string> kVersionOne{"noise_version=1"};

std::vector<VersionCase> versionCases() {
    std::vector<VersionCase> all{{"default", "", {}}};
    for (const char* preset : {"archipelago", "continent", "custom-classes", "desert", "islands",
                               "planet", "small", "tileable"})
        all.push_back({preset, preset, {}});
    for (const char* noise : {"perlin", "value", "generic_lattice", "cellular"})
        all.push_back({std::string("default-") + noise, "",
                       {std::string("height.noise=\"") + noise + "\"",
                        std::string("moisture.noise=\"") + noise + "\""}});
    all.push_back({"default-perlin-warped", "",
                   {"height.noise=\"perlin\"", "height.warp.amplitude=900"}});
    return all;
}

/// The cases only version 5 can load or changes: tileable maps of value and Perlin noise, which
/// tile by their own lattice (value noise has no 4D form before).
std::vector<VersionCase> tilingCases() {
    return {{"tileable-perlin", "tileable", {"height.noise=\"perlin\"", "moisture.noise=\"perlin\""}},
            {"tileable-value", "tileable", {"height.noise=\"value\"", "moisture.noise=\"value\""}},
            {"tileable-perlin-warped", "tileable",
             {"height.noise=\"perlin\"", "height.warp.amplitude=900", "height.layers=[{\"noise\": \"value\"}]"}}};
}

/// The case only version 6 has: the tileable preset (simplex) warped, whose moved points the
/// tiling simplex samples at the reference (version 5's warped torus points ran in lanes).
std::vector<VersionCase> simplexTilingCases() {
    return {{"tileable-simplex-warped", "tileable", {"height.warp.amplitude=900"}}};
}

/// The cases data/noise_v<version>_hashes.txt holds.
std::vector<VersionCase> casesOf(int version) {
    std::vector<VersionCase> all = versionCases();
    if (version >= 5)
        for (const VersionCase& c : tilingCases()) all.push_back(c);
    if (version >= 6)
        for (const VersionCase& c : simplexTilingCases()) all.push_back(c);
    return all;
}

Config load(const VersionCase& c, const std::vector<std::string>& extra) {
    std::vector<std::string> overrides = c.overrides;
    // Small maps: the hash covers every cell through the generator's rows.
    overrides.push_back("map.width=80");
    overrides.push_back("map.height=40");
    overrides.insert(overrides.end(), extra.begin(), extra.end());
    if (c.file.empty()) return defaultConfig(overrides);
    return loadConfig((test::sourceDir() / "configs" / (c.file + ".json")).string(), overrides);
}

std::uint64_t fnv1a(std::uint64_t h, double value) {
    const auto bits = std::bit_cast<std::uint64_t>(value);
    for (int i = 0; i < 8; ++i) {
        h ^= (bits >> (8 * i)) & 0xFFu;
        h *= 0x100000001B3ULL;
    }
    return h;
}

/// FNV-1a 64 of every cell's height, then every cell's moisture (row-major, the doubles'
/// bytes little-endian first), as 16 hex digits.
std::string mapHash(const Config& config) {
    const Surface surface(config.map);
    std::uint64_t h = 0xCBF29CE484222325ULL;
    std::vector<std::int64_t> cols(static_cast<std::size_t>(config.map.width));
    std::iota(cols.begin(), cols.end(), 0);
    for (const LayerStackParams* params : {&config.height, &config.moisture}) {
        const LayerStack stack(*params, surface, config.seed);
        LayerStackRows rows(stack, cols.data(), cols.size());
        std::vector<double> out(cols.size());
        for (std::int64_t r = 0; r < config.map.height; ++r) {
            rows.row(r, out.data());
            for (double v : out) h = fnv1a(h, v);
        }
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

/// data/noise_v<version>_hashes.txt as name -> hash.
std::map<std::string, std::string> storedHashes(int version) {
    std::ifstream in(test::sourceDir() / "data" /
                     ("noise_v" + std::to_string(version) + "_hashes.txt"));
    std::map<std::string, std::string> hashes;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string name, hash;
        fields >> name >> hash;
        hashes[name] = hash;
    }
    return hashes;
}

/// Every case with noise_version `version` against data/noise_v<version>_hashes.txt.
void expectStoredMaps(int version) {
    const auto stored = storedHashes(version);
    ASSERT_EQ(stored.size(), casesOf(version).size())
        << "data/noise_v" << version << "_hashes.txt has a line per case";
    for (const VersionCase& c : casesOf(version)) {
        const auto it = stored.find(c.name);
        ASSERT_NE(it, stored.end()) << c.name;
        EXPECT_EQ(mapHash(load(c, {"noise_version=" + std::to_string(version)})), it->second)
            << c.name;
    }
}

TEST(NoiseVersionTest, VersionOneReproducesTheStoredMaps) { expectStoredMaps(1); }

// Stored at main 9f2a33b, before version 3: version 2 maps (the default until then) come back.
TEST(NoiseVersionTest, VersionTwoReproducesTheStoredMaps) { expectStoredMaps(2); }

// Version 3's maps pinned the same way, so that a later change to its kernels (issue 30's
// float lanes) cannot move a version-3 map unnoticed.
TEST(NoiseVersionTest, VersionThreeReproducesTheStoredMaps) { expectStoredMaps(3); }

// Version 4's maps pinned when its rows were first built and tested on every SIMD target.
TEST(NoiseVersionTest, VersionFourReproducesTheStoredMaps) { expectStoredMaps(4); }

// Version 2 changes simplex maps with the lattice hash, and only those: the default map (simplex)
// differs between the versions, the Perlin and value maps do not.
TEST(NoiseVersionTest, VersionTwoChangesSimplexMapsOnly) {
    const std::vector<std::string> kVersionTwo{"noise_version=2"};
    for (const VersionCase& c : versionCases()) {
        const bool changes = c.name == "default" || c.name == "archipelago" ||
                             c.name == "continent" || c.name == "custom-classes" ||
                             c.name == "desert" || c.name == "islands" || c.name == "small" ||
                             c.name == "default-perlin-warped";  // its moisture is simplex
        EXPECT_EQ(mapHash(load(c, kVersionTwo)) != mapHash(load(c, kVersionOne)), changes)
            << c.name;
    }
    // A config that says nothing gets version 2, the default.
    EXPECT_EQ(defaultConfig().noiseVersion, NoiseVersion::V2);
    EXPECT_EQ(mapHash(load(versionCases()[0], {})), mapHash(load(versionCases()[0], kVersionTwo)));
}

// Version 3 changes the same maps as version 2 (2D simplex with the lattice hash), and only
// those: the others keep version 2's bits.
TEST(NoiseVersionTest, VersionThreeChangesSimplexMapsOnly) {
    const auto stored = storedHashes(2);
    for (const VersionCase& c : versionCases()) {
        const bool changes = c.name == "default" || c.name == "archipelago" ||
                             c.name == "continent" || c.name == "custom-classes" ||
                             c.name == "desert" || c.name == "islands" || c.name == "small" ||
                             c.name == "default-perlin-warped";  // its moisture is simplex
        EXPECT_EQ(mapHash(load(c, {"noise_version=3"})) != stored.at(c.name), changes) << c.name;
    }
}

// Version 4 changes planets and tileable maps (3D and 4D noise with the lattice hash), flat value
// and Perlin layers with the lattice hash, and so every warped flat layer (its warp fields are
// Perlin), and only those: flat simplex, generic lattice and cellular maps without a warp keep
// version 3's bits.
TEST(NoiseVersionTest, VersionFourChangesPlanetsTileableMapsValuePerlinAndWarpedLayersOnly) {
    const auto stored = storedHashes(3);
    for (const VersionCase& c : versionCases()) {
        const bool changes = c.name == "planet" || c.name == "tileable" ||
                             c.name == "archipelago" ||  // Perlin, warped
                             c.name == "continent" || c.name == "desert" ||  // Perlin layers
                             c.name == "islands" ||  // simplex, warped
                             c.name == "default-perlin" || c.name == "default-value" ||
                             c.name == "default-perlin-warped";
        EXPECT_EQ(mapHash(load(c, {"noise_version=4"})) != stored.at(c.name), changes) << c.name;
    }
}

// Version 5's maps pinned when its tiling rows were first built and tested on every SIMD
// target.
TEST(NoiseVersionTest, VersionFiveReproducesTheStoredMaps) { expectStoredMaps(5); }

// Version 5 changes tileable maps' value and Perlin layers with the lattice hash (they tile by
// their own lattice), and only those: every other case keeps version 4's bits, the tileable
// preset (simplex) and warped layers beside simplex included.
TEST(NoiseVersionTest, VersionFiveChangesTileableValueAndPerlinLayersOnly) {
    const auto stored = storedHashes(4);
    for (const VersionCase& c : versionCases())
        EXPECT_EQ(mapHash(load(c, {"noise_version=5"})), stored.at(c.name)) << c.name;
    // The tileable Perlin map differs from version 4's 4D one (the others have value layers,
    // which version 4 refuses on a wrapping map).
    const VersionCase perlin = tilingCases()[0];
    EXPECT_NE(mapHash(load(perlin, {"noise_version=5"})), mapHash(load(perlin, {"noise_version=4"})));
}

// Version 6's maps pinned when its tiling simplex rows were first built and tested on every
// SIMD target. TERRAGRID_PRINT_NOISE_HASHES=1 prints its table (data/README.md).
TEST(NoiseVersionTest, VersionSixReproducesTheStoredMaps) {
    if (std::getenv("TERRAGRID_PRINT_NOISE_HASHES"))
        for (const VersionCase& c : casesOf(6))
            std::printf("%s %s\n", c.name.c_str(), mapHash(load(c, {"noise_version=6"})).c_str());
    expectStoredMaps(6);
}

// Version 6 changes tileable maps' simplex layers with the lattice hash (they tile by their
// own lattice), and only those: every other case keeps version 5's bits, the tileable maps of
// Perlin and value layers included.
TEST(NoiseVersionTest, VersionSixChangesTileableSimplexLayersOnly) {
    const auto stored = storedHashes(5);
    for (const VersionCase& c : casesOf(5)) {
        const bool changes = c.name == "tileable" ||
                             c.name == "tileable-perlin-warped";  // its moisture is simplex
        EXPECT_EQ(mapHash(load(c, {"noise_version=6"})) != stored.at(c.name), changes) << c.name;
    }
}

// Every file that records the seed and config hash records the noise version too: GeoTIFF
// metadata, stats.json, the r16 and exr sidecars, the exr header and the Tiled map.
TEST(NoiseVersionTest, EveryFileRecordsTheVersion) {
    for (const int version : {1, 2, 3, 4}) {
        SCOPED_TRACE(version);
        test::TempDir dir;
        runMap(defaultConfig(
            {"noise_version=" + std::to_string(version), "map.width=48", "map.height=40",
             R"(output.files=["height.tif", "classes.tif", "height16.tif", "stats.json", "height.r16", "height.exr", "map.tmj"])",
             "output.directory=" + nlohmann::json(dir.path().string()).dump()}));
        const std::string item = "<Item name=\"TERRAGRID_NOISE_VERSION\">" +
                                 std::to_string(version) + "</Item>";
        for (const char* tif : {"height.tif", "classes.tif", "height16.tif"}) {
            const test::TiffReader tiff(dir / tif);
            EXPECT_THAT(tiff.stringField(42112), ::testing::HasSubstr(item)) << tif;  // GDAL_METADATA
        }
        for (const char* json : {"stats.json", "height.r16.json", "height.exr.json"}) {
            const auto j = nlohmann::json::parse(test::readFile(dir / json));
            EXPECT_EQ(j.at("noise_version"), version) << json;
        }
        const auto tmj = nlohmann::json::parse(test::readFile(dir / "map.tmj"));
        bool found = false;
        for (const auto& property : tmj.at("properties")) {
            if (property.at("name") != "noise_version") continue;
            found = true;
            EXPECT_EQ(property.at("type"), "int");
            EXPECT_EQ(property.at("value"), version);
        }
        EXPECT_TRUE(found) << "map.tmj has no noise_version property";
        const test::CommandResult header =
            test::runCommand("exrheader " + test::shellQuote((dir / "height.exr").string()));
        ASSERT_EQ(header.exitCode, 0) << header.err;
        EXPECT_THAT(header.out, ::testing::HasSubstr("terragrid_noise_version (type string): \"" +
                                                     std::to_string(version) + "\""));
    }
}

}  // namespace
}  // namespace terragrid

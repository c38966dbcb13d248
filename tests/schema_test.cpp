// The config's JSON Schema (configSchemaJson, configs/schema.json): generated from the option
// table, so it names exactly the keys the parser accepts, with default.json's defaults; and
// every shipped config points editors at it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "build_paths.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using Json = nlohmann::json;

const fs::path kConfigDir = test::sourceDir() / "configs";

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Parses a config file (comments allowed).
template <typename J = Json>
J parseConfigFile(const fs::path& path) {
    return J::parse(readText(path), nullptr, true, true);
}

const Json& schema() {
    static const Json parsed = Json::parse(configSchemaJson());
    return parsed;
}

/// "map.width" -> "/map/width".
Json::json_pointer pointerTo(std::string path) {
    std::string pointer = "/";
    for (const char c : path) pointer += c == '.' ? '/' : c;
    return Json::json_pointer(pointer);
}

/// The schema of every option, by dotted path: the properties that carry a default. Every
/// other property must be a section (an object of further properties refusing other keys);
/// anything else is recorded in `strays`.
void collectOptions(const Json& section, const std::string& prefix,
                    std::map<std::string, Json>& options, std::vector<std::string>& strays) {
    for (const auto& [key, property] : section.at("properties").items()) {
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        if (prefix.empty() && key == "$schema") continue;
        if (property.contains("default")) {
            options.emplace(path, property);
        } else if (property.value("type", "") == "object" && property.contains("properties") &&
                   property.value("additionalProperties", true) == false) {
            collectOptions(property, path, options, strays);
        } else {
            strays.push_back(path);
        }
    }
}

std::map<std::string, Json> schemaOptions() {
    std::map<std::string, Json> options;
    std::vector<std::string> strays;
    collectOptions(schema(), "", options, strays);
    EXPECT_THAT(strays, IsEmpty()) << "properties that are neither options nor sections";
    return options;
}

/// Every schema object below `node` (at `where`) that lists properties but lets other keys in.
void collectOpenObjects(const Json& node, const std::string& where,
                        std::vector<std::string>& out) {
    if (node.is_object()) {
        if (node.contains("properties") && node.value("additionalProperties", true) != false)
            out.push_back(where);
        for (const auto& [key, value] : node.items()) collectOpenObjects(value, where + "/" + key, out);
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i)
            collectOpenObjects(node[i], where + "/" + std::to_string(i), out);
    }
}

const Json& option(const std::string& path) {
    static const std::map<std::string, Json> options = schemaOptions();
    return options.at(path);
}

TEST(SchemaTest, SchemaFileIsConfigSchemaJson) {
    const std::string text = configSchemaJson();
    EXPECT_TRUE(readText(kConfigDir / "schema.json") == text)
        << "configs/schema.json is out of date; regenerate it with: "
           "terragrid schema > configs/schema.json";
    // Pretty-printed with two spaces, ending in a newline.
    EXPECT_EQ(text, nlohmann::ordered_json::parse(text).dump(2) + "\n");
    EXPECT_TRUE(text.starts_with("{\n  \"$schema\": "));
    EXPECT_TRUE(text.ends_with("}\n"));
}

TEST(SchemaTest, IsADraft202012SchemaOfAClosedObject) {
    const Json& s = schema();
    EXPECT_EQ(s.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_FALSE(s.value("title", "").empty());
    EXPECT_EQ(s.at("type"), "object");
    EXPECT_EQ(s.at("additionalProperties"), false);
    // The top level allows "$schema", which the parser ignores.
    EXPECT_EQ(s.at("properties").at("$schema").at("type"), "string");
    std::vector<std::string> open;
    collectOpenObjects(s, "", open);
    EXPECT_THAT(open, IsEmpty()) << "objects that let unknown keys in";
}

TEST(SchemaTest, NamesExactlyTheKeysTheParserAccepts) {
    std::set<std::string> schemaPaths;
    for (const auto& [path, unused] : schemaOptions()) schemaPaths.insert(path);
    std::set<std::string> parserPaths;
    for (const auto& o : optionReference()) parserPaths.insert(o.path);
    EXPECT_EQ(schemaPaths, parserPaths);
    EXPECT_TRUE(schemaPaths.contains("output.tiled.chunk_cells"));
}

TEST(SchemaTest, DescribesEveryOptionAsTheReferenceDoes) {
    for (const auto& o : optionReference()) {
        const Json& property = option(o.path);
        EXPECT_EQ(property.at("description"), o.meaning) << o.path;
        EXPECT_TRUE(property.contains("type") || property.contains("oneOf")) << o.path;
        EXPECT_EQ(property.at("default").dump(), o.defaultJson) << o.path;
    }
}

TEST(SchemaTest, DefaultsAreDefaultJsonsValues) {
    const Json defaults = parseConfigFile(kConfigDir / "default.json");
    for (const auto& [path, property] : schemaOptions()) {
        ASSERT_TRUE(defaults.contains(pointerTo(path))) << path;
        EXPECT_EQ(property.at("default"), defaults.at(pointerTo(path))) << path;
    }
}

TEST(SchemaTest, DefaultsFollowTheirOwnRules) {
    for (const auto& [path, property] : schemaOptions()) {
        const Json& value = property.at("default");
        const auto bound = [&](const char* keyword) {
            return property.contains(keyword) ? property.at(keyword) : Json();
        };
        if (property.contains("enum")) {
            EXPECT_THAT(property.at("enum"), ::testing::Contains(value)) << path;
        }
        EXPECT_TRUE(bound("minimum").is_null() || value >= bound("minimum")) << path;
        EXPECT_TRUE(bound("exclusiveMinimum").is_null() || value > bound("exclusiveMinimum"))
            << path;
        EXPECT_TRUE(bound("maximum").is_null() || value <= bound("maximum")) << path;
        const std::map<std::string, bool> typeHolds = {
            {"integer", value.is_number_integer()}, {"number", value.is_number()},
            {"boolean", value.is_boolean()},        {"string", value.is_string()},
            {"array", value.is_array()},            {"object", value.is_object()}};
        if (property.contains("type")) {
            EXPECT_TRUE(typeHolds.at(property.at("type").get<std::string>())) << path;
        }
    }
}

TEST(SchemaTest, SpotChecks) {
    const Json& octaves = option("height.octaves");
    EXPECT_EQ(octaves.at("type"), "integer");
    EXPECT_EQ(octaves.at("minimum"), 1);
    EXPECT_EQ(octaves.at("maximum"), 16);
    EXPECT_EQ(option("moisture.octaves").at("maximum"), 16);
    EXPECT_EQ(option("height.noise").at("enum"), Json::parse(R"(["value", "perlin", "simplex", "generic_lattice", "cellular"])"));
    EXPECT_EQ(option("height.noise").at("type"), "string");
    EXPECT_EQ(option("map.cell_size").at("exclusiveMinimum"), 0);
    EXPECT_FALSE(option("map.cell_size").contains("minimum"));
    EXPECT_EQ(option("seed").at("maximum"), Json(std::numeric_limits<std::uint64_t>::max()));

    const Json& origin = option("map.origin");
    EXPECT_EQ(origin.at("type"), "array");
    EXPECT_EQ(origin.at("minItems"), 2);
    EXPECT_EQ(origin.at("maxItems"), 2);
    EXPECT_EQ(origin.at("items").at("type"), "number");

    const Json& lake = option("terrain.lake_below");
    ASSERT_THAT(lake.at("oneOf"), SizeIs(2));
    EXPECT_EQ(lake.at("oneOf")[0].at("type"), "number");
    EXPECT_EQ(lake.at("oneOf")[1].at("required"), Json::parse(R"(["coverage"])"));

    const Json& files = option("output.files");
    EXPECT_EQ(files.at("uniqueItems"), true);
    EXPECT_EQ(files.at("minItems"), 1);
    ASSERT_THAT(files.at("items").at("enum"), SizeIs(kOutputFileNames.size()));
    for (std::size_t i = 0; i < kOutputFileNames.size(); ++i)
        EXPECT_EQ(files.at("items").at("enum")[i], std::string(kOutputFileNames[i]));

    EXPECT_EQ(option("terrain.colours").at("properties").at("lake").at("pattern"),
              "^#[0-9a-fA-F]{6}$");
    EXPECT_EQ(option("terrain.walkable").at("properties").at("ground").at("type"), "boolean");
    const Json& entry = option("terrain.classes").at("items");
    EXPECT_EQ(entry.at("required"), Json::parse(R"(["name", "colour", "walkable"])"));
    EXPECT_EQ(entry.at("properties").at("colour").at("pattern"), "^#[0-9a-fA-F]{6}$");
    EXPECT_EQ(option("terrain.classes").at("maxItems"), 255);

    EXPECT_EQ(option("output.engine").at("enum"),
              Json::parse(R"(["none", "unity", "unreal", "godot"])"));
    EXPECT_EQ(option("output.engine_snap").at("type"), "boolean");
    EXPECT_EQ(option("output.tiled.tile_pixels").at("minimum"), 1);
    EXPECT_EQ(option("output.tiled.tile_pixels").at("maximum"), 256);
    EXPECT_EQ(option("output.tiled.chunk_cells").at("minimum"), 16);
    EXPECT_EQ(option("output.tiled.chunk_cells").at("maximum"), 65536);
}

/// Every config shipped in configs/ (schema.json is the schema, not a config).
std::vector<fs::path> shippedConfigs() {
    std::vector<fs::path> configs;
    for (const auto& entry : fs::directory_iterator(kConfigDir)) {
        if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json")
            configs.push_back(entry.path());
    }
    std::sort(configs.begin(), configs.end());
    return configs;
}

TEST(SchemaTest, EveryShippedConfigLoadsAndNamesTheSchemaFirst) {
    const auto configs = shippedConfigs();
    ASSERT_THAT(configs, ::testing::Not(IsEmpty()));
    for (const auto& path : configs) {
        EXPECT_NO_THROW((void)loadConfig(path.string())) << path;
        const auto document = parseConfigFile<nlohmann::ordered_json>(path);
        ASSERT_FALSE(document.empty()) << path;
        EXPECT_EQ(document.begin().key(), "$schema") << path;
        EXPECT_EQ(document.begin().value(), "./schema.json") << path;
    }
}

}  // namespace
}  // namespace terragrid

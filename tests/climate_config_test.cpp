// The climate's keys and the rules around them (config/climate_rules.cpp): what needs the
// climate on, keys that have no effect, a custom table with climate and slope ranges, and the
// hashes of configs that do not use the new keys.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {
namespace {

using testing::HasSubstr;
using testing::ThrowsMessage;

struct Refused {
    std::vector<std::string> overrides;
    std::string message;
};

TEST(ClimateConfigTest, RefusesWhatTheClimateMakesMeaninglessOrNeedsItOn) {
    const std::vector<Refused> cases{
        {{"terrain.model=\"climate\""},
         "'terrain.model' (\"climate\") needs 'climate.enabled' (false): set "
         "climate.enabled=true"},
        {{"hydrology.enabled=true", "hydrology.rainfall=\"climate\""},
         "'hydrology.rainfall' (\"climate\") needs 'climate.enabled' (false)"},
        {{"output.files=[\"height.tif\", \"temperature.tif\", \"precipitation.tif\"]"},
         "'output.files' asks for temperature.tif, precipitation.tif, which need "
         "'climate.enabled' (false)"},
        {{"terrain.classes=[{\"name\": \"cold\", \"colour\": \"#ffffff\", \"walkable\": true, "
          "\"temperature\": [-100, 0]}, {\"name\": \"rest\", \"colour\": \"#000000\", "
          "\"walkable\": true}]"},
         "'terrain.classes' class 'cold' has a temperature or precipitation range, which needs "
         "'climate.enabled' (false)"},
        {{"climate.enabled=true", "terrain.model=\"climate\"", "terrain.mountain_above=0.8"},
         "'terrain.mountain_above' has no effect with 'terrain.model' climate"},
        {{"terrain.rock_slope=30"}, "'terrain.rock_slope' has no effect with 'terrain.model' noise"},
        {{"climate.enabled=true", "climate.wind.direction=90"},
         "'climate.wind.direction' has no effect with 'climate.wind.mode' bands"},
        {{"map.projection=\"equirectangular\"", "map.width=256", "map.height=128",
          "climate.enabled=true", "climate.latitude=[10, 0]"},
         "'climate.latitude' has no effect on a planet"},
        {{"hydrology.enabled=true", "hydrology.outlets=\"sea\""},
         "'hydrology.outlets' (\"sea\") needs a sea to drain to, but 'hydrology.sea_level' (0) "
         "makes none"},
        {{"climate.latitude=[95, 0]"}, "'climate.latitude'"},
        {{"climate.temperature.lapse_rate=-1"}, "'climate.temperature.lapse_rate'"},
        {{"climate.inflow_humidity=1.5"}, "'climate.inflow_humidity'"},
        {{"climate.wind.mode=\"trade\""}, "'climate.wind.mode'"},
        {{"terrain.classes=[{\"name\": \"a\", \"colour\": \"#ffffff\", \"walkable\": true, "
          "\"slope\": [0, 95]}]"},
         "'terrain.classes[0].slope' must be an array of 2 numbers with 0 <= lo <= hi <= 90"},
    };
    for (const Refused& c : cases)
        EXPECT_THAT([&] { defaultConfig(c.overrides); },
                    ThrowsMessage<ConfigError>(HasSubstr(c.message)))
            << testing::PrintToString(c.overrides);
}

TEST(ClimateConfigTest, ACustomTableMayUseClimateAndSlopeRangesAndMustCoverThem) {
    const std::string table =
        "terrain.classes=[{\"name\": \"steep\", \"colour\": \"#777777\", \"walkable\": false, "
        "\"slope\": [30, 90]}, {\"name\": \"snow\", \"colour\": \"#ffffff\", \"walkable\": true, "
        "\"temperature\": [-100, 0]}, {\"name\": \"dry\", \"colour\": \"#eecc88\", \"walkable\": "
        "true, \"precipitation\": [0, 400]}, {\"name\": \"green\", \"colour\": \"#33aa33\", "
        "\"walkable\": true, \"temperature\": [0, 100]}]";
    const Config config = defaultConfig({"climate.enabled=true", table});
    ASSERT_TRUE(config.terrain.customClasses);
    EXPECT_EQ(config.terrain.classes[0].slopeMin, 30);
    EXPECT_EQ(config.terrain.classes[1].temperatureMax, 0);
    EXPECT_EQ(config.terrain.classes[2].precipitationMax, 400);
    const Terrain terrain(config.terrain.classes);
    EXPECT_TRUE(terrain.usesClimate());
    EXPECT_TRUE(terrain.usesSlope());
    EXPECT_EQ(terrain.classify(CellTraits{.height = 0.5, .temperature = 10, .precipitation = 900,
                                          .slope = 45}),
              0);
    EXPECT_EQ(terrain.classify(CellTraits{.height = 0.5, .temperature = -5, .precipitation = 900}),
              1);
    EXPECT_EQ(terrain.classify(CellTraits{.height = 0.5, .temperature = 10, .precipitation = 300}),
              2);
    EXPECT_EQ(terrain.classify(CellTraits{.height = 0.5, .temperature = 10, .precipitation = 900}),
              3);
    // Beyond the axes a value is clamped into them: 150 C is 100 C.
    EXPECT_EQ(terrain.classify(CellTraits{.height = 0.5, .temperature = 150, .precipitation = 9e9}),
              3);
    // Without the last class, warm wet gentle land is left out: the message names the box.
    const std::string gap =
        "terrain.classes=[{\"name\": \"snow\", \"colour\": \"#ffffff\", \"walkable\": true, "
        "\"temperature\": [-100, 0]}, {\"name\": \"dry\", \"colour\": \"#eecc88\", \"walkable\": "
        "true, \"precipitation\": [0, 400]}]";
    EXPECT_THAT([&] { defaultConfig({"climate.enabled=true", gap}); },
                ThrowsMessage<ConfigError>(HasSubstr(
                    "'terrain.classes' leave height 0..1 with moisture 0..1, temperature 0..100 "
                    "and precipitation 400..20000 unclassified")));
}

TEST(ClimateConfigTest, TheBiomeTableCoversEveryClimateAndFollowsWhittaker) {
    const std::vector<TerrainClass> table = biomeClassTable(0.3, 40);
    const Terrain terrain(table);
    const auto biome = [&](double t, double p, double height = 0.5, double slope = 0) {
        return Biome(terrain.classify(
            CellTraits{.height = height, .temperature = t, .precipitation = p, .slope = slope}));
    };
    EXPECT_EQ(biome(10, 800, 0.2), Biome::Lake);
    EXPECT_EQ(biome(10, 800, 0.5, 45), Biome::Rock);
    EXPECT_EQ(biome(-20, 300), Biome::Ice);
    EXPECT_EQ(biome(-7, 300), Biome::Tundra);
    EXPECT_EQ(biome(0, 600), Biome::BorealForest);
    EXPECT_EQ(biome(0, 150), Biome::Grassland);
    EXPECT_EQ(biome(26, 3000), Biome::TropicalRainForest);
    EXPECT_EQ(biome(26, 1800), Biome::TropicalSeasonalForest);
    EXPECT_EQ(biome(26, 700), Biome::Savanna);
    EXPECT_EQ(biome(26, 100), Biome::Desert);
    EXPECT_EQ(biome(12, 100), Biome::Desert);
    EXPECT_EQ(biome(12, 400), Biome::Grassland);
    EXPECT_EQ(biome(12, 700), Biome::Shrubland);
    EXPECT_EQ(biome(12, 1500), Biome::TemperateForest);
    EXPECT_EQ(biome(12, 2600), Biome::TemperateRainforest);
}

TEST(ClimateConfigTest, TheNewKeysChangeTheHashesExactlyWhenTheyChangeTheMap) {
    // A new key whose value gives the map terragrid made before it existed is left out of the
    // hashes; a value that changes the map is in them.
    const Config plain = defaultConfig();
    const Config same = defaultConfig({"climate.enabled=false", "climate.precipitation=900",
                                       "terrain.model=\"noise\"", "hydrology.outlets=\"open\"",
                                       "terrain.eroded_heights=\"eroded_range\""});
    EXPECT_EQ(same.hash, plain.hash);
    EXPECT_EQ(same.hydrologyHash, plain.hydrologyHash);
    EXPECT_NE(defaultConfig({"climate.enabled=true"}).hash, plain.hash);
    EXPECT_NE(defaultConfig({"climate.enabled=true"}).hydrologyHash, plain.hydrologyHash);
    EXPECT_NE(defaultConfig({"climate.enabled=true", "climate.precipitation=900"}).hydrologyHash,
              defaultConfig({"climate.enabled=true"}).hydrologyHash);

    // Without erosion, open edges are the edges' water; only the sea is other water.
    const std::string on = "hydrology.enabled=true";
    const Config water = defaultConfig({on});
    EXPECT_EQ(defaultConfig({on, "hydrology.outlets=\"edges\""}).hydrologyHash,
              water.hydrologyHash);
    EXPECT_NE(defaultConfig({on, "hydrology.outlets=\"sea\"", "hydrology.sea_level=0.3"})
                  .hydrologyHash,
              defaultConfig({on, "hydrology.sea_level=0.3"}).hydrologyHash);

    // An eroded map with the new defaults is a new map with new hashes; the keys that give the
    // earlier one give its hashes, and the stage reads no terrain key.
    const std::string erode = "hydrology.erosion.enabled=true";
    const Config eroded = defaultConfig({on, erode});
    const Config earlier = defaultConfig({on, erode, "hydrology.outlets=\"edges\"",
                                          "terrain.eroded_heights=\"elevation_range\""});
    EXPECT_NE(eroded.hash, earlier.hash);
    EXPECT_NE(eroded.hydrologyHash, earlier.hydrologyHash);
    EXPECT_EQ(defaultConfig({on, erode, "hydrology.outlets=\"edges\""}).hydrologyHash,
              earlier.hydrologyHash);
    EXPECT_NE(defaultConfig({on, erode, "hydrology.outlets=\"edges\""}).hash, earlier.hash);
}

}  // namespace
}  // namespace terragrid

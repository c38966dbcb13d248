// The output drivers (output_drivers.hpp): one row per output file; each row's disk bound holds
// for what its writer really writes, alone, on maps of several shapes; and what a row says it
// needs is what its sink needs.

#include "terragrid/io/output_drivers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "terragrid/app/plan.hpp"
#include "terragrid/app/run.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;
using testing::ThrowsMessage;

TEST(OutputDriversTest, EveryOutputFileHasOneCompleteDriverUnderItsName) {
    const auto drivers = outputDrivers();
    ASSERT_EQ(drivers.size(), kOutputFileNames.size());
    for (std::size_t i = 0; i < drivers.size(); ++i) {
        const OutputDriver& d = *drivers[i];
        EXPECT_EQ(d.file, static_cast<OutputFile>(i)) << kOutputFileNames[i];
        EXPECT_EQ(d.name, kOutputFileNames[i]);
        EXPECT_EQ(&driverFor(d.file), &d) << d.name;
        EXPECT_NE(d.needsClasses, nullptr) << d.name;
        EXPECT_NE(d.needsRegions, nullptr) << d.name;
        EXPECT_NE(d.diskBound, nullptr) << d.name;
        EXPECT_NE(d.memoryBound, nullptr) << d.name;
    }
}

/// A map shape every driver is run on.
struct MapCase {
    std::string name;
    std::vector<std::string> overrides;
};

// Shapes that stress the bounds differently: TIFF tiles equal to the generator's tiles or the
// 256-cell fallback; compressed and raw; one Tiled map or chunks; a preview at full size or
// downsampled; the blocked layer with or without its regions.
const std::vector<MapCase> kMaps{
    {"square64", {"map.width=64", "map.height=64", "map.tile_size=64"}},
    {"odd100x37_tile17_raw",
     {"map.width=100", "map.height=37", "map.tile_size=17", "output.compression=none"}},
    {"chunked130x70_lzw",
     {"map.width=130", "map.height=70", "map.tile_size=32", "output.tiled.chunk_cells=64",
      "output.compression=lzw", "output.preview_max_size=50"}},
    {"tiled45x37_unblocked_zstd",
     {"map.width=45", "map.height=37", "map.tile_size=16", "output.tiled.walkable_layer=false",
      "output.compression=zstd"}},
};

void PrintTo(const MapCase& c, std::ostream* os) { *os << c.name; }

struct DriverCase {
    OutputFile file;
    MapCase map;
};

void PrintTo(const DriverCase& c, std::ostream* os) {
    *os << kOutputFileNames[static_cast<std::size_t>(c.file)] << " on " << c.map.name;
}

std::vector<DriverCase> everyDriverOnEveryMap() {
    std::vector<DriverCase> cases;
    for (const OutputDriver* driver : outputDrivers())
        for (const MapCase& map : kMaps) cases.push_back({driver->file, map});
    return cases;
}

Config configFor(const DriverCase& c, const fs::path& directory) {
    std::vector<std::string> overrides = c.map.overrides;
    const std::string name(kOutputFileNames[static_cast<std::size_t>(c.file)]);
    overrides.push_back("output.files=[\"" + name + "\"]");
    overrides.push_back("output.directory=" + nlohmann::json(directory.string()).dump());
    // The driver's files alone: manifest.json is the run's, not an output's, and PlanDiskTest
    // holds it to the plan's bound for it.
    overrides.push_back("output.manifest=false");
    // The water outputs exist only with hydrology, and map.tmj draws its rivers; rivers from
    // 20 cells up, so the small maps have some.
    if (driverFor(c.file).needsHydrology || driverFor(c.file).readsHydrology)
        overrides.insert(overrides.end(),
                         {"hydrology.enabled=true", "hydrology.river_threshold=18000"});
    // The climate rasters exist only with the climate.
    if (driverFor(c.file).needsClimate) overrides.push_back("climate.enabled=true");
    return defaultConfig(overrides);
}

class DriverBoundTest : public testing::TestWithParam<DriverCase> {};

// The real run, the output alone: every file in the directory is the driver's.
TEST_P(DriverBoundTest, RealFilesFitTheDiskBoundAndCountAsPlanned) {
    test::TempDir dir;
    const Config config = configFor(GetParam(), dir.path());
    const PlannedOutput planned = driverFor(GetParam().file).diskBound(config);
    EXPECT_EQ(planned.file, GetParam().file);
    test::inArena(2, [&] { return runMap(config); });

    std::uintmax_t bytes = 0;
    const std::vector<std::string> names = test::listDir(dir.path());
    for (const std::string& name : names) bytes += fs::file_size(dir / name);
    EXPECT_LE(bytes, planned.bytes) << testing::PrintToString(names);
    EXPECT_EQ(static_cast<std::int64_t>(names.size()), planned.files)
        << testing::PrintToString(names);
    EXPECT_TRUE(fs::exists(planned.path)) << planned.path;
    // Uncompressed, the bound is the size plus headers, not a guess (the water's vectors are
    // bounded by the most water the map could hold: WaterVectorBoundTest).
    if (!planned.compressed && !planned.mostWater) {
        EXPECT_LE(planned.bytes - bytes, 64u * 1024);
    }
    // The plan shows the driver's bound as it is.
    const RunPlan plan = planRun(config, MapWindow{wholeMap(config.map), std::nullopt}, 2);
    ASSERT_EQ(plan.outputs.size(), 1u);
    EXPECT_EQ(plan.outputs[0].bytes, planned.bytes);
}

INSTANTIATE_TEST_SUITE_P(
    EveryDriver, DriverBoundTest, testing::ValuesIn(everyDriverOnEveryMap()),
    [](const testing::TestParamInfo<DriverCase>& info) {
        std::string name(kOutputFileNames[static_cast<std::size_t>(info.param.file)]);
        for (char& ch : name)
            if (ch == '.') ch = '_';
        return name + "_on_" + info.param.map.name;
    });

// What a row declares decides what the run makes (a Terrain, the WalkableRegions) and what
// makeSinks hands the sink. Declaring too little fails the first check (the sink finds its
// input null); declaring regions it does not read fails the second.
class DriverNeedsTest : public testing::TestWithParam<MapCase> {};

TEST_P(DriverNeedsTest, MakeSinksNeedsWhatTheRowDeclares) {
    test::TempDir dir;
    const Terrain terrain = test::testTerrain();
    const WalkableRegions regions(false);
    for (const OutputDriver* driver : outputDrivers()) {
        const Config config = configFor({driver->file, GetParam()}, dir.path());
        const bool classes = driver->needsClasses(config), walkable = driver->needsRegions(config);
        // The regions are made from the tiles' walkable bytes, which come from the classes.
        EXPECT_TRUE(!walkable || classes) << driver->name;
        if (driver->makeSink == nullptr) continue;  // written by the run: DriverBoundTest

        std::optional<HydrologyStage> stage;
        if (driver->needsHydrology || driver->readsHydrology)
            stage.emplace(computeHydrology(config));
        const HydrologyStage* water = stage ? &*stage : nullptr;
        EXPECT_EQ(makeSinks(config, &terrain, &regions, water).size(), 1u) << driver->name;
        const auto withoutRegions = [&] { makeSinks(config, &terrain, nullptr, water); };
        if (walkable) {
            EXPECT_THAT(withoutRegions, ThrowsMessage<std::invalid_argument>(
                                            HasSubstr(std::string(driver->name) + " needs")));
        } else {
            EXPECT_NO_THROW(withoutRegions()) << driver->name;
        }
        // A sink that reads the Terrain says so; one that needs classes only in its tiles
        // (walkable.tif, through the regions) needs the regions.
        bool throwsWithoutTerrain = false;
        try {
            makeSinks(config, nullptr, &regions, water);
        } catch (const std::invalid_argument& e) {
            throwsWithoutTerrain = true;
            EXPECT_THAT(e.what(), HasSubstr(std::string(driver->name) + " needs a Terrain"));
        }
        EXPECT_EQ(classes, throwsWithoutTerrain || walkable) << driver->name;
    }
    EXPECT_THAT(test::listDir(dir.path()), testing::IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(EveryMap, DriverNeedsTest, testing::ValuesIn(kMaps),
                         [](const testing::TestParamInfo<MapCase>& info) {
                             return info.param.name;
                         });

}  // namespace
}  // namespace terragrid

// The run plan (plan.hpp): its disk bound holds for every file real runs write, for every
// output, compression and shape of map; its estimates grow with the map; shortfalls name the
// estimate and what is free.

#include "terragrid/app/plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "terragrid/app/run.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;

const std::string kAllFilesOverride =
    R"(output.files=["height.tif", "classes.tif", "walkable.tif", "preview.png", "height.png",
       "stats.json", "height.r16", "height16.png", "height16.tif", "map.tmj", "height.exr",
       "splat.png", "weight.png"])";

/// The output.files entry a file of the output directory belongs to.
OutputFile ownerOf(const std::string& name) {
    if (name == "height.r16.json") return OutputFile::HeightR16;
    if (name == "height.exr.json") return OutputFile::HeightExr;
    if (name == "classes.tif.aux.xml") return OutputFile::ClassesTif;
    if (name.starts_with("splat_")) return OutputFile::SplatPng;
    if (name.starts_with("weight_")) return OutputFile::WeightPng;
    if (name.starts_with("map_") || name == "map.world" || name.starts_with("terrain.") ||
        name.starts_with("blocked."))
        return OutputFile::TiledMap;
    // A PNG's georeferencing: its world file (NAME.pgw) and GDAL sidecar (NAME.png.aux.xml).
    if (name.ends_with(".pgw")) return ownerOf(name.substr(0, name.size() - 4) + ".png");
    if (name.ends_with(".png.aux.xml")) return ownerOf(name.substr(0, name.size() - 8));
    for (std::size_t i = 0; i < kOutputFileNames.size(); ++i)
        if (name == kOutputFileNames[i]) return static_cast<OutputFile>(i);
    ADD_FAILURE() << "a file no output writes: " << name;
    return OutputFile::StatsJson;
}

struct PlanCase {
    std::string name;
    std::vector<std::string> overrides;  ///< after a 130 x 100 map of every file
    std::optional<CellWindow> region;
    std::string configFile;  ///< under configs/, else the built-in default
};

void PrintTo(const PlanCase& c, std::ostream* os) { *os << c.name; }

class PlanDiskTest : public testing::TestWithParam<PlanCase> {};

TEST_P(PlanDiskTest, BoundHoldsForEveryFileARealRunWrites) {
    const PlanCase& c = GetParam();
    test::TempDir dir;
    std::vector<std::string> overrides{"map.width=130", "map.height=100", "map.tile_size=64",
                                       kAllFilesOverride,
                                       "output.directory=\"" + dir.path().string() + "\""};
    overrides.insert(overrides.end(), c.overrides.begin(), c.overrides.end());
    const Config config =
        c.configFile.empty()
            ? defaultConfig(overrides)
            : loadConfig((test::sourceDir() / "configs" / c.configFile).string(), overrides);
    const MapWindow window{c.region.value_or(wholeMap(config.map)), std::nullopt};
    const RunPlan plan = planRun(config, window, 2);
    test::inArena(2, [&] { return c.region ? runMap(config, window) : runMap(config); });

    std::map<OutputFile, std::uintmax_t> bytes;
    std::map<OutputFile, std::int64_t> files;
    for (const std::string& name : test::listDir(dir.path())) {
        if (name == "manifest.json") {
            // The run's, listing every other file: within the plan's bound for it.
            EXPECT_EQ(plan.manifestPath, (dir / name).string());
            EXPECT_LE(fs::file_size(dir / name), plan.manifestBytes);
            continue;
        }
        bytes[ownerOf(name)] += fs::file_size(dir / name);
        ++files[ownerOf(name)];
    }
    ASSERT_EQ(plan.outputs.size(), bytes.size());
    EXPECT_EQ(fs::exists(dir / "manifest.json"), !plan.manifestPath.empty());
    for (const PlannedOutput& o : plan.outputs) {
        const auto name = kOutputFileNames[static_cast<std::size_t>(o.file)];
        EXPECT_LE(bytes[o.file], o.bytes) << name;
        EXPECT_EQ(files[o.file], o.files) << name;
        EXPECT_TRUE(fs::exists(o.path)) << o.path;
        // Uncompressed, the bound is the size plus headers, not a guess.
        if (!o.compressed) {
            EXPECT_LE(o.bytes - bytes[o.file], 64u * 1024) << name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Outputs, PlanDiskTest,
    testing::Values(
        PlanCase{"deflate", {"output.compression=deflate"}, {}, {}},
        PlanCase{"none", {"output.compression=none"}, {}, {}},
        PlanCase{"lzw", {"output.compression=lzw"}, {}, {}},
        PlanCase{"zstd", {"output.compression=zstd"}, {}, {}},
        // Tiles that are no multiple of 16: the TIFFs fall back to 256 x 256 tiles.
        PlanCase{"odd_tiles_none", {"map.tile_size=50", "output.compression=none"}, {}, {}},
        PlanCase{"chunked_tiled_small_preview",
                 {"output.tiled.chunk_cells=64", "output.preview_max_size=64"}, {}, {}},
        PlanCase{"custom_classes", {"output.compression=none"}, {}, "custom-classes.json"},
        PlanCase{"region", {"output.compression=none"}, CellWindow{30, 20, 90, 70}, {}},
        PlanCase{"wide_downsampled",
                 {"map.width=700", "map.height=90", "output.preview_max_size=128"}, {}, {}}),
    [](const testing::TestParamInfo<PlanCase>& info) { return info.param.name; });

RunPlan planOf(std::int64_t width, std::int64_t height, int threads = 2,
               std::vector<std::string> overrides = {}) {
    overrides.insert(overrides.begin(), {"map.width=" + std::to_string(width),
                                         "map.height=" + std::to_string(height),
                                         kAllFilesOverride});
    const Config config = defaultConfig(overrides);
    return planRun(config, MapWindow{wholeMap(config.map), std::nullopt}, threads);
}

std::uint64_t memoryPart(const RunPlan& plan, const std::string& what) {
    for (const MemoryPart& part : plan.memory)
        if (part.what == what) return part.bytes;
    return 0;
}

TEST(PlanTest, EveryEstimateGrowsWithTheMap) {
    // Doubling keeps the previews' scale from dropping (a 2049-wide map has a smaller preview
    // than a 2048-wide one), so every part must grow or stay; squares and flat rectangles.
    for (const std::int64_t aspect : {1, 3}) {
        RunPlan last = planOf(1, 1);
        for (std::int64_t side = 2; side <= 65536; side *= 2) {
            const RunPlan plan = planOf(side, side / aspect + 1);
            EXPECT_GE(plan.diskBytes(), last.diskBytes()) << side;
            EXPECT_GE(plan.memoryBytes(), last.memoryBytes()) << side;
            for (std::size_t i = 0; i < plan.outputs.size(); ++i)
                EXPECT_GE(plan.outputs[i].bytes, last.outputs[i].bytes) << plan.outputs[i].path;
            last = plan;
        }
        EXPECT_GT(last.diskBytes(), 4ull * 65536 * (65536 / aspect));  // height.tif: 4 B a cell
    }
}

TEST(PlanTest, EveryOutputButThePreviewsGrowsCellByCell) {
    for (std::int64_t w = 2030; w < 2070; ++w) {
        const RunPlan narrower = planOf(w, 300), wider = planOf(w + 1, 300);
        for (std::size_t i = 0; i < wider.outputs.size(); ++i) {
            const OutputFile f = wider.outputs[i].file;
            if (f == OutputFile::PreviewPng || f == OutputFile::HeightPng) continue;
            EXPECT_GE(wider.outputs[i].bytes, narrower.outputs[i].bytes) << w;
        }
        EXPECT_GE(memoryPart(wider, "walkable regions"), memoryPart(narrower, "walkable regions"));
    }
}

TEST(PlanTest, MemoryGrowsWithThreadsAndTileSizeButNotDisk) {
    const RunPlan one = planOf(4096, 4096, 1), eight = planOf(4096, 4096, 8);
    EXPECT_GT(eight.memoryBytes(), one.memoryBytes());
    EXPECT_EQ(eight.diskBytes(), one.diskBytes());
    EXPECT_GT(memoryPart(planOf(4096, 4096, 2, {"map.tile_size=1024"}), "tiles in flight"),
              memoryPart(planOf(4096, 4096, 2), "tiles in flight"));
}

// The overview pyramids hold a band of tiles per level, never a level: a 65536^2 map's
// overviews take little more than a 65536 x 2048 band's (its small levels are a row or two
// taller, and the tile indexes grow with the area at 24 bytes a tile), a few hundred MiB for
// the four GeoTIFFs, against 16 GiB for height.tif's full resolution alone; the plain layout
// has none.
TEST(PlanTest, OverviewsHaveTheirOwnLineAndGrowWithTheWidthNotTheArea) {
    const std::uint64_t square = memoryPart(planOf(65536, 65536), "overviews");
    const std::uint64_t band = memoryPart(planOf(65536, 2048), "overviews");
    EXPECT_GT(band, 0u);
    EXPECT_GE(square, band);
    EXPECT_LT(square, band + band / 2);
    EXPECT_LT(square, 512ull << 20);
    EXPECT_EQ(memoryPart(planOf(65536, 65536, 2, {"output.layout=\"plain\""}), "overviews"), 0u);
    EXPECT_EQ(memoryPart(planOf(4096, 4096, 2, {R"(output.files=["preview.png"])"}), "overviews"),
              0u);
}

TEST(PlanTest, MemoryFollowsTheOutputsThatHoldSomethingPerCellOrPixel) {
    const auto heightOnly =
        planOf(16384, 16384, 2, {R"(output.files=["height.tif"])"});
    EXPECT_EQ(memoryPart(heightOnly, "previews"), 0u);
    EXPECT_EQ(memoryPart(heightOnly, "walkable regions"), 0u);
    EXPECT_LT(heightOnly.memoryBytes(), 64u << 20);
    // 2 bits a cell for the walkable regions: 64 MiB at 16384 x 16384.
    const auto stats = planOf(16384, 16384, 2, {R"(output.files=["stats.json"])"});
    EXPECT_GE(memoryPart(stats, "walkable regions"), 64u << 20);
    EXPECT_LT(memoryPart(stats, "walkable regions"), 66u << 20);
}

TEST(PlanTest, WindowPlansOnlyItsCells) {
    const Config config = defaultConfig({"map.width=4096", "map.height=4096", kAllFilesOverride});
    const RunPlan whole = planRun(config, {wholeMap(config.map), std::nullopt}, 2);
    const RunPlan piece = planRun(config, {{0, 1024, 4096, 1024}, Shard{1, 4}}, 2);
    EXPECT_FALSE(whole.isWindow());
    EXPECT_TRUE(piece.isWindow());
    EXPECT_EQ(piece.tiles, whole.tiles / 4);
    EXPECT_LT(piece.diskBytes(), whole.diskBytes() / 2);
    EXPECT_LT(piece.memoryBytes(), whole.memoryBytes());
}

TEST(PlanTest, ShortfallsGiveTheEstimateAndWhatIsFree) {
    const RunPlan plan = planOf(1024, 1024);
    // The default outputs include uncompressed ones (height.r16) and compressed ones.
    ASSERT_GT(plan.certainDiskBytes(), 0u);
    ASSERT_LT(plan.certainDiskBytes(), plan.diskBytes());
    Resources plenty{plan.diskBytes(), plan.directory, plan.memoryBytes()};
    EXPECT_TRUE(planShortfalls(plan, plenty).empty());
    EXPECT_TRUE(planWarnings(plan, plenty).empty());
    EXPECT_TRUE(planShortfalls(plan, Resources{}).empty());  // unknown: not refused
    EXPECT_TRUE(planWarnings(plan, Resources{}).empty());

    const Resources tight{plan.certainDiskBytes() - 1, plan.directory, plan.memoryBytes() - 1};
    const auto shortfalls = planShortfalls(plan, tight);
    ASSERT_EQ(shortfalls.size(), 2u);
    EXPECT_THAT(shortfalls[0], HasSubstr("needs " + formatBytes(plan.certainDiskBytes()) +
                                         " on disk in 'out' for its uncompressed outputs alone, "
                                         "but only " +
                                         formatBytes(plan.certainDiskBytes() - 1) +
                                         " are free there"));
    EXPECT_THAT(shortfalls[1], HasSubstr("needs up to " + formatBytes(plan.memoryBytes()) +
                                         " of memory, but only"));
    EXPECT_TRUE(planWarnings(plan, tight).empty());  // refused, not warned
}

TEST(PlanTest, ARunThatFitsOnlyIfItCompressesIsWarnedNotRefused) {
    const RunPlan plan = planOf(1024, 1024);
    const Resources between{plan.certainDiskBytes(), plan.directory, plan.memoryBytes()};
    EXPECT_TRUE(planShortfalls(plan, between).empty());
    const auto warnings = planWarnings(plan, between);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0], HasSubstr("may need up to " + formatBytes(plan.diskBytes()) +
                                       " on disk in 'out' if its compressed outputs do not "
                                       "compress"));
}

TEST(PlanTest, FormatBytesUsesPowersOf1024) {
    EXPECT_EQ(formatBytes(0), "0 B");
    EXPECT_EQ(formatBytes(1023), "1023 B");
    EXPECT_EQ(formatBytes(1024), "1.0 KiB");
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
    EXPECT_EQ(formatBytes(std::uint64_t(12.3 * (1ull << 30))), "12.3 GiB");
}

TEST(PlanTest, ResourcesLookAtTheNearestExistingDirectory) {
    test::TempDir dir;
    const Resources here = probeResources(dir.path().string());
    EXPECT_EQ(here.diskPath, dir.path().string());
    ASSERT_TRUE(here.freeDiskBytes.has_value());
    EXPECT_GT(*here.freeDiskBytes, 0u);
    ASSERT_TRUE(here.availableMemoryBytes.has_value());
    EXPECT_GT(*here.availableMemoryBytes, 0u);
    EXPECT_EQ(probeResources((dir / "not/yet").string()).diskPath, dir.path().string());
    EXPECT_FALSE(fs::exists(dir / "not"));
}

}  // namespace
}  // namespace terragrid

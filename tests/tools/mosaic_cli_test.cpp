// `terragrid mosaic` and `terragrid verify` through the real CLI, read back by real GDAL:
// shards mosaic into the single run (VRTs with the rasters' nodata, colours, class names,
// units and scale; with --merge COGs byte-identical to the single run's with output.layout
// "cog"; the vectors once; stats.json combined to the single run's figures), and every
// refusal (a missing, doubled or foreign shard, a tampered file) exits 2 naming what is wrong
// with nothing created. `verify` finds a changed, missing or replaced file.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::runCommand;
using test::shellQuote;
using testing::HasSubstr;
using testing::Not;

const std::string kRasters = "\"height.tif\", \"classes.tif\", \"walkable.tif\", \"height16.tif\"";

class MosaicCliTest : public ::testing::Test {
protected:
    /// Runs `command` in the test's directory.
    test::CommandResult sh(const std::string& command) {
        return runCommand("cd " + shellQuote(m_dir.path().string()) + " && " + command);
    }
    test::CommandResult ok(const std::string& command) {
        const auto r = sh(command);
        EXPECT_EQ(r.exitCode, 0) << command << "\n" << r.err;
        return r;
    }
    std::string cli() const { return shellQuote(test::cliPath()); }

    /// A 200 x 150 map in tiles of 32 (five tile rows: four shards are rows 0-31, 32-63,
    /// 64-95 and 96-149), off the origin, classes by coverage, `files` written.
    std::string map(const std::string& extra = "") const {
        return cli() + " --width 200 --height 150 --tile-size 32 --seed 11 -q"
                       " --set 'map.origin=[600000, 5400000]' --set output.epsg=32633"
                       " --set 'terrain.lake_below={\"coverage\": 0.3}'"
                       " --set 'terrain.mountain_above={\"coverage\": 0.15}'"
                       " --set 'output.files=[" + m_files + "]' " + extra;
    }

    /// The single run as a COG into `single`, and the four shards into shard-0..3.
    void makeShards(const std::string& extra = "") {
        ok(map(extra + " --set output.layout=cog --out-dir single"));
        for (int k = 0; k < 4; ++k)
            ok(map(extra + " --shard " + std::to_string(k) + "/4 --out-dir shard-" +
                   std::to_string(k)));
        ASSERT_FALSE(HasFailure());
    }

    /// `mosaic ARGS`, expected to be refused: exit 2, `message` on stderr, no `map` created.
    void refused(const std::string& args, const std::string& message) {
        const auto r = sh(cli() + " mosaic " + args + " --out-dir map --merge");
        EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.err;
        EXPECT_THAT(r.err, HasSubstr(message)) << args;
        EXPECT_FALSE(fs::exists(m_dir / "map")) << args;
    }

    json gdalinfo(const std::string& file) { return json::parse(ok("gdalinfo -json " + file).out); }

    std::string bytes(const std::string& file) const { return test::readFile(m_dir / file); }

    /// stats.json without what a mosaic cannot combine (regions) or measures itself (timings).
    json statsFigures(const std::string& file) const {
        json stats = json::parse(bytes(file));
        stats.erase("timing_seconds");
        stats.erase("regions");
        if (stats.contains("hydrology")) stats["hydrology"].erase("timing_seconds");
        return stats;
    }

    /// Flips one byte in the middle of `file`.
    void tamper(const std::string& file) const {
        std::string b = bytes(file);
        b[b.size() / 2] = static_cast<char>(b[b.size() / 2] ^ 1);
        std::ofstream(m_dir / file, std::ios::binary | std::ios::trunc) << b;
    }

    test::TempDir m_dir;
    std::string m_files = kRasters + ", \"stats.json\", \"classes.qml\", \"preview.png\"";
};

TEST_F(MosaicCliTest, ShardsMergeIntoTheSingleRunsCogsByteForByte) {
    makeShards();
    // In any order: the manifests say where each piece lies.
    const auto r = ok(cli() + " mosaic shard-2 shard-0 shard-3 shard-1 --out-dir map --merge");
    ASSERT_FALSE(HasFailure());
    for (const std::string file : {"height.tif", "classes.tif", "walkable.tif", "height16.tif",
                                   "classes.tif.aux.xml", "classes.qml"})
        EXPECT_TRUE(bytes("map/" + file) == bytes("single/" + file)) << file;
    // The previews are pictures of each piece: left out, and said so.
    EXPECT_FALSE(fs::exists(m_dir / "map/preview.png"));
    EXPECT_THAT(r.err, HasSubstr("preview.png"));
    // GDAL's own validator takes the merged files as COGs.
    ok("/usr/bin/python3 -c 'from osgeo_utils.samples.validate_cloud_optimized_geotiff import main; "
       "import sys; sys.exit(main([\"v\", \"map/height.tif\"]))'");
    // Every figure that adds up is the single run's, the mean to the bit (from the exact sum).
    EXPECT_EQ(statsFigures("map/stats.json"), statsFigures("single/stats.json"));
    EXPECT_THAT(bytes("map/stats.json"), HasSubstr("regions are labelled within each piece"));
    ok(cli() + " verify map");
}

TEST_F(MosaicCliTest, VrtsKeepWhatTheRunWroteIntoEachRaster) {
    makeShards();
    ok(cli() + " mosaic shard-0 shard-1 shard-2 shard-3 --out-dir map");
    ASSERT_FALSE(HasFailure());
    EXPECT_FALSE(fs::exists(m_dir / "map/height.tif"));  // VRTs only without --merge
    for (const std::string name : {"height", "classes", "walkable", "height16"}) {
        const json single = gdalinfo("single/" + name + ".tif");
        const json vrt = gdalinfo("map/" + name + ".vrt");
        EXPECT_EQ(vrt["size"], single["size"]) << name;
        EXPECT_EQ(vrt["geoTransform"], single["geoTransform"]) << name;
        EXPECT_THAT(vrt["coordinateSystem"].value("wkt", ""), testing::EndsWith("ID[\"EPSG\",32633]]"));
        const json& a = single["bands"][0];
        const json& b = vrt["bands"][0];
        for (const char* key : {"type", "noDataValue", "unit", "scale", "offset", "colorTable",
                                "colorInterpretation", "categoryNames"})
            EXPECT_EQ(b.value(key, json()), a.value(key, json())) << name << " " << key;
        // The pieces' metadata; the config hash is theirs (the single run here is a COG, another
        // output.layout).
        json metadata = single["metadata"][""];
        metadata.erase("TIFFTAG_SOFTWARE");  // a TIFF tag, not the map's
        metadata["TERRAGRID_CONFIG_HASH"] = json::parse(bytes("shard-0/manifest.json"))["config_hash"];
        EXPECT_EQ(vrt["metadata"][""], metadata) << name;
        // The cells, through GDAL: the pieces in place are the single run's.
        ok("gdal_translate -q -co TILED=YES map/" + name + ".vrt " + name + "-vrt.tif");
    }
    ASSERT_FALSE(HasFailure());
    EXPECT_EQ(test::readFloatTiff(m_dir / "height-vrt.tif"),
              test::readFloatTiff(m_dir / "single/height.tif"));
    EXPECT_EQ(test::readByteTiff(m_dir / "classes-vrt.tif"),
              test::readByteTiff(m_dir / "single/classes.tif"));
    EXPECT_EQ(test::readUInt16Tiff(m_dir / "height16-vrt.tif"),
              test::readUInt16Tiff(m_dir / "single/height16.tif"));
    // Class names are the rows of the attribute table too, as in classes.tif.aux.xml.
    EXPECT_THAT(bytes("map/classes.vrt"), HasSubstr("<GDALRasterAttributeTable"));
}

TEST_F(MosaicCliTest, ShardsWithHydrologyMergeWaterAndVectorsOfTheSingleRun) {
    m_files = "\"height.tif\", \"water.tif\", \"flow.tif\", \"water_depth.tif\", \"stats.json\", "
              "\"rivers.geojson\", \"lakes.geojson\"";
    const std::string water = " --set hydrology.enabled=true --set hydrology.sea_level=0.3"
                              " --set hydrology.river_threshold=180000";
    makeShards(water);
    ok(cli() + " mosaic shard-0 shard-1 shard-2 shard-3 --out-dir map --merge");
    ASSERT_FALSE(HasFailure());
    for (const std::string file : {"height.tif", "water.tif", "flow.tif", "water_depth.tif",
                                   "rivers.geojson", "lakes.geojson"})
        EXPECT_TRUE(bytes("map/" + file) == bytes("single/" + file)) << file;
    EXPECT_EQ(statsFigures("map/stats.json"), statsFigures("single/stats.json"));
    const std::vector<std::uint8_t> kinds = test::readByteTiff(m_dir / "map/water.tif");
    EXPECT_GT(std::count(kinds.begin(), kinds.end(), 2), 0);  // rivers there are
}

TEST_F(MosaicCliTest, AMissingShardIsRefusedNamingItsRows) {
    makeShards();
    refused("shard-0 shard-1 shard-3", "rows 64-95 are in no piece");
}

TEST_F(MosaicCliTest, ADoubledShardIsRefusedNamingItsRowsAndPieces) {
    makeShards();
    refused("shard-0 shard-1 shard-1 shard-2 shard-3",
            "rows 32-63 are in more than one piece: 'shard-1', 'shard-1'");
    ok("cp -r shard-2 copy");
    refused("shard-0 shard-1 shard-2 shard-3 copy",
            "rows 64-95 are in more than one piece: 'shard-2', 'copy'");
}

TEST_F(MosaicCliTest, AShardOfAnotherMapIsRefused) {
    makeShards();
    ok(map("--set seed=12 --shard 2/4 --out-dir other"));
    refused("shard-0 shard-1 other shard-3", "'other' is a piece of another map: its config hash");
    // A region of this map is a piece of it; one of another size is not.
    ok(map("--set map.height=160 --shard 2/4 --out-dir taller"));
    refused("shard-0 shard-1 taller shard-3", "'taller' is a piece of another map");
}

TEST_F(MosaicCliTest, ATamperedOrMissingFileOfAShardIsRefused) {
    makeShards();
    tamper("shard-2/height.tif");
    refused("shard-0 shard-1 shard-2 shard-3", "'shard-2/height.tif' differs from the manifest");
    fs::remove(m_dir / "shard-1/classes.tif");
    refused("shard-0 shard-1 shard-2 shard-3", "'shard-1/classes.tif' is missing");
    ok(map("--out-dir whole"));
    refused("shard-0 shard-1 whole shard-3", "rows 0-31 are in more than one piece: 'shard-0', 'whole'");
    fs::remove(m_dir / "shard-3/manifest.json");
    refused("shard-0 shard-1 shard-2 shard-3", "'shard-3' has no manifest.json");
}

TEST_F(MosaicCliTest, RegionsOfAnyShapeMosaicAndGapsNameTheirColumns) {
    ok(map("--set output.layout=cog --out-dir single"));
    ok(map("--region 0,0,120,150 --out-dir left"));
    ok(map("--region 120,0,80,70 --out-dir top-right"));
    ok(map("--region 120,70,80,80 --out-dir bottom-right"));
    ok(cli() + " mosaic left top-right bottom-right --out-dir map --merge");
    ASSERT_FALSE(HasFailure());
    EXPECT_TRUE(bytes("map/height.tif") == bytes("single/height.tif"));
    EXPECT_EQ(statsFigures("map/stats.json"), statsFigures("single/stats.json"));
    fs::remove_all(m_dir / "map");
    refused("left bottom-right", "rows 0-69, columns 120-199, are in no piece");
}

// --- the manifest and verify ---------------------------------------------------------------

TEST_F(MosaicCliTest, TheManifestListsEveryFileWithItsSizeAndSha256) {
    m_files = kRasters + ", \"stats.json\", \"preview.png\", \"map.tmj\"";
    ok(map("--shard 1/4 --out-dir piece"));
    const json manifest = json::parse(bytes("piece/manifest.json"));
    const json stats = json::parse(bytes("piece/stats.json"));
    EXPECT_EQ(manifest["config_hash"], stats["config_hash"]);
    EXPECT_EQ(manifest["terragrid_version"], stats["terragrid_version"]);
    EXPECT_EQ(manifest["noise_version"], stats["noise_version"]);
    EXPECT_EQ(manifest["shard"], (json{{"index", 1}, {"count", 4}}));
    EXPECT_EQ(manifest["window"]["row"], stats["window"]["row"]);
    EXPECT_EQ(manifest["window"]["height"], stats["window"]["height"]);
    EXPECT_EQ(manifest["config"]["seed"], 11);
    std::vector<std::string> listed;
    for (const json& f : manifest["files"]) {
        const std::string name = f["name"];
        listed.push_back(name);
        EXPECT_EQ(f["bytes"], fs::file_size(m_dir / "piece" / name)) << name;
        // The real tool agrees on every hash.
        EXPECT_EQ(ok("sha256sum piece/" + name).out.substr(0, 64), f["sha256"].get<std::string>()) << name;
    }
    std::vector<std::string> present = test::listDir(m_dir / "piece");
    std::erase(present, "manifest.json");
    EXPECT_EQ(listed, present);  // every file but itself, sorted
}

TEST_F(MosaicCliTest, TheManifestIsTheSameBytesForAnyTileSizeThreadsAndDirectory) {
    ok(map("--out-dir a --threads 1"));
    ok(map("--out-dir b --threads 2 --set map.tile_size=64"));
    // stats.json's timings differ from run to run, and with them its hash: all else is equal.
    const auto a = test::withoutTimings(test::snapshotDir(m_dir / "a"));
    const auto b = test::withoutTimings(test::snapshotDir(m_dir / "b"));
    EXPECT_EQ(a.at("manifest.json"), b.at("manifest.json"));
    EXPECT_EQ(a, b);
    ok(map("--out-dir c --set output.manifest=false"));
    EXPECT_FALSE(fs::exists(m_dir / "c/manifest.json"));
    // output.manifest is no part of the map: the hash in every file stays.
    EXPECT_EQ(json::parse(bytes("c/stats.json"))["config_hash"],
              json::parse(bytes("a/manifest.json"))["config_hash"]);
}

TEST_F(MosaicCliTest, VerifyAcceptsAnIntactDirectoryAndNamesEveryFileThatDiffers) {
    ok(map("--out-dir out"));
    // The default outputs: height.tif, classes.tif with its .aux.xml, walkable.tif, the QGIS
    // styles, preview.png with its world file and GDAL sidecar, stats.json.
    EXPECT_THAT(ok(cli() + " verify out").out, HasSubstr("10 files"));
    tamper("out/classes.tif");
    fs::remove(m_dir / "out/height16.tif");
    auto r = sh(cli() + " verify out");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("'out/classes.tif' differs from the manifest"));
    EXPECT_THAT(r.err, HasSubstr("'out/height16.tif' is missing"));
    EXPECT_THAT(r.err, Not(HasSubstr("height.tif'")));
    // A symlink to the right bytes is still not the file the run wrote.
    ok("cp out/walkable.tif elsewhere.tif && rm out/walkable.tif && "
       "ln -s ../elsewhere.tif out/walkable.tif");
    EXPECT_THAT(sh(cli() + " verify out").err, HasSubstr("'out/walkable.tif' is a symbolic link"));
    // Appending keeps the start of the file: the size tells.
    ok("printf x >> out/stats.json");
    EXPECT_THAT(sh(cli() + " verify out").err, HasSubstr("'out/stats.json' has"));
}

TEST_F(MosaicCliTest, VerifyRefusesADirectoryWithoutOrWithADamagedManifest) {
    ok("mkdir empty");
    auto r = sh(cli() + " verify empty");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("'empty' has no manifest.json"));
    ok(map("--out-dir out"));
    ok("printf '{\"format\": \"terragrid-manifest\"' > out/manifest.json");
    r = sh(cli() + " verify out");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("manifest.json' is not valid JSON"));
    EXPECT_EQ(sh(cli() + " verify").exitCode, 2);
}

}  // namespace
}  // namespace terragrid

// What GDAL, the reference GeoTIFF reader, sees in height.tif, classes.tif and walkable.tif:
// runs `gdalinfo -json` on files written through makeSinks and checks CRS, transform, layout,
// type, compression, colour table and metadata.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "terragrid/config/crs.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::runCommand;
using test::shellQuote;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

bool onPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (path == nullptr) return false;
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        // An empty entry means the current directory. (Not `dir = "."`: GCC 12 at -O3 warns
        // about that assignment with a false -Wrestrict.)
        const fs::path base = dir.empty() ? fs::path(".") : fs::path(dir);
        if (::access((base / program).c_str(), X_OK) == 0) return true;
    }
    return false;
}

class GdalinfoTest : public ::testing::Test {
protected:
    Config config(int epsg, double originX, double originY, double cellSize,
                  Compression compression) const {
        Config c = test::outputConfig(m_dir.path().string(), {OutputFile::HeightTif});
        c.seed = 1234567890123ull;
        c.map.cellSize = cellSize;
        c.map.originX = originX;
        c.map.originY = originY;
        c.output.crs = crsFromEpsg(epsg);
        c.output.compression = compression;
        c.hash = "00ff00ff00ff00ff";
        return c;
    }

    static float elevationAt(std::int64_t col, std::int64_t row) {
        return 10.0f + static_cast<float>(col) * 2.0f + static_cast<float>(row) * 0.5f;
    }

    // Writes height.tif through makeSinks, generator-sized tiles made by hand; returns its path.
    static std::string writeHeightTif(const Config& c) {
        auto sinks = makeSinks(c, nullptr, nullptr);
        EXPECT_EQ(sinks.size(), 1u);
        OutputSink& sink = *sinks.at(0);
        test::feedElevationTiles(sink, c.map, elevationAt);
        sink.commit();
        return sink.path();
    }

    // `gdalinfo -json -mm <file>` parsed; a test failure (never a skip) when gdalinfo is
    // missing or fails.
    json gdalinfo(const std::string& file) const {
        if (!onPath("gdalinfo")) {
            ADD_FAILURE() << "gdalinfo is not on PATH; scripts/deps.sh installs gdal-bin";
            return json::object();
        }
        const std::string command = "gdalinfo -json -mm " + shellQuote(file);
        const test::CommandResult result = runCommand(command);
        if (result.exitCode != 0) {
            ADD_FAILURE() << command << " failed (exit code " << result.exitCode << "):\n"
                          << result.err;
            return json::object();
        }
        json parsed = json::parse(result.out, nullptr, /*allow_exceptions=*/false);
        if (parsed.is_discarded()) {
            ADD_FAILURE() << "gdalinfo printed no JSON:\n" << result.out;
            return json::object();
        }
        return parsed;
    }

    // The compression GDAL reports in `info` and, where it names one, the predictor.
    static void expectCompression(const json& info, const std::string& compression,
                                  const std::string& predictor) {
        const json& structure = info["metadata"]["IMAGE_STRUCTURE"];
        EXPECT_EQ(structure.value("COMPRESSION", ""), compression);
        if (structure.contains("PREDICTOR")) {
            EXPECT_EQ(structure.value("PREDICTOR", ""), predictor);
        }
    }

    test::TempDir m_dir;  // a fresh directory per test, removed afterwards
};

TEST_F(GdalinfoTest, SeesProjectedHeightTif) {
    const Config c = config(3857, 600000.0, 5400000.0, 30.0, Compression::Deflate);
    const json info = gdalinfo(writeHeightTif(c));
    ASSERT_FALSE(info.empty());

    EXPECT_EQ(info.value("driverShortName", ""), "GTiff");
    EXPECT_EQ(info["size"], json::array({100, 70}));
    const std::string wkt = info["coordinateSystem"].value("wkt", "");
    EXPECT_THAT(wkt, HasSubstr("Pseudo-Mercator"));
    EXPECT_THAT(wkt, ::testing::EndsWith("ID[\"EPSG\",3857]]")) << "the CRS's own identifier";
    if (info.contains("stac")) {  // GDAL 3.3 and later also report the CRS as PROJJSON
        EXPECT_EQ(info["stac"].value("proj:epsg", 0), 3857);
        EXPECT_EQ(info["stac"]["proj:projjson"]["id"].value("code", 0), 3857);
    }
    EXPECT_EQ(info["geoTransform"], json::array({600000.0, 30.0, 0.0, 5400000.0, 0.0, -30.0}));

    ASSERT_EQ(info["bands"].size(), 1u);
    const json& band = info["bands"][0];
    EXPECT_EQ(band["block"], json::array({32, 32}));
    EXPECT_EQ(band.value("type", ""), "Float32");
    if (band.contains("unit")) {
        EXPECT_THAT(band.value("unit", ""), ::testing::AnyOf("metre", "m"));
    }
    // -mm makes GDAL decode every tile (predictor included).
    EXPECT_EQ(band.value("computedMin", 0.0), elevationAt(0, 0));
    EXPECT_EQ(band.value("computedMax", 0.0), elevationAt(99, 69));

    const json& structure = info["metadata"]["IMAGE_STRUCTURE"];
    EXPECT_EQ(structure.value("COMPRESSION", ""), "DEFLATE");
    const json& items = info["metadata"][""];
    EXPECT_EQ(items.value("TERRAGRID_SEED", ""), "1234567890123");
    EXPECT_EQ(items.value("TERRAGRID_CONFIG_HASH", ""), "00ff00ff00ff00ff");
    EXPECT_EQ(items.value("TERRAGRID_VERSION", ""), kVersion);
    EXPECT_EQ(items.value("AREA_OR_POINT", ""), "Area");
}

TEST_F(GdalinfoTest, SeesGeographicCrs) {
    const Config c = config(4326, -10.0, 50.0, 0.25, Compression::Deflate);
    const json info = gdalinfo(writeHeightTif(c));
    ASSERT_FALSE(info.empty());
    const std::string wkt = info["coordinateSystem"].value("wkt", "");
    EXPECT_THAT(wkt, ::testing::StartsWith("GEOGCRS[\"WGS 84\""));
    EXPECT_THAT(wkt, ::testing::EndsWith("ID[\"EPSG\",4326]]"));
    EXPECT_EQ(info["geoTransform"], json::array({-10.0, 0.25, 0.0, 50.0, 0.0, -0.25}));
}

struct CompressionCase {
    Compression compression;
    const char* gdalName;

    // Without it GoogleTest prints the struct's bytes, padding included.
    friend void PrintTo(const CompressionCase& c, std::ostream* os) { *os << c.gdalName; }
};

class GdalinfoCompressionTest : public GdalinfoTest,
                                public ::testing::WithParamInterface<CompressionCase> {};

TEST_P(GdalinfoCompressionTest, ReportsCompressionAndPredictor) {
    const Config c = config(3857, 0.0, 0.0, 10.0, GetParam().compression);
    const json info = gdalinfo(writeHeightTif(c));
    ASSERT_FALSE(info.empty());
    expectCompression(info, GetParam().gdalName, "3");
    EXPECT_EQ(info["bands"][0].value("computedMax", 0.0), elevationAt(99, 69));
}

// classes.tif and walkable.tif beside height.tif, from one run of the sinks.
class GdalinfoClassesTest : public GdalinfoTest {
protected:
    void SetUp() override {
        Config c = config(3857, 600000.0, 5400000.0, 30.0, Compression::Deflate);
        c.output.files = {OutputFile::HeightTif, OutputFile::ClassesTif, OutputFile::WalkableTif};
        const test::SyntheticMap map = test::classifiedMap(
            c.map.width, c.map.height, elevationAt,
            [](std::int64_t col, std::int64_t r) {
                return static_cast<std::uint8_t>((col / 10 + r / 10) % 3);
            },
            m_terrain);
        WalkableRegions regions(false);
        test::writeOutputs(c, &m_terrain, &regions, map, c.map.tileSizeCells);
    }

    std::string pathOf(const char* name) const { return (m_dir / name).string(); }

    // What SeesProjectedHeightTif finds for height.tif of the same config (one gdalinfo run
    // fewer per test).
    const json kHeightGeoTransform = json::array({600000.0, 30.0, 0.0, 5400000.0, 0.0, -30.0});

    const Terrain m_terrain = test::testTerrain("ground");
};

TEST_F(GdalinfoClassesTest, SeesClassesTifAsPaletteBytes) {
    const json info = gdalinfo(pathOf("classes.tif"));
    ASSERT_FALSE(info.empty());
    EXPECT_EQ(info["size"], json::array({100, 70}));
    EXPECT_EQ(info["geoTransform"], kHeightGeoTransform);
    EXPECT_THAT(info["coordinateSystem"].value("wkt", ""),
                ::testing::EndsWith("ID[\"EPSG\",3857]]"));

    ASSERT_EQ(info["bands"].size(), 1u);
    const json& band = info["bands"][0];
    EXPECT_EQ(band.value("type", ""), "Byte");
    EXPECT_EQ(band["block"], json::array({32, 32}));
    EXPECT_EQ(band.value("colorInterpretation", ""), "Palette");
    EXPECT_EQ(band.value("computedMin", -1.0), 0.0);
    EXPECT_EQ(band.value("computedMax", -1.0), 2.0);
    const json& table = band["colorTable"];
    EXPECT_EQ(table.value("palette", ""), "RGB");
    ASSERT_EQ(table.value("count", 0), 256);
    const json& entries = table["entries"];
    EXPECT_EQ(entries[0], json::array({58, 110, 165, 255}));
    EXPECT_EQ(entries[1], json::array({46, 110, 52, 255}));
    EXPECT_EQ(entries[2], json::array({128, 170, 90, 255}));
    EXPECT_EQ(entries[3], json::array({0, 0, 0, 255}));
    // 255 is the nodata index: GDAL shows its colour transparent.
    EXPECT_EQ(entries[255], json::array({0, 0, 0, 0}));
    EXPECT_EQ(band.value("noDataValue", -1.0), 255.0);

    expectCompression(info, "DEFLATE", "2");
    const json& items = info["metadata"][""];
    EXPECT_EQ(items.value("TERRAGRID_SEED", ""), "1234567890123");
    EXPECT_EQ(items.value("TERRAGRID_VERSION", ""), kVersion);
    EXPECT_EQ(items.value("TERRAGRID_CLASSES", ""), "lake,forest,ground");
    EXPECT_EQ(items.value("TERRAGRID_CLASS_0", ""), "lake");
    EXPECT_EQ(items.value("TERRAGRID_CLASS_0_WALKABLE", ""), "false");
    EXPECT_EQ(items.value("TERRAGRID_CLASS_2", ""), "ground");
    EXPECT_EQ(items.value("TERRAGRID_CLASS_2_WALKABLE", ""), "true");
}

TEST_F(GdalinfoClassesTest, SeesWalkableTifAsBytesOnTheSameGrid) {
    const json info = gdalinfo(pathOf("walkable.tif"));
    ASSERT_FALSE(info.empty());
    EXPECT_EQ(info["size"], json::array({100, 70}));
    EXPECT_EQ(info["geoTransform"], kHeightGeoTransform);
    const json& band = info["bands"][0];
    EXPECT_EQ(band.value("type", ""), "Byte");
    EXPECT_EQ(band.value("colorInterpretation", ""), "Gray");
    EXPECT_FALSE(band.contains("colorTable"));
    EXPECT_EQ(band.value("computedMin", -1.0), 0.0);
    EXPECT_EQ(band.value("computedMax", -1.0), 1.0);
    EXPECT_EQ(info["metadata"][""].value("TERRAGRID_WALKABLE", ""),
              "1 = walkable, 0 = not walkable");
}

// height16.tif beside height.tif: GDAL must see UInt16 values on the same grid and, through
// the band's offset and scale, the same heights in metres to within one 16-bit step.
class GdalinfoHeight16Test : public GdalinfoTest {
protected:
    void SetUp() override {
        m_config = config(3857, 600000.0, 5400000.0, 30.0, Compression::Deflate);
        m_config.elevation = {-50.0, 250.0};
        m_config.output.files = {OutputFile::HeightTif, OutputFile::Height16Tif};
        test::writeOutputs(m_config, nullptr, nullptr,
                           test::elevationMap(m_config.map.width, m_config.map.height, elevationAt),
                           m_config.map.tileSizeCells);
    }

    std::string pathOf(const char* name) const { return (m_dir / name).string(); }

    // One 16-bit step in metres: GDAL's scale (65535 is nodata, so the range spans 65534).
    double step() const {
        return (m_config.elevation.maxMeters - m_config.elevation.minMeters) / 65534.0;
    }

    Config m_config;
};

TEST_F(GdalinfoHeight16Test, SeesUInt16WithOffsetAndScaleOnTheHeightGrid) {
    const json info = gdalinfo(pathOf("height16.tif"));
    const json height = gdalinfo(pathOf("height.tif"));
    ASSERT_FALSE(info.empty());
    ASSERT_FALSE(height.empty());
    EXPECT_EQ(info["size"], height["size"]);
    EXPECT_EQ(info["geoTransform"], height["geoTransform"]);
    EXPECT_EQ(info["coordinateSystem"], height["coordinateSystem"]);

    ASSERT_EQ(info["bands"].size(), 1u);
    const json& band = info["bands"][0];
    EXPECT_EQ(band.value("type", ""), "UInt16");
    EXPECT_EQ(band["block"], json::array({32, 32}));
    EXPECT_EQ(band.value("offset", 0.0), -50.0);
    // gdalinfo prints the scale to 17 significant digits of its own rounding.
    EXPECT_NEAR(band.value("scale", 0.0), step(), step() * 1e-12);
    if (band.contains("unit")) {
        EXPECT_THAT(band.value("unit", ""), ::testing::AnyOf("metre", "m"));
    }
    // Raw values: elevationAt spans 10 .. 242.5 m, i.e. (10 + 50) / 300 * 65534 = 13106.8 up to
    // (242.5 + 50) / 300 * 65534 = 63895.65, rounded.
    EXPECT_EQ(band.value("computedMin", -1.0), 13107.0);
    EXPECT_EQ(band.value("computedMax", -1.0), 63896.0);
    EXPECT_EQ(band.value("noDataValue", -1.0), 65535.0);

    expectCompression(info, "DEFLATE", "2");
    const json& items = info["metadata"][""];
    EXPECT_EQ(items.value("TERRAGRID_SEED", ""), "1234567890123");
    EXPECT_THAT(items.value("TERRAGRID_HEIGHT16_MAPPING", ""), HasSubstr("65535"));
}

TEST_F(GdalinfoHeight16Test, UnscaledValuesAreTheHeightsWithinAStep) {
    // (Not gdallocationinfo -unscale: GDAL 3.6, Debian 12's, does not have that option yet.)
    if (!onPath("gdal_translate")) {
        FAIL() << "gdal_translate is not on PATH; scripts/deps.sh installs gdal-bin";
    }
    const std::string unscaled = pathOf("unscaled.tif");
    const test::CommandResult translated =
        runCommand("gdal_translate -q -unscale -ot Float32 " + shellQuote(pathOf("height16.tif")) +
                   " " + shellQuote(unscaled));
    ASSERT_EQ(translated.exitCode, 0) << translated.err;
    const std::vector<float> metres = test::readFloatTiff(unscaled);
    const std::vector<float> heights = test::readFloatTiff(pathOf("height.tif"));
    ASSERT_EQ(metres.size(), heights.size());
    double worst = 0;
    for (std::size_t i = 0; i < heights.size(); ++i) {
        worst = std::max(worst, std::abs(double(metres[i]) - double(heights[i])));
    }
    EXPECT_LE(worst, step()) << "largest difference in metres";
    EXPECT_GT(worst, 0.0) << "a 16-bit copy cannot hold every Float32 height exactly";
}

INSTANTIATE_TEST_SUITE_P(Codecs, GdalinfoCompressionTest,
                         ::testing::Values(CompressionCase{Compression::Lzw, "LZW"},
                                           CompressionCase{Compression::Zstd, "ZSTD"}),
                         [](const auto& info) { return std::string(info.param.gdalName); });

}  // namespace
}  // namespace terragrid

// height.exr through makeSinks, read back three ways: OpenEXR's own reader (exact floats),
// OpenEXR's command-line tools exrheader and exrinfo (the header as they see it), and headless
// Godot 3 (Debian's godot3-server), whose Image.load is what Godot terrain plugins call.

#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputFile.h>
#include <OpenEXR/ImfStringAttribute.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "terragrid/io/outputs.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::readFile;
using ::testing::HasSubstr;

constexpr std::int64_t kWidth = 100;
constexpr std::int64_t kHeight = 70;

// Different in every cell and lopsided: a row or column in the wrong place shows.
test::SyntheticMap exrMap() {
    return test::elevationMap(kWidth, kHeight, [](std::int64_t c, std::int64_t r) {
        return static_cast<float>(-95.25 + 0.37 * static_cast<double>(c) +
                                  11.0 * static_cast<double>(r) +
                                  std::sin(0.3 * static_cast<double>(c * r)));
    });
}

Config exrConfig(const fs::path& directory) {
    Config config = test::outputConfig(directory.string(),
                                       {OutputFile::HeightTif, OutputFile::HeightExr});
    config.elevation = {-100.0, 900.0};
    return config;
}

// Every pixel of the one float channel `channel`, read by OpenEXR's C++ reader.
std::vector<float> readExr(const fs::path& path, const char* channel, int* width, int* height) {
    Imf::InputFile file(path.c_str());
    const Imath::Box2i window = file.header().dataWindow();
    *width = window.max.x - window.min.x + 1;
    *height = window.max.y - window.min.y + 1;
    std::vector<float> values(static_cast<std::size_t>(*width) * static_cast<std::size_t>(*height));
    Imf::FrameBuffer frame;
    frame.insert(channel, Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(values.data()),
                                     sizeof(float), sizeof(float) * std::size_t(*width)));
    file.setFrameBuffer(frame);
    file.readPixels(window.min.y, window.max.y);
    return values;
}

class HeightExrTest : public ::testing::Test {
protected:
    void SetUp() override { test::writeOutputs(exrConfig(m_dir.path()), nullptr, nullptr, exrMap(), 32); }
    test::TempDir m_dir;
};

TEST_F(HeightExrTest, HoldsEveryElevationAsTheFloatInHeightTif) {
    Imf::InputFile file((m_dir / "height.exr").c_str());
    const Imf::ChannelList& channels = file.header().channels();
    ASSERT_NE(channels.findChannel("Y"), nullptr);
    EXPECT_EQ(channels.findChannel("Y")->type, Imf::FLOAT);
    int count = 0;
    for (auto it = channels.begin(); it != channels.end(); ++it) ++count;
    EXPECT_EQ(count, 1);
    EXPECT_EQ(file.header().compression(), Imf::ZIP_COMPRESSION);
    const auto* unit = file.header().findTypedAttribute<Imf::StringAttribute>("terragrid_unit");
    ASSERT_NE(unit, nullptr);
    EXPECT_EQ(unit->value(), "metre");

    int w = 0, h = 0;
    const std::vector<float> exr = readExr(m_dir / "height.exr", "Y", &w, &h);
    EXPECT_EQ(w, kWidth);
    EXPECT_EQ(h, kHeight);
    const std::vector<float> tif = test::readFloatTiff(m_dir / "height.tif");
    ASSERT_EQ(exr.size(), tif.size());
    EXPECT_TRUE(std::memcmp(exr.data(), tif.data(), exr.size() * sizeof(float)) == 0)
        << "every float bit for bit";
    EXPECT_EQ(exr.front(), exrMap().elevation.front());  // row 0 is the map's north row
    EXPECT_EQ(exr.back(), exrMap().elevation.back());
}

TEST_F(HeightExrTest, SameBytesWhateverTheTileSize) {
    const std::string first = readFile(m_dir / "height.exr");
    for (std::int64_t tileSize : {7, 64, 100}) {
        test::TempDir other;
        test::writeOutputs(exrConfig(other.path()), nullptr, nullptr, exrMap(), tileSize);
        EXPECT_TRUE(readFile(other / "height.exr") == first) << "tiles of " << tileSize;
        EXPECT_EQ(readFile(other / "height.exr.json"), readFile(m_dir / "height.exr.json"));
    }
}

// The blocks are compressed on as many OpenEXR threads as the run has (exr_writer.cpp); the
// file must not depend on how many that is, nor on which finishes first.
TEST_F(HeightExrTest, SameBytesWhateverTheThreadCount) {
    const std::string first = readFile(m_dir / "height.exr");
    for (int threads : {1, 2, 3, 8}) {
        test::TempDir other;
        tbb::task_arena arena(threads);
        arena.execute([&] {
            test::writeOutputs(exrConfig(other.path()), nullptr, nullptr, exrMap(), 16);
        });
        EXPECT_TRUE(readFile(other / "height.exr") == first) << threads << " threads";
    }
}

// OpenEXR's tools read the header as a single 32-bit float channel, ZIP, 100 x 70.
TEST_F(HeightExrTest, OpenExrToolsReadTheHeader) {
    for (const char* tool : {"exrheader", "exrinfo"}) {
        ASSERT_EQ(test::runCommand(std::string("command -v ") + tool).exitCode, 0)
            << tool << " is not on PATH; scripts/deps.sh installs it (Debian package openexr)";
    }
    const std::string path = test::shellQuote((m_dir / "height.exr").string());
    const test::CommandResult header = test::runCommand("exrheader " + path);
    ASSERT_EQ(header.exitCode, 0) << header.err;
    EXPECT_THAT(header.out, HasSubstr("Y, 32-bit floating-point, sampling 1 1"));
    EXPECT_THAT(header.out, HasSubstr("compression (type compression): zip"));
    EXPECT_THAT(header.out, HasSubstr("dataWindow (type box2i): (0 0) - (99 69)"));
    EXPECT_THAT(header.out, HasSubstr("terragrid_config_hash (type string): \"0123456789abcdef\""));
    // Debian's exrinfo (OpenEXR 3.1.5) exits with an uninitialised status after a complete,
    // correct report (a fifth of runs exit non-zero with the same output and nothing on
    // stderr), so its report and its silence on stderr are what is checked, not its status.
    const test::CommandResult info = test::runCommand("exrinfo -v " + path);
    EXPECT_EQ(info.err, "");
    EXPECT_THAT(info.out, HasSubstr("'Y': float samp 1 1"));
    EXPECT_THAT(info.out, HasSubstr("100 x 70"));
}

TEST_F(HeightExrTest, SidecarGivesTerrain3dItsImportValues) {
    const auto j = nlohmann::json::parse(readFile(m_dir / "height.exr.json"));
    EXPECT_EQ(j["width"], kWidth);
    EXPECT_EQ(j["height"], kHeight);
    EXPECT_EQ(j["sample"], "float32");
    EXPECT_EQ(j["unit"], "metre");
    EXPECT_EQ(j["orientation"]["first_row_edge"], "north");
    EXPECT_EQ(j["godot"]["north"], "-z");
    const auto& t3d = j["godot"]["terrain3d"];
    EXPECT_EQ(t3d["importer"]["height_file_name"], "height.exr");
    EXPECT_EQ(t3d["importer"]["import_scale"], 1.0);
    EXPECT_EQ(t3d["importer"]["height_offset"], 0.0);
    EXPECT_EQ(t3d["vertex_spacing"], 30.0);
}

// HTerrain's importer makes a square terrain of 2^n + 1 cells (65..4097) from the smaller of
// the two sides' next such size: 100 x 70 becomes 129 x 129, cropped or padded, and the sidecar
// says so; a 65 x 65 map fits as it is. EXR heights go in unscaled; cells are map_scale apart.
TEST_F(HeightExrTest, SidecarGivesHTerrainItsImportValues) {
    const auto j = nlohmann::json::parse(readFile(m_dir / "height.exr.json"));
    const auto& ht = j["godot"]["hterrain"];
    EXPECT_EQ(ht["import"]["heightmap"], "height.exr");
    EXPECT_EQ(ht["import"]["min_height"], -100.0);
    EXPECT_EQ(ht["import"]["max_height"], 900.0);
    EXPECT_EQ(ht["import"]["splatmap"], "") << "no splat map was asked for";
    EXPECT_EQ(ht["resolution"], 129);
    EXPECT_EQ(ht["size_fits"], false);
    EXPECT_THAT(ht["size_note"].get<std::string>(), HasSubstr("100 x 70 map to 129 x 129"));
    EXPECT_EQ(ht["map_scale"], nlohmann::json({30.0, 1.0, 30.0}));

    for (const auto& [width, height, resolution] :
         {std::tuple{65, 65, 65}, {66, 300, 129}, {10, 10, 65}}) {
        test::TempDir dir;
        Config config = exrConfig(dir.path());
        config.output.files.push_back(OutputFile::SplatPng);
        config.map.width = width;
        config.map.height = height;
        const Terrain terrain = test::testTerrain();
        test::writeOutputs(config, &terrain, nullptr,
                           test::classifiedMap(
                               width, height, [](std::int64_t, std::int64_t) { return 1.0F; },
                               [](std::int64_t c, std::int64_t) { return std::uint8_t(c % 3); },
                               terrain),
                           64);
        const auto other = nlohmann::json::parse(readFile(dir / "height.exr.json"));
        const auto& h = other["godot"]["hterrain"];
        EXPECT_EQ(h["resolution"], resolution) << width << " x " << height;
        EXPECT_EQ(h["size_fits"], width == resolution && height == resolution);
        EXPECT_EQ(h.contains("size_note"), !h["size_fits"].get<bool>());
        EXPECT_EQ(h["import"]["splatmap"], "splat_0.png");
    }
}

// What Godot 3.2's Image.load (headless) makes of the EXR at `exr`: its pixels' red channel,
// row by row, after checking that it loaded a kWidth x kHeight image without error. The files
// Godot writes go to `scratch`.
std::vector<float> godotPixels(const fs::path& exr, const fs::path& scratch) {
    EXPECT_EQ(test::runCommand("command -v godot3-server").exitCode, 0)
        << "godot3-server is not on PATH; scripts/deps.sh installs it (Debian package "
           "godot3-server)";
    const fs::path script = scratch / "load.gd";
    const fs::path out = scratch / "godot.bin";
    std::ofstream(script) << ("extends SceneTree\n"
                            "func _init():\n"
                            "\tvar img = Image.new()\n"
                            "\tvar err = img.load(\"" + exr.string() + "\")\n"
                            "\tvar f = File.new()\n"
                            "\tf.open(\"" + out.string() + "\", File.WRITE)\n"
                            "\tf.store_32(err)\n"
                            "\tf.store_32(img.get_width())\n"
                            "\tf.store_32(img.get_height())\n"
                            "\timg.lock()\n"
                            "\tfor y in range(img.get_height()):\n"
                            "\t\tfor x in range(img.get_width()):\n"
                            "\t\t\tf.store_float(img.get_pixel(x, y).r)\n"
                            "\timg.unlock()\n"
                            "\tf.close()\n"
                            "\tquit()\n");
    EXPECT_TRUE(fs::exists(script));
    // From the scratch directory, with HOME there too: Godot writes logs/godot.log under the
    // directory it runs in.
    const std::string command = "cd " + test::shellQuote(scratch.string()) + " && HOME=" +
                                test::shellQuote(scratch.string()) +
                                " godot3-server --no-window -s " +
                                test::shellQuote(script.string());
    const test::CommandResult r = test::runCommand(command);
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;

    const std::string bytes = readFile(out);
    if (bytes.size() != 12u + std::size_t(kWidth * kHeight) * 4u) {
        ADD_FAILURE() << "Godot wrote " << bytes.size() << " bytes\n" << r.out << r.err;
        return {};
    }
    std::vector<std::uint32_t> head(3);
    std::memcpy(head.data(), bytes.data(), 12);  // Godot writes little-endian, as this host
    EXPECT_EQ(head[0], 0u) << "Image.load's error";
    EXPECT_EQ(head[1], std::uint32_t(kWidth));
    EXPECT_EQ(head[2], std::uint32_t(kHeight));
    std::vector<float> godot(std::size_t(kWidth * kHeight));
    std::memcpy(godot.data(), bytes.data() + 12, godot.size() * 4);
    return godot;
}

// Godot reads EXR into RGBAH (half floats): each pixel must be the height.tif value to within
// a half float's step (Godot truncates to half, so up to one step below), and in the same place.
void expectGodotReadTheHeights(const fs::path& exr, const fs::path& scratch,
                               const std::vector<float>& tif) {
    const std::vector<float> godot = godotPixels(exr, scratch);
    ASSERT_EQ(godot.size(), tif.size());
    for (std::size_t i = 0; i < tif.size(); ++i) {
        // A half float keeps 11 significant bits: steps of 2^(e - 10) for |v| in [2^e, 2^(e+1)).
        const double v = tif[i];
        const double step = v == 0 ? 0x1p-24 : std::ldexp(1.0, std::ilogb(v) - 10);
        ASSERT_LE(std::abs(godot[i] - v), step)
            << "cell " << i % kWidth << ", " << i / kWidth << ": Godot " << godot[i]
            << ", height.tif " << v;
    }
}

TEST_F(HeightExrTest, GodotLoadsItWithImageLoad) {
    expectGodotReadTheHeights(m_dir / "height.exr", m_dir.path(),
                              test::readFloatTiff(m_dir / "height.tif"));
}

// output.exr_compression: PIZ and no compression hold the same floats as ZIP, say so in the
// header and the sidecar, and Godot and OpenEXR's tools read them.
TEST_F(HeightExrTest, EveryCompressionHoldsTheSameFloatsAndGodotReadsIt) {
    int w = 0, h = 0;
    const std::vector<float> zip = readExr(m_dir / "height.exr", "Y", &w, &h);
    const std::vector<float> tif = test::readFloatTiff(m_dir / "height.tif");
    for (const auto& [compression, name, imf] :
         {std::tuple{ExrCompression::Piz, "piz", Imf::PIZ_COMPRESSION},
          {ExrCompression::None, "none", Imf::NO_COMPRESSION}}) {
        SCOPED_TRACE(name);
        test::TempDir dir;
        Config config = exrConfig(dir.path());
        config.output.exrCompression = compression;
        test::writeOutputs(config, nullptr, nullptr, exrMap(), 32);
        const fs::path exr = dir / "height.exr";
        EXPECT_EQ(Imf::InputFile(exr.c_str()).header().compression(), imf);
        EXPECT_TRUE(readExr(exr, "Y", &w, &h) == zip) << "every float bit for bit";
        EXPECT_EQ(nlohmann::json::parse(readFile(dir / "height.exr.json"))["compression"], name);
        const test::CommandResult header =
            test::runCommand("exrheader " + test::shellQuote(exr.string()));
        EXPECT_THAT(header.out, HasSubstr(std::string("compression (type compression): ") + name));
        expectGodotReadTheHeights(exr, dir.path(), tif);
    }
}

}  // namespace
}  // namespace terragrid

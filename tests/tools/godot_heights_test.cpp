// What headless Godot 3 (Debian's godot3-server, 3.2.3) reads of the CLI's heightmaps: it
// turns height.exr's 32-bit floats into half floats (RGBH/RGBAH, 11 significant bits: steps of
// 0.5 m between 512 and 1024 m), so docs/engines.md sends Godot 3 users to height.r16, read
// with File.get_16 and height.r16.json's levels: every height of an eroded map (rivers.json,
// whose heights leave elevation.min..max) to within half a 16-bit step.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::shellQuote;

// The GDScript a Godot 3 project would use: height.r16 as little-endian 16-bit values, turned
// into metres with the sidecar's levels; and the format Image.load gives height.exr.
constexpr const char* kScript = R"(extends SceneTree
func _init():
	var meta = File.new()
	meta.open("DIR/out/height.r16.json", File.READ)
	var sidecar = parse_json(meta.get_as_text())
	meta.close()
	var low = sidecar["levels"]["value_0_m"]
	var step = sidecar["levels"]["metres_per_step"]
	var raw = File.new()
	raw.open("DIR/out/height.r16", File.READ)
	var out = File.new()
	out.open("DIR/godot.bin", File.WRITE)
	var img = Image.new()
	out.store_32(img.load("DIR/out/height.exr"))
	out.store_32(img.get_format())
	var cells = sidecar["width"] * sidecar["height"]
	for i in range(cells):
		out.store_double(low + raw.get_16() * step)
	raw.close()
	out.close()
	quit()
)";

TEST(GodotHeightsTest, Godot3ReadsHeightR16ToHalfAStepAndExrAsHalfFloats) {
    ASSERT_EQ(test::runCommand("command -v godot3-server").exitCode, 0)
        << "godot3-server is not on PATH; scripts/deps.sh installs it";
    test::TempDir dir;
    const std::string run = "cd " + shellQuote(dir.path().string()) + " && ";
    const auto r = test::runCommand(
        run + shellQuote(test::cliPath()) +
        " --config " + shellQuote((test::sourceDir() / "configs" / "rivers.json").string()) +
        " --width 65 --height 49 --seed 6 -q"
        " --set 'output.files=[\"height.tif\", \"height.r16\", \"height.exr\"]' --out-dir out");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::string script = kScript;
    for (std::size_t at = script.find("DIR"); at != std::string::npos; at = script.find("DIR"))
        script.replace(at, 3, dir.path().string());
    std::ofstream(dir / "read.gd") << script;
    // HOME in the scratch directory: Godot writes its logs under it.
    const auto godot = test::runCommand(run + "HOME=" + shellQuote(dir.path().string()) +
                                        " godot3-server --no-window -s read.gd");
    ASSERT_EQ(godot.exitCode, 0) << godot.out << godot.err;

    const std::vector<float> tif = test::readFloatTiff(dir / "out/height.tif");
    const std::string bytes = test::readFile(dir / "godot.bin");
    ASSERT_EQ(bytes.size(), 8 + tif.size() * 8) << godot.out << godot.err;
    std::int32_t head[2];
    std::memcpy(head, bytes.data(), 8);  // Godot writes little-endian, as this host
    EXPECT_EQ(head[0], 0) << "Image.load's error";
    // Godot 3.2's Image.Format: 12 RH, 13 RGH, 14 RGBH, 15 RGBAH (half floats); 8 RF.
    EXPECT_TRUE(head[1] == 14 || head[1] == 15) << "format " << head[1];
    const auto sidecar = nlohmann::json::parse(test::readFile(dir / "out/height.r16.json"));
    const double step = sidecar["levels"]["metres_per_step"].get<double>();
    EXPECT_LT(step, 0.03) << "the eroded map's range in 65535 steps";
    double worst = 0;
    for (std::size_t i = 0; i < tif.size(); ++i) {
        double metres = 0;
        std::memcpy(&metres, bytes.data() + 8 + 8 * i, 8);
        worst = std::max(worst, std::abs(metres - double(tif[i])));
    }
    EXPECT_LE(worst, step / 2 + 1e-9) << "Godot's heights against height.tif";
}

}  // namespace
}  // namespace terragrid

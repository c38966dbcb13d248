// The presets in configs/ (islands, archipelago, continent, desert, tileable, planet): each
// loads, runs at half resolution (the same world: twice the cell size) and draws the picture
// the README shows.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "terragrid/app/run.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

class PresetTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetTest, RunsAtHalfResolutionAndDrawsTheReadmePicture) {
    const std::string name = GetParam();
    const Config full = loadConfig((test::sourceDir() / "configs" / (name + ".json")).string());
    test::TempDir dir;
    // As data/README.md says the pictures were made.
    const Config half = loadConfig(
        (test::sourceDir() / "configs" / (name + ".json")).string(),
        {"map.width=" + std::to_string(full.map.width / 2),
         "map.height=" + std::to_string(full.map.height / 2),
         "map.cell_size=" + nlohmann::json(2 * full.map.groundCell()).dump(),
         "output.preview_max_size=512", R"(output.files=["preview.png"])",
         "output.directory=" + nlohmann::json(dir.path().string()).dump()});
    runMap(half);
    const test::PngImage made = test::readPng(dir / "preview.png");
    const test::PngImage shown =
        test::readPng(test::sourceDir() / "docs/images/presets" / (name + ".png"));
    EXPECT_EQ(made.width, shown.width);
    EXPECT_EQ(made.height, shown.height);
    EXPECT_TRUE(made.rgb == shown.rgb)
        << "regenerate docs/images/presets/" << name << ".png as data/README.md says";
}

INSTANTIATE_TEST_SUITE_P(Configs, PresetTest,
                         ::testing::Values("islands", "archipelago", "continent", "desert",
                                           "tileable", "planet", "rivers"),
                         [](const auto& info) { return info.param; });

TEST(PresetTest, EachShowsItsIdea) {
    const auto load = [](const std::string& name) {
        return loadConfig((test::sourceDir() / "configs" / (name + ".json")).string());
    };
    EXPECT_NE(load("islands").height.falloff.shape, Falloff::None);
    EXPECT_GT(load("islands").height.base.warp.amplitude, 0.0);
    EXPECT_NE(load("archipelago").height.falloff.shape, Falloff::None);
    const Config continent = load("continent");
    ASSERT_EQ(continent.height.layers.size(), 1u);
    EXPECT_EQ(continent.height.layers[0].noise.fractal, FractalKind::Ridged);
    EXPECT_EQ(continent.height.layers[0].mask, LayerMask::Base);
    EXPECT_GT(load("desert").terrain.desertBelow.coverage, 0.5);
    EXPECT_TRUE(load("tileable").map.wrap);
    EXPECT_EQ(load("planet").map.projection, Projection::Equirectangular);
}

}  // namespace
}  // namespace terragrid

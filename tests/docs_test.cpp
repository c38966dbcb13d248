// The README, the guide (docs/) and configs/ promise things the code must keep true.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "terragrid/config/loader.hpp"
#include "terragrid/app/run.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

std::string between(const std::string& text, const std::string& begin, const std::string& end) {
    const auto b = text.find(begin);
    const auto e = text.find(end);
    if (b == std::string::npos || e == std::string::npos || e < b) return "<markers missing>";
    return text.substr(b + begin.size(), e - b - begin.size());
}

TEST(DocsTest, GuideConfigReferenceMatchesTheOptionTable) {
    const std::string page = test::readFile(test::sourceDir() / "docs/config.md");
    EXPECT_EQ(between(page, "<!-- config-reference:begin -->\n", "<!-- config-reference:end -->"),
              optionReferenceMarkdown())
        << "regenerate the table with: terragrid --config-reference";
}

// The climate page's table of keys gives each key's default as configs/default.json has it.
TEST(DocsTest, ClimatePageKeysShowTheirDefaults) {
    const std::string page = test::readFile(test::sourceDir() / "docs/climate.md");
    const std::string table = between(page, "## Keys\n", "The [config reference]");
    const nlohmann::json defaults = nlohmann::json::parse(std::string(builtinConfigText()),
                                                          nullptr, true, true);
    int rows = 0;
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
        // | `key.path` | `default` | meaning |
        if (!line.starts_with("| `")) continue;
        const auto keyEnd = line.find('`', 3);
        const std::string key = line.substr(3, keyEnd - 3);
        const auto valueStart = line.find('`', keyEnd + 1) + 1;
        const auto valueEnd = line.find('`', valueStart);
        const nlohmann::json shown = nlohmann::json::parse(line.substr(valueStart, valueEnd - valueStart));
        std::string path = "/";
        for (const char c : key) path += c == '.' ? '/' : c;
        EXPECT_EQ(shown, defaults.at(nlohmann::json::json_pointer(path))) << key;
        ++rows;
    }
    EXPECT_GE(rows, 10);
}

TEST(DocsTest, ReadmeGivesTheTwoSetUpCommandsAndCiRunsTheTestOne) {
    const std::string readme = test::readFile(test::sourceDir() / "README.md");
    const std::string firstScreen = readme.substr(0, readme.find("\n## "));
    EXPECT_THAT(firstScreen, testing::HasSubstr("scripts/run.sh"));
    EXPECT_THAT(firstScreen, testing::HasSubstr("scripts/test.sh"));
    EXPECT_THAT(test::readFile(test::sourceDir() / ".ci/run"), testing::HasSubstr("scripts/test.sh"));
}

TEST(DocsTest, EveryShippedConfigLoads) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(test::sourceDir() / "configs")) {
        // schema.json describes configs; it is not one (SchemaTest checks it).
        if (entry.path().extension() != ".json" || entry.path().filename() == "schema.json")
            continue;
        ++count;
        EXPECT_NO_THROW(loadConfig(entry.path().string())) << entry.path();
    }
    EXPECT_GE(count, 2);
}

TEST(DocsTest, BuiltinDefaultIsConfigsDefaultJson) {
    EXPECT_EQ(std::string(builtinConfigText()),
              test::readFile(test::sourceDir() / "configs/default.json"));
}

TEST(DocsTest, ReadmePictureShowsTheCurrentDefaultMap) {
    // Made as data/README.md says; a changed default map must come with a new picture.
    test::TempDir dir;
    runMap(defaultConfig({"output.preview_max_size=512", R"(output.files=["preview.png"])",
                          "output.directory=" + nlohmann::json(dir.path().string()).dump()}));
    // Pixels, not bytes: the PNG encoder's compression settings may change, the map may not.
    const test::PngImage made = test::readPng(dir / "preview.png");
    const test::PngImage shown = test::readPng(test::sourceDir() / "docs/images/default-preview.png");
    EXPECT_EQ(made.width, shown.width);
    EXPECT_EQ(made.height, shown.height);
    EXPECT_TRUE(made.rgb == shown.rgb)
        << "regenerate docs/images/default-preview.png as data/README.md says";
}

}  // namespace
}  // namespace terragrid

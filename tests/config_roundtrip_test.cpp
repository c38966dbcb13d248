// What --print-config prints loads back (through the real CLI): every shipped config, printed
// resolved and validated again, gives the same resolved config. A planet printed its fixed
// map.origin and custom classes printed the default rules' thresholds, which validation then
// refused as having no effect.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> shippedConfigs() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(test::sourceDir() / "configs"))
        if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

class PrintConfigRoundTripTest : public testing::TestWithParam<std::string> {};

TEST_P(PrintConfigRoundTripTest, PrintedConfigLoadsBackToItself) {
    test::TempDir dir;
    const std::string cli = test::shellQuote(test::cliPath());
    const std::string source = (test::sourceDir() / "configs" / GetParam()).string();
    const auto printed = test::runCommand(cli + " --config " + test::shellQuote(source) +
                                          " --print-config");
    ASSERT_EQ(printed.exitCode, 0) << printed.err;
    std::ofstream(dir / "printed.json") << printed.out;
    const std::string again = test::shellQuote((dir / "printed.json").string());
    const auto valid = test::runCommand(cli + " validate " + again);
    EXPECT_EQ(valid.exitCode, 0) << valid.err;
    EXPECT_EQ(valid.err, "");
    const auto reprinted = test::runCommand(cli + " --config " + again + " --print-config");
    EXPECT_EQ(reprinted.exitCode, 0) << reprinted.err;
    EXPECT_EQ(reprinted.out, printed.out);
}

INSTANTIATE_TEST_SUITE_P(ShippedConfigs, PrintConfigRoundTripTest,
                         testing::ValuesIn(shippedConfigs()),
                         [](const testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param.substr(0, info.param.find('.'));
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

TEST(DuplicateKeyTest, CliRefusesAConfigGivingAKeyTwiceNamingBothLines) {
    test::TempDir dir;
    std::ofstream(dir / "dup.json") << "{\n  \"seed\": 5,\n  \"seed\": 6\n}\n";
    const auto r = test::runCommand(test::shellQuote(test::cliPath()) + " validate " +
                                    test::shellQuote((dir / "dup.json").string()));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "config: '" + (dir / "dup.json").string() +
                         "' sets 'seed' twice (line 2 and line 3); give each key once\n");
}

}  // namespace
}  // namespace terragrid

// Replays the config fuzzer's seed corpus (tests/fuzz/corpus) and every input it ever found a
// problem with (tests/fuzz/regressions) through parseConfig, exactly as the libFuzzer target
// does (tests/fuzz/fuzz_input.hpp), so the normal build and the sanitizer builds check them
// without clang or libFuzzer. Each input must give a Config that keeps the invariants, or a
// ConfigError; any other exception is a failure, and a crash or sanitizer report fails the run.

#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "terragrid/config/loader.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

/// The inputs in tests/fuzz/<folder>, sorted, leaving out notes (*.md).
std::vector<fs::path> inputsIn(const std::string& folder) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(test::sourceDir() / "tests/fuzz" / folder))
        if (entry.is_regular_file() && entry.path().extension() != ".md")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// Empty when `file` parses to a sound Config or is refused with a ConfigError; else what
/// went wrong.
std::string replay(const fs::path& file) {
    const std::string data = test::readFile(file);
    const auto input = fuzz::splitInput(data);
    try {
        const LoadedConfig config = parseConfig(input.text, "fuzz", input.overrides);
        if (const char* broken = fuzz::brokenInvariant(config))
            return std::string("accepted a config where ") + broken;
    } catch (const ConfigError&) {
    } catch (const std::exception& e) {
        return std::string("threw something other than ConfigError: ") + e.what();
    } catch (...) {
        return "threw something that is not a std::exception";
    }
    return {};
}

TEST(FuzzRegressionTest, SeedCorpusParsesOrIsRefused) {
    const auto files = inputsIn("corpus");
    EXPECT_GE(files.size(), 10u) << "the seed corpus is missing";
    for (const auto& file : files) EXPECT_EQ(replay(file), "") << file;
}

TEST(FuzzRegressionTest, EveryCrashFoundParsesOrIsRefused) {
    for (const auto& file : inputsIn("regressions")) EXPECT_EQ(replay(file), "") << file;
}

// The split the fuzzer relies on: text, then one override per line after "--set".
TEST(FuzzRegressionTest, InputSplitsIntoTextAndOverrides) {
    const auto plain = fuzz::splitInput("{\"seed\": 1}");
    EXPECT_EQ(plain.text, "{\"seed\": 1}");
    EXPECT_TRUE(plain.overrides.empty());
    const auto split = fuzz::splitInput("{}\n--set\na.b=1\n\nc=x");
    EXPECT_EQ(split.text, "{}");
    EXPECT_EQ(split.overrides, (std::vector<std::string>{"a.b=1", "", "c=x"}));
}

}  // namespace
}  // namespace terragrid

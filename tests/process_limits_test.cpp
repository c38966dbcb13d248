// The memory plan counts the process's own limits (process_limits.hpp): under a real `ulimit
// -v` or `ulimit -d` from a shell, a run that cannot fit is refused before it creates anything
// (exit 2) instead of dying of std::bad_alloc halfway.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace terragrid {
namespace {

struct LimitCase {
    const char* name;
    const char* ulimit;   ///< the shell's option
    const char* rlimit;   ///< how the message names it
};

class ProcessLimitTest : public testing::TestWithParam<LimitCase> {};

TEST_P(ProcessLimitTest, RunThatCannotFitIsRefusedBeforeCreatingAnything) {
    test::TempDir dir;
    // About 290 MiB; a map of 32768 x 8192 cells with every output plans about 420 MiB
    // (8192 x 8192 planned 350 MiB with previews of 2048 pixels, 204 MiB with 1024: the
    // writers and overviews grow with the width, the walkable regions with the area).
    const std::string everyFile = " --set " + test::shellQuote(test::everyFileOverride());
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) +
                                    " && ulimit " + GetParam().ulimit + " 300000 && " +
                                    test::shellQuote(test::cliPath()) +
                                    " -q --out-dir out --width 32768 --height 8192" + everyFile);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_THAT(r.err, testing::MatchesRegex(
                           "terragrid: error: the run needs up to [0-9.]+ [MG]iB of memory, but "
                           "only [0-9.]+ [KM]iB are available under the process's " +
                           std::string(GetParam().rlimit) + "; fewer threads, [^\n]*\n"));
    EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

INSTANTIATE_TEST_SUITE_P(
    AddressSpaceAndData, ProcessLimitTest,
    testing::Values(LimitCase{"AddressSpace", "-v", "ulimit -v \\(RLIMIT_AS\\)"},
                    LimitCase{"Data", "-d", "ulimit -d \\(RLIMIT_DATA\\)"}),
    [](const testing::TestParamInfo<LimitCase>& info) { return info.param.name; });

}  // namespace
}  // namespace terragrid

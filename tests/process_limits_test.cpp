// The memory plan counts the process's own limits (process_limits.hpp): under a real `ulimit
// -v` or `ulimit -d` from a shell, a run that cannot fit is refused before it creates anything
// (exit 2) instead of dying of std::bad_alloc halfway; a run the plan lets start does not die
// of the address space its threads and malloc's arenas reserve (issue 31, item 4); and an
// allocation that fails all the same (a limit lowered under a running process with prlimit)
// ends the run with a sentence and exit 1, the older outputs as they were.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
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


/// Every output but the water ones, as the run had them (height.exr starts OpenEXR's
/// thread pool: more threads, more stacks).
using test::everyFileOption;

TEST(AddressSpaceLimitTest, ARunThePlanLetsStartDoesNotDieOfItsThreadsAddressSpace) {
    // From a limit the plan refuses to one far above it, in steps: every run is refused
    // before it starts (exit 2, nothing created) or succeeds; none dies halfway. Before malloc
    // was kept to one arena under RLIMIT_AS, runs of this map died of std::bad_alloc at 230,
    // 290 and 300 MiB (each arena a thread starts reserves 64 MiB of address space, and
    // which thread got one first decided whether the previews still fitted).
    test::TempDir dir;
    int refused = 0, made = 0;
    for (int mib = 150; mib <= 330; mib += 10) {
        const auto r = test::runCommand(
            "cd " + test::shellQuote(dir.path().string()) + " && ulimit -v " +
            std::to_string(mib * 1024) + " && " + test::shellQuote(test::cliPath()) +
            " -q --out-dir out --width 512 --height 512 --threads 2" + everyFileOption());
        if (r.exitCode == 2) {
            ++refused;
            EXPECT_THAT(r.err, testing::StartsWith("terragrid: error: the run needs up to "))
                << mib << " MiB";
            EXPECT_FALSE(std::filesystem::exists(dir / "out")) << mib << " MiB";
            EXPECT_EQ(made, 0) << mib << " MiB: refused above a limit that let a run through";
        } else {
            ++made;
            EXPECT_EQ(r.exitCode, 0) << mib << " MiB: " << r.err;
            std::filesystem::remove_all(dir / "out");
        }
    }
    // The sweep spans the plan's edge.
    EXPECT_GT(refused, 0);
    EXPECT_GT(made, 10);
}

/// VmSize of process `pid` in KiB, 0 when it cannot be read.
std::uint64_t vmSizeKiB(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("VmSize:")) return std::stoull(line.substr(7));
    return 0;
}

TEST(AddressSpaceLimitTest, AnAllocationThatFailsMidRunEndsItWithASentenceAndTheOlderOutputs) {
    // The limit lowered under a running process (prlimit, as an administrator would) to what
    // it has mapped: the plan let the run start, and its next large allocation fails.
    test::TempDir dir;
    const std::vector<std::string> args{"--out-dir", "out", "--width", "3072", "--height",
                                        "3072", "--threads", "2", "-q"};
    ASSERT_EQ(test::runChild({dir.path(), {"--out-dir", "out", "--width", "64", "--height",
                                           "64", "-q"}})
                  .exit.shellCode(),
              0);
    const auto older = test::snapshotDir(dir / "out");
    test::Child child({dir.path(), args});
    // Once its staging folder exists, the plan has passed and the tiles are being made.
    const std::string staging = ".terragrid-tmp-" + std::to_string(child.pid());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(dir / "out" / staging) &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(std::filesystem::exists(dir / "out" / staging));
    const std::uint64_t limit = (vmSizeKiB(child.pid()) + 1024) * 1024;
    const auto prlimit = test::runCommand("prlimit --pid " + std::to_string(child.pid()) +
                                          " --as=" + std::to_string(limit));
    ASSERT_EQ(prlimit.exitCode, 0) << prlimit.err;
    const test::ChildExit exit = child.wait();
    EXPECT_EQ(exit.shellCode(), 1) << child.err();
    EXPECT_THAT(child.err(),
                testing::MatchesRegex("terragrid: error: out of memory: an allocation failed "
                                      "under the process's ulimit -v \\(RLIMIT_AS\\) of "
                                      "[0-9.]+ MiB; nothing was replaced, older files are as "
                                      "they were \\(fewer threads, [^\n]*\\)\n"));
    // The older set as it was, and no staging folder or lock left.
    EXPECT_EQ(test::snapshotDir(dir / "out"), older);
}

}  // namespace
}  // namespace terragrid

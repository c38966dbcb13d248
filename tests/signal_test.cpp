// SIGINT and SIGTERM during a long run (stop_signals.hpp): terragrid stops within a moment,
// removes its temporary files, leaves older outputs as they were and ends by the signal, so a
// shell sees 128 + its number.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using testing::HasSubstr;

bool hasTemporaryFile(const fs::path& directory) {
    const auto names = test::listDir(directory);
    return std::any_of(names.begin(), names.end(),
                       [](const std::string& name) { return name.starts_with("."); });
}

std::vector<std::string> runArgs(int size) {
    return {"--width", std::to_string(size), "--height", std::to_string(size), "--threads", "2",
            "--out-dir", "out", "--progress", "none", "-q"};
}

class SignalTest : public testing::TestWithParam<int> {};

TEST_P(SignalTest, StopsABigRunPromptlyRemovingTemporaryFiles) {
    const int sig = GetParam();
    test::TempDir dir;
    // Older outputs of every file, which the stopped run must leave as they were.
    ASSERT_EQ(test::runChild({dir.path(), runArgs(64)}).exit.shellCode(), 0);
    const auto older = test::snapshotDir(dir / "out");

    // Every default output of 8192 x 8192 cells: a run of half a minute or more.
    test::Child child({dir.path(), runArgs(8192)});
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (!hasTemporaryFile(dir / "out") && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(hasTemporaryFile(dir / "out")) << "no temporary file appeared";
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // well into the tiles

    const auto sent = Clock::now();
    child.signal(sig);
    const test::ChildExit exit = child.wait();
    const auto stopMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent).count();
    RecordProperty("stop_ms", std::to_string(stopMs));

    EXPECT_TRUE(exit.signalled) << "exit code " << exit.code << "\n" << child.err();
    EXPECT_EQ(exit.shellCode(), 128 + sig);
    EXPECT_LT(stopMs, 5000);
    EXPECT_THAT(child.err(), testing::MatchesRegex("terragrid: stopped by SIG(INT|TERM); "
                                                   "removed [1-9][0-9]* temporary files\n"));
    EXPECT_THAT(child.err(), HasSubstr(sig == SIGINT ? "SIGINT" : "SIGTERM"));
    EXPECT_TRUE(test::snapshotDir(dir / "out") == older)
        << testing::PrintToString(test::listDir(dir / "out"));
}

INSTANTIATE_TEST_SUITE_P(IntAndTerm, SignalTest, testing::Values(SIGINT, SIGTERM),
                         [](const testing::TestParamInfo<int>& info) {
                             return info.param == SIGINT ? std::string("SIGINT")
                                                         : std::string("SIGTERM");
                         });

}  // namespace
}  // namespace terragrid

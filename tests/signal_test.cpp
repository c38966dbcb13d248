// Signals during a run (stop_signals.hpp). Every terminating signal sent during a long run:
// terragrid stops within a moment, removes its temporary files, leaves older outputs as they
// were and ends by the signal, so a shell sees 128 + its number. SIGPIPE and SIGXFSZ, under
// the conditions a real shell creates (a pipe whose reader exits, `ulimit -f`), fail the write
// that caused them instead.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
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

std::string signalName(int sig) { return std::string("SIG") + ::sigabbrev_np(sig); }

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
    EXPECT_THAT(child.err(), testing::MatchesRegex("terragrid: stopped by SIG[A-Z0-9]+; "
                                                   "removed [1-9][0-9]* temporary files\n"));
    EXPECT_THAT(child.err(), HasSubstr("stopped by " + signalName(sig) + ";"));
    // No temporary file, staging folder or lock file: the older outputs and nothing else.
    EXPECT_TRUE(test::snapshotDir(dir / "out") == older)
        << testing::PrintToString(test::listDir(dir / "out"));
}

// Every asynchronous signal whose default action ends the process, as `kill -s` sends it.
INSTANTIATE_TEST_SUITE_P(EveryTerminatingSignal, SignalTest,
                         testing::Values(SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
                                         SIGALRM, SIGVTALRM, SIGPROF),
                         [](const testing::TestParamInfo<int>& info) {
                             return signalName(info.param);
                         });

std::string shellIn(const test::TempDir& dir) {
    return "cd " + test::shellQuote(dir.path().string()) + " && ";
}

/// A run of `size` cells a side into out/ writing height.r16 and stats.json.
std::string smallRun(int size, int seed) {
    return test::shellQuote(test::cliPath()) + " -q --out-dir out --width " +
           std::to_string(size) + " --height " + std::to_string(size) +
           " --tile-size 64 --threads 2 --seed " + std::to_string(seed) +
           " --set 'output.files=[\"height.r16\", \"stats.json\"]'";
}

TEST(WriteSignalTest, ProgressIntoAPipeClosedByItsReaderDoesNotStopTheRun) {
    // The case: head exits after 50 bytes; the progress lines after it meet EPIPE.
    // 1024 tiles of JSON progress overflow the pipe's buffer, so some surely do.
    test::TempDir dir;
    const auto r = test::runCommand(
        shellIn(dir) + "{ " + smallRun(2048, 2) + " --progress json 2>&1 >/dev/null; echo $? " +
        "> code; } | head -c 50");
    EXPECT_EQ(r.out.size(), 50u);
    EXPECT_EQ(test::readFile(dir / "code"), "0\n");
    EXPECT_EQ(test::listDir(dir / "out"),
              (std::vector<std::string>{"height.r16", "height.r16.json", "manifest.json",
                                        "stats.json"}));
    EXPECT_EQ(fs::file_size(dir / "out/height.r16"), 2048u * 2048u * 2u);
}

TEST(WriteSignalTest, FileSizeLimitOfARealShellFailsTheWriteAndKeepsOlderOutputs) {
    // dash's `ulimit -f` counts 512-byte blocks: 64 KiB, less than the 128 KiB height.r16.
    test::TempDir dir;
    ASSERT_EQ(test::runCommand(shellIn(dir) + smallRun(256, 1)).exitCode, 0);
    const auto older = test::snapshotDir(dir / "out");
    const auto r = test::runCommand(shellIn(dir) + "ulimit -f 128 && " + smallRun(256, 2));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, testing::MatchesRegex("terragrid: error: writing 'out/height.r16': File "
                                             "too large\n"));
    EXPECT_TRUE(test::snapshotDir(dir / "out") == older)
        << testing::PrintToString(test::listDir(dir / "out"));
}

}  // namespace
}  // namespace terragrid

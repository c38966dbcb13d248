// The outputs of a run are one transaction on their directory (io/transaction/output_transaction.hpp),
// through the real CLI: a directory in the way of any output name, a failure or a SIGKILL at
// each step of the commit (TERRAGRID_FAULT_INJECT, the documented test hook), SIGKILL during
// generation, and two runs into one directory. After each, the directory holds the older set
// or the new set entirely (the seeds inside stats.json and height.tif say which), and no
// stray file: no staging folder, no lock file, no temporary file.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "sanitizer_build.hpp"
#include "terragrid/app/plan.hpp"
#include "terragrid/app/run.hpp"
#include "terragrid/config/loader.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using testing::MatchesRegex;

/// Every output but the chunked Tiled export.
const std::string kTenFiles = "[\"height.tif\", \"classes.tif\", \"walkable.tif\", "
                              "\"preview.png\", \"height.png\", \"stats.json\", \"height.r16\", "
                              "\"height16.png\", \"height16.tif\", \"map.tmj\"]";

/// The files a run of runCommandLine writes, as its plan counts them (PlannedOutput::files:
/// classes.tif with its .aux.xml, each PNG with its world file and GDAL sidecar, ...) and
/// manifest.json (output.manifest, on by default): 23 at the time of writing.
int fileCount() {
    static const int count = [] {
        const Config config = defaultConfig({"map.width=32", "map.height=32",
                                             "output.files=" + kTenFiles});
        const RunPlan plan = planRun(config, MapWindow{wholeMap(config.map), std::nullopt}, 2);
        int files = plan.manifestPath.empty() ? 0 : 1;
        for (const PlannedOutput& o : plan.outputs) files += static_cast<int>(o.files);
        return files;
    }();
    return count;
}

std::string runCommandLine(int size, int seed, const std::string& files = kTenFiles) {
    return test::shellQuote(test::cliPath()) + " -q --out-dir out --width " +
           std::to_string(size) + " --height " + std::to_string(size) +
           " --tile-size 32 --threads 2 --seed " + std::to_string(seed) +
           " --set " + test::shellQuote("output.files=" + files);
}

/// The seed stats.json and height.tif of `directory` were made with (both must agree).
std::string seedOf(const fs::path& directory) {
    const auto stats = nlohmann::json::parse(test::readFile(directory / "stats.json"));
    const std::string seed = std::to_string(stats.at("seed").get<std::uint64_t>());
    const std::string tif = test::readFile(directory / "height.tif");
    EXPECT_NE(tif.find("<Item name=\"TERRAGRID_SEED\">" + seed + "</Item>"), std::string::npos)
        << "height.tif is not of seed " << seed;
    return seed;
}

class TransactionTest : public testing::Test {
protected:
    /// Runs `command` in the scratch directory through /bin/sh.
    test::CommandResult sh(const std::string& command) const {
        return test::runCommand("cd " + test::shellQuote(m_dir.path().string()) + " && " +
                                command);
    }

    /// out/ holding every file of seed 1, which later runs must leave whole or replace whole.
    void makeOlderSet() {
        const auto r = sh(runCommandLine(32, 1));
        ASSERT_EQ(r.exitCode, 0) << r.err;
        m_older = test::snapshotDir(out());
        ASSERT_EQ(m_older.size(), std::size_t(fileCount()));
    }

    fs::path out() const { return m_dir / "out"; }

    void expectOlderSet() const {
        EXPECT_TRUE(test::snapshotDir(out()) == m_older)
            << testing::PrintToString(test::listDir(out()));
    }

    /// The complete set of `seed`, with the names of the older set and nothing else.
    void expectNewSet(const std::string& seed) const {
        std::vector<std::string> names;
        for (const auto& [name, bytes] : m_older) names.push_back(name);
        EXPECT_EQ(test::listDir(out()), names);
        EXPECT_EQ(seedOf(out()), seed);
    }

    test::TempDir m_dir;
    std::map<std::string, std::string> m_older;
};

// --- a directory in the way ------------------------------------------------------------------

class DirectoryInTheWayTest : public TransactionTest,
                              public testing::WithParamInterface<std::string> {};

TEST_P(DirectoryInTheWayTest, RefusesTheRunAndTouchesNothing) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const std::string& name = GetParam();
    fs::remove(out() / name);
    fs::create_directory(out() / name);
    auto expected = test::snapshotDir(out());
    const auto r = sh(runCommandLine(32, 2));
    // Seen by the plan (exit 2) where it knows the name; the tilesets of the blocked layer
    // are met by the commit, before it moves anything (exit 1).
    const bool byPlan = !name.starts_with("blocked.");
    EXPECT_EQ(r.exitCode, byPlan ? 2 : 1) << r.err;
    EXPECT_EQ(r.err, byPlan ? "terragrid: error: output 'out/" + name +
                                  "' cannot be replaced: a directory is in the way (remove it, "
                                  "or give another output.directory)\n"
                            : "terragrid: error: writing 'out/" + name +
                                  "': a directory is in the way\n");
    EXPECT_TRUE(fs::is_directory(out() / name));
    // The older set as it was (the seeds inside it with it), and nothing else.
    EXPECT_TRUE(test::snapshotDir(out()) == expected)
        << testing::PrintToString(test::listDir(out()));
}

INSTANTIATE_TEST_SUITE_P(
    EveryOutputName, DirectoryInTheWayTest,
    testing::Values("height.tif", "classes.tif", "classes.tif.aux.xml", "walkable.tif",
                    "preview.png", "height.png",
                    "stats.json", "height.r16", "height.r16.json", "height16.png",
                    "height16.tif", "map.tmj", "terrain.tsj", "terrain.png", "blocked.tsj",
                    "blocked.png", "manifest.json"),
    [](const testing::TestParamInfo<std::string>& info) {
        std::string name = info.param;
        for (char& c : name)
            if (c == '.') c = '_';
        return name;
    });

// --- a failure or a kill at each step of the commit ---------------------------------------

// Steps: the older files moved aside, the new ones moved in, the journal removed.
int commitSteps() { return 2 * fileCount() + 1; }

class CommitStepTest : public TransactionTest, public testing::WithParamInterface<int> {};

TEST_P(CommitStepTest, FailureRollsBackToTheOlderSet) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const int step = GetParam();
    const auto r = sh("TERRAGRID_FAULT_INJECT=commit-fail:" + std::to_string(step) + " " +
                      runCommandLine(32, 2));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, MatchesRegex("terragrid: error: writing 'out/[^']+': Input/output error; "
                                    "no file of the run was put in place and every older "
                                    "output is as it was\n"));
    expectOlderSet();
}

TEST_P(CommitStepTest, KillIsRolledBackByTheNextRun) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const int step = GetParam();
    const auto killed = sh("TERRAGRID_FAULT_INJECT=commit-kill:" + std::to_string(step) + " " +
                           runCommandLine(32, 2));
    ASSERT_EQ(killed.exitCode, 128 + SIGKILL) << killed.err;
    // The next run restores the older set first: a run that then fails its own commit
    // leaves exactly that.
    const auto failing = sh("TERRAGRID_FAULT_INJECT=commit-fail:1 " + runCommandLine(32, 3));
    EXPECT_EQ(failing.exitCode, 1) << failing.err;
    expectOlderSet();
    // And one that succeeds leaves its own set alone.
    const auto next = sh(runCommandLine(32, 3));
    EXPECT_EQ(next.exitCode, 0) << next.err;
    expectNewSet("3");
}

TEST_P(CommitStepTest, RealSignalBeforeTheCommitPointRestoresTheOlderSet) {
    // The hook sends the process a real SIGTERM just before the step and waits until the
    // signal watcher has it: the commit meets the stop at that step and rolls back.
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const auto r = sh("TERRAGRID_FAULT_INJECT=commit-signal:" + std::to_string(GetParam()) +
                      " " + runCommandLine(32, 2));
    EXPECT_EQ(r.exitCode, 128 + SIGTERM) << r.err;
    // Before the last steps every new file was moved in, and the rollback replaced them all.
    EXPECT_THAT(r.err, MatchesRegex("terragrid: stopped by SIGTERM; removed [0-9]+ temporary "
                                    "files?\n"));
    // The older set, and no lock file or staging folder.
    expectOlderSet();
}

// Every step. Under AddressSanitizer a sample: the first two steps, the last file moved aside
// and the first moved in, the middle, and the last two (the last file moved in, the journal's
// removal): every branch of the commit and of its rollback, without the 40 other steps that
// repeat them (141 tests of 1.7 s each under ASan, an eighth of that suite's time).
std::vector<int> commitStepsToCheck() {
    const int steps = commitSteps();
    const int files = fileCount();
    std::vector<int> chosen;
    for (int step = 1; step <= steps; ++step) {
        const bool sampled = step <= 2 || step == files || step == files + 1 ||
                             step == steps / 2 || step >= steps - 1;
        if (!test::kAddressSanitizer || sampled) chosen.push_back(step);
    }
    return chosen;
}

INSTANTIATE_TEST_SUITE_P(EveryStep, CommitStepTest, testing::ValuesIn(commitStepsToCheck()));

TEST_F(TransactionTest, RealSignalJustAfterTheCommitPointKeepsTheNewSetAndSaysSo) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const auto r = sh("TERRAGRID_FAULT_INJECT=commit-signal:" + std::to_string(commitSteps() + 1) +
                      " " + runCommandLine(32, 2));
    EXPECT_EQ(r.exitCode, 128 + SIGTERM) << r.err;
    // How many of the older files the clean-up had removed before it saw the signal depends on
    // the scheduler (under load it can be all of them), so the count is any number.
    EXPECT_THAT(r.err, MatchesRegex("terragrid: stopped by SIGTERM; removed [0-9]+ "
                                    "temporary files; the run's outputs were committed before "
                                    "the signal and are in place\n"));
    expectNewSet("2");
}

TEST_F(TransactionTest, KillJustAfterTheCommitPointKeepsTheNewSet) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const auto killed = sh("TERRAGRID_FAULT_INJECT=commit-kill:" +
                           std::to_string(commitSteps() + 1) + " " + runCommandLine(32, 2));
    ASSERT_EQ(killed.exitCode, 128 + SIGKILL) << killed.err;
    // The staging folder with the older files and the lock file stay until the next run, which
    // keeps the new set and removes them.
    const auto next = sh("TERRAGRID_FAULT_INJECT=commit-fail:1 " + runCommandLine(32, 3));
    EXPECT_EQ(next.exitCode, 1) << next.err;
    expectNewSet("2");
}

// --- real signals at any moment around the commit ------------------------------------------

/// Whether the process `pid` (a child not yet waited for) is still running.
bool isRunning(pid_t pid) {
    const std::string stat = test::readFile("/proc/" + std::to_string(pid) + "/stat");
    const auto end = stat.rfind(") ");
    return end != std::string::npos && end + 2 < stat.size() && stat[end + 2] != 'Z';
}

bool isPresent(const fs::path& path) {
    std::error_code error;
    return fs::exists(fs::symlink_status(path, error));
}

/// The child's staging folder's journal: present from the start of its commit to its commit
/// point.
fs::path journalOf(const fs::path& out, const test::Child& child) {
    return out / (".terragrid-tmp-" + std::to_string(child.pid())) / "journal";
}

/// Waits (spinning: the commit is a matter of milliseconds) while `condition` holds, the child
/// runs and 30 s have not passed.
template <typename Condition>
void spinWhile(const test::Child& child, Condition condition) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (condition() && isRunning(child.pid()) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
}

TEST_F(TransactionTest, RealSignalsAroundTheCommitLeaveTheSetItsCommitPointDecidesAndNoLock) {
    // Runs signalled with SIGTERM from outside at moments spread over their commit and what
    // follows it: from the journal's appearance (the commit begins) to a little after the
    // process would have ended, as measured on unsignalled runs (the commit's length depends
    // on the disk and the load). Whenever it lands, the directory holds one whole set and
    // nothing else (no lock file, no staging folder), the older one unless the run passed its
    // commit point, and the run says which.
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    std::map<std::string, std::map<std::string, std::string>> sets{
        {"1", test::withoutTimings(m_older)}};
    {
        const auto r = sh("mkdir reference && cd reference && " + runCommandLine(32, 2));
        ASSERT_EQ(r.exitCode, 0) << r.err;
        sets["2"] = test::withoutTimings(test::snapshotDir(m_dir / "reference/out"));
    }
    std::vector<std::string> names;
    for (const auto& [name, bytes] : m_older) names.push_back(name);
    std::string current = "1";
    const auto start = [&] {
        return std::make_unique<test::Child>(test::ChildSetup{
            m_dir.path(),
            {"-q", "--out-dir", "out", "--width", "32", "--height", "32", "--tile-size", "32",
             "--threads", "2", "--seed", current == "1" ? "2" : "1", "--set",
             "output.files=" + kTenFiles}});
    };
    // From the journal's appearance to the end of the process, unsignalled: the median of 3.
    std::vector<std::chrono::microseconds> spans;
    for (int run = 0; run < 3; ++run) {
        const auto child = start();
        const fs::path journal = journalOf(out(), *child);
        spinWhile(*child, [&] { return !isPresent(journal); });
        const auto begun = std::chrono::steady_clock::now();
        spinWhile(*child, [] { return true; });
        spans.push_back(std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - begun));
        ASSERT_EQ(child->wait().shellCode(), 0) << child->err();
        current = current == "1" ? "2" : "1";
    }
    std::sort(spans.begin(), spans.end());
    RecordProperty("commit_to_exit_us", std::to_string(spans[1].count()));

    constexpr int kRuns = 20;
    std::map<std::string, int> outcomes;
    for (int run = 0; run < kRuns; ++run) {
        const std::string seed = current == "1" ? "2" : "1";
        const auto child = start();
        const fs::path journal = journalOf(out(), *child);
        spinWhile(*child, [&] { return !isPresent(journal); });
        std::this_thread::sleep_for(spans[1] * 5 / 4 * run / kRuns);
        child->signal(SIGTERM);
        const test::ChildExit exit = child->wait();
        const std::string err = child->err();
        ASSERT_TRUE(exit.shellCode() == 0 || exit.shellCode() == 128 + SIGTERM)
            << exit.shellCode() << "\n" << err;
        const bool committed =
            exit.shellCode() == 0 || err.find("were committed before the signal") != std::string::npos;
        ASSERT_EQ(test::listDir(out()), names) << "run " << run << "\n" << err;
        const std::string found = seedOf(out());
        EXPECT_EQ(found, committed ? seed : current) << "run " << run << "\n" << err;
        ASSERT_TRUE(test::withoutTimings(test::snapshotDir(out())) == sets[found])
            << "run " << run << " left a mixed set";
        current = found;
        ++outcomes[exit.shellCode() == 0 ? "exit 0" : committed ? "stopped, new set"
                                                                 : "stopped, older set"];
    }
    for (const auto& [outcome, count] : outcomes) RecordProperty(outcome, count);
}

TEST_F(TransactionTest, CommitWithoutAFaultReplacesTheWholeSet) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    // A step past the last one: the hook is read, and nothing fails.
    const auto r = sh("TERRAGRID_FAULT_INJECT=commit-fail:" + std::to_string(commitSteps() + 1) +
                      " " + runCommandLine(32, 2));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    expectNewSet("2");
}

TEST_F(TransactionTest, FailedFirstCommitIntoAnEmptyDirectoryLeavesItEmpty) {
    for (int step = 1; step <= fileCount() + 1; ++step) {
        const auto r = sh("TERRAGRID_FAULT_INJECT=commit-fail:" + std::to_string(step) + " " +
                          runCommandLine(32, 2));
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_EQ(test::listDir(out()), std::vector<std::string>{}) << "step " << step;
    }
}

// --- SIGKILL during generation ----------------------------------------------------------------

bool hasStagedFile(const fs::path& out) {
    if (!fs::exists(out)) return false;
    for (const auto& entry : fs::directory_iterator(out))
        if (entry.path().filename().string().starts_with(".terragrid-tmp-") &&
            !fs::is_empty(entry.path()))
            return true;
    return false;
}

TEST_F(TransactionTest, RunKilledDuringGenerationIsCleanedUpByTheNextRun) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    test::Child child({m_dir.path(), {"--width", "4096", "--height", "4096", "--threads", "2",
                                      "--out-dir", "out", "--seed", "2", "-q"}});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!hasStagedFile(out()) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(hasStagedFile(out())) << "no staged file appeared";
    child.signal(SIGKILL);
    EXPECT_EQ(child.wait().shellCode(), 128 + SIGKILL);
    // What SIGKILL leaves: the staging folder with its files, the lock file.
    EXPECT_GT(test::listDir(out()).size(), std::size_t(fileCount()));

    const auto next = sh(runCommandLine(32, 3));
    EXPECT_EQ(next.exitCode, 0) << next.err;
    expectNewSet("3");
}

// --- two runs into one directory --------------------------------------------------------------

class ConcurrentRunsTest : public TransactionTest,
                           public testing::WithParamInterface<std::pair<int, int>> {};

TEST_P(ConcurrentRunsTest, SecondRunFailsAtOnceNamingTheFirstAndTheSetStaysWhole) {
    ASSERT_NO_FATAL_FAILURE(makeOlderSet());
    const auto [firstSeed, secondSeed] = GetParam();
    // A run of seconds, holding the lock throughout.
    test::Child first({m_dir.path(), {"--width", "4096", "--height", "4096", "--threads", "1",
                                      "--out-dir", "out", "--seed", std::to_string(firstSeed),
                                      "-q", "--set",
                                      "output.files=[\"height.tif\", \"stats.json\"]"}});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (test::readFile(out() / ".terragrid.lock").empty() &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_EQ(test::readFile(out() / ".terragrid.lock"), std::to_string(first.pid()) + "\n");

    const auto second = sh(runCommandLine(32, secondSeed, "[\"height.tif\", \"stats.json\"]"));
    EXPECT_EQ(second.exitCode, 1) << second.err;
    EXPECT_EQ(second.err, "terragrid: error: output directory 'out' is in use by another "
                          "terragrid run (pid " + std::to_string(first.pid()) +
                          ", lock file 'out/.terragrid.lock'); wait for it to end or give "
                          "another --out-dir\n");

    EXPECT_EQ(first.wait().shellCode(), 0) << first.err();
    // The first run's set, whole: its two files and its manifest (listing those two)
    // replaced, the older others untouched.
    EXPECT_EQ(seedOf(out()), std::to_string(firstSeed));
    EXPECT_EQ(test::listDir(out()).size(), std::size_t(fileCount()));
    const auto manifest = nlohmann::json::parse(test::readFile(out() / "manifest.json"));
    std::vector<std::string> listed;
    for (const auto& file : manifest.at("files")) listed.push_back(file.at("name"));
    EXPECT_EQ(listed, (std::vector<std::string>{"height.tif", "stats.json"}));
    for (const auto& [name, bytes] : m_older) {
        if (name != "height.tif" && name != "stats.json" && name != "manifest.json") {
            EXPECT_TRUE(test::readFile(out() / name) == bytes) << name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(BothOrders, ConcurrentRunsTest,
                         testing::Values(std::pair{2, 3}, std::pair{3, 2}));

}  // namespace
}  // namespace terragrid

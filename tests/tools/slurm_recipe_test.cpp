// docs/shards.md's Slurm recipe, run as written on a real Slurm cluster (tools/slurm_cluster.hpp):
// the scripts are the guide's code blocks, taken from the page itself. The hydrology stage job,
// the shard array with --dependency=afterok, then the mosaic job make the single run's files,
// bit for bit; a shard task cancelled with scancel mid-run and requeued still leaves a complete
// mosaic; a stage job that fails keeps the array and the mosaic from starting.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tools/shards_recipe.hpp"
#include "tools/slurm_cluster.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;
using testing::Contains;
using testing::HasSubstr;

class SlurmRecipeTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_scripts = test::recipeScripts();
        for (const char* name : {"stage.sh", "shards.sh", "mosaic.sh", "submit.sh"})
            ASSERT_TRUE(m_scripts.contains(name)) << "docs/shards.md has no " << name;
        fs::create_directories(m_work);
        for (const auto& [name, text] : m_scripts)
            std::ofstream(m_work / name, std::ios::trunc) << text;
        std::ofstream(m_work / "map.json", std::ios::trunc) << test::recipeMap().dump(2);
        // A node of 16 CPUs: the array's tasks of 8 CPUs run two at a time, the rest wait.
        try {
            m_cluster.emplace(m_dir / "cluster", 16);
        } catch (const std::exception& e) {
            FAIL() << e.what();
        }
    }

    test::CommandResult sh(const std::string& command) { return m_cluster->run(m_work, command); }

    /// The id of the job whose script is `name` (an array's own id for shards.sh).
    std::string jobOf(const std::string& name) {
        const auto r = sh("squeue -h -t all --name=" + name + " -o %F | sort -u");
        return r.out.substr(0, r.out.find('\n'));
    }

    /// Whether every line of the job's states has `state` (and, if given, `reason`).
    bool allAre(const std::string& job, const std::string& state, const std::string& reason = "") {
        const auto lines = m_cluster->jobStates(job);
        for (const std::string& line : lines)
            if (line.find(" " + state + " " + reason) == std::string::npos) return false;
        return !lines.empty();
    }

    bool waitUntil(const std::function<bool()>& done, std::chrono::seconds timeout = 40s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!done()) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(50ms);
        }
        return true;
    }

    /// The mosaic in work/map holds the single run's bytes (the run made here, as a COG).
    void checkMosaicIsTheSingleRun() {
        const auto single = sh("terragrid --config map.json --set output.layout=cog -q "
                               "--out-dir single");
        ASSERT_EQ(single.exitCode, 0) << single.err;
        for (const std::string& file : test::recipeMosaickedFiles())
            EXPECT_TRUE(test::readFile(m_work / "map" / file) ==
                        test::readFile(m_work / "single" / file))
                << file;
        const auto verified = sh("terragrid verify map");
        EXPECT_EQ(verified.exitCode, 0) << verified.err;
        std::vector<std::int64_t> shards;
        for (int k = 0; k < 16; ++k) {
            const json m = json::parse(test::readFile(m_work / "shards" / std::to_string(k) /
                                                      "manifest.json"));
            EXPECT_EQ(m["shard"], (json{{"index", k}, {"count", 16}}));
        }
    }

    std::string states(const std::string& job) {
        std::string text;
        for (const std::string& line : m_cluster->jobStates(job)) text += line + "\n";
        return text;
    }

    test::TempDir m_dir;
    fs::path m_work = m_dir / "work";
    std::map<std::string, std::string> m_scripts;
    std::optional<test::SlurmCluster> m_cluster;
};

TEST_F(SlurmRecipeTest, StageThenShardArrayThenMosaicMakeTheSingleRun) {
    const auto submitted = sh("sh submit.sh");
    ASSERT_EQ(submitted.exitCode, 0) << submitted.err;
    const std::string stage = jobOf("stage.sh"), shards = jobOf("shards.sh"),
                      mosaic = jobOf("mosaic.sh");
    ASSERT_TRUE(m_cluster->waitForStates(mosaic, "COMPLETED FAILED CANCELLED"))
        << states(mosaic) << m_cluster->logs();
    EXPECT_TRUE(allAre(stage, "COMPLETED")) << states(stage);
    EXPECT_EQ(m_cluster->jobStates(shards).size(), 16u) << states(shards);
    EXPECT_TRUE(allAre(shards, "COMPLETED")) << states(shards);
    ASSERT_TRUE(allAre(mosaic, "COMPLETED")) << states(mosaic)
                                             << test::readFile(m_work / ("slurm-" + mosaic + ".out"));
    checkMosaicIsTheSingleRun();
}

TEST_F(SlurmRecipeTest, AShardTaskCancelledMidRunAndRequeuedLeavesACompleteMosaic) {
    ASSERT_EQ(sh("sh submit.sh").exitCode, 0);
    const std::string shards = jobOf("shards.sh"), mosaic = jobOf("mosaic.sh");
    // Catch a task mid-run: its output directory holds the staging folder of the run's
    // transaction, named after terragrid's pid. The run is frozen there (SIGSTOP) so that the
    // cancel lands while it runs, however fast the machine: scancel then sends SIGCONT and
    // SIGTERM (and SIGKILL after KillWait). A task that ends before it is caught is passed by.
    std::optional<std::string> cancelled;
    for (int k = 0; k < 16 && !cancelled; ++k) {
        const std::string task = shards + "_" + std::to_string(k);
        const fs::path dir = m_work / "shards" / std::to_string(k);
        pid_t pid = 0;
        const auto midRun = [&] {
            std::error_code ec;
            for (const auto& entry : fs::directory_iterator(dir, ec)) {
                const std::string name = entry.path().filename().string();
                if (name.starts_with(".terragrid-tmp-"))
                    pid = std::atoi(name.c_str() + std::strlen(".terragrid-tmp-"));
            }
            return pid > 0;
        };
        const auto deadline = std::chrono::steady_clock::now() + 40s;
        while (!midRun() && !allAre(task, "COMPLETED")) {
            ASSERT_LT(std::chrono::steady_clock::now(), deadline) << states(shards);
            std::this_thread::sleep_for(1ms);
        }
        if (pid == 0 || ::kill(pid, SIGSTOP) != 0) continue;
        ASSERT_EQ(sh("scancel " + task).exitCode, 0);
        ASSERT_TRUE(m_cluster->waitForStates(task, "COMPLETED CANCELLED FAILED")) << states(task);
        if (allAre(task, "CANCELLED")) cancelled = std::to_string(k);
    }
    ASSERT_TRUE(cancelled) << "no shard task was caught mid-run";
    const std::string task = shards + "_" + *cancelled;
    const fs::path piece = m_work / "shards" / *cancelled;
    // The piece is all there or not at all: terragrid stopped on the signal and removed what
    // it had staged, or (a commit already under way) finished its commit first.
    const bool complete = fs::exists(piece / "manifest.json");
    if (complete) {
        EXPECT_EQ(sh("terragrid verify shards/" + *cancelled).exitCode, 0);
    } else {
        for (const auto& entry : fs::directory_iterator(piece))
            EXPECT_THAT(entry.path().filename().string(), testing::StartsWith(".terragrid"))
                << "a file of a cancelled run is in place";
    }
    std::cout << "[ cancelled ] shard " << *cancelled << ": the piece is "
              << (complete ? "complete (its commit was under way)" : "absent") << "\n";
    // The others finish; the mosaic job waits, its dependency now never satisfied.
    ASSERT_TRUE(waitUntil([&] { return allAre(mosaic, "PENDING", "DependencyNeverSatisfied"); }))
        << states(mosaic);
    if (!complete) {
        const auto early = sh("terragrid mosaic shards/* --out-dir early");
        EXPECT_EQ(early.exitCode, 2);
        EXPECT_THAT(early.err, HasSubstr("'shards/" + *cancelled + "' has no manifest.json"));
    }
    // The recovery the guide gives: the task again, now; a new mosaic job after it.
    ASSERT_EQ(sh("scontrol requeue " + task).exitCode, 0) << states(task);
    ASSERT_EQ(sh("scontrol update JobId=" + task + " StartTime=now").exitCode, 0);
    ASSERT_EQ(sh("scancel " + mosaic).exitCode, 0);
    const auto again = sh("sbatch --parsable --dependency=afterok:" + task + " mosaic.sh");
    ASSERT_EQ(again.exitCode, 0) << again.err;
    const std::string mosaicAgain = again.out.substr(0, again.out.find('\n'));
    ASSERT_TRUE(m_cluster->waitForStates(mosaicAgain, "COMPLETED FAILED CANCELLED"))
        << states(mosaicAgain) << states(task);
    EXPECT_TRUE(allAre(task, "COMPLETED")) << states(task);
    EXPECT_THAT(sh("scontrol show job " + task).out, HasSubstr("Restarts=1"));
    ASSERT_TRUE(allAre(mosaicAgain, "COMPLETED")) << states(mosaicAgain);
    checkMosaicIsTheSingleRun();
}

TEST_F(SlurmRecipeTest, AFailedStageJobKeepsTheArrayAndTheMosaicFromStarting) {
    // The stage file cannot be written: a directory is in its way.
    fs::create_directories(m_work / "stage.tgh");
    ASSERT_EQ(sh("sh submit.sh").exitCode, 0);
    const std::string stage = jobOf("stage.sh"), shards = jobOf("shards.sh"),
                      mosaic = jobOf("mosaic.sh");
    ASSERT_TRUE(m_cluster->waitForStates(stage, "COMPLETED FAILED CANCELLED")) << states(stage);
    EXPECT_TRUE(allAre(stage, "FAILED")) << states(stage);
    ASSERT_TRUE(waitUntil([&] { return allAre(shards, "PENDING", "DependencyNeverSatisfied"); }))
        << states(shards);
    // Given time, still nothing runs.
    std::this_thread::sleep_for(1500ms);
    EXPECT_TRUE(allAre(shards, "PENDING", "DependencyNeverSatisfied")) << states(shards);
    EXPECT_TRUE(allAre(mosaic, "PENDING")) << states(mosaic);
    EXPECT_FALSE(fs::exists(m_work / "shards"));
    EXPECT_FALSE(fs::exists(m_work / "map"));
}

}  // namespace
}  // namespace terragrid

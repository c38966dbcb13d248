// The output directory is hostile ground (design.md principle 8), through the real CLI: an
// entry planted where a run makes its lock file, its staging folder or an output, by root or
// by another user in a world-writable directory (sticky, as /tmp, or not), never makes a run
// write, truncate, create or delete anything outside the directory, nor trust what it did not
// make. Each test plants one attack the issue found (or that the audit of the transaction
// did), runs terragrid as root, and checks every byte outside the output directory.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;

/// Who plants the entry, and in what kind of output directory.
struct Planter {
    std::string name;
    fs::perms directoryMode;
    bool otherUser;  ///< planted by "nobody" rather than by root
};

void PrintTo(const Planter& p, std::ostream* os) { *os << p.name; }

const Planter kRoot{"Root", fs::perms(0755), false};
const Planter kOtherUserWorldWritable{"OtherUserWorldWritable", fs::perms(0777), true};
const Planter kOtherUserSticky{"OtherUserSticky", fs::perms(01777), true};

const std::string kVictimBytes = "the victim's bytes, which no run may change\n";

/// Every entry under `root` but `skipped`, with what it is and holds, never following a
/// symbolic link: to show that nothing outside the output directory was written, truncated,
/// created or deleted.
std::map<std::string, std::string> snapshotTree(const fs::path& root, const fs::path& skipped) {
    std::map<std::string, std::string> entries;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
        const fs::path& path = it->path();
        if (path == skipped) {
            it.disable_recursion_pending();
            continue;
        }
        const std::string name = fs::relative(path, root).string();
        const auto status = fs::symlink_status(path);
        if (fs::is_symlink(status))
            entries[name] = "link to " + fs::read_symlink(path).string();
        else if (fs::is_regular_file(status))
            entries[name] = "file: " + test::readFile(path);
        else if (fs::is_directory(status))
            entries[name] = "directory";
        else
            entries[name] = "other";
    }
    return entries;
}

class HostileDirectoryTest : public testing::TestWithParam<Planter> {
protected:
    void SetUp() override {
        if (GetParam().otherUser) {
            m_user = test::unprivilegedUser();
            if (!m_user)
                GTEST_SKIP() << "cannot get another user's uid: the test is not root, or there "
                                "is no 'nobody' user";
            if (test::runCommand("command -v setpriv").exitCode != 0)
                GTEST_SKIP() << "cannot plant as another user: no setpriv (util-linux)";
        }
        // The directory that holds everything is readable by all, as /tmp's subfolders are,
        // so the other user reaches the shared output directory inside it.
        fs::permissions(m_root.path(), fs::perms(0755));
        fs::create_directory(shared());
        fs::permissions(shared(), GetParam().directoryMode);
        std::ofstream(m_root / "victim", std::ios::binary) << kVictimBytes;
        // A folder of files named as a staging folder's are.
        fs::create_directory(m_root / "victim-dir");
        for (const char* name : {"new-aaaaaa", "old-0", "journal", "journal.tmp", "keep.txt"})
            std::ofstream(m_root / "victim-dir" / name, std::ios::binary) << kVictimBytes;
    }

    fs::path shared() const { return m_root / "shared"; }

    /// The words that make the command after them run as the planter: none for root, setpriv
    /// to "nobody" otherwise.
    std::string planterPrefix() const {
        if (!GetParam().otherUser) return "";
        return "setpriv --reuid=" + std::to_string(m_user->uid) +
               " --regid=" + std::to_string(m_user->gid) + " --clear-groups ";
    }

    /// Runs the shell command `command` (in the scratch directory) as the planter.
    void plant(const std::string& command) const {
        const auto r = sh(planterPrefix() + "sh -c " + test::shellQuote(command));
        ASSERT_EQ(r.exitCode, 0) << "planting failed: " << command << "\n" << r.err;
    }

    test::CommandResult sh(const std::string& command) const {
        return test::runCommand("cd " + test::shellQuote(m_root.path().string()) + " && " +
                                command);
    }

    /// What everything outside the output directory is now.
    std::map<std::string, std::string> outside() const { return snapshotTree(m_root.path(), shared()); }

    /// A run of a small map into shared/, writing height.tif and stats.json.
    static std::string run(int seed = 2) {
        return test::shellQuote(test::cliPath()) + " -q --out-dir shared --width 32 --height 32" +
               " --tile-size 32 --threads 2 --seed " + std::to_string(seed) +
               " --set 'output.files=[\"height.tif\", \"stats.json\"]'";
    }

    /// shared/ holds the complete set of run(): both files, regular files, made by the run.
    void expectNewSet() const {
        for (const char* name : {"height.tif", "stats.json"}) {
            EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(shared() / name))) << name;
        }
        EXPECT_THAT(test::readFile(shared() / "stats.json"), HasSubstr("\"seed\": 2"));
        EXPECT_FALSE(fs::exists(shared() / ".terragrid.lock"));
    }

    test::TempDir m_root;
    std::optional<test::UserIds> m_user;
};

/// The refusal of a lock entry the run may not use, as the CLI prints it.
std::string lockRefusal(const std::string& kind) {
    return "terragrid: error: output directory 'shared' holds " + kind +
           " named '.terragrid.lock', the name of terragrid's lock file; terragrid does not "
           "follow, write or remove an entry it did not make (remove it, or give another "
           "output.directory)\n";
}

// --- the lock ----------------------------------------------------------------------------------

TEST_P(HostileDirectoryTest, LockSymlinkToAFileOutsideIsRefusedAndNothingIsTouched) {
    ASSERT_NO_FATAL_FAILURE(plant("ln -s ../victim shared/.terragrid.lock"));
    const auto before = outside();
    const auto inside = snapshotTree(shared(), {});
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, lockRefusal("a symbolic link"));
    EXPECT_EQ(outside(), before);
    EXPECT_EQ(snapshotTree(shared(), {}), inside);
}

TEST_P(HostileDirectoryTest, DanglingLockSymlinkCreatesNothing) {
    ASSERT_NO_FATAL_FAILURE(plant("ln -s ../made-by-the-run shared/.terragrid.lock"));
    const auto before = outside();
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, lockRefusal("a symbolic link"));
    EXPECT_FALSE(fs::exists(fs::symlink_status(m_root / "made-by-the-run")));
    EXPECT_EQ(outside(), before);
    EXPECT_EQ(test::listDir(shared()), std::vector<std::string>{".terragrid.lock"});
}

TEST_P(HostileDirectoryTest, LockFifoIsRefusedAtOnceAndLeftInPlace) {
    ASSERT_NO_FATAL_FAILURE(plant("mkfifo shared/.terragrid.lock"));
    const auto before = outside();
    // `timeout`: a run that opened the FIFO and waited for a writer would hang the test.
    const auto r = sh("timeout 20 " + run());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, lockRefusal("a FIFO"));
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(shared() / ".terragrid.lock")));
    EXPECT_EQ(outside(), before);
    EXPECT_EQ(test::listDir(shared()), std::vector<std::string>{".terragrid.lock"});
}

TEST_P(HostileDirectoryTest, HydrologyStageRefusesALockSymlinkBeforeComputing) {
    ASSERT_NO_FATAL_FAILURE(plant("ln -s ../victim shared/.terragrid.lock"));
    const auto before = outside();
    const auto r = sh(test::shellQuote(test::cliPath()) +
                      " hydrology-stage -q --out shared/stage.tgh --width 64 --height 64"
                      " --set hydrology.enabled=true");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, lockRefusal("a symbolic link"));
    EXPECT_EQ(outside(), before);
    EXPECT_EQ(test::listDir(shared()), std::vector<std::string>{".terragrid.lock"});
}

// --- staging folders ---------------------------------------------------------------------------

TEST_P(HostileDirectoryTest, StagingSymlinkOfADeadRunIsNeitherFollowedNorRemoved) {
    // Recovery looks for the staging folders of dead runs: this one is a link to a folder
    // whose files carry the names recovery removes.
    ASSERT_NO_FATAL_FAILURE(plant("ln -s ../victim-dir shared/.terragrid-tmp-4242"));
    const auto before = outside();
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(outside(), before);
    expectNewSet();
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(shared() / ".terragrid-tmp-4242")));
}

TEST_P(HostileDirectoryTest, StagingSymlinkNamedWithTheRunsOwnPidIsNotUsed) {
    // A script whose shell plants the link under its own pid, then becomes the run (`exec`
    // keeps the pid): the link has the name of the run's staging folder.
    std::ofstream(m_root / "plant-then-run.sh")
        << planterPrefix() << "ln -s ../victim-dir \"shared/.terragrid-tmp-$$\"\n"
        << "exec " << run() << "\n";
    const auto before = outside();
    const auto r = sh("sh plant-then-run.sh");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(outside(), before);
    expectNewSet();
    // The link left as it was, and the run's own folder gone (beside height.tif, stats.json
    // and manifest.json).
    const std::vector<std::string> names = test::listDir(shared());
    ASSERT_EQ(names.size(), 4u) << testing::PrintToString(names);
    EXPECT_TRUE(names[0].starts_with(".terragrid-tmp-")) << names[0];
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(shared() / names[0]))) << names[0];
}

// --- outputs -----------------------------------------------------------------------------------

TEST_P(HostileDirectoryTest, SymlinksNamedLikeOutputsAreReplacedNeverWrittenThrough) {
    ASSERT_NO_FATAL_FAILURE(
        plant("ln -s ../victim shared/height.tif && ln -s ../made-by-the-run shared/stats.json"));
    const auto before = outside();
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(outside(), before);
    EXPECT_FALSE(fs::exists(fs::symlink_status(m_root / "made-by-the-run")));
    expectNewSet();
    EXPECT_EQ(test::listDir(shared()),
              (std::vector<std::string>{"height.tif", "manifest.json", "stats.json"}));
}

INSTANTIATE_TEST_SUITE_P(EveryPlanter, HostileDirectoryTest,
                         testing::Values(kRoot, kOtherUserWorldWritable, kOtherUserSticky),
                         [](const testing::TestParamInfo<Planter>& info) {
                             return info.param.name;
                         });

// --- what only another user's plant can be -----------------------------------------------------

class OtherUsersPlantTest : public HostileDirectoryTest {};

TEST_P(OtherUsersPlantTest, ForgedStagingFolderOfAnotherUserIsNotTrusted) {
    // Root's own files in the shared directory, which the other user may not replace or
    // remove in a sticky directory; a forged journal would have a run do it for them.
    std::ofstream(shared() / "notes.txt") << kVictimBytes;
    std::ofstream(shared() / "todo.txt") << kVictimBytes;
    const std::string journal =
        "terragrid rollback journal 1\\n0\\told\\tnew-zzzzzz\\tnotes.txt\\n"
        "1\\tnew\\tnew-yyyyyy\\ttodo.txt\\nend\\n";
    ASSERT_NO_FATAL_FAILURE(plant("mkdir -m 700 shared/.terragrid-tmp-4243 && cd "
                                  "shared/.terragrid-tmp-4243 && printf 'forged\\n' > old-0 && "
                                  "printf '" + journal + "' > journal"));
    const auto forged = snapshotTree(shared() / ".terragrid-tmp-4243", {});
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(test::readFile(shared() / "notes.txt"), kVictimBytes);
    EXPECT_EQ(test::readFile(shared() / "todo.txt"), kVictimBytes);
    EXPECT_EQ(snapshotTree(shared() / ".terragrid-tmp-4243", {}), forged);
    expectNewSet();
}

INSTANTIATE_TEST_SUITE_P(OtherUser, OtherUsersPlantTest,
                         testing::Values(kOtherUserWorldWritable, kOtherUserSticky),
                         [](const testing::TestParamInfo<Planter>& info) {
                             return info.param.name;
                         });

// --- what only root can plant ------------------------------------------------------------------

class RootsPlantTest : public HostileDirectoryTest {};

TEST_P(RootsPlantTest, LockHardLinkToAFileOutsideIsRefusedAndNothingIsTouched) {
    // Another user cannot link a file of root's (fs.protected_hardlinks); root, or the owner
    // of the file, can.
    ASSERT_NO_FATAL_FAILURE(plant("ln victim shared/.terragrid.lock"));
    const auto before = outside();
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, lockRefusal("a file with 2 hard links"));
    EXPECT_EQ(outside(), before);
    EXPECT_EQ(test::listDir(shared()), std::vector<std::string>{".terragrid.lock"});
}

TEST_P(RootsPlantTest, StaleLockFileIsNeverWrittenIntoAndTheRunGoesOn) {
    // What a run killed by SIGKILL leaves: a lock file no one holds. A regular file of one
    // link is taken for one, but never written: a run writes only the lock file it created.
    // The test holds it open, to read what became of it after the run removed its name.
    std::ofstream(shared() / ".terragrid.lock") << "4242\n";
    std::ifstream stale(shared() / ".terragrid.lock", std::ios::binary);
    const auto r = sh(run());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    expectNewSet();
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(stale), {}), "4242\n");
}

INSTANTIATE_TEST_SUITE_P(Root, RootsPlantTest, testing::Values(kRoot),
                         [](const testing::TestParamInfo<Planter>& info) {
                             return info.param.name;
                         });

}  // namespace
}  // namespace terragrid

// The names the stage file goes to and comes from, through the real CLI (issue 31, items 3 and
// 5): `hydrology-stage --out` refuses, before it computes anything (exit 2, the path and the
// rule named, nothing touched), every name it could not replace with a regular file: '', '.',
// a directory, a missing or unwritable directory, the output transaction's own names, a
// symbolic link, a FIFO, a device, another user's file in a sticky directory; and again,
// nothing replaced, when such an entry appears while the stage is computed. A run's
// `--hydrology-stage` refuses a FIFO without a writer, or a device, without blocking.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::shellQuote;
using testing::HasSubstr;

/// The map of these tests: 240 x 180 with hydrology.
const std::string kPathsMap = " --width 240 --height 180 --seed 13 --set hydrology.enabled=true"
                         " --set hydrology.river_threshold=180000";

/// A stage of several seconds (2048^2 hydrology cells eroded): a refusal that came only after
/// computing it would take that long.
const std::vector<std::string> kLongStageArgs{
    "--width", "2048", "--height", "2048", "--threads", "2", "-q", "--set",
    "hydrology.enabled=true", "--set", "hydrology.resolution=1", "--set",
    "hydrology.erosion.enabled=true", "--set", "hydrology.erosion.steps=10"};

/// What `ls -l` would say an entry is: its type, its target if a link, its bytes if a file.
std::string describe(const fs::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return "missing";
    if (S_ISLNK(st.st_mode)) return "link to " + fs::read_symlink(path).string();
    if (S_ISFIFO(st.st_mode)) return "fifo";
    if (S_ISCHR(st.st_mode)) return "char device " + std::to_string(major(st.st_rdev)) + "," +
                                    std::to_string(minor(st.st_rdev));
    if (S_ISDIR(st.st_mode)) return "directory";
    return "file: " + test::readFile(path);
}

/// Every entry under `dir`, recursively, as describe() says it.
std::map<std::string, std::string> tree(const fs::path& dir) {
    std::map<std::string, std::string> entries;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::end(it); ++it) {
        entries[fs::relative(it->path(), dir).string()] = describe(it->path());
        if (it->is_symlink()) it.disable_recursion_pending();
    }
    return entries;
}

/// A name --out must refuse: how the test plants it, and the refusal's text.
struct BadOut {
    std::string name;
    std::string out;
    std::function<void(const fs::path& dir)> plant;
    std::string problem;  ///< stderr after "terragrid: error: "
    bool rootOnly = false;
};

void PrintTo(const BadOut& c, std::ostream* os) { *os << c.name; }

std::vector<BadOut> badOuts() {
    const auto nothing = [](const fs::path&) {};
    const auto victim = [](const fs::path& dir) { std::ofstream(dir / "victim") << "precious"; };
    return {
        {"Empty", "", nothing, "'--out' needs the name of the stage file to write (got '')"},
        {"Dot", ".", nothing,
         "'--out .' names a directory, not a file: give the stage file's name, such as "
         "'stage.tgh'"},
        {"DotDot", "..", nothing,
         "'--out ..' names a directory, not a file: give the stage file's name, such as "
         "'../stage.tgh'"},
        {"TrailingSlash", "sub/", [](const fs::path& dir) { fs::create_directory(dir / "sub"); },
         "'--out sub/' names a directory, not a file: give the stage file's name, such as "
         "'sub/stage.tgh'"},
        {"MissingDirectory", "missing/stage.tgh", nothing,
         "the directory of '--out missing/stage.tgh', 'missing', does not exist "
         "(hydrology-stage creates no directory)"},
        {"FileAsDirectory", "plain/stage.tgh",
         [](const fs::path& dir) { std::ofstream(dir / "plain") << "x"; },
         "the directory of '--out plain/stage.tgh', 'plain', is a regular file, not a "
         "directory"},
        {"DirectoryInTheWay", "stage.tgh",
         [](const fs::path& dir) { fs::create_directory(dir / "stage.tgh"); },
         "'--out stage.tgh' is a directory: hydrology-stage replaces a regular file only "
         "(remove it, or give another name)"},
        {"Fifo", "stage.tgh",
         [](const fs::path& dir) { ASSERT_EQ(::mkfifo((dir / "stage.tgh").c_str(), 0644), 0); },
         "'--out stage.tgh' is a FIFO: hydrology-stage replaces a regular file only (remove it, "
         "or give another name)"},
        {"SymlinkToAFile", "stage.tgh",
         [=](const fs::path& dir) {
             victim(dir);
             fs::create_symlink(dir / "victim", dir / "stage.tgh");
         },
         "'--out stage.tgh' is a symbolic link: hydrology-stage replaces a regular file only "
         "(remove it, or give another name)"},
        {"DanglingSymlink", "stage.tgh",
         [](const fs::path& dir) { fs::create_symlink(dir / "nowhere", dir / "stage.tgh"); },
         "'--out stage.tgh' is a symbolic link: hydrology-stage replaces a regular file only "
         "(remove it, or give another name)"},
        {"TheLocksName", ".terragrid.lock", nothing,
         "'--out .terragrid.lock' takes a name terragrid's output transaction uses "
         "('.terragrid.lock'): give the stage file another name"},
        {"AStagingFoldersName", "sub/.terragrid-tmp-77",
         [](const fs::path& dir) { fs::create_directory(dir / "sub"); },
         "'--out sub/.terragrid-tmp-77' takes a name terragrid's output transaction uses "
         "('.terragrid-tmp-77'): give the stage file another name"},
        // /dev/null itself, as the issue found it replaced; a node of its own here, so that a
        // failing test replaces nothing of the machine's.
        {"CharacterDevice", "null",
         [](const fs::path& dir) {
             ASSERT_EQ(::mknod((dir / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
         },
         "'--out null' is a character device: hydrology-stage replaces a regular file only "
         "(remove it, or give another name)",
         true},
    };
}

class BadOutTest : public testing::TestWithParam<BadOut> {};

TEST_P(BadOutTest, IsRefusedBeforeTheStageIsComputedAndNothingIsTouched) {
    const BadOut& c = GetParam();
    if (c.rootOnly && ::geteuid() != 0) GTEST_SKIP() << "mknod needs root";
    test::TempDir dir;
    c.plant(dir.path());
    const auto before = tree(dir.path());
    std::vector<std::string> args{"hydrology-stage", "--out", c.out};
    args.insert(args.end(), kLongStageArgs.begin(), kLongStageArgs.end());
    const auto r = test::runChild({dir.path(), args});
    EXPECT_EQ(r.exit.shellCode(), 2) << r.err;
    EXPECT_EQ(r.err, "terragrid: error: " + c.problem + "\n");
    EXPECT_EQ(tree(dir.path()), before);
    // --dry-run tells it the same way.
    args.push_back("--dry-run");
    const auto dry = test::runChild({dir.path(), args});
    EXPECT_EQ(dry.exit.shellCode(), 2) << dry.err;
    EXPECT_EQ(dry.err, "terragrid: error: " + c.problem + "\n");
    EXPECT_THAT(dry.out, HasSubstr("fits:    no\n"));
    EXPECT_EQ(tree(dir.path()), before);
}

INSTANTIATE_TEST_SUITE_P(EveryName, BadOutTest, testing::ValuesIn(badOuts()),
                         [](const testing::TestParamInfo<BadOut>& info) {
                             return info.param.name;
                         });

TEST(HydrologyStagePathsTest, ARegularFileIsReplacedAndItsHardLinkKeepsTheOlderBytes) {
    // Replaced by a rename, never written through: a hard link to the older file keeps it.
    test::TempDir dir;
    std::ofstream(dir / "stage.tgh") << "older";
    fs::create_hard_link(dir / "stage.tgh", dir / "kept");
    const auto r = test::runCommand("cd " + shellQuote(dir.path().string()) + " && " +
                                    shellQuote(test::cliPath()) +
                                    " hydrology-stage -q --out stage.tgh" + kPathsMap);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(test::readFile(dir / "kept"), "older");
    EXPECT_NE(test::readFile(dir / "stage.tgh"), "older");
    EXPECT_EQ(test::listDir(dir.path()), (std::vector<std::string>{"kept", "stage.tgh"}));
}

TEST(HydrologyStagePathsTest, AnUnwritableDirectoryIsRefusedBeforeTheStageIsComputed) {
    // Root passes every permission check, so as root the stage job becomes "nobody".
    const auto user = test::unprivilegedUser();
    if (::geteuid() == 0 && !user) GTEST_SKIP() << "running as root without a 'nobody' user";
    test::TempDir dir;
    fs::permissions(dir.path(), fs::perms(0755));
    fs::create_directory(dir / "ro");
    fs::permissions(dir / "ro", fs::perms(0555));
    std::vector<std::string> args{"hydrology-stage", "--out", "ro/stage.tgh"};
    args.insert(args.end(), kLongStageArgs.begin(), kLongStageArgs.end());
    const auto r = test::runChild({dir.path(), args, {}, user});
    fs::permissions(dir / "ro", fs::perms(0755));
    EXPECT_EQ(r.exit.shellCode(), 2) << r.err;
    EXPECT_EQ(r.err, "terragrid: error: cannot write into 'ro', the directory of '--out "
                     "ro/stage.tgh': Permission denied\n");
    EXPECT_TRUE(test::listDir(dir / "ro").empty());
}

TEST(HydrologyStagePathsTest, AnotherUsersFileInAStickyDirectoryIsRefusedBeforeTheStage) {
    // As in /tmp: rename(2) may not replace another user's file there, which the commit
    // would find out only after the stage.
    const auto user = test::unprivilegedUser();
    if (!user) GTEST_SKIP() << "needs root and a 'nobody' user";
    test::TempDir dir;
    fs::permissions(dir.path(), fs::perms(0755));
    fs::create_directory(dir / "shared");
    fs::permissions(dir / "shared", fs::perms(01777));
    std::ofstream(dir / "shared/stage.tgh") << "root's";
    std::vector<std::string> args{"hydrology-stage", "--out", "shared/stage.tgh"};
    args.insert(args.end(), kLongStageArgs.begin(), kLongStageArgs.end());
    const auto r = test::runChild({dir.path(), args, {}, user});
    EXPECT_EQ(r.exit.shellCode(), 2) << r.err;
    EXPECT_EQ(r.err, "terragrid: error: '--out shared/stage.tgh' belongs to another user in the "
                     "sticky directory 'shared', so it cannot be replaced: give another name\n");
    EXPECT_EQ(test::listDir(dir / "shared"), std::vector<std::string>{"stage.tgh"});
    EXPECT_EQ(test::readFile(dir / "shared/stage.tgh"), "root's");
}

/// How many threads process `pid` runs now (0 once it has ended).
std::size_t threadsOf(pid_t pid) {
    std::error_code error;
    std::size_t count = 0;
    for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", error);
         !error && it != fs::directory_iterator(); it.increment(error))
        ++count;
    return count;
}

TEST(HydrologyStagePathsTest, AFifoPlantedWhileTheStageIsComputedIsRefusedBeforeTheCommit) {
    test::TempDir dir;
    // About 2 s of CPU: 1024^2 hydrology cells eroded 10 steps.
    const test::ChildSetup setup{
        dir.path(),
        {"hydrology-stage", "--out", "stage.tgh", "--width", "1024", "--height", "1024",
         "--threads", "2", "-q", "--set", "hydrology.enabled=true", "--set",
         "hydrology.resolution=1", "--set", "hydrology.erosion.enabled=true", "--set",
         "hydrology.erosion.steps=10"}};
    test::Child child(setup);
    // Past the checks: TBB's worker has started on the stage (the main thread and the signal
    // watcher run before it).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (threadsOf(child.pid()) <= 2 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    ASSERT_FALSE(fs::exists(dir / "stage.tgh"));
    ASSERT_EQ(::mkfifo((dir / "stage.tgh").c_str(), 0644), 0);
    const test::ChildExit exit = child.wait();
    EXPECT_EQ(exit.shellCode(), 2) << child.err();
    EXPECT_EQ(child.err(), "terragrid: error: '--out stage.tgh' is a FIFO: hydrology-stage "
                           "replaces a regular file only (remove it, or give another name)\n");
    // The FIFO as it was, and no staging folder, lock or temporary file.
    EXPECT_EQ(tree(dir.path()), (std::map<std::string, std::string>{{"stage.tgh", "fifo"}}));
}

/// A run reading the stage from `stage`, under coreutils' `timeout` so that one blocking in
/// open() ends (exit 124) instead of hanging the suite.
test::CommandResult runReading(const test::TempDir& dir, const std::string& stage,
                               const std::string& more = {}) {
    return test::runCommand("cd " + shellQuote(dir.path().string()) + " && timeout 20 " +
                            shellQuote(test::cliPath()) + kPathsMap + " --hydrology-stage " +
                            shellQuote(stage) + " --out-dir out" + more);
}

TEST(HydrologyStagePathsTest, AFifoWithoutAWriterIsRefusedWithoutBlocking) {
    test::TempDir dir;
    ASSERT_EQ(::mkfifo((dir / "stage.fifo").c_str(), 0644), 0);
    fs::create_symlink("stage.fifo", dir / "link.tgh");
    for (const std::string name : {"stage.fifo", "link.tgh"})
        for (const std::string& more : {std::string(), std::string(" --dry-run")}) {
            const auto r = runReading(dir, name, more);
            EXPECT_EQ(r.exitCode, 2) << name << more << ": " << r.err;
            EXPECT_EQ(r.err, "terragrid: error: '--hydrology-stage': hydrology stage file '" +
                                 name +
                                 "' cannot be read: it is a FIFO (named pipe), not a regular "
                                 "file\n");
        }
    EXPECT_EQ(test::listDir(dir.path()), (std::vector<std::string>{"link.tgh", "stage.fifo"}));
}

TEST(HydrologyStagePathsTest, ADeviceOrADirectoryIsRefusedAsNoRegularFile) {
    test::TempDir dir;
    const auto device = runReading(dir, "/dev/zero");
    EXPECT_EQ(device.exitCode, 2) << device.err;
    EXPECT_EQ(device.err, "terragrid: error: '--hydrology-stage': hydrology stage file "
                          "'/dev/zero' cannot be read: it is a character device, not a regular "
                          "file\n");
    const auto directory = runReading(dir, ".");
    EXPECT_EQ(directory.exitCode, 2) << directory.err;
    EXPECT_EQ(directory.err, "terragrid: error: '--hydrology-stage': hydrology stage file '.' "
                             "cannot be read: it is a directory\n");
    EXPECT_TRUE(test::listDir(dir.path()).empty());
}

}  // namespace
}  // namespace terragrid

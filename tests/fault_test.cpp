// Faults of the file system under a real terragrid run: a missing output directory (created),
// one that cannot be written or created, and a disk that fills up during the run, both as a
// file size limit (the write fails with EFBIG, on every output and both TIFF write paths) and
// as a real small file system (a tmpfs: ENOSPC). A failed run exits 1 with one line naming the
// file and the cause, leaves no partial or temporary file, and leaves an older output of the
// same name as it was, byte for byte.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;
using testing::MatchesRegex;

/// `args` of a small run writing `files` (a JSON list) into `outDir`.
std::vector<std::string> runArgs(const std::string& outDir, int size, int seed,
                                 const std::string& files, const std::string& compression) {
    // GeoTIFF blocks as the generator's tiles: TIFF tiles encoded straight from each tile.
    return {"--width", std::to_string(size), "--height", std::to_string(size), "--tile-size",
            "64", "--seed", std::to_string(seed), "--threads", "2", "--out-dir", outDir, "-q",
            "--set", "output.files=" + files, "--set", "output.compression=" + compression,
            "--set", "output.geotiff.block_size=64"};
}

const std::string kAllFiles = "[\"height.tif\", \"classes.tif\", \"walkable.tif\", "
                              "\"preview.png\", \"height.png\", \"stats.json\", \"height.r16\", "
                              "\"height16.png\", \"height16.tif\", \"map.tmj\", \"height.exr\", "
                              "\"splat.png\", \"weight.png\"]";

/// A directory holding `out/`, the outputs of an older run (every file, seed 1), to check that
/// a failed run leaves them as they were.
class FaultTest : public testing::Test {
protected:
    void SetUp() override {
        const auto older =
            test::runChild({m_dir.path(), runArgs("out", 32, 1, kAllFiles, "deflate")});
        ASSERT_EQ(older.exit.shellCode(), 0) << older.err;
        m_older = test::snapshotDir(m_dir / "out");
        ASSERT_GE(m_older.size(), 10u);
    }

    /// The older outputs are all there, byte for byte, and nothing else is.
    void expectOlderOutputsIntact() const {
        EXPECT_TRUE(test::snapshotDir(m_dir / "out") == m_older);
    }

    test::TempDir m_dir;
    std::map<std::string, std::string> m_older;
};

TEST_F(FaultTest, MissingOutputDirectoryIsCreatedWithItsParents) {
    const auto r = test::runChild(
        {m_dir.path(), runArgs("new/deeper/out", 32, 2, "[\"height.tif\"]", "deflate")});
    ASSERT_EQ(r.exit.shellCode(), 0) << r.err;
    EXPECT_EQ(test::listDir(m_dir / "new/deeper/out"),
              (std::vector<std::string>{"height.tif", "manifest.json"}));
}

TEST_F(FaultTest, OutputDirectoryThatCannotBeCreatedExitsOne) {
    // A path under a regular file: mkdir fails with ENOTDIR even for root.
    std::ofstream(m_dir / "file") << "not a directory";
    const auto r = test::runChild({m_dir.path(), runArgs("file/out", 32, 2, kAllFiles, "deflate")});
    EXPECT_EQ(r.exit.shellCode(), 1);
    EXPECT_EQ(r.err, "terragrid: error: cannot create output directory 'file/out': Not a "
                     "directory\n");
    EXPECT_EQ(test::readFile(m_dir / "file"), "not a directory");
}

TEST_F(FaultTest, UnwritableOutputDirectoryIsRefusedByThePlanAndKeepsOlderOutputs) {
    // Root passes every permission check, so as root the run becomes "nobody".
    const auto user = test::unprivilegedUser();
    if (::geteuid() == 0 && !user) GTEST_SKIP() << "running as root without a 'nobody' user";
    fs::permissions(m_dir.path(), fs::perms(0755));
    fs::permissions(m_dir / "out", fs::perms(0555));
    const auto r =
        test::runChild({m_dir.path(), runArgs("out", 64, 2, kAllFiles, "deflate"), {}, user});
    fs::permissions(m_dir / "out", fs::perms(0755));
    // Refused before generating anything: the run could not put a single file in place.
    EXPECT_EQ(r.exit.shellCode(), 2) << r.err;
    EXPECT_EQ(r.err, "terragrid: error: cannot write into the output directory 'out' "
                     "(output.directory): Permission denied\n");
    expectOlderOutputsIntact();
}

/// One output (or all) and a compression, run against a file size limit of half its largest
/// file.
struct FullDiskCase {
    std::string files;
    std::string compression;
};

void PrintTo(const FullDiskCase& c, std::ostream* os) { *os << c.files << " " << c.compression; }

class FullDiskTest : public FaultTest, public testing::WithParamInterface<FullDiskCase> {};

TEST_P(FullDiskTest, FailsNamingTheFileAndLeavesOlderOutputsIntact) {
    const FullDiskCase& c = GetParam();
    // The same run without a limit says how large its files get.
    const auto reference =
        test::runChild({m_dir.path(), runArgs("ref", 128, 2, c.files, c.compression)});
    ASSERT_EQ(reference.exit.shellCode(), 0) << reference.err;
    const auto written = test::snapshotDir(m_dir / "ref");
    std::size_t largest = 0;
    for (const auto& [name, bytes] : written) largest = std::max(largest, bytes.size());

    const auto r = test::runChild(
        {m_dir.path(), runArgs("out", 128, 2, c.files, c.compression), rlim_t(largest / 2)});
    EXPECT_EQ(r.exit.shellCode(), 1) << r.err;
    // One line: the file and the system's reason.
    EXPECT_THAT(r.err, MatchesRegex("terragrid: error: writing 'out/[^'/]+': [^\n]*File too "
                                    "large[^\n]*\n"));
    const std::string named = r.err.substr(r.err.find("'out/") + 5);
    EXPECT_TRUE(written.count(named.substr(0, named.find('\''))))
        << "names a file the run does not write: " << r.err;
    expectOlderOutputsIntact();
}

std::vector<FullDiskCase> fullDiskCases() {
    // Uncompressed TIFF tiles are written in the calling thread, compressed ones by workers
    // (TIFFWriteRawTile): both paths, and every compression once.
    const std::pair<const char*, const char*> tiffs[] = {{"height.tif", "none"},
                                                         {"classes.tif", "deflate"},
                                                         {"walkable.tif", "lzw"},
                                                         {"height16.tif", "zstd"}};
    std::vector<FullDiskCase> cases;
    for (const auto& [file, compression] : tiffs)
        cases.push_back({std::string("[\"") + file + "\"]", compression});
    for (const char* file : {"preview.png", "height.png", "stats.json", "height.r16",
                             "height16.png", "map.tmj", "height.exr", "splat.png", "weight.png"})
        cases.push_back({std::string("[\"") + file + "\"]", "deflate"});
    cases.push_back({kAllFiles, "deflate"});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryOutput, FullDiskTest, testing::ValuesIn(fullDiskCases()));

/// A tmpfs of `bytes` mounted over `directory` while this object lives: a disk that really
/// fills up. Mounting needs root (CAP_SYS_ADMIN), as CI and the scripts run; elsewhere
/// mounted() is false and refusal() says why.
class SmallDisk {
public:
    SmallDisk(const fs::path& directory, std::size_t bytes) : m_directory(directory) {
        const std::string options = "size=" + std::to_string(bytes) + ",mode=0755";
        if (::mount("terragrid-test", directory.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                    options.c_str()) == 0) {
            m_mounted = true;
        } else {
            m_refusal = std::strerror(errno);
        }
    }
    ~SmallDisk() {
        if (m_mounted) ::umount2(m_directory.c_str(), MNT_DETACH);
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;

    bool mounted() const { return m_mounted; }
    const std::string& refusal() const { return m_refusal; }

private:
    fs::path m_directory;
    bool m_mounted = false;
    std::string m_refusal;
};

/// FaultTest on a 512 KiB disk: the older outputs (about 60 KB) fit, a 512 x 512 map does not.
class SmallDiskTest : public FaultTest {
protected:
    void SetUp() override {
        if (!m_disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << m_disk.refusal();
        FaultTest::SetUp();
    }

    /// The older outputs are intact, and nothing else is anywhere on the disk.
    void expectOnlyOlderOutputsOnTheDisk() const {
        expectOlderOutputsIntact();
        EXPECT_EQ(test::listDir(m_dir.path()), std::vector<std::string>{"out"});
    }

    SmallDisk m_disk{m_dir.path(), 512 << 10};
};

TEST_F(SmallDiskTest, CompressedOutputsThatFillTheDiskFailWithNoSpaceAndKeepOlderOutputs) {
    // Only compressed outputs: their bound exceeds the free space but what they will take
    // cannot be known, so the run starts with a warning and meets ENOSPC.
    const std::string compressed = "[\"height.tif\", \"classes.tif\", \"preview.png\", "
                                   "\"height16.png\", \"height16.tif\", \"map.tmj\", \"height.exr\"]";
    const auto r = test::runChild({m_dir.path(), runArgs("out", 512, 2, compressed, "deflate")});
    EXPECT_EQ(r.exit.shellCode(), 1) << r.err;
    // The parallel GeoTIFF encoder names the TIFF tile whose write met the full disk; which
    // writer meets it first depends on timing.
    EXPECT_THAT(r.err, MatchesRegex("terragrid: warning: the run may need up to [^\n]*\n"
                                    "terragrid: error: writing 'out/[^'/]+': (TIFF tile [0-9]+: )?"
                                    "No space left on device\n"));
    expectOnlyOlderOutputsOnTheDisk();
}

TEST_F(SmallDiskTest, UncompressedOutputsLargerThanTheFreeSpaceAreRefusedBeforeWriting) {
    // height.r16 of 1024 x 1024 cells is 2 MiB for certain: refused by the plan, exit 2.
    const auto r =
        test::runChild({m_dir.path(), runArgs("out", 1024, 2, "[\"height.r16\"]", "deflate")});
    EXPECT_EQ(r.exit.shellCode(), 2) << r.err;
    EXPECT_THAT(r.err, MatchesRegex("terragrid: error: the run needs 2\\.0 MiB on disk in 'out' "
                                    "for its uncompressed outputs alone, but only [0-9.]+ KiB "
                                    "are free there; [^\n]*\n"));
    expectOnlyOlderOutputsOnTheDisk();
}

}  // namespace
}  // namespace terragrid

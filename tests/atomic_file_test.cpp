// AtomicFile: the target appears only on commit, complete; nothing is left behind otherwise.

#include "io/transaction/atomic_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "terragrid/io/outputs.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::ThrowsMessage;

using test::listDir;
using test::readFile;

class AtomicFileTest : public ::testing::Test {
protected:
    std::string pathOf(const std::string& name) const { return (m_dir / name).string(); }

    static void writeFile(const std::string& path, const std::string& text) {
        std::ofstream(path, std::ios::binary) << text;
    }

    test::TempDir m_dir;  // a fresh directory per test, removed afterwards
};

TEST_F(AtomicFileTest, TempFileSitsBesideTargetUntilCommit) {
    const std::string target = pathOf("height.tif");
    AtomicFile file(target);
    EXPECT_EQ(fs::path(file.tempPath()).parent_path(), m_dir.path());
    EXPECT_THAT(fs::path(file.tempPath()).filename().string(), StartsWith(".height.tif.tmp-"));
    EXPECT_TRUE(fs::exists(file.tempPath()));
    EXPECT_FALSE(fs::exists(target));
    EXPECT_EQ(file.targetPath(), target);
}

TEST_F(AtomicFileTest, CommitPublishesContentAndRemovesTemp) {
    const std::string target = pathOf("height.tif");
    std::string temp;
    {
        AtomicFile file(target);
        temp = file.tempPath();
        file.write("complete contents");
        file.commit();
        EXPECT_TRUE(file.committed());
    }
    EXPECT_EQ(readFile(target), "complete contents");
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_THAT(listDir(m_dir.path()), ::testing::ElementsAre("height.tif"));
}

TEST_F(AtomicFileTest, CommitReplacesOlderFile) {
    const std::string target = pathOf("height.tif");
    writeFile(target, "old");
    AtomicFile file(target);
    file.write("new");
    file.commit();
    EXPECT_EQ(readFile(target), "new");
}

TEST_F(AtomicFileTest, DestroyedWithoutCommitLeavesNothing) {
    {
        AtomicFile file(pathOf("height.tif"));
        file.write("abandoned");
    }
    EXPECT_THAT(listDir(m_dir.path()), ::testing::IsEmpty());
}

TEST_F(AtomicFileTest, DestroyedWithoutCommitKeepsOlderFileByteForByte) {
    const std::string target = pathOf("height.tif");
    const std::string old("older\0file\xff", 11);
    writeFile(target, old);
    {
        AtomicFile file(target);
        file.write("abandoned, longer than the older file");
    }
    EXPECT_EQ(readFile(target), old);
    EXPECT_THAT(listDir(m_dir.path()), ::testing::ElementsAre("height.tif"));
}

TEST_F(AtomicFileTest, TwoWritersForOneTargetGetDistinctTemps) {
    AtomicFile a(pathOf("height.tif"));
    AtomicFile b(pathOf("height.tif"));
    EXPECT_NE(a.tempPath(), b.tempPath());
}

TEST_F(AtomicFileTest, CommittedFileGetsUmaskPermissionsNotMkstemps) {
    const std::string target = pathOf("height.tif");
    AtomicFile file(target);
    file.commit();
    const mode_t mask = ::umask(022);  // single-threaded test: reading the mask this way is safe
    ::umask(mask);
    EXPECT_EQ(fs::status(target).permissions(), static_cast<fs::perms>(0666 & ~mask));
}

// Tests may run as root, whom permission bits do not stop: a parent that is a regular file
// makes creation fail for everyone.
TEST_F(AtomicFileTest, ParentIsRegularFileThrowsNamingTarget) {
    writeFile(pathOf("plain"), "not a directory");
    const std::string target = pathOf("plain") + "/height.tif";
    EXPECT_THAT([&] { AtomicFile file(target); },
                ThrowsMessage<OutputError>(HasSubstr("writing '" + target + "': Not a directory")));
}

TEST_F(AtomicFileTest, MissingDirectoryThrowsNamingTarget) {
    const std::string target = pathOf("missing") + "/height.tif";
    EXPECT_THAT([&] { AtomicFile file(target); },
                ThrowsMessage<OutputError>(
                    HasSubstr("writing '" + target + "': No such file or directory")));
}

TEST_F(AtomicFileTest, FailedCommitThrowsNamingTargetAndCleansUp) {
    // rename() cannot replace a non-empty directory.
    const std::string target = pathOf("height.tif");
    fs::create_directory(target);
    writeFile(target + "/inside", "kept");
    {
        AtomicFile file(target);
        file.write("data");
        EXPECT_THAT([&] { file.commit(); },
                    ThrowsMessage<OutputError>(HasSubstr("writing '" + target + "': ")));
        EXPECT_FALSE(file.committed());
    }
    EXPECT_THAT(listDir(m_dir.path()), ::testing::ElementsAre("height.tif"));
    EXPECT_EQ(readFile(target + "/inside"), "kept");
}

TEST_F(AtomicFileTest, WritesAtOffsetsInAnyOrder) {
    const std::string target = pathOf("raw.bin");
    AtomicFile file(target);
    file.writeAt("cd", 2, 2);
    file.writeAt("ab", 2, 0);
    file.write("ab");  // pwrite does not move the position: this lands at 0 again
    file.commit();
    EXPECT_EQ(test::readFile(target), "abcd");
}

TEST_F(AtomicFileTest, WriteAfterCommitFailsNamingTheTarget) {
    const std::string target = pathOf("late.bin");
    AtomicFile file(target);
    file.commit();
    EXPECT_THAT([&] { file.write("late"); },
                ThrowsMessage<OutputError>(HasSubstr("writing '" + target + "'")));
}

}  // namespace
}  // namespace terragrid

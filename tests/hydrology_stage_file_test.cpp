// The hydrology stage file (io/hydrology_stage_file.hpp): a stage read back is the stage
// written, bit for bit, with and without erosion; a file of another map, of another format
// version, truncated, extended or damaged anywhere is refused with a sentence that names the
// file, the rule and the value.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>


#include "terragrid/config/loader.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "stage_file_support.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using testing::HasSubstr;
using testing::ThrowsMessage;

/// The header's length in the format version this terragrid writes (hydrology_stage_file.cpp).
constexpr std::size_t kHeaderBytes = test::kStageHeaderBytes;

using test::stageConfig;

using test::sameBits;  // NaN lake surfaces compare equal

void expectSameStage(const HydrologyStage& a, const HydrologyStage& b) {
    EXPECT_EQ(a.factor, b.factor);
    EXPECT_EQ(a.mapWidth, b.mapWidth);
    EXPECT_EQ(a.mapHeight, b.mapHeight);
    EXPECT_EQ(a.gridWidth, b.gridWidth);
    EXPECT_EQ(a.gridHeight, b.gridHeight);
    EXPECT_EQ(a.seaLevelMeters, b.seaLevelMeters);
    EXPECT_EQ(a.hasSea, b.hasSea);
    EXPECT_TRUE(sameBits(a.erosionDelta, b.erosionDelta));
    EXPECT_TRUE(sameBits(a.erodedHeight, b.erodedHeight));
    EXPECT_TRUE(sameBits(a.lakeSurface, b.lakeSurface));
    EXPECT_EQ(a.lakes.id, b.lakes.id);
    EXPECT_TRUE(sameBits(a.lakes.surface, b.lakes.surface));
    EXPECT_EQ(a.lakes.outlet, b.lakes.outlet);
    EXPECT_EQ(a.receiver, b.receiver);
    EXPECT_TRUE(sameBits(a.accumulation, b.accumulation));
    EXPECT_EQ(a.strahler, b.strahler);
    const HydrologyFacts &f = a.facts, &g = b.facts;
    EXPECT_EQ(f.factor, g.factor);
    EXPECT_EQ(f.gridWidth, g.gridWidth);
    EXPECT_EQ(f.lakes, g.lakes);
    EXPECT_EQ(f.lakeCells, g.lakeCells);
    EXPECT_EQ(f.seaCells, g.seaCells);
    EXPECT_EQ(f.riverCells, g.riverCells);
    EXPECT_TRUE(sameBits(f.riverLengthByOrder, g.riverLengthByOrder));
    EXPECT_EQ(f.thetaValid, g.thetaValid);
    if (f.thetaValid) {
        EXPECT_EQ(f.theta, g.theta);
    }
}

std::string readBytes(const std::filesystem::path& path) { return test::readFile(path); }

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(HydrologyStageFileTest, AStageReadBackIsTheStageWrittenBitForBit) {
    for (const std::vector<std::string>& overrides :
         {std::vector<std::string>{"hydrology.sea_level=0.3"},
          {"hydrology.erosion.enabled=true", "hydrology.erosion.steps=5"},
          {"hydrology.resolution=3", "hydrology.rainfall=\"moisture\""}}) {
        const Config config = stageConfig(overrides);
        const HydrologyStage stage = computeHydrology(config);
        ASSERT_GT(stage.facts.riverCells, 0) << testing::PrintToString(overrides);
        test::TempDir dir;
        const std::string path = (dir / "stage.tgh").string();
        const std::uint64_t bytes = writeHydrologyStage(config, stage, path);
        EXPECT_EQ(bytes, std::filesystem::file_size(path));
        EXPECT_LE(bytes, hydrologyStageFileBound(config));
        // Only the file: the temporary one was renamed onto it.
        EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
        checkHydrologyStageFile(config, path);
        const HydrologyStage read = readHydrologyStage(config, path);
        expectSameStage(read, stage);
        // The stage computed here timed its steps; the file holds no times to read back.
        EXPECT_TRUE(stage.facts.stepsTimed);
        EXPECT_FALSE(read.facts.stepsTimed);
        EXPECT_EQ(read.facts.totalSeconds, 0);
        // What a run holds of the stage is within what the plan counts for it.
        const std::uint64_t held =
            (stage.erosionDelta.size() + stage.erodedHeight.size() + stage.lakeSurface.size() +
             stage.lakes.id.size() + stage.lakes.surface.size() + stage.lakes.outlet.size() +
             stage.receiver.size() + stage.accumulation.size()) * 4 + stage.strahler.size();
        EXPECT_LE(held, hydrologyStageBytes(config));
    }
}

class StageFileDamageTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_path = (m_dir / "stage.tgh").string();
        writeHydrologyStage(m_config, computeHydrology(m_config), m_path);
        m_bytes = readBytes(m_path);
    }

    /// What reading the file with `bytes` in it says.
    std::string problemWith(const std::string& bytes, const Config* config = nullptr) {
        const std::string path = (m_dir / "changed.tgh").string();
        writeBytes(path, bytes);
        try {
            readHydrologyStage(config ? *config : m_config, path);
        } catch (const HydrologyStageFileError& e) {
            return e.what();
        }
        return "read without complaint";
    }

    test::TempDir m_dir;
    Config m_config = stageConfig({"hydrology.sea_level=0.3"});
    std::string m_path;
    std::string m_bytes;
};

TEST_F(StageFileDamageTest, AFileOfAnotherMapIsRefusedNamingBothHashes) {
    for (const char* change : {"seed=6", "map.width=161", "height.octaves=5",
                               "hydrology.river_threshold=90001", "elevation.max=2000",
                               "map.cell_size=31"}) {
        const Config other = stageConfig({"hydrology.sea_level=0.3", change});
        const std::string message = problemWith(m_bytes, &other);
        const std::string path = (m_dir / "changed.tgh").string();
        EXPECT_THAT(message, HasSubstr(path + "' was made for another map: its hydrology hash is " +
                                       m_config.hydrologyHash + ", this config's is " +
                                       other.hydrologyHash))
            << change;
    }
}

TEST_F(StageFileDamageTest, SettingsTheStageDoesNotReadMayDiffer) {
    // Where and what a shard writes, its tiles and its classes: the same stage serves.
    const Config other = stageConfig({"hydrology.sea_level=0.3", "output.directory=\"x\"",
                                      "map.tile_size=32", "output.files=[\"height.tif\"]",
                                      "terrain.lake_below=0.2", "output.epsg=32633"});
    EXPECT_EQ(other.hydrologyHash, m_config.hydrologyHash);
    EXPECT_EQ(problemWith(m_bytes, &other), "read without complaint");
}

TEST_F(StageFileDamageTest, AStageOfOtherHydrologyAlgorithmsIsRefusedNamingBothVersions) {
    // Same settings, same terragrid version, another build's algorithms: its water may differ.
    ASSERT_EQ(test::withAlgorithmVersion(m_bytes, kHydrologyAlgorithmVersion), m_bytes)
        << "the field is not where the test expects it";
    EXPECT_EQ(problemWith(m_bytes), "read without complaint");
    for (const std::uint32_t other :
         {0u, kHydrologyAlgorithmVersion - 1, kHydrologyAlgorithmVersion + 1, 0xffffffffu}) {
        if (other == kHydrologyAlgorithmVersion) continue;
        const std::string message = problemWith(test::withAlgorithmVersion(m_bytes, other));
        EXPECT_THAT(message, HasSubstr("changed.tgh' was made by hydrology algorithm version " +
                                       std::to_string(other) + ", and this terragrid's is " +
                                       std::to_string(kHydrologyAlgorithmVersion) + " ("))
            << message;
        // The header check alone (what --dry-run does) refuses it too.
        EXPECT_THROW(checkHydrologyStageFile(m_config, (m_dir / "changed.tgh").string()),
                     HydrologyStageFileError);
    }
}

TEST_F(StageFileDamageTest, AnotherFormatVersionIsRefusedNamingBoth) {
    std::string bytes = m_bytes;
    const std::uint32_t version = kHydrologyStageFormatVersion + 1;
    std::memcpy(bytes.data() + 16, &version, 4);
    EXPECT_THAT(problemWith(bytes), HasSubstr("has stage format version 4, and this terragrid "
                                              "reads version 3 only"));
}

TEST_F(StageFileDamageTest, AFileThatIsNoStageFileIsRefused) {
    std::string renamed = m_bytes;
    renamed[0] = 'P';
    for (const std::string& bytes : {std::string("{\"seed\": 7}\n"), std::string(), renamed})
        EXPECT_THAT(problemWith(bytes), HasSubstr("is not a hydrology stage file")) << bytes;
}

TEST_F(StageFileDamageTest, ATruncatedFileIsRefusedAtAnyLength) {
    // Every cut, from inside the signature to the last byte of data.
    for (std::size_t length : {std::size_t(20), std::size_t(100), kHeaderBytes - 1, kHeaderBytes,
                               m_bytes.size() / 2, m_bytes.size() - 1}) {
        const std::string message = problemWith(m_bytes.substr(0, length));
        EXPECT_THAT(message, HasSubstr("is truncated")) << length << ": " << message;
    }
    EXPECT_THAT(problemWith(m_bytes + "x"),
                HasSubstr("holds " + std::to_string(m_bytes.size() + 1) +
                          " bytes, and its header describes " + std::to_string(m_bytes.size())));
}

TEST_F(StageFileDamageTest, AChangedByteAnywhereIsRefused) {
    // Every byte of the header and a spread of the data: a bit flipped anywhere is caught,
    // by the header's checksum, a section's, or a check of the header's own fields.
    const std::size_t step = std::max<std::size_t>(1, (m_bytes.size() - kHeaderBytes) / 97);
    for (std::size_t at = 0; at < m_bytes.size(); at += at < kHeaderBytes ? 1 : step) {
        std::string bytes = m_bytes;
        bytes[at] = static_cast<char>(bytes[at] ^ 0x10);
        const std::string message = problemWith(bytes);
        ASSERT_NE(message, "read without complaint") << "byte " << at;
        EXPECT_THAT(message, HasSubstr("hydrology stage file '")) << at;
    }
    std::string bytes = m_bytes;
    bytes[m_bytes.size() - 1] ^= 1;  // the last river length
    EXPECT_THAT(problemWith(bytes), HasSubstr("is damaged: its river lengths fail their CRC-32 "
                                              "check (stored 0x"));
}

TEST_F(StageFileDamageTest, AMissingFileOrADirectoryIsRefused) {
    EXPECT_THAT([&] { readHydrologyStage(m_config, (m_dir / "none.tgh").string()); },
                ThrowsMessage<HydrologyStageFileError>(
                    HasSubstr("none.tgh' cannot be read: No such file or directory")));
    EXPECT_THAT([&] { checkHydrologyStageFile(m_config, m_dir.path().string()); },
                ThrowsMessage<HydrologyStageFileError>(
                    HasSubstr("cannot be read: it is a directory")));
}

}  // namespace
}  // namespace terragrid

#pragma once
// Stage files (io/hydrology_stage_file) altered as another build, or a forger, would have
// written them, with valid checksums, for the tests of what a reader refuses. The layout is
// format version 2's (hydrology_stage_file.cpp), restated here so that a change to it breaks
// these tests rather than passing unnoticed.

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <zlib.h>

#include "terragrid/config/loader.hpp"

namespace terragrid::test {

/// The map whose stage these tests write and read: 160 x 120 with hydrology, then `overrides`.
inline Config stageConfig(std::vector<std::string> overrides = {}) {
    overrides.insert(overrides.begin(), {"map.width=160", "map.height=120", "seed=5",
                                         "hydrology.enabled=true",
                                         "hydrology.river_threshold=90000"});
    return defaultConfig(overrides);
}

/// The header's length in format version 3 (hydrology_stage_file.cpp), and where its fields
/// lie: the hydrology algorithm version after the section count, the header's CRC-32 last.
constexpr std::size_t kStageHeaderBytes = 452;
constexpr std::size_t kStageFormatVersionAt = 16;
constexpr std::size_t kStageSeaLevelAt = 96;      ///< f64, then has sea and theta valid (u8)
constexpr std::size_t kStageThetaValidAt = 105;
constexpr std::size_t kStagePaddingAt = 106;      ///< 6 zero bytes
constexpr std::size_t kStageAlgorithmVersionAt = 156;
constexpr std::size_t kStageSectionTableAt = 160;  ///< 12 entries of 24 bytes
constexpr std::size_t kStageSections = 12;

/// The sections in file order.
enum class StageSection : std::size_t {
    ErosionDelta, ErodedHeight, LakeSurface, LakeId, LakeLevel, LakeOutlet, Receiver,
    Accumulation, Strahler, RiverLength, ClimatePrecipitation, ClimateFigures
};

inline std::uint32_t crc32Of(const char* data, std::size_t size) {
    return static_cast<std::uint32_t>(
        crc32_z(crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(data), size));
}

/// `bytes`, a stage file, with its header's CRC-32 (the last 4 of its header's bytes, over
/// the ones before) made to match the header, as a writer of the changed fields would.
inline std::string withHeaderCrc(std::string bytes) {
    const std::uint32_t crc = crc32Of(bytes.data(), kStageHeaderBytes - 4);
    std::memcpy(bytes.data() + kStageHeaderBytes - 4, &crc, 4);
    return bytes;
}

/// Where section `section` of the stage file `bytes` lies: its offset and length in bytes.
inline std::pair<std::size_t, std::size_t> sectionAt(const std::string& bytes,
                                                     StageSection section) {
    std::size_t offset = kStageHeaderBytes;
    for (std::size_t i = 0; i < kStageSections; ++i) {
        const char* entry = bytes.data() + kStageSectionTableAt + 24 * i;
        std::uint32_t elementBytes = 0;
        std::uint64_t count = 0;
        std::memcpy(&elementBytes, entry, 4);
        std::memcpy(&count, entry + 8, 8);
        const std::size_t length = elementBytes * count;
        if (i == std::size_t(section)) return {offset, length};
        offset += length;
    }
    return {bytes.size(), 0};
}

/// The values of section `section` (T: its element type).
template <typename T>
std::vector<T> sectionValues(const std::string& bytes, StageSection section) {
    const auto [offset, length] = sectionAt(bytes, section);
    std::vector<T> values(length / sizeof(T));
    std::memcpy(values.data(), bytes.data() + offset, length);
    return values;
}

/// `bytes` with section `section` holding `values` (as many as it held), its CRC-32 and the
/// header's made to match: a forgery only the stage's rules can tell.
template <typename T>
std::string withSection(std::string bytes, StageSection section, const std::vector<T>& values) {
    const auto [offset, length] = sectionAt(bytes, section);
    std::memcpy(bytes.data() + offset, values.data(), length);
    const std::uint32_t crc = crc32Of(bytes.data() + offset, length);
    std::memcpy(bytes.data() + kStageSectionTableAt + 24 * std::size_t(section) + 16, &crc, 4);
    return withHeaderCrc(std::move(bytes));
}

/// `bytes`, a stage file, as if made by hydrology algorithm version `version`: the field
/// changed and the header's CRC-32 made to match, as a build with another constant would
/// write it.
inline std::string withAlgorithmVersion(std::string bytes, std::uint32_t version) {
    std::memcpy(bytes.data() + kStageAlgorithmVersionAt, &version, 4);
    return withHeaderCrc(std::move(bytes));
}

}  // namespace terragrid::test

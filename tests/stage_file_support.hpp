#pragma once
// Stage files (io/hydrology_stage_file) altered as another build would have written them, for
// the tests of what a reader refuses.

#include <cstdint>
#include <cstring>
#include <string>

#include <zlib.h>

namespace terragrid::test {

/// `bytes`, a stage file, as if made by hydrology algorithm version `version`: the field at
/// byte 220 (after the section count) changed and the header's CRC-32 (the last 4 of its 468
/// bytes, over the 464 before) made to match, as a build with another constant would write it.
inline std::string withAlgorithmVersion(std::string bytes, std::uint32_t version) {
    std::memcpy(bytes.data() + 220, &version, 4);
    const auto crc = static_cast<std::uint32_t>(
        crc32_z(crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()), 464));
    std::memcpy(bytes.data() + 464, &crc, 4);
    return bytes;
}

}  // namespace terragrid::test

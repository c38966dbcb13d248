#pragma once
// The GeoTIFF writer's own options: how tiles are compressed and when the file is BigTIFF.

#include <array>
#include <cstdint>
#include <string_view>

namespace terragrid {

enum class Compression : std::uint8_t { None, Deflate, Lzw, Zstd };
inline constexpr std::array<std::string_view, 4> kCompressionNames{"none", "deflate", "lzw",
                                                                   "zstd"};

enum class BigTiffMode : std::uint8_t { Auto, Always };
inline constexpr std::array<std::string_view, 2> kBigTiffModeNames{"auto", "always"};

}  // namespace terragrid

#pragma once
// The GeoTIFF writer's own options: how tiles are compressed and when the file is BigTIFF.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace terragrid {

enum class Compression : std::uint8_t { None, Deflate, Lzw, Zstd, Last = Zstd };
inline constexpr std::array<std::string_view, 4> kCompressionNames{"none", "deflate", "lzw",
                                                                   "zstd"};
static_assert(kCompressionNames.size() == std::size_t(Compression::Last) + 1);

enum class BigTiffMode : std::uint8_t { Auto, Always, Last = Always };
inline constexpr std::array<std::string_view, 2> kBigTiffModeNames{"auto", "always"};
static_assert(kBigTiffModeNames.size() == std::size_t(BigTiffMode::Last) + 1);

}  // namespace terragrid

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
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

/// How a GeoTIFF's resolutions are laid out: overviews (the default) is a tiled image followed
/// by its reduced-resolution copies (internal overviews, each half the size of the one before);
/// cog is a Cloud Optimized GeoTIFF (every IFD first, then the tiles from the smallest overview
/// to full resolution, row-major in each); plain is the full resolution alone.
enum class TiffLayout : std::uint8_t { Overviews, Cog, Plain, Last = Plain };
inline constexpr std::array<std::string_view, 3> kTiffLayoutNames{"overviews", "cog", "plain"};
static_assert(kTiffLayoutNames.size() == std::size_t(TiffLayout::Last) + 1);

/// How an overview cell is made from the (up to) 2x2 cells below it: the mean for heights,
/// the most frequent value (ties to the first in reading order) for classes and masks.
enum class Resampling : std::uint8_t { Average, Mode };

}  // namespace terragrid

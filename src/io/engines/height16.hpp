#pragma once
// The 16-bit height mapping shared by height.r16, height16.png and height16.tif: the configured
// elevation range (config.elevation, not the data's range) spread over 0..65535. Because the
// range is known before the first tile, each tile is converted on its own as it streams past
// (design.md principles 3 and 4), and sidecars and tags describing the mapping are known before
// the data.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace terragrid {

/// The largest 16-bit height, which stands for the configured maximum elevation.
inline constexpr std::uint16_t kHeight16Max = 65535;

/// height16.tif's top: 65535 is its nodata (kHeight16Nodata), so the range spreads over
/// 0..65534 there and no cell can take the nodata value.
inline constexpr std::uint16_t kHeight16TifMax = 65534;
inline constexpr std::uint16_t kHeight16Nodata = 65535;

/// The mapping in words, for sidecars and metadata.
inline constexpr std::string_view kHeight16Formula =
    "v = round((elevation_m - min_m) / (max_m - min_m) * 65535), clamped to 0..65535";
/// height16.tif's mapping in words.
inline constexpr std::string_view kHeight16TifFormula =
    "v = round((elevation_m - min_m) / (max_m - min_m) * 65534), clamped to 0..65534; "
    "65535 is nodata";

/// round((elevationMeters - minMeters) / (maxMeters - minMeters) * top), clamped to 0..top;
/// halves round away from zero. minMeters maps to exactly 0 and maxMeters to exactly top, and
/// the result never falls as elevationMeters rises. NaN maps to 0, and so does any elevation
/// when maxMeters <= minMeters (a range config validation refuses). Pure, thread-safe.
std::uint16_t toHeight16(double elevationMeters, double minMeters, double maxMeters,
                         std::uint16_t top = kHeight16Max) noexcept;

/// The elevation a 16-bit height stands for: minMeters + v * (maxMeters - minMeters) / top,
/// the inverse of toHeight16 to within half a step. Pure, thread-safe.
double fromHeight16(std::uint16_t v, double minMeters, double maxMeters,
                    std::uint16_t top = kHeight16Max) noexcept;

/// Converts `count` elevations with toHeight16. Pure, thread-safe.
void toHeight16(const float* elevationMeters, std::size_t count, double minMeters,
                double maxMeters, std::uint16_t* out, std::uint16_t top = kHeight16Max) noexcept;

}  // namespace terragrid

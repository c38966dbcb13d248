#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// What the statistics need of one tile, computed on the worker that generated it, so the
// serial stage only adds summaries (design.md, "Performance": no serial per-cell work).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace terragrid {

struct Tile;

__extension__ using Int128 = __int128;  // GCC/Clang; exact sums of up to 2^40 fixed-point cells

/// The elevation sum's resolution: 2^-30 m per unit, where integer addition is associative,
/// so the map's mean does not depend on how it was cut into tiles.
inline constexpr double kElevationSumScale = 0x1p30;

/// One tile's (or, added up, a map's) figures. Every field is an integer or a min/max, so
/// adding summaries in any grouping gives the same bits.
struct TileSummary {
    std::int64_t cells = 0;
    float elevationMin = 0;  ///< +inf while no cell was seen
    float elevationMax = 0;  ///< -inf while no cell was seen
    /// With `complete` only (else 0): the elevation sum in 2^-30 m, cells per class, and the
    /// cells whose class is walkable.
    Int128 elevationSumFixed = 0;
    std::array<std::int64_t, 256> classCells{};
    std::int64_t walkableCells = 0;

    /// The summary of no cell.
    static TileSummary empty() noexcept;
    /// This summary without what only a complete one has (the sum and the counts).
    TileSummary rangeOnly() const noexcept;
    /// Adds `other`'s cells to this summary.
    void add(const TileSummary& other) noexcept;
};

/// The mean of `cells` elevations whose sum is `sumFixed` (2^-30 m): 0 for no cell. Pure.
double elevationMean(Int128 sumFixed, std::int64_t cells) noexcept;

/// `sum` in decimal digits, as stats.json records the exact elevation sum (JSON numbers lose
/// integers above 2^53 in most readers). Pure.
std::string fixedSumText(Int128 sum);
/// The sum fixedSumText wrote, or nullopt when `text` is not such a number. Pure.
std::optional<Int128> parseFixedSum(std::string_view text) noexcept;

/// `tile`'s summary: elevation range and cell count, and with `complete` also the elevation
/// sum and the class and walkable counts (what stats.json needs). Thread-safe.
TileSummary summariseTile(const Tile& tile, bool complete);

/// llround(double(v) * kElevationSumScale), without the libm call: the product is exact (a
/// power of two times a float), so truncating and correcting by the exact remainder rounds
/// half away from zero as llround does.
std::int64_t elevationFixed(float v) noexcept;

}  // namespace terragrid

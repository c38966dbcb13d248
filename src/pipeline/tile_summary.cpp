// Tile summaries (terragrid/pipeline/tile_summary.hpp).

#include "terragrid/pipeline/tile_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "terragrid/pipeline/generator.hpp"

namespace terragrid {

TileSummary TileSummary::empty() noexcept {
    TileSummary s;
    s.elevationMin = std::numeric_limits<float>::infinity();
    s.elevationMax = -std::numeric_limits<float>::infinity();
    return s;
}

TileSummary TileSummary::rangeOnly() const noexcept {
    TileSummary s = empty();
    s.cells = cells;
    s.elevationMin = elevationMin;
    s.elevationMax = elevationMax;
    return s;
}

void TileSummary::add(const TileSummary& other) noexcept {
    cells += other.cells;
    elevationMin = std::min(elevationMin, other.elevationMin);
    elevationMax = std::max(elevationMax, other.elevationMax);
    elevationSumFixed += other.elevationSumFixed;
    for (std::size_t i = 0; i < classCells.size(); ++i) classCells[i] += other.classCells[i];
    walkableCells += other.walkableCells;
}

std::int64_t elevationFixed(float v) noexcept {
    const double p = double(v) * kElevationSumScale;
    // Beyond 2^62 the truncation below could overflow; such elevations (over 4e9 m) take the
    // library's path.
    if (!(std::fabs(p) < 0x1p62)) return std::llround(p);
    const auto t = static_cast<std::int64_t>(p);  // toward zero
    const double rest = p - double(t);            // exact: |rest| < 1 and p, t share a binade
    if (rest >= 0.5) return t + 1;
    if (rest <= -0.5) return t - 1;
    return t;
}

namespace {

// Four floats, one SSE (or NEON) register: GCC and Clang compile the comparisons and selects
// below to vector min and max. (Written as eight scalar lanes, GCC kept them scalar: 3 % of a
// height-only run.)
using Lanes = float __attribute__((vector_size(16)));
constexpr std::size_t kLanes = 4;

Lanes lanesOf(float value) noexcept { return Lanes{value, value, value, value}; }

}  // namespace

TileSummary summariseTile(const Tile& tile, bool complete) {
    TileSummary s = TileSummary::empty();
    s.cells = static_cast<std::int64_t>(tile.elevationMeters.size());
    // Two independent accumulators of four lanes each, so the min and max chains overlap;
    // elevations are never NaN, so the order of comparisons cannot change the result.
    Lanes low[2] = {lanesOf(s.elevationMin), lanesOf(s.elevationMin)};
    Lanes high[2] = {lanesOf(s.elevationMax), lanesOf(s.elevationMax)};
    const std::vector<float>& v = tile.elevationMeters;
    std::size_t i = 0;
    for (; i + 2 * kLanes <= v.size(); i += 2 * kLanes)
        for (std::size_t k = 0; k < 2; ++k) {
            Lanes x;
            std::memcpy(&x, v.data() + i + k * kLanes, sizeof x);
            low[k] = x < low[k] ? x : low[k];
            high[k] = x > high[k] ? x : high[k];
        }
    float lowest = s.elevationMin, highest = s.elevationMax;
    for (std::size_t k = 0; k < 2; ++k)
        for (std::size_t lane = 0; lane < kLanes; ++lane) {
            lowest = std::min(lowest, low[k][lane]);
            highest = std::max(highest, high[k][lane]);
        }
    for (; i < v.size(); ++i) {
        lowest = std::min(lowest, v[i]);
        highest = std::max(highest, v[i]);
    }
    s.elevationMin = lowest;
    s.elevationMax = highest;
    if (!complete) return s;
    Int128 sum = 0;
    for (float v : tile.elevationMeters) sum += elevationFixed(v);
    s.elevationSumFixed = sum;
    for (std::uint8_t c : tile.classIndex) ++s.classCells[c];
    for (std::uint8_t w : tile.walkable) s.walkableCells += w;
    return s;
}

double elevationMean(Int128 sumFixed, std::int64_t cells) noexcept {
    return cells == 0 ? 0.0 : double(sumFixed) / kElevationSumScale / double(cells);
}

std::string fixedSumText(Int128 sum) {
    const bool negative = sum < 0;
    // Digits of the magnitude, taken from the negative side so the most negative value fits.
    std::string digits;
    do {
        const int digit = static_cast<int>(sum % 10);
        digits.insert(digits.begin(), static_cast<char>('0' + (negative ? -digit : digit)));
        sum /= 10;
    } while (sum != 0);
    return negative ? "-" + digits : digits;
}

std::optional<Int128> parseFixedSum(std::string_view text) noexcept {
    const bool negative = !text.empty() && text.front() == '-';
    if (negative) text.remove_prefix(1);
    if (text.empty() || text.size() > 38) return std::nullopt;  // 10^38 < 2^127
    Int128 value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return negative ? -value : value;
}

}  // namespace terragrid

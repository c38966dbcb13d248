#pragma once
// Which neighbours drain into each cell, one bit per neighbour, for the passes that walk the
// flow from the sources down (accumulate, strahlerOrder).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "neighbours.hpp"

namespace terragrid::hydro::detail {

/// Per cell: bit k set when neighbour k (neighbours.hpp's order) has the cell as its receiver.
/// Its bits in increasing order name the donors in increasing cell index. Rows in parallel;
/// the same bits for any thread count.
std::vector<std::uint8_t> donorMasks(const Shape& shape, const std::vector<std::uint32_t>& receiver);

/// The number of donors in a mask: its bits set (std::popcount without a POPCNT instruction
/// is a library call; this is four operations, inline).
inline std::uint8_t donorCount(std::uint8_t mask) {
    unsigned m = mask;
    m = m - ((m >> 1) & 0x55u);
    m = (m & 0x33u) + ((m >> 2) & 0x33u);
    return static_cast<std::uint8_t>((m + (m >> 4)) & 0x0Fu);
}

/// Each mask of masks[0, n) as its donorCount into counts (which may be masks itself): the
/// counters the walks count down. In parallel.
void countDonors(const std::uint8_t* masks, std::uint8_t* counts, std::size_t n);

}  // namespace terragrid::hydro::detail

#pragma once
// A height and a cell index packed into one integer whose order is (height, index): the
// Priority-Flood queues compare 8-byte integers, and equal heights leave in index order.

#include <bit>
#include <cstdint>

namespace terragrid::hydro::detail {

/// A uint32 whose unsigned order is the float order of h (h not NaN; -0 before +0).
inline std::uint32_t orderedBits(float h) {
    const auto u = std::bit_cast<std::uint32_t>(h);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

inline float heightOfBits(std::uint32_t b) {
    return std::bit_cast<float>((b & 0x80000000u) ? (b & 0x7FFFFFFFu) : ~b);
}

inline std::uint64_t priorityKey(float h, std::uint32_t cell) {
    return (std::uint64_t{orderedBits(h)} << 32) | cell;
}
inline std::uint32_t cellOfKey(std::uint64_t key) { return static_cast<std::uint32_t>(key); }

}  // namespace terragrid::hydro::detail

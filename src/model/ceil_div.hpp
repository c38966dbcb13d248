#pragma once

#include <cstdint>

namespace terragrid {

/// a / b rounded up, for a >= 0 and b > 0: how many pieces of b cover a (tiles over a map,
/// rows per block, chunks per file).
constexpr std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace terragrid

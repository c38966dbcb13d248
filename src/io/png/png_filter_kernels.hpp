#pragma once
// PNG's Paeth filter on a row (private to src/io/png): written once with Google Highway
// (png_filter_kernels.cpp), compiled for every x86-64 target and dispatched at run time. Each
// lane predicts its byte as the reference below does, so every target writes the same bytes
// (tests/png_filter_kernels_test.cpp compares each target the machine runs with it).
//
// Why: after the noise and deflate, the filter was the explorer tile's largest cost. GCC
// vectorises the scalar loop only in 32-bit lanes: 184 us for a 256 x 256 RGB tile, against
// 33 us in these 16-bit lanes on AVX-512 (the same rows, alternately, on the 2-core EPYC).

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace terragrid::png_filter {

/// PNG's Paeth predictor: of a (left), b (up) and c (up left), the one nearest to
/// p = a + b - c, ties in that order (the PNG specification's reference).
inline std::uint8_t paeth(std::uint8_t a, std::uint8_t b, std::uint8_t c) noexcept {
    const int p = int(a) + int(b) - int(c);
    const int pa = std::abs(p - int(a));
    const int pb = std::abs(p - int(b));
    const int pc = std::abs(p - int(c));
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/// One row filtered: out[x] = row[x] - paeth(left, up, up left) for the `rowBytes` bytes of
/// `row` below `up`, pixels of `bpp` bytes (the first pixel's left neighbours are 0).
void paethRow(const std::uint8_t* row, const std::uint8_t* up, std::size_t rowBytes,
              std::size_t bpp, std::uint8_t* out);

}  // namespace terragrid::png_filter

#include "donor_masks.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace terragrid::hydro::detail {

namespace {

std::uint8_t maskAt(const Shape& shape, const std::uint32_t* receiver, std::int32_t x, std::int32_t y) {
    const auto i = std::uint32_t(std::int64_t{y} * shape.width + x);
    std::uint8_t mask = 0;
    shape.forEachNeighbour(x, y, [&](int k, std::uint32_t nb) { mask |= std::uint8_t((receiver[nb] == i) << k); });
    return mask;
}

/// The cells of an inner row but its first and last: every neighbour exists, and the 8 loads
/// sit at fixed distances, which the compiler turns into vector compares.
void innerRow(const Shape& shape, const std::uint32_t* receiver, std::int32_t y, std::uint8_t* mask) {
    const std::int64_t w = shape.width;
    const auto row = std::uint32_t(std::int64_t{y} * w);
    const std::uint32_t* above = receiver + (row - w);
    const std::uint32_t* here = receiver + row;
    const std::uint32_t* below = receiver + (row + w);
    for (std::int64_t x = 1; x < w - 1; ++x) {
        const std::uint32_t i = row + std::uint32_t(x);
        mask[row + x] = std::uint8_t((above[x - 1] == i) | (above[x] == i) << 1 | (above[x + 1] == i) << 2 |
                                     (here[x - 1] == i) << 3 | (here[x + 1] == i) << 4 |
                                     (below[x - 1] == i) << 5 | (below[x] == i) << 6 | (below[x + 1] == i) << 7);
    }
}

}  // namespace

std::vector<std::uint8_t> donorMasks(const Shape& shape, const std::vector<std::uint32_t>& receiver) {
    std::vector<std::uint8_t> mask(shape.cells());
    const std::uint32_t* r = receiver.data();
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height, 16), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y) {
            if (y == 0 || y == shape.height - 1 || shape.width < 3) {
                for (std::int32_t x = 0; x < shape.width; ++x)
                    mask[std::size_t(y) * std::size_t(shape.width) + std::size_t(x)] = maskAt(shape, r, x, y);
                continue;
            }
            innerRow(shape, r, y, mask.data());
            mask[std::size_t(y) * std::size_t(shape.width)] = maskAt(shape, r, 0, y);
            mask[std::size_t(y) * std::size_t(shape.width) + std::size_t(shape.width - 1)] = maskAt(shape, r, shape.width - 1, y);
        }
    });
    return mask;
}

void countDonors(const std::uint8_t* masks, std::uint8_t* counts, std::size_t n) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 16384), [&](const auto& r) {
        for (std::size_t c = r.begin(); c < r.end(); ++c) counts[c] = donorCount(masks[c]);
    });
}

}  // namespace terragrid::hydro::detail

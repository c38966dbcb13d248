#include "hydro/erosion_flow.hpp"

#include "hydro/avx2_lanes.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace terragrid::hydro::detail {

ErosionFlow::ErosionFlow(std::int32_t width, std::int32_t height, std::vector<std::uint8_t> fixed)
    : m_shape(width, height), m_fixed(fixed.begin(), fixed.end()) {
    const std::size_t n = std::size_t(width) * std::size_t(height);
    if (width <= 0 || height <= 0 || m_fixed.size() != n || n >= 0xFFFFFFFFu)
        throw std::invalid_argument("erosion routing: bad grid size");
    if (std::none_of(m_fixed.begin(), m_fixed.end(), [](std::uint8_t f) { return f != 0; }))
        throw std::invalid_argument("erosion routing: no outlet cell");
    m_direction.resize(n);
    m_basin.resize(n);
}

void ErosionFlow::route(const double* h, const CellLists& hint) {
    steepestDescent(h);
    if (!m_pits.empty()) drainDepressions(h, hint);
}

namespace {

/// The steepest way down from cell i among the neighbours f visits (ErosionRouter's rule: the
/// first of equal slopes in neighbour order wins, and none when no neighbour is lower).
template <class ForEach>
std::uint8_t steepest(const double* h, std::uint32_t i, ForEach&& forEach) {
    std::uint8_t best = kSelf;
    double bestSlope = 0;
    forEach([&](int k, std::uint32_t j) {
        const double slope = (h[i] - h[j]) * kInvDistance[k];
        if (slope > bestSlope) {
            bestSlope = slope;
            best = std::uint8_t(k);
        }
    });
    return best;
}

using Doubles = double __attribute__((vector_size(32)));
using Longs = std::int64_t __attribute__((vector_size(32)));
constexpr int kLanes = 4;

/// The same rule on cells [x0, x1) of an inner row (every neighbour exists), four cells at a
/// time with no branch: the neighbours' order is kept, a later slope wins only when greater,
/// and the arithmetic is the scalar one, so the directions are the same. Where the compiler
/// was left to it, the branches of the scalar rule (which neighbour is steepest: no pattern
/// to predict) cost more than the rest of the pass. Compiled twice, for AVX2 and for every
/// x86-64, and picked on the first call (not with target_clones: its ifunc resolver runs
/// before a sanitizer's runtime is up and crashed every program of the TSan build at start).
__attribute__((always_inline)) inline void steepestInRowLanes(
    const double* h, const std::uint8_t* fixed, const std::int64_t* offset, std::int64_t x0,
    std::int64_t x1, std::uint8_t* direction) {
    std::int64_t x = x0;
    for (; x + kLanes <= x1; x += kLanes) {
        Doubles centre, neighbour;
        std::memcpy(&centre, h + x, sizeof centre);
        Doubles bestSlope = {0, 0, 0, 0};
        Longs best = {kSelf, kSelf, kSelf, kSelf};
        for (int k = 0; k < 8; ++k) {
            std::memcpy(&neighbour, h + x + offset[k], sizeof neighbour);
            const Doubles slope = (centre - neighbour) * kInvDistance[k];
            const Longs steeper = slope > bestSlope;
            bestSlope = steeper ? slope : bestSlope;
            best = steeper ? Longs{k, k, k, k} : best;
        }
        for (int lane = 0; lane < kLanes; ++lane)
            direction[x + lane] = fixed[x + lane] ? kSelf : std::uint8_t(best[lane]);
    }
    for (; x < x1; ++x)
        direction[x] = fixed[x] ? kSelf : steepest(h, std::uint32_t(x), [&](auto&& f) {
            for (int k = 0; k < 8; ++k) f(k, std::uint32_t(x + offset[k]));
        });
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void steepestInRowAvx2(const double* h, const std::uint8_t* fixed,
                                                       const std::int64_t* offset, std::int64_t x0,
                                                       std::int64_t x1, std::uint8_t* direction) {
    steepestInRowLanes(h, fixed, offset, x0, x1, direction);
}
#endif

void steepestInRow(const double* h, const std::uint8_t* fixed, const std::int64_t* offset,
                   std::int64_t x0, std::int64_t x1, std::uint8_t* direction) {
#if defined(__x86_64__)
    if (avx2Lanes()) return steepestInRowAvx2(h, fixed, offset, x0, x1, direction);
#endif
    steepestInRowLanes(h, fixed, offset, x0, x1, direction);
}

}  // namespace

// Each cell independently, rows in parallel: the same directions for any thread count. The
// pits each block finds are gathered and sorted, so their order is the cells' too.
void ErosionFlow::steepestDescent(const double* h) {
    const Shape& shape = m_shape;
    const std::int32_t w = shape.width;
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> found;
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height, 8), [&](const auto& rows) {
        std::vector<std::uint32_t>* pits = nullptr;
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y) {
            const std::uint32_t row = std::uint32_t(y) * std::uint32_t(w);
            const auto edgeCell = [&](std::int32_t x) {
                const std::uint32_t i = row + std::uint32_t(x);
                m_direction[i] = m_fixed[i] ? kSelf : steepest(h, i, [&](auto&& f) { shape.forEachNeighbour(x, y, f); });
            };
            if (y == 0 || y == shape.height - 1 || w < 3) {
                for (std::int32_t x = 0; x < w; ++x) edgeCell(x);
            } else {
                edgeCell(0);
                steepestInRow(h, m_fixed.data(), shape.offset, std::int64_t(row) + 1,
                              std::int64_t(row) + w - 1, m_direction.data());
                edgeCell(w - 1);
            }
            for (std::uint32_t i = row; i < row + std::uint32_t(w); ++i) {
                // The outlets' basin, and no basin yet for the rest (labelBasins), here where
                // the row is at hand: a pass of its own would read the grid once more.
                m_basin[i] = m_fixed[i] ? 0 : kUnlabelled;
                if (m_direction[i] == kSelf && !m_fixed[i]) {
                    if (!pits) pits = &found.local();
                    pits->push_back(i);
                }
            }
        }
    });
    m_pits.clear();
    for (const std::vector<std::uint32_t>& pits : found) m_pits.insert(m_pits.end(), pits.begin(), pits.end());
    std::sort(m_pits.begin(), m_pits.end());
}

}  // namespace terragrid::hydro::detail

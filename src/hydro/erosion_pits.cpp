// ErosionFlow's depressions, drained through their lowest passes (basin_graph.hpp). With open
// edges every cell lies in a depression's basin (the ring around the map is level with its
// border, so nothing drains into it by steepest descent: each border cell that is lower than
// its neighbours inside is a pit, drained across the border by the basin graph); so the
// basins are labelled, and their passes found, by passes over the whole grid that run in
// parallel, in memory order.

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <atomic>
#include <unordered_map>

#include "hydro/erosion_flow.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace terragrid::hydro::detail {

namespace {

/// The direction k in which `to`, a neighbour of `from`, lies (by rows and columns: on grids
/// one or two cells wide two directions can share an index step).
std::uint8_t directionTo(const Shape& shape, std::uint32_t from, std::uint32_t to) {
    const std::int32_t fromRow = shape.rowOf(from), toRow = shape.rowOf(to);
    const std::int64_t dx = (std::int64_t(to) - std::int64_t(toRow) * shape.width) -
                            (std::int64_t(from) - std::int64_t(fromRow) * shape.width);
    const std::int64_t at = (toRow - fromRow + 1) * 3 + (dx + 1);  // 0..8, 4 the cell itself
    return std::uint8_t(at < 4 ? at : at - 1);
}

/// The neighbours after a cell in index order, as (dx, dy): each pair of neighbouring cells
/// is met once, from its first cell.
constexpr int kLaterDx[4] = {1, -1, 0, 1};
constexpr int kLaterDy[4] = {0, 1, 1, 1};

/// Calls f(i) for each cell i in [first, last) of an inner row (w cells wide) that has a later
/// neighbour (kLaterDx, kLaterDy) in another basin, in index order. Most cells share their
/// basin with all four: the test runs four cells at a time (SSE2, on every x86-64), where a
/// test and a branch per cell mispredicted at every ridge.
template <class F>
void forEachRidgeCell(const std::uint32_t* basin, std::uint32_t w, std::uint32_t first,
                      std::uint32_t last, F&& f) {
    const auto differs = [&](std::uint32_t i) {
        const std::uint32_t b = basin[i];
        return ((b ^ basin[i + 1]) | (b ^ basin[i + w - 1]) | (b ^ basin[i + w]) | (b ^ basin[i + w + 1])) != 0;
    };
    std::uint32_t i = first;
#if defined(__x86_64__)
    const auto at = [&](std::uint32_t j) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(basin + j)); };
    for (; i + 4 <= last; i += 4) {
        const __m128i b = at(i);
        const __m128i other = _mm_or_si128(_mm_or_si128(_mm_xor_si128(b, at(i + 1)), _mm_xor_si128(b, at(i + w - 1))),
                                           _mm_or_si128(_mm_xor_si128(b, at(i + w)), _mm_xor_si128(b, at(i + w + 1))));
        unsigned ridge = unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(other, _mm_setzero_si128())))) ^ 0xFu;
        for (; ridge; ridge &= ridge - 1) f(i + std::uint32_t(std::countr_zero(ridge)));
    }
#endif
    for (; i < last; ++i)
        if (differs(i)) f(i);
}

/// What labelBasins reads and writes, copied into locals in each task: the labels' atomic
/// loads and stores are barriers to the compiler, which reloaded every pointer it reached
/// through a capture or `this` after each of them, on every cell.
struct BasinLabels {
    std::uint32_t* basin;
    const std::uint8_t* direction;
    std::int64_t offset[kSelf + 1];  ///< the neighbours', and 0 for a root (its own receiver)

    static constexpr std::uint32_t kUnlabelled = 0xFFFFFFFFu;  // ErosionFlow's

    std::uint32_t receiver(std::uint32_t i) const { return std::uint32_t(std::int64_t(i) + offset[direction[i]]); }
    std::uint32_t labelOf(std::uint32_t i) const {
        return std::atomic_ref<std::uint32_t>(basin[i]).load(std::memory_order_relaxed);
    }
    void label(std::uint32_t i, std::uint32_t b) const {
        std::atomic_ref<std::uint32_t>(basin[i]).store(b, std::memory_order_relaxed);
    }
    /// From cell c, if not labelled: down the flow to a labelled cell (a root always is), then
    /// the cells on the way take its label. `path` is scratch.
    void labelFrom(std::uint32_t c, std::vector<std::uint32_t>& path) const {
        if (labelOf(c) != kUnlabelled) return;
        path.clear();
        std::uint32_t x = c, b;
        do {
            path.push_back(x);
            x = receiver(x);
        } while ((b = labelOf(x)) == kUnlabelled);
        for (const std::uint32_t p : path) label(p, b);
    }
};

}  // namespace

void ErosionFlow::drainDepressions(const double* h, const CellLists& hint) {
    labelBasins(hint);
    drainThroughPasses(
        m_basin.data(), std::uint32_t(m_pits.size()) + 1, lowestPasses(h),
        [&](std::uint32_t cell) { return receiver(cell); },
        [&](std::uint32_t cell, std::uint32_t to) { m_direction[cell] = directionTo(m_shape, cell, to); });
}

// Each cell takes its root's basin: the outlets' 0 and the others' kUnlabelled (set by
// steepestDescent), a pit's number. From each cell not labelled yet the walk follows the flow
// down to a labelled cell (a root always is), then labels the cells on the way. Threads may
// label a cell twice, with the same value: no claims needed, and the label is its own mark
// (relaxed atomics: nothing else is read on its word).
// In the reverse order of the hint's lists (the last step's flow, receivers first) most cells
// find their receiver labelled and take its basin at once; the walks are for the rest, and for
// the first step, which visits the cells in index order.
void ErosionFlow::labelBasins(const CellLists& hint) {
    const std::size_t n = m_shape.cells();
    for (std::uint32_t p = 0; p < m_pits.size(); ++p) m_basin[m_pits[p]] = p + 1;
    static_assert(BasinLabels::kUnlabelled == kUnlabelled);
    BasinLabels labels{m_basin.data(), m_direction.data(), {}};
    std::copy(m_shape.offset, m_shape.offset + 8, labels.offset);
    labels.offset[kSelf] = 0;
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> paths;
    if (hint.empty()) {
        tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, std::uint32_t(n), 16384), [&](const auto& range) {
            const BasinLabels s = labels;  // locals (BasinLabels says why)
            std::vector<std::uint32_t>& path = paths.local();
            for (std::uint32_t c = range.begin(); c < range.end(); ++c) s.labelFrom(c, path);
        });
        return;
    }
    // The lists in pieces, each piece last cell first.
    constexpr std::size_t kPiece = 1 << 16;
    CellLists pieces;
    for (const auto& [first, last] : hint)
        for (const std::uint32_t* end = last; end != first;) {
            const std::uint32_t* begin = end - std::min<std::size_t>(kPiece, std::size_t(end - first));
            pieces.emplace_back(begin, end);
            end = begin;
        }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pieces.size(), 1), [&](const auto& range) {
        const BasinLabels s = labels;
        std::vector<std::uint32_t>& path = paths.local();
        for (std::size_t p = range.begin(); p < range.end(); ++p)
            for (const std::uint32_t* c = pieces[p].second; c-- != pieces[p].first;) {
                // The common case: the receiver is labelled (a root's own label is rewritten).
                const std::uint32_t b = s.labelOf(s.receiver(*c));
                if (b != kUnlabelled) s.label(*c, b);
                else s.labelFrom(*c, path);
            }
    });
}

// Every pair of neighbouring cells in different basins is a pass between them; the lowest of
// each pair of basins is kept (keys are unique, so the minimum is, whichever thread finds it).
std::vector<PassEdge> ErosionFlow::lowestPasses(const double* h) const {
    using Lowest = std::unordered_map<std::uint64_t, PassEdge>;
    tbb::enumerable_thread_specific<Lowest> found;
    const Shape& shape = m_shape;
    const std::uint32_t* basin = m_basin.data();
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height, 16), [&](const auto& rows) {
        Lowest& lowest = found.local();
        std::uint64_t lastPair = ~std::uint64_t{0};
        PassEdge* last = nullptr;  // a ridge meets the same pair of basins many times in a row
        const auto pass = [&](std::uint32_t i, std::uint32_t j) {
            const std::uint32_t bi = basin[i], bj = basin[j];
            if (bi == bj) return;
            const PassEdge e{std::max(h[i], h[j]), i, j};
            const std::uint64_t pair = std::uint64_t(std::min(bi, bj)) << 32 | std::max(bi, bj);
            if (pair != lastPair) {
                last = &lowest.try_emplace(pair, e).first->second;
                lastPair = pair;
            }
            if (passOrder(e, *last)) *last = e;
        };
        const std::uint32_t w = std::uint32_t(shape.width);
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y) {
            const std::uint32_t row = std::uint32_t(y) * w;
            const auto edgeCell = [&](std::int32_t x) {
                for (int k = 0; k < 4; ++k) {
                    const std::int32_t nx = x + kLaterDx[k], ny = y + kLaterDy[k];
                    if (nx >= 0 && nx < shape.width && ny < shape.height)
                        pass(row + std::uint32_t(x), std::uint32_t(ny) * w + std::uint32_t(nx));
                }
            };
            if (y == shape.height - 1 || w < 3) {
                for (std::int32_t x = 0; x < shape.width; ++x) edgeCell(x);
                continue;
            }
            edgeCell(0);
            const auto inner = [&](std::uint32_t i) {
                pass(i, i + 1);
                pass(i, i + w - 1);
                pass(i, i + w);
                pass(i, i + w + 1);
            };
            forEachRidgeCell(basin, w, row + 1, row + w - 1, inner);
            edgeCell(shape.width - 1);
        }
    });
    Lowest all;
    for (Lowest& lowest : found)
        for (const auto& [pair, e] : lowest) {
            const auto [at, added] = all.try_emplace(pair, e);
            if (!added && passOrder(e, at->second)) at->second = e;
        }
    std::vector<PassEdge> edges;
    edges.reserve(all.size());
    for (const auto& [pair, e] : all) edges.push_back(e);
    return edges;
}

}  // namespace terragrid::hydro::detail

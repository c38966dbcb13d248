// D8 flow routing: steepest descent, flats drained by Barnes, Lehman & Mulla (2014), "An
// efficient assignment of drainage direction over flat surfaces in raster digital elevation
// models", and a topological order of the cells (donors first).

#include "terragrid/hydro/flow.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "neighbours.hpp"

namespace terragrid::hydro {

namespace {

using detail::Shape;

/// Receiver states while routing: a flat cell still to drain, and one the flat resolution has
/// reached but not yet given a neighbour.
constexpr std::uint32_t kFlat = 0xFFFFFFFEu;
constexpr std::uint32_t kPending = 0xFFFFFFFDu;

/// Outlets get kNoReceiver, cells with a lower neighbour the steepest one, the rest kFlat.
/// Each row on its own: parallel, and the same bits for any thread count.
void steepestDescent(const Shape& shape, const Outlets& outlets, const std::vector<float>& z,
                     std::vector<std::uint32_t>& receiver) {
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y)
            for (std::int32_t x = 0; x < shape.width; ++x) {
                const auto i = static_cast<std::uint32_t>(std::int64_t{y} * shape.width + x);
                if (detail::isOutlet(shape, outlets, i, z[i])) {
                    receiver[i] = kNoReceiver;
                    continue;
                }
                const double h = z[i];
                double best = 0;
                std::uint32_t to = kFlat;
                shape.forEachNeighbour(x, y, [&](int k, std::uint32_t nb) {
                    const double slope = (h - double{z[nb]}) * detail::kInvDistance[k];
                    if (slope > best) {
                        best = slope;
                        to = nb;
                    }
                });
                receiver[i] = to;
            }
    });
}

/// One breadth-first ring: calls claim(c, nb) for each neighbour nb of each cell c of `ring`;
/// those for which it returns true (it must do so at most once per nb: an atomic claim) form
/// `next`. Large rings are expanded in parallel; the set `next` holds does not depend on it,
/// only the order within it, which no result depends on.
template <class Claim>
void expandRing(const Shape& shape, const std::vector<std::uint32_t>& ring,
                std::vector<std::uint32_t>& next, Claim claim) {
    next.clear();
    constexpr std::size_t kParallelRing = 1024;
    if (ring.size() < kParallelRing) {
        for (std::uint32_t c : ring)
            shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
                if (claim(c, nb)) next.push_back(nb);
            });
        return;
    }
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> found;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ring.size(), 1024), [&](const auto& r) {
        std::vector<std::uint32_t>& mine = found.local();
        for (std::size_t k = r.begin(); k < r.end(); ++k)
            shape.forEachNeighbour(ring[k], [&](int, std::uint32_t nb) {
                if (claim(ring[k], nb)) mine.push_back(nb);
            });
    });
    for (const auto& part : found) next.insert(next.end(), part.begin(), part.end());
}

/// Runs f(k) for k in [0, n), in parallel.
template <class F>
void forEachIndex(std::size_t n, F f) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& r) {
        for (std::size_t k = r.begin(); k < r.end(); ++k) f(k);
    });
}

/// The indices in [0, n) for which keep(i) holds, in increasing order: chunks scanned in
/// parallel, joined in chunk order.
template <class Keep>
std::vector<std::uint32_t> indicesWhere(std::size_t n, Keep keep) {
    constexpr std::size_t kChunk = std::size_t{1} << 16;
    std::vector<std::vector<std::uint32_t>> parts((n + kChunk - 1) / kChunk);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, parts.size(), 1), [&](const auto& r) {
        for (std::size_t p = r.begin(); p < r.end(); ++p)
            for (std::size_t i = p * kChunk; i < std::min(n, (p + 1) * kChunk); ++i)
                if (keep(i)) parts[p].push_back(static_cast<std::uint32_t>(i));
    });
    std::size_t total = 0;
    for (const auto& part : parts) total += part.size();
    std::vector<std::uint32_t> out;
    out.reserve(total);
    for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
    return out;
}

/// Barnes et al. (2014): on each flat (8-connected cells of one height with no lower
/// neighbour), a gradient away from higher ground plus twice a gradient toward the flat's way
/// out; each flat cell drains to its neighbour of least gradient, so water crosses the flat
/// toward its exit without running along its edges. The toward part falls by 2 per step
/// and the away part changes by at most 1, so every cell has a neighbour lower than itself and
/// no loop can form. Both gradients are breadth-first distances, which are unique, so the
/// rings may be expanded in parallel without changing a bit.
class FlatResolver {
public:
    FlatResolver(const Shape& shape, const std::vector<float>& z, std::vector<std::uint32_t>& receiver)
        : m_shape(shape), m_z(z), m_receiver(receiver) {}

    void run() {
        m_flats = indicesWhere(m_shape.cells(), [&](std::size_t i) { return m_receiver[i] == kFlat; });
        if (m_flats.empty()) return;
        m_mask.assign(m_shape.cells(), 0);
        classify();
        awayFromHigher();
        towardLower();
        drainPending();
        for (std::uint32_t i : m_flats)
            if (m_receiver[i] == kFlat) m_receiver[i] = kNoReceiver;  // a pit: nowhere to go
    }

private:
    bool sameFlat(std::uint32_t a, std::uint32_t b) const { return m_z[a] == m_z[b]; }

    /// One look at each flat cell's neighbours, before any flat cell drains: the cells beside
    /// higher ground (the away pass starts there) and those beside a drained cell of the same
    /// height, with the first such cell (their exit, where the toward pass starts).
    void classify() {
        std::vector<std::uint32_t> exit(m_flats.size());
        std::vector<std::uint8_t> higher(m_flats.size());
        forEachIndex(m_flats.size(), [&](std::size_t k) {
            const std::uint32_t c = m_flats[k];
            std::uint32_t out = kFlat;
            bool up = false;
            m_shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
                up |= m_z[nb] > m_z[c];
                if (out == kFlat && sameFlat(c, nb) && drained(nb)) out = nb;
            });
            exit[k] = out;
            higher[k] = up;
        });
        for (std::size_t k = 0; k < m_flats.size(); ++k) {
            if (higher[k]) m_besideHigher.push_back(m_flats[k]);
            if (exit[k] != kFlat) {
                m_besideExit.push_back(m_flats[k]);
                m_exits.push_back(exit[k]);
            }
        }
    }

    /// m_mask = steps from the nearest higher cell, breadth-first from the flat cells beside one.
    void awayFromHigher() {
        std::vector<std::uint32_t> ring = std::move(m_besideHigher);
        for (std::uint32_t c : ring) m_mask[c] = 1;
        std::vector<std::uint32_t> next;
        for (std::int32_t step = 2; !ring.empty(); ++step) {
            expandRing(m_shape, ring, next, [&](std::uint32_t c, std::uint32_t nb) {
                if (m_receiver[nb] != kFlat || !sameFlat(c, nb)) return false;
                std::atomic_ref<std::int32_t> mask(m_mask[nb]);
                std::int32_t unset = 0;  // a plain load first: most neighbours are taken
                return mask.load(std::memory_order_relaxed) == 0 &&
                       mask.compare_exchange_strong(unset, step, std::memory_order_relaxed);
            });
            ring.swap(next);
        }
    }

    /// Breadth-first from the flat cells beside a drained cell of the same height (those drain
    /// straight to it), ring by ring; m_mask becomes 2 * ring - away.
    void towardLower() {
        // Exits were found before any is set, so a seed never drains into another seed.
        std::vector<std::uint32_t> ring = std::move(m_besideExit);
        forEachIndex(ring.size(), [&](std::size_t k) {
            m_receiver[ring[k]] = m_exits[k];
            m_mask[ring[k]] = 2 - m_mask[ring[k]];
        });
        std::vector<std::uint32_t> next;
        for (std::int32_t step = 2; !ring.empty(); ++step) {
            expandRing(m_shape, ring, next, [&](std::uint32_t c, std::uint32_t nb) {
                if (!sameFlat(c, nb)) return false;
                std::atomic_ref<std::uint32_t> receiver(m_receiver[nb]);
                std::uint32_t flat = kFlat;
                if (receiver.load(std::memory_order_relaxed) != kFlat ||
                    !receiver.compare_exchange_strong(flat, kPending, std::memory_order_relaxed))
                    return false;
                m_mask[nb] = 2 * step - m_mask[nb];
                return true;
            });
            m_pending.insert(m_pending.end(), next.begin(), next.end());
            ring.swap(next);
        }
    }

    /// A cell that already has its way: an outlet or a cell with a lower neighbour.
    bool drained(std::uint32_t i) const {
        return m_receiver[i] != kFlat && m_receiver[i] != kPending;
    }

    /// Each cell the toward pass reached drains to its same-height neighbour of least mask
    /// (the masks are all final: each cell reads them only, and writes its own receiver).
    void drainPending() {
        forEachIndex(m_pending.size(), [&](std::size_t k) {
            const std::uint32_t c = m_pending[k];
            std::int32_t best = m_mask[c];
            std::uint32_t to = kFlat;
            m_shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
                if (!sameFlat(c, nb) || m_mask[nb] >= best) return;
                best = m_mask[nb];
                to = nb;
            });
            m_receiver[c] = to;  // never kFlat: the ring before holds a lower mask
        });
    }

    const Shape& m_shape;
    const std::vector<float>& m_z;
    std::vector<std::uint32_t>& m_receiver;
    std::vector<std::uint32_t> m_flats, m_pending;
    std::vector<std::uint32_t> m_besideHigher, m_besideExit, m_exits;  ///< from classify()
    std::vector<std::int32_t> m_mask;
};

/// Kahn's algorithm, depth first: for each cell no one drains into (in index order), the cell,
/// then down its receivers as long as the cell reached has all its donors in. Walking down
/// the receivers keeps to neighbouring cells, which caches like; a queue of cells all over the
/// map does not. The donor counts and the starting cells are found in parallel; the walk is
/// serial. Any order with donors first gives every result the same bits (accumulate and the
/// erosion solver read only a cell's donors or receiver), so this one is a choice, fixed.
std::vector<std::uint32_t> donorsFirst(const Shape& shape, const std::vector<std::uint32_t>& receiver) {
    const std::size_t n = receiver.size();
    std::vector<std::uint8_t> donors(n);
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y)
            for (std::int32_t x = 0; x < shape.width; ++x) {
                const auto i = static_cast<std::uint32_t>(std::int64_t{y} * shape.width + x);
                std::uint8_t count = 0;
                shape.forEachNeighbour(x, y, [&](int, std::uint32_t nb) { count += receiver[nb] == i; });
                donors[i] = count;
            }
    });
    const std::vector<std::uint32_t> sources = indicesWhere(n, [&](std::size_t i) { return donors[i] == 0; });
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (std::uint32_t c : sources) {
        order.push_back(c);
        for (std::uint32_t r = receiver[c]; r != kNoReceiver && --donors[r] == 0; r = receiver[r])
            order.push_back(r);
    }
    if (order.size() != n) throw std::logic_error("routeFlow: the receivers form a loop");
    return order;
}

}  // namespace

FlowRouting routeFlow(const Grid& filled, const Outlets& outlets) {
    const Shape shape = detail::checkedShape(filled, "routeFlow");
    if (!outlets.edges) {
        bool any = false;
        if (outlets.seaLevel)
            for (float h : filled.z) any |= h <= *outlets.seaLevel;
        if (!any)
            throw std::invalid_argument("routeFlow: the map has no outlet (no border outlet and no cell at or below the sea level)");
    }
    FlowRouting routing;
    routing.width = shape.width;
    routing.receiver.resize(shape.cells());
    steepestDescent(shape, outlets, filled.z, routing.receiver);
    FlatResolver(shape, filled.z, routing.receiver).run();
    routing.order = donorsFirst(shape, routing.receiver);
    return routing;
}

}  // namespace terragrid::hydro

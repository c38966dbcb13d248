// Flats: Barnes, Lehman & Mulla (2014), "An efficient assignment of drainage direction over flat
// surfaces in raster digital elevation models". On each flat (8-connected cells of one height
// with no lower neighbour; two neighbouring flat cells always have one height, since neither is
// lower), a breadth-first distance away from higher ground and one toward the flat's way out
// combine into a gradient 2 toward - away; each flat cell drains to its neighbour of least
// gradient, so water crosses the flat toward its exit without running along its edges. The
// toward part falls by 2 per step and the away part changes by at most 1, so no loop can form.
//
// How, and why it is fast: both distances live in arrays framed by one blocked cell all round,
// so the searches step to all 8 neighbours without a bounds test, and a cell's state is one
// load (blocked, not reached, or its distance). The two searches are independent: they run
// side by side, and a large ring of either is expanded in parallel too (the away search alone
// took twice the toward one, so two threads waited on it). Breadth-first distances are
// unique, so neither the order of a ring nor the thread count changes a bit; each cell's
// receiver is then a function of the distances of its neighbours, found row by row in
// parallel.

#include "flats.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <atomic>
#include <memory>

#include "one_thread.hpp"

namespace terragrid::hydro::detail {

namespace {

/// A cell no search enters: not part of a flat, or the frame.
constexpr std::int32_t kBlocked = -1;

/// Per cell of the grid and of a frame one cell wide around it: kBlocked, 0 for a flat cell
/// not reached yet, else the distance (1 at the search's seeds).
class FramedDistances {
public:
    explicit FramedDistances(const Shape& shape)
        : m_stride(std::size_t(shape.width) + 2),
          m_values(new std::int32_t[m_stride * (std::size_t(shape.height) + 2)]) {
        for (int k = 0; k < 8; ++k) m_step[k] = std::int64_t{kDy[k]} * std::int64_t(m_stride) + kDx[k];
        std::fill_n(m_values.get(), m_stride, kBlocked);
        std::fill_n(m_values.get() + m_stride * (std::size_t(shape.height) + 1), m_stride, kBlocked);
    }

    /// Where cell (x, y) is, x and y from -1 to width and height.
    std::size_t at(std::int32_t x, std::int32_t y) const {
        return std::size_t(std::int64_t{y} + 1) * m_stride + std::size_t(std::int64_t{x} + 1);
    }
    std::int32_t& operator[](std::size_t p) { return m_values[p]; }
    std::int32_t operator[](std::size_t p) const { return m_values[p]; }
    /// Where neighbour k (neighbours.hpp's order) of the cell at p is.
    std::size_t neighbour(std::size_t p, int k) const { return std::size_t(std::int64_t(p) + m_step[k]); }

    /// Breadth-first from `seeds` (distance 1) over the cells at 0. A large ring is expanded
    /// in parallel, in pieces: two threads may both find a cell unreached and give it the same
    /// distance, so the next ring may list it twice, which expands to nothing new. The
    /// distances do not depend on it (relaxed atomics: plain moves on x86).
    void search(std::vector<std::size_t> ring) {
        tbb::enumerable_thread_specific<std::vector<std::size_t>> pieces;
        std::vector<std::size_t> next;
        const bool oneThread = runsOnOneThread();  // no pieces to copy together
        for (std::int32_t distance = 2; !ring.empty(); ++distance) {
            next.clear();
            if (oneThread || ring.size() < kParallelRing) {
                for (const std::size_t p : ring) expand(p, distance, next);
            } else {
                for (auto& piece : pieces) piece.clear();
                tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ring.size(), kParallelRing / 2), [&](const auto& r) {
                    std::vector<std::size_t>& out = pieces.local();
                    for (std::size_t k = r.begin(); k < r.end(); ++k) expand(ring[k], distance, out);
                });
                for (const auto& piece : pieces) next.insert(next.end(), piece.begin(), piece.end());
            }
            ring.swap(next);
        }
    }

private:
    static constexpr std::size_t kParallelRing = 4096;

    /// The cells at 0 among the neighbours of the cell at p: at `distance`, and into `next`.
    void expand(std::size_t p, std::int32_t distance, std::vector<std::size_t>& next) {
        for (int k = 0; k < 8; ++k) {
            const std::size_t q = neighbour(p, k);
            std::atomic_ref<std::int32_t> value(m_values[q]);
            if (value.load(std::memory_order_relaxed) != 0) continue;
            value.store(distance, std::memory_order_relaxed);
            next.push_back(q);
        }
    }

    std::size_t m_stride;
    std::unique_ptr<std::int32_t[]> m_values;
    std::int64_t m_step[8];
};

/// Runs f(y0, y1) over blocks of rows in parallel.
template <class F>
void forRowBlocks(const Shape& shape, F f) {
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height, 16), [&](const auto& rows) {
        f(rows.begin(), rows.end());
    });
}

class FlatResolver {
public:
    FlatResolver(const Shape& shape, const std::vector<float>& z, std::vector<std::uint32_t>& receiver)
        : m_shape(shape), m_z(z), m_receiver(receiver), m_away(shape), m_toward(shape) {}

    void run() {
        classify();
        // The two distances do not depend on each other.
        tbb::parallel_invoke([&] { m_away.search(joined(m_besideHigher)); },
                             [&] { m_toward.search(joined(m_besideExit)); });
        drain();
    }

private:
    /// One look at each cell before any flat cell drains: the flat cells start unreached in
    /// both searches (the rest and the frame blocked); those beside higher ground seed the away
    /// search, those beside a cell of their height that drains (their exit) the toward search.
    void classify() {
        const std::size_t blocks = std::size_t(m_shape.height + kRowsPerBlock - 1) / kRowsPerBlock;
        m_besideHigher.assign(blocks, {});
        m_besideExit.assign(blocks, {});
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), [&](const auto& range) {
            for (std::size_t b = range.begin(); b < range.end(); ++b) {
                const auto y0 = std::int32_t(b) * kRowsPerBlock;
                const std::int32_t y1 = std::min(m_shape.height, y0 + kRowsPerBlock);
                for (std::int32_t y = y0; y < y1; ++y) classifyRow(y, m_besideHigher[b], m_besideExit[b]);
            }
        });
    }

    void classifyRow(std::int32_t y, std::vector<std::size_t>& higher, std::vector<std::size_t>& exit) {
        m_away[m_away.at(-1, y)] = m_toward[m_toward.at(-1, y)] = kBlocked;
        m_away[m_away.at(m_shape.width, y)] = m_toward[m_toward.at(m_shape.width, y)] = kBlocked;
        const std::size_t row = std::size_t(y) * std::size_t(m_shape.width);
        for (std::int32_t x = 0; x < m_shape.width; ++x) {
            const std::size_t i = row + std::size_t(x), p = m_away.at(x, y);
            if (m_receiver[i] != kFlat) {
                m_away[p] = m_toward[p] = kBlocked;
                continue;
            }
            bool up = false, out = false;
            const float h = m_z[i];
            m_shape.forEachNeighbour(x, y, [&](int, std::uint32_t nb) {
                up |= m_z[nb] > h;
                out |= m_receiver[nb] != kFlat && m_z[nb] == h;
            });
            m_away[p] = up ? 1 : 0;
            m_toward[p] = out ? 1 : 0;
            if (up) higher.push_back(p);
            if (out) exit.push_back(p);
        }
    }

    static std::vector<std::size_t> joined(std::vector<std::vector<std::size_t>>& parts) {
        std::vector<std::size_t> all;
        for (auto& part : parts) {
            all.insert(all.end(), part.begin(), part.end());
            std::vector<std::size_t>().swap(part);
        }
        return all;
    }

    /// Each flat cell's receiver, from its neighbours' distances (final: read only): a seed of
    /// the toward search drains to its exit (the first neighbour of its height that drained
    /// before the flats were resolved), the others to the neighbour of least 2 toward - away
    /// below their own, cells the toward search never reached (a pit) nowhere.
    void drain() {
        forRowBlocks(m_shape, [&](std::int32_t y0, std::int32_t y1) {
            for (std::int32_t y = y0; y < y1; ++y) {
                const std::size_t row = std::size_t(y) * std::size_t(m_shape.width);
                for (std::int32_t x = 0; x < m_shape.width; ++x) {
                    const std::size_t i = row + std::size_t(x);
                    if (m_receiver[i] == kFlat) m_receiver[i] = receiverOf(x, y, i);
                }
            }
        });
    }

    std::uint32_t receiverOf(std::int32_t x, std::int32_t y, std::size_t i) const {
        const std::size_t p = m_toward.at(x, y);
        const std::int32_t toward = m_toward[p];
        if (toward == 0) return kNoReceiver;
        std::uint32_t to = kFlat;
        if (toward == 1) {
            m_shape.forEachNeighbour(x, y, [&](int k, std::uint32_t nb) {
                if (to == kFlat && m_toward[m_toward.neighbour(p, k)] == kBlocked && m_z[nb] == m_z[i]) to = nb;
            });
            return to;
        }
        // Every flat neighbour was reached (a flat is connected) and the frame is blocked.
        std::int32_t best = 2 * toward - m_away[p];
        for (int k = 0; k < 8; ++k) {
            const std::size_t q = m_toward.neighbour(p, k);
            const std::int32_t t = m_toward[q];
            if (t < 1) continue;
            const std::int32_t gradient = 2 * t - m_away[q];
            if (gradient >= best) continue;
            best = gradient;
            to = std::uint32_t(std::int64_t(i) + m_shape.offset[k]);
        }
        return to;  // never kFlat: the ring before holds a lower gradient
    }

    static constexpr std::int32_t kRowsPerBlock = 16;

    const Shape& m_shape;
    const std::vector<float>& m_z;
    std::vector<std::uint32_t>& m_receiver;
    FramedDistances m_away, m_toward;
    std::vector<std::vector<std::size_t>> m_besideHigher, m_besideExit;  ///< per block of rows
};

}  // namespace

void resolveFlats(const Shape& shape, const std::vector<float>& z, std::vector<std::uint32_t>& receiver) {
    if (std::find(receiver.begin(), receiver.end(), kFlat) == receiver.end()) return;
    FlatResolver(shape, z, receiver).run();
}

}  // namespace terragrid::hydro::detail

#pragma once
// Walks down a flow forest (each cell one receiver or none, no loops) in parallel, without
// counters shared between threads. A walk runs down from every source and carries on into a
// cell when it finishes the cell's last donor, so every cell is summed once, after all its
// donors. The rows are cut into bands: a band's walks sum only its own cells, with plain
// counters, and a walk that would step into another band stops there; that band goes on from
// those cells in the next round, and the rounds run until no walk crosses. (Atomic counters
// shared by every thread, each step a locked instruction and a barrier to the loads after it,
// took a quarter more CPU on two threads than plain walks on one.)
//
// A cell's receiver is then summed after it in its own band's list of the round or in a later
// round, so the lists of a round, concatenated round after round, are an order with donors
// first, and a pass that wants receivers first takes the rounds last first, a round's lists in
// parallel. Used by the erosion's drainage area (drainage_area.cpp), and the flow accumulation
// and Strahler order (accumulation.cpp), whose visits read only a cell's donors: the routing
// keeps no order of its own. Private to src/hydro.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "hydro/neighbours.hpp"
#include "hydro/one_thread.hpp"
#include "terragrid/hydro/flow.hpp"

namespace terragrid::hydro::detail {

/// Cells [first, last) of one band of rows.
using Band = std::pair<std::uint32_t, std::uint32_t>;

/// A list of cells, in the order a band's walks summed them in one round.
using CellList = std::pair<const std::uint32_t*, const std::uint32_t*>;

/// The rows of `shape` in `count` bands of about equal height (fewer when there are fewer rows).
inline std::vector<Band> bandsOf(const Shape& shape, std::size_t count) {
    std::vector<Band> bands;
    const auto rowStart = [&](std::size_t b) {
        return std::uint32_t(std::size_t(shape.height) * b / count * std::size_t(shape.width));
    };
    for (std::size_t b = 0; b < count; ++b)
        if (rowStart(b) < rowStart(b + 1)) bands.emplace_back(rowStart(b), rowStart(b + 1));
    return bands;
}

/// One band per thread the walks may run on (one on one thread, whatever the arena): the
/// bands of the passes whose results do not depend on the walks' order.
inline std::vector<Band> bandsPerThread(const Shape& shape) {
    return bandsOf(shape, runsOnOneThread() ? 1 : std::size_t(tbb::this_task_arena::max_concurrency()));
}

/// Calls f(i) for each cell i in [first, last) without donors, in index order. The zero bytes
/// are found 64 at a time and their bits walked: a test per cell whether it is a source
/// follows no pattern, and mispredicted about as often as not.
template <class F>
void forEachSource(const std::uint8_t* donors, std::size_t first, std::size_t last, F&& f) {
    std::size_t i = first;
    for (; i + 64 <= last; i += 64) {
        std::uint64_t sources = 0;
#if defined(__x86_64__)
        const __m128i zero = _mm_setzero_si128();
        for (int part = 0; part < 4; ++part) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(donors + i + 16 * part));
            sources |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, zero)))) << (16 * part);
        }
#else
        for (int j = 0; j < 64; ++j) sources |= std::uint64_t{donors[i + j] == 0} << j;
#endif
        for (; sources; sources &= sources - 1) f(std::uint32_t(i + std::size_t(std::countr_zero(sources))));
    }
    for (; i < last; ++i)
        if (!donors[i]) f(std::uint32_t(i));
}

/// Runs `walk`'s walks over `bands` (bandsOf: every cell in one), round by round, each round's
/// bands in parallel. `waiting` holds each cell's count of donors not summed yet; the runner
/// counts them down. Walk has
///   void sources(first, last, enter, summed): its walks from the sources in [first, last), in
///                                             index order;
///   void from(c, enter, summed): sums cell c (its last donor summed) and walks on down;
/// where a walk asks enter(c) before it steps into cell c, and stops when told false, and calls
/// summed(c) once it has summed c. With `order` (else nullptr), each band writes the cells it
/// sums into its own range of it; returns each round's non-empty lists there, in band order.
template <class Walk>
std::vector<std::vector<CellList>> walkInBands(const std::vector<Band>& bands, std::uint8_t* waiting,
                                               std::uint32_t* order, const Walk& walk) {
    std::vector<std::uint32_t*> cursor;  // per band: where its next cell goes in `order`
    for (const Band& band : bands) cursor.push_back(order ? order + band.first : nullptr);
    std::vector<std::vector<std::uint32_t>> crossing(bands.size()), crossed(bands.size());
    std::vector<std::vector<CellList>> rounds;
    for (bool first = true;; first = false) {
        std::vector<CellList>& round = rounds.emplace_back(bands.size());
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bands.size(), 1), [&](const auto& r) {
            for (std::size_t b = r.begin(); b < r.end(); ++b) {
                const std::uint32_t begin = bands[b].first;
                const std::uint32_t size = bands[b].second - begin;
                std::vector<std::uint32_t>& out = crossing[b];
                std::uint32_t* at = cursor[b];
                const auto enter = [&](std::uint32_t c) {
                    if (c - begin >= size) {  // another band's (unsigned)
                        out.push_back(c);
                        return false;
                    }
                    return --waiting[c] == 0;
                };
                const auto summed = [&](std::uint32_t c) {
                    if (at) *at++ = c;
                };
                out.clear();
                if (first) {
                    walk.sources(begin, bands[b].second, enter, summed);
                } else {
                    for (const std::vector<std::uint32_t>& in : crossed)
                        for (const std::uint32_t c : in)
                            if (c - begin < size && --waiting[c] == 0) walk.from(c, enter, summed);
                }
                round[b] = {cursor[b], at};
                cursor[b] = at;
            }
        });
        std::erase_if(round, [](const CellList& list) { return list.first == list.second; });
        crossing.swap(crossed);
        if (std::all_of(crossed.begin(), crossed.end(), [](const auto& cells) { return cells.empty(); })) break;
    }
    return rounds;
}

/// walkInBands' walks over a receiver array (kNoReceiver: none), `sum(c)` doing a cell's work
/// once its donors' is done; `donors` holds each cell's donor mask (donorMasks), zero at the
/// sources. Members, not references: the counters' byte stores may alias anything, and the
/// compiler would reload what it reaches through a reference after each of them.
template <class Sum>
struct ReceiverWalks {
    const std::uint32_t* receiver;
    const std::uint8_t* donors;
    Sum sum;

    template <class Enter, class Summed>
    void from(std::uint32_t c, Enter&& enter, Summed&& summed) const {
        const ReceiverWalks s = *this;
        for (;;) {
            s.sum(c);
            summed(c);
            const std::uint32_t r = s.receiver[c];
            if (r == kNoReceiver || !enter(r)) return;
            c = r;
        }
    }
    template <class Enter, class Summed>
    void sources(std::size_t first, std::size_t last, Enter&& enter, Summed&& summed) const {
        forEachSource(donors, first, last, [&](std::uint32_t source) { from(source, enter, summed); });
    }
};

}  // namespace terragrid::hydro::detail

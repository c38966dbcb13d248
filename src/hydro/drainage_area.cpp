#include "hydro/drainage_area.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "hydro/donor_masks.hpp"
#include "hydro/one_thread.hpp"

namespace terragrid::hydro::detail {

namespace {

/// Donor masks of the cells of an inner row but its first and last: every neighbour exists,
/// and the 8 loads sit at fixed distances, which the compiler turns into vector compares.
void innerDonorRow(const std::uint8_t* direction, std::int64_t w, std::int64_t row,
                   std::uint8_t* donors, std::uint8_t* waiting) {
    const std::uint8_t* above = direction + (row - w);
    const std::uint8_t* here = direction + row;
    const std::uint8_t* below = direction + (row + w);
    for (std::int64_t x = 1; x < w - 1; ++x) {
        // Neighbour k drains here when its direction is the opposite one, 7 - k.
        const auto mask = std::uint8_t((above[x - 1] == 7) | (above[x] == 6) << 1 | (above[x + 1] == 5) << 2 |
                                       (here[x - 1] == 4) << 3 | (here[x + 1] == 3) << 4 |
                                       (below[x - 1] == 2) << 5 | (below[x] == 1) << 6 | (below[x + 1] == 0) << 7);
        donors[row + x] = mask;
        waiting[row + x] = donorCount(mask);
    }
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

/// The walks' arrays and constants, copied into locals where they run: the byte stores to the
/// counters may alias anything, and the compiler reloaded every pointer it reached through a
/// capture or a vector after each of them (a chain of loads on every step: 1.0 s of the 5.6 s
/// the walks took on the 2048^2 stage).
struct Walks {
    const std::uint8_t* direction;
    const std::uint8_t* donors;
    std::uint8_t* waiting;
    double* area;
    std::int64_t offset[9];  ///< the 8 neighbours', and 0 for "no donor" (bit 8, which no mask has)
    double cellArea;

    /// The sum of a cell that has at least one donor: cellArea plus its donors' areas in the
    /// order of the mask's bits. The second term is added as +0.0 when there is none (x + 0.0
    /// is x for the positive areas: the same bits), so the common one or two donors take no
    /// branch; how many donors a cell has follows no pattern a predictor could learn.
    double sumOf(std::uint32_t c) const {
        unsigned m = donors[c];
        double sum = cellArea + area[std::int64_t(c) + offset[std::countr_zero(m)]];
        m &= m - 1;
        const auto second = std::bit_cast<std::uint64_t>(area[std::int64_t(c) + offset[std::countr_zero(m | 0x100u)]]);
        sum += std::bit_cast<double>(second & (std::uint64_t{0} - std::uint64_t{m != 0}));
        for (m &= m - 1; m; m &= m - 1) sum += area[std::int64_t(c) + offset[std::countr_zero(m)]];
        return sum;
    }

    /// Walks on from cell c, just summed, down the flow: into each cell enter(cell) lets it
    /// (the walk finished the cell's last donor), summing it and calling summed(cell).
    template <class Enter, class Summed>
    void down(std::uint32_t c, Enter&& enter, Summed&& summed) const {
        for (std::uint8_t k = direction[c]; k != kSelf; k = direction[c]) {
            c = std::uint32_t(std::int64_t(c) + offset[k]);
            if (!enter(c)) return;
            area[c] = sumOf(c);
            summed(c);
        }
    }

    /// The walks from the sources in [first, last) in index order.
    template <class Enter, class Summed>
    void fromSources(std::size_t first, std::size_t last, Enter&& enter, Summed&& summed) const {
        const Walks s = *this;  // locals (see above)
        forEachSource(s.donors, first, last, [&](std::uint32_t source) {
            s.area[source] = s.cellArea;  // a source has no donor
            summed(source);
            s.down(source, enter, summed);
        });
    }

    /// The walks on from the cells of [first, first + size) in `cells`, each the next cell of a
    /// walk another band stopped: entered as such.
    template <class Enter, class Summed>
    void fromCrossings(const std::vector<std::uint32_t>& cells, std::uint32_t first, std::uint32_t size,
                       Enter&& enter, Summed&& summed) const {
        const Walks s = *this;
        for (const std::uint32_t c : cells)
            if (c - first < size && enter(c)) {
                s.area[c] = s.sumOf(c);
                summed(c);
                s.down(c, enter, summed);
            }
    }
};

/// The grid's rows in `count` bands of about equal height, as ranges of cells.
std::vector<std::pair<std::uint32_t, std::uint32_t>> bandsOf(const Shape& shape, std::size_t count) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> bands;
    const auto rowStart = [&](std::size_t b) {
        return std::uint32_t(std::size_t(shape.height) * b / count * std::size_t(shape.width));
    };
    for (std::size_t b = 0; b < count; ++b)
        if (rowStart(b) < rowStart(b + 1)) bands.emplace_back(rowStart(b), rowStart(b + 1));
    return bands;
}

}  // namespace

void DrainageArea::findDonors(const ErosionFlow& flow) {
    const Shape& shape = flow.shape();
    const std::uint8_t* direction = flow.directions().data();
    const std::int64_t w = shape.width;
    const auto edgeCell = [&](std::int32_t x, std::int32_t y) {
        const auto i = std::size_t(std::int64_t{y} * w + x);
        std::uint8_t mask = 0;
        shape.forEachNeighbour(x, y, [&](int k, std::uint32_t j) {
            mask |= std::uint8_t((direction[j] == opposite(k)) << k);
        });
        m_donors[i] = mask;
        m_waiting[i] = donorCount(mask);
    };
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height, 16), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y) {
            if (y == 0 || y == shape.height - 1 || shape.width < 3) {
                for (std::int32_t x = 0; x < shape.width; ++x) edgeCell(x, y);
                continue;
            }
            innerDonorRow(direction, w, std::int64_t{y} * w, m_donors.data(), m_waiting.data());
            edgeCell(0, y);
            edgeCell(shape.width - 1, y);
        }
    });
}

void DrainageArea::compute(const ErosionFlow& flow, double cellArea) {
    const std::size_t n = flow.shape().cells();
    m_area.resize(n);
    m_order.resize(n);
    m_donors.resize(n);
    m_waiting.resize(n);
    findDonors(flow);
    walk(flow, cellArea);
}

// A walk runs down from every source and carries on into a cell when it finishes the cell's
// last donor, so every cell is summed once, after all its donors, pulling them in the order of
// its mask's bits (increasing index): the same terms in the same order whoever sums it.
//
// The rows are cut into one band per thread, and each band's walks sum only its own cells,
// with plain counters and no other thread's: a walk that would step into another band stops,
// and that band goes on from there in the next round. Round after round, in parallel, until
// no walk crosses. (Atomic counters shared by every thread, each step a locked instruction
// and a barrier to the loads after it, took a quarter more time on two threads than the
// plain walks on one.) A band writes its cells into its own rows' part of m_order, round
// after round, so each round's list ends where the next begins.
void DrainageArea::walk(const ErosionFlow& flow, double cellArea) {
    const Shape& shape = flow.shape();
    Walks walks{flow.directions().data(), m_donors.data(), m_waiting.data(), m_area.data(), {}, cellArea};
    std::copy(shape.offset, shape.offset + 8, walks.offset);
    walks.offset[8] = 0;
    const auto bands = bandsOf(shape, runsOnOneThread() ? 1 : std::size_t(tbb::this_task_arena::max_concurrency()));
    std::vector<std::uint32_t*> cursor;  // per band: where its next cell goes in m_order
    for (const auto& band : bands) cursor.push_back(m_order.data() + band.first);
    std::vector<std::vector<std::uint32_t>> crossing(bands.size()), crossed(bands.size());
    m_rounds.clear();
    for (bool first = true;; first = false) {
        std::vector<List>& round = m_rounds.emplace_back(bands.size());
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bands.size(), 1), [&](const auto& r) {
            for (std::size_t b = r.begin(); b < r.end(); ++b) {
                const std::uint32_t begin = bands[b].first;
                const std::uint32_t size = bands[b].second - begin;
                std::uint8_t* const waiting = m_waiting.data();
                std::vector<std::uint32_t>& out = crossing[b];
                std::uint32_t* order = cursor[b];
                const auto enter = [&](std::uint32_t c) {
                    if (c - begin >= size) {  // another band's (unsigned)
                        out.push_back(c);
                        return false;
                    }
                    return --waiting[c] == 0;
                };
                const auto summed = [&](std::uint32_t c) { *order++ = c; };
                out.clear();
                if (first) {
                    walks.fromSources(begin, bands[b].second, enter, summed);
                } else {
                    for (const std::vector<std::uint32_t>& in : crossed) walks.fromCrossings(in, begin, size, enter, summed);
                }
                round[b] = {cursor[b], order};
                cursor[b] = order;
            }
        });
        std::erase_if(round, [](const List& list) { return list.first == list.second; });
        crossing.swap(crossed);
        if (std::all_of(crossed.begin(), crossed.end(), [](const auto& cells) { return cells.empty(); })) break;
    }
}

}  // namespace terragrid::hydro::detail

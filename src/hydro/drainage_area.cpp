#include "hydro/drainage_area.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
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

    /// The walks from the sources in [first, last) in index order: each sums its source, then
    /// each cell it reaches while lastDonor(cell) says the walk finished its last donor, and
    /// calls summed(cell) for each cell it summed, in that order.
    template <class LastDonor, class Summed>
    void run(std::size_t first, std::size_t last, LastDonor&& lastDonor, Summed&& summed) const {
        const Walks s = *this;  // locals (see above)
        forEachSource(s.donors, first, last, [&](std::uint32_t source) {
            s.area[source] = s.cellArea;  // a source has no donor
            summed(source);
            std::uint8_t k = s.direction[source];
            for (std::uint32_t c = source;;) {
                if (k == kSelf) return;
                c = std::uint32_t(std::int64_t(c) + s.offset[k]);
                if (!lastDonor(s.waiting + c)) return;
                s.area[c] = s.sumOf(c);
                summed(c);
                k = s.direction[c];
            }
        });
    }
};

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
    m_donors.resize(n);
    m_waiting.resize(n);
    findDonors(flow);
    // One thread's list is written in place (walk()); more threads' are appended to.
    const bool oneThread = runsOnOneThread();
    for (auto& cells : m_walked)
        if (!oneThread || &cells != &m_walked.local()) cells.clear();
    walk(flow, cellArea);
}

// A walk runs down from every source and carries on into a cell when it finishes the cell's
// last donor, so every cell is summed once, after all its donors, pulling them in the order of
// its mask's bits (increasing index). On one thread the walks run in index order with plain
// counters, writing the order into one list of every cell; on more, blocks of sources run in
// parallel and the counters are atomic: whichever thread finishes a cell's last donor sums it,
// with the same terms in the same order.
void DrainageArea::walk(const ErosionFlow& flow, double cellArea) {
    const Shape& shape = flow.shape();
    const std::size_t n = shape.cells();
    Walks walks{flow.directions().data(), m_donors.data(), m_waiting.data(), m_area.data(), {}, cellArea};
    std::copy(shape.offset, shape.offset + 8, walks.offset);
    walks.offset[8] = 0;
    if (runsOnOneThread()) {
        auto& walked = m_walked.local();
        walked.resize(n);  // every cell once
        std::uint32_t* order = walked.data();
        walks.run(0, n, [](std::uint8_t* waiting) { return --*waiting == 0; },
                  [&](std::uint32_t c) { *order++ = c; });
        return;
    }
    tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, std::uint32_t(n), 16384), [&](const auto& r) {
        auto& walked = m_walked.local();
        walks.run(r.begin(), r.end(), [](std::uint8_t* waiting) {
            // Release this cell's sum, and acquire the other donors' when it is the last.
            return std::atomic_ref<std::uint8_t>(*waiting).fetch_sub(1, std::memory_order_acq_rel) == 1;
        }, [&](std::uint32_t c) { walked.push_back(c); });
    });
}

}  // namespace terragrid::hydro::detail

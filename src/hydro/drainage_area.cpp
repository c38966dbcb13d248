#include "hydro/drainage_area.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>

#include "hydro/banded_walks.hpp"
#include "hydro/donor_masks.hpp"

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

/// The walks' arrays and constants, copied into locals where they run: the byte stores to the
/// counters may alias anything, and the compiler reloaded every pointer it reached through a
/// capture or a vector after each of them (a chain of loads on every step: 1.0 s of the 5.6 s
/// the walks took on the 2048^2 stage).
struct Walks {
    const std::uint8_t* direction;
    const std::uint8_t* donors;
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

    /// The walks from the sources in [first, last) in index order (walkInBands).
    template <class Enter, class Summed>
    void sources(std::size_t first, std::size_t last, Enter&& enter, Summed&& summed) const {
        const Walks s = *this;  // locals (see above)
        forEachSource(s.donors, first, last, [&](std::uint32_t source) {
            s.area[source] = s.cellArea;  // a source has no donor
            summed(source);
            s.down(source, enter, summed);
        });
    }

    /// Sums cell c, whose last donor another band summed, and walks on (walkInBands).
    template <class Enter, class Summed>
    void from(std::uint32_t c, Enter&& enter, Summed&& summed) const {
        const Walks s = *this;
        s.area[c] = s.sumOf(c);
        summed(c);
        s.down(c, enter, summed);
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
    m_order.resize(n);
    m_donors.resize(n);
    m_waiting.resize(n);
    findDonors(flow);
    walk(flow, cellArea);
}

// The walks in bands of rows, one per thread (banded_walks.hpp): every cell is summed once,
// after all its donors, pulling them in the order of its mask's bits (increasing index), the
// same terms in the same order whoever sums it.
void DrainageArea::walk(const ErosionFlow& flow, double cellArea) {
    const Shape& shape = flow.shape();
    Walks walks{flow.directions().data(), m_donors.data(), m_area.data(), {}, cellArea};
    std::copy(shape.offset, shape.offset + 8, walks.offset);
    walks.offset[8] = 0;
    m_rounds = walkInBands(bandsPerThread(shape), m_waiting.data(), m_order.data(), walks);
}

}  // namespace terragrid::hydro::detail

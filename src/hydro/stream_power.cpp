#include "hydro/stream_power.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "hydro/incision_factors.hpp"

namespace terragrid::hydro::detail {

namespace {

/// The height x above the receiver that solves x - x0 + f x^n = 0 (x0 > 0, f > 0): Newton's
/// method from x0, which the solution lies below; a step that would cross zero halves instead.
double solveDrop(double x0, double f, double n) {
    double x = x0;
    for (int iteration = 0; iteration < 50; ++iteration) {
        const double power = std::pow(x, n - 1);
        const double residual = x - x0 + f * power * x;
        const double slope = 1 + n * f * power;
        double next = x - residual / slope;
        if (!(next > 0)) next = x / 2;
        if (std::fabs(next - x) <= 1e-12 * x0) return next;
        x = next;
    }
    return x;
}

/// How far ahead in a list the incision asks for a cell's lines. The lists follow the flow, so
/// the cells' addresses jump about and no hardware prefetcher guesses them; the list knows
/// them. On the 2048^2 stage, 32 to 64 cells ahead took the one-thread incision from 3.7-4.1 s
/// to 3.2-3.5 s.
constexpr std::ptrdiff_t kCellsAhead = 64;

/// What the incision reads and writes, copied into locals in each list (solveInOrder).
struct CellSolver {
    const double* h;
    double* next;
    const std::uint8_t* direction;
    const double* factor;  ///< incisionFactors()
    UpliftDt upliftDt;
    const std::int64_t* offset;
    StreamPower power;

    /// The new height of cell i, not a base-level cell, whose receiver's new height is hr.
    double below(std::uint32_t i, double hr) const {
        const double raised = h[i] + upliftDt(i);
        if (!(raised > hr) || power.k == 0) return raised;
        const double f = factor[i];
        if (power.n == 1) return (raised + f * hr) / (1 + f);
        return hr + solveDrop(raised - hr, f, power.n);
    }
    /// Asks for the cache lines cell i will read and write.
    void prefetch(std::uint32_t i) const {
        __builtin_prefetch(direction + i);
        __builtin_prefetch(h + i);
        __builtin_prefetch(factor + i);
        if (upliftDt.field) __builtin_prefetch(upliftDt.field + i);
        __builtin_prefetch(next + i, 1);
    }
};

/// The cells of [first, last), last first, each receiver solved before (earlier in this pass
/// or in this list): plain loads and stores. The solver is copied into locals: through a
/// pointer the compiler reloaded its members after every store.
void solveInOrder(const CellSolver& solver, const std::uint32_t* first, const std::uint32_t* last) {
    const CellSolver s = solver;
    for (const std::uint32_t* p = last; p-- != first;) {
        if (p - first >= kCellsAhead) s.prefetch(p[-kCellsAhead]);
        const std::uint32_t i = *p;
        const std::uint8_t k = s.direction[i];
        s.next[i] = k == kSelf ? s.h[i] : s.below(i, s.next[std::int64_t(i) + s.offset[k]]);
    }
}

}  // namespace

// In the reverse of the order the drainage area's walks summed the cells in: receivers
// before donors, and near memory order (the walks start from the sources in index order), unlike a
// stack's order, which scatters along whole river trees. The walks' rounds, last first; a
// round's lists (one per band of rows, DrainageArea::walk) in parallel.
void Incision::apply(const CellVector<double>& h, CellVector<double>& next, const ErosionFlow& flow,
                     const DrainageArea& area, const UpliftDt& upliftDt) {
    const Shape& shape = flow.shape();
    const std::size_t n = shape.cells();
    next.resize(n);
    m_factor.resize(n);
    // L^n per direction (L for n = 1): the divisor of each cell's factor.
    double divisor[kSelf + 1];
    for (int k = 0; k <= kSelf; ++k) {
        const double length = k < kSelf && kInvDistance[k] != 1 ? m_cellSize * std::sqrt(2.0) : m_cellSize;
        divisor[k] = m_power.n == 1 ? length : std::pow(length, m_power.n);
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 14), [&](const auto& range) {
        incisionFactors(m_power, area.area().data(), flow.directions().data(), divisor, range.begin(),
                        range.end(), m_factor.data());
    });
    const CellSolver s{h.data(), next.data(), flow.directions().data(), m_factor.data(), upliftDt,
                       shape.offset, m_power};
    area.forEachRoundReversed([&](const std::vector<DrainageArea::List>& lists) {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, lists.size(), 1), [&](const auto& range) {
            for (std::size_t l = range.begin(); l < range.end(); ++l) solveInOrder(s, lists[l].first, lists[l].second);
        });
    });
}

}  // namespace terragrid::hydro::detail

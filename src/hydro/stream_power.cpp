#include "hydro/stream_power.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "hydro/incision_factors.hpp"
#include "hydro/one_thread.hpp"

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

/// Solves cells whose receivers are solved, from the heights before the step into the new
/// ones. Two threads may solve one cell at once: they write the same value, read from inputs
/// nobody writes in the step (hence atomic_ref, relaxed: plain moves on x86).
struct CellSolver {
    const double* h;
    double* next;
    const std::uint8_t* direction;
    const double* factor;  ///< incisionFactors()
    UpliftDt upliftDt;
    const std::int64_t* offset;
    std::uint8_t* marks;
    std::uint8_t mark;
    StreamPower power;

    bool solved(std::uint32_t i) const {
        return std::atomic_ref<std::uint8_t>(marks[i]).load(std::memory_order_acquire) == mark;
    }
    std::uint32_t receiver(std::uint32_t i) const { return std::uint32_t(std::int64_t(i) + offset[direction[i]]); }
    void operator()(std::uint32_t i) const {
        std::atomic_ref<double>(next[i]).store(height(i), std::memory_order_relaxed);
        std::atomic_ref<std::uint8_t>(marks[i]).store(mark, std::memory_order_release);
    }
    double height(std::uint32_t i) const {
        const std::uint8_t k = direction[i];
        if (k == kSelf) return h[i];
        const std::uint32_t r = std::uint32_t(std::int64_t(i) + offset[k]);
        return below(i, std::atomic_ref<double>(next[r]).load(std::memory_order_relaxed));
    }
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
    /// From cell c, whose receiver is not solved: follows the flow down to the first cell
    /// solved, then solves the cells on the way back up. `path` is scratch.
    void down(std::uint32_t c, std::vector<std::uint32_t>& path) const {
        path.clear();
        for (std::uint32_t x = c;;) {
            path.push_back(x);
            if (direction[x] == kSelf) break;
            x = receiver(x);
            if (solved(x)) break;
        }
        for (auto p = path.rbegin(); p != path.rend(); ++p) (*this)(*p);
    }
    /// The cells of one walk list, last first: receivers before donors within the list; a
    /// receiver another list holds and no thread has solved yet is solved on the way down.
    /// (The solver is copied into locals: the marks' atomics are barriers to the compiler,
    /// which reloaded every member through `this` after each of them.)
    void list(const std::uint32_t* first, const std::uint32_t* last, std::vector<std::uint32_t>& path) const {
        const CellSolver s = *this;
        for (const std::uint32_t* p = last; p-- != first;) {
            if (p - first >= kCellsAhead) {
                s.prefetch(p[-kCellsAhead]);
                __builtin_prefetch(s.marks + p[-kCellsAhead]);
            }
            const std::uint32_t c = *p;
            if (s.direction[c] != kSelf && !s.solved(s.receiver(c))) s.down(c, path);
            else if (!s.solved(c)) s(c);
        }
    }
};

/// The cells of [first, last), last first, on one thread, where every receiver comes before
/// its donors: plain loads and stores, no marks. The solver is copied into locals, and the
/// receiver's height is read as a plain double: through CellSolver::height's atomic_ref the
/// compiler passed it through the stack, on the chain of receivers every cell waits on.
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

// In the reverse of the order the drainage area's walks finished the cells in: receivers
// before donors, and near memory order (the walks start from the sources in index order), unlike a
// stack's order, which scatters along whole river trees. On one thread that is every cell in
// one list, solved straight through; with more, the lists (one per thread) run in parallel,
// in pieces, and a cell whose receiver lies in another list waits for nobody: it is solved
// on the way down from it.
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
    const std::uint8_t mark = m_solved.begin(n);  // before data(): it may clear the marks anew
    const CellSolver s{h.data(), next.data(), flow.directions().data(), m_factor.data(), upliftDt,
                       shape.offset, m_solved.data(), mark, m_power};
    if (runsOnOneThread()) {
        // One list in topological order: every receiver is solved before its donors, so
        // no marks to read or write.
        area.forEachWalked([&](const std::uint32_t* first, const std::uint32_t* last) { solveInOrder(s, first, last); });
        return;
    }
    std::vector<std::pair<const std::uint32_t*, const std::uint32_t*>> pieces;
    constexpr std::size_t kPiece = 1 << 16;
    area.forEachWalked([&](const std::uint32_t* first, const std::uint32_t* last) {
        // Each list in pieces, last piece first (the pieces of one list may run in parallel).
        for (const std::uint32_t* end = last; end != first;) {
            const std::uint32_t* begin = end - std::min<std::size_t>(kPiece, std::size_t(end - first));
            pieces.emplace_back(begin, end);
            end = begin;
        }
    });
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> paths;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pieces.size(), 1), [&](const auto& range) {
        std::vector<std::uint32_t>& path = paths.local();
        for (std::size_t p = range.begin(); p < range.end(); ++p) s.list(pieces[p].first, pieces[p].second, path);
    });
}

}  // namespace terragrid::hydro::detail

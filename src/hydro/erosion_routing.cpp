#include "hydro/erosion_routing.hpp"

#include "hydro/basin_graph.hpp"
#include "hydro/neighbours.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace terragrid::hydro::detail {

ErosionRouter::ErosionRouter(std::int32_t width, std::int32_t height,
                             std::vector<std::uint8_t> fixed)
    : m_width(width), m_height(height), m_fixed(std::move(fixed)) {
    const std::size_t n = std::size_t(width) * std::size_t(height);
    if (width <= 0 || height <= 0 || m_fixed.size() != n || n >= 0xFFFFFFFFu)
        throw std::invalid_argument("erosion routing: bad grid size");
    if (std::none_of(m_fixed.begin(), m_fixed.end(), [](std::uint8_t f) { return f != 0; }))
        throw std::invalid_argument("erosion routing: no outlet cell");
    m_routing.receiver.resize(n);
    m_routing.stack.reserve(n);
    m_donorStart.resize(n + 1);
    m_donors.resize(n);
    m_basin.resize(n);
}

const D8Routing& ErosionRouter::route(const double* h) {
    steepestDescent(h);
    const std::size_t n = m_routing.receiver.size();
    m_pits = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (m_routing.receiver[i] == i && !m_fixed[i]) ++m_pits;
    if (m_pits > 0) {
        buildBasinStack();
        routeDepressions(h);
    }
    buildOutletStack();
    return m_routing;
}

// Each cell independently: rows in parallel give the same result for any thread count.
void ErosionRouter::steepestDescent(const double* h) {
    const Shape shape(m_width, m_height);
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, m_height), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y)
            for (std::int32_t x = 0; x < m_width; ++x) {
                const std::uint32_t i = std::uint32_t(y) * std::uint32_t(m_width) + std::uint32_t(x);
                std::uint32_t best = i;
                double bestSlope = 0;
                if (!m_fixed[i])
                    shape.forEachNeighbour(x, y, [&](int k, std::uint32_t j) {
                        const double slope = (h[i] - h[j]) * kInvDistance[k];
                        if (slope > bestSlope) {
                            bestSlope = slope;
                            best = j;
                        }
                    });
                m_routing.receiver[i] = best;
            }
    });
}

// Donor lists (CSR), in index order: the same lists for any thread count.
void ErosionRouter::buildDonors() {
    const std::uint32_t n = std::uint32_t(m_routing.receiver.size());
    const auto& receiver = m_routing.receiver;
    std::fill(m_donorStart.begin(), m_donorStart.end(), 0u);
    for (std::uint32_t i = 0; i < n; ++i)
        if (receiver[i] != i) ++m_donorStart[receiver[i] + 1];
    std::partial_sum(m_donorStart.begin(), m_donorStart.end(), m_donorStart.begin());
    std::vector<std::uint32_t>& fill = m_basin;  // per-cell cursor; the basins come later
    std::copy(m_donorStart.begin(), m_donorStart.end() - 1, fill.begin());
    for (std::uint32_t i = 0; i < n; ++i)
        if (receiver[i] != i) m_donors[fill[receiver[i]]++] = i;
}

// Braun and Willett's stack: a depth-first traversal of one root's subtree (the root, then
// each donor's subtree), appended to `out`.
void ErosionRouter::traverse(std::uint32_t root, std::vector<std::uint32_t>& out,
                             std::vector<std::uint32_t>& pending) const {
    pending.push_back(root);
    while (!pending.empty()) {
        const std::uint32_t c = pending.back();
        pending.pop_back();
        out.push_back(c);
        for (std::uint32_t d = m_donorStart[c]; d < m_donorStart[c + 1]; ++d)
            pending.push_back(m_donors[d]);
    }
}

// Every root, outlets and depressions, in index order, one after the other; m_basin gets the
// basin index of each cell: 0 for the outlets' basins, 1.. for each depression in order.
void ErosionRouter::buildBasinStack() {
    buildDonors();
    const std::uint32_t n = std::uint32_t(m_routing.receiver.size());
    auto& stack = m_routing.stack;
    stack.clear();
    std::uint32_t nextPit = 1;
    for (std::uint32_t root = 0; root < n; ++root) {
        if (m_routing.receiver[root] != root) continue;
        const std::uint32_t basin = m_fixed[root] ? 0 : nextPit++;
        const std::size_t first = stack.size();
        traverse(root, stack, m_pending);
        for (std::size_t s = first; s < stack.size(); ++s) m_basin[stack[s]] = basin;
    }
}

// Once every cell drains to an outlet: the outlets' subtrees are independent, so groups of
// consecutive outlets (a fixed number of groups, whatever the threads) are traversed in
// parallel and their stacks joined in outlet order: the same stack as one traversal.
void ErosionRouter::buildOutletStack() {
    buildDonors();
    const std::uint32_t n = std::uint32_t(m_routing.receiver.size());
    m_roots.clear();
    for (std::uint32_t i = 0; i < n; ++i)
        if (m_routing.receiver[i] == i) m_roots.push_back(i);
    const std::size_t groups = std::min<std::size_t>(kStackGroups, m_roots.size());
    m_groupStacks.resize(groups);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, groups), [&](const auto& range) {
        std::vector<std::uint32_t> pending;
        for (std::size_t g = range.begin(); g < range.end(); ++g) {
            std::vector<std::uint32_t>& out = m_groupStacks[g];
            out.clear();
            for (std::size_t r = m_roots.size() * g / groups; r < m_roots.size() * (g + 1) / groups; ++r)
                traverse(m_roots[r], out, pending);
        }
    });
    auto& start = m_routing.groupStart;
    start.assign(groups + 1, 0);
    for (std::size_t g = 0; g < groups; ++g) start[g + 1] = start[g] + std::uint32_t(m_groupStacks[g].size());
    assert(start[groups] == n);
    m_routing.stack.resize(n);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, groups), [&](const auto& range) {
        for (std::size_t g = range.begin(); g < range.end(); ++g)
            std::copy(m_groupStacks[g].begin(), m_groupStacks[g].end(), m_routing.stack.begin() + start[g]);
    });
}

// The basin graph (basin_graph.hpp). The lowest pass between each pair of neighbouring basins
// is found from the side of the higher-numbered basin: only the depressions' cells are
// scanned (they are contiguous in the stack, basin by basin), never the outlets' basin, which
// is most of the map.
void ErosionRouter::routeDepressions(const double* h) {
    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    const std::uint32_t basins = std::uint32_t(m_pits) + 1;
    const Shape shape(m_width, m_height);
    std::vector<PassEdge> edges;
    std::vector<std::uint32_t> bestOf(basins, kNone), touched;
    const std::vector<std::uint32_t>& stack = m_routing.stack;
    for (std::size_t s = 0, end = 0; s < stack.size(); s = end) {
        const std::uint32_t basin = m_basin[stack[s]];
        for (end = s; end < stack.size() && m_basin[stack[end]] == basin;) ++end;
        if (basin == 0) continue;
        for (std::size_t c = s; c < end; ++c) {
            const std::uint32_t i = stack[c];
            shape.forEachNeighbour(i, [&](int, std::uint32_t j) {
                const std::uint32_t other = m_basin[j];
                if (other >= basin) return;
                const PassEdge e{std::max(h[i], h[j]), std::min(i, j), std::max(i, j)};
                if (bestOf[other] == kNone) {
                    bestOf[other] = std::uint32_t(edges.size());
                    touched.push_back(other);
                    edges.push_back(e);
                } else if (passOrder(e, edges[bestOf[other]])) {
                    edges[bestOf[other]] = e;
                }
            });
        }
        for (const std::uint32_t t : touched) bestOf[t] = kNone;
        touched.clear();
    }
    auto& receiver = m_routing.receiver;
    drainThroughPasses(
        m_basin.data(), basins, std::move(edges), [&](std::uint32_t cell) { return receiver[cell]; },
        [&](std::uint32_t cell, std::uint32_t to) { receiver[cell] = to; });
}

}  // namespace terragrid::hydro::detail

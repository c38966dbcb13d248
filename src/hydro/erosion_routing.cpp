#include "hydro/erosion_routing.hpp"

#include "hydro/neighbours.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace terragrid::hydro::detail {

namespace {

/// A place where two basins touch: the pair of neighbouring cells and the height water must
/// reach to pass between them.
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

struct PassEdge {
    double pass;
    std::uint32_t a, b;  ///< a < b
};

inline bool passOrder(const PassEdge& x, const PassEdge& y) {
    return std::tie(x.pass, x.a, x.b) < std::tie(y.pass, y.a, y.b);
}

/// Union-find with path halving; union by smaller index keeps it a pure function of the input.
struct DisjointSets {
    std::vector<std::uint32_t> parent;
    explicit DisjointSets(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    std::uint32_t find(std::uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    bool unite(std::uint32_t x, std::uint32_t y) {
        x = find(x);
        y = find(y);
        if (x == y) return false;
        if (x < y) std::swap(x, y);
        parent[x] = y;
        return true;
    }
};

}  // namespace

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

// The basin graph: nodes are the depressions' basins plus one node (0) for everything that
// drains to an outlet; an edge per pair of neighbouring basins, weighted by their lowest pass
// (over pairs of neighbouring cells, one in each, the higher of the two heights). Its minimum spanning tree from node 0 is the path
// water takes when each depression fills to its spill point (Cordonnier et al. 2019). Each
// depression then drains through its tree edge: the receivers on the path from its pass cell
// down to its pit are reversed ("carving"), so every cell's receiver stays a neighbour.
void ErosionRouter::routeDepressions(const double* h) {
    const std::uint32_t basins = std::uint32_t(m_pits) + 1;
    const Shape shape(m_width, m_height);
    // The lowest pass between each pair of neighbouring basins, found from the side of the
    // higher-numbered basin: only the depressions' cells are scanned (they are contiguous in
    // the stack, basin by basin), never the outlets' basin, which is most of the map.
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
    // Keys are unique (cell pairs), so the sorted order, and the tree, are unique too.
    std::sort(edges.begin(), edges.end(), passOrder);

    DisjointSets sets(basins);
    std::vector<PassEdge> tree;
    tree.reserve(basins - 1);
    for (const PassEdge& e : edges) {
        if (sets.unite(m_basin[e.a], m_basin[e.b])) {
            tree.push_back(e);
            if (tree.size() + 1 == basins) break;
        }
    }
    // The tree as adjacency lists, walked breadth first from the outlets' node.
    std::vector<std::uint32_t> start(basins + 1, 0), adjacent(2 * tree.size());
    for (const PassEdge& e : tree) {
        ++start[m_basin[e.a] + 1];
        ++start[m_basin[e.b] + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint32_t> cursor(start.begin(), start.end() - 1);
    for (std::uint32_t t = 0; t < tree.size(); ++t) {
        adjacent[cursor[m_basin[tree[t].a]]++] = t;
        adjacent[cursor[m_basin[tree[t].b]]++] = t;
    }
    std::vector<std::uint8_t> reached(basins, 0);
    std::vector<std::uint32_t> queue{0};
    reached[0] = 1;
    auto& receiver = m_routing.receiver;
    for (std::size_t q = 0; q < queue.size(); ++q) {
        const std::uint32_t from = queue[q];
        for (std::uint32_t k = start[from]; k < start[from + 1]; ++k) {
            const PassEdge& e = tree[adjacent[k]];
            const bool aInFrom = m_basin[e.a] == from;
            const std::uint32_t outside = aInFrom ? e.a : e.b, inside = aInFrom ? e.b : e.a;
            const std::uint32_t basin = m_basin[inside];
            if (reached[basin]) continue;
            reached[basin] = 1;
            queue.push_back(basin);
            // Reverse the path inside -> ... -> pit, then let `inside` drain across the pass.
            std::uint32_t previous = outside, cell = inside;
            for (;;) {
                const std::uint32_t next = receiver[cell];
                receiver[cell] = previous;
                if (next == cell) break;
                previous = cell;
                cell = next;
            }
        }
    }
    assert(queue.size() == basins);
}

}  // namespace terragrid::hydro::detail

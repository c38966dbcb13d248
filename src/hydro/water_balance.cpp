// Lakes by water balance (water_balance.hpp): the depression hierarchy built by one pass over
// the cells in height order, then the catchments' runoff poured into it, pit by pit.

#include "terragrid/hydro/water_balance.hpp"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "hydro/neighbours.hpp"
#include "hydro/priority_key.hpp"

namespace terragrid::hydro {

namespace {

using detail::Shape;

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
/// Node 0: everything that drains to an outlet. It never fills.
constexpr std::uint32_t kOutlet = 0;

/// A depression: a pit (leaf) or the join of depressions at a spill point.
struct Node {
    std::uint32_t parent = kNone;
    std::uint32_t saddle = kNone;    ///< the cell where it joins its parent
    std::uint32_t children = 0;
    std::uint32_t fullChildren = 0;
    std::uint32_t ownFirst = 0, ownEnd = 0;  ///< its own cells in `own`, by height
    std::uint32_t cursor = 0;        ///< own cells [ownFirst, cursor) are flooded
    double balance = 0;              ///< water in hand at the flooded level
    bool full = false;
};

/// Union-find over cells with path halving and union by rank; each root knows its
/// component's top node. Without the ranks every cell taken became its component's root, so
/// the outlet's component (most of the map) grew a chain one cell longer with each cell, and
/// the finds' pointer chasing, a cache miss a step, was two thirds of balancedSurface's time.
struct Components {
    std::vector<std::uint32_t> parent;
    std::vector<std::uint32_t> node;  ///< per root
    std::vector<std::uint8_t> rank;   ///< per root: at most log2 of its cells
    explicit Components(std::size_t n) : parent(n, kNone), node(n, kNone), rank(n, 0) {}
    bool seen(std::uint32_t c) const { return parent[c] != kNone; }
    std::uint32_t find(std::uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    /// Takes cell c in with the components of roots[0, count) (distinct roots), as one
    /// component whose top node is `top`.
    void merge(std::uint32_t c, const std::uint32_t* roots, int count, std::uint32_t top) {
        std::uint32_t root = c;
        for (int k = 0; k < count; ++k)
            if (root == c || rank[roots[k]] > rank[root]) root = roots[k];
        parent[c] = root;
        for (int k = 0; k < count; ++k) {
            if (roots[k] == root) continue;
            parent[roots[k]] = root;
            if (rank[roots[k]] == rank[root]) ++rank[root];
        }
        if (root != c && rank[root] == 0) rank[root] = 1;
        node[root] = top;
    }
};

class Hierarchy {
public:
    Hierarchy(const Grid& dem, const Outlets& outlets, const WaterBudget& budget)
        : m_shape(detail::checkedShape(dem, "balancedSurface")), m_z(dem.z), m_outlets(outlets),
          m_budget(budget), m_cellNode(dem.z.size(), kNone), m_leafOf(dem.z.size(), kNone) {
        if (budget.runoff.size() != dem.z.size() || budget.lake.size() != dem.z.size())
            throw std::invalid_argument("balancedSurface: the budget must have one value per cell");
        m_nodes.emplace_back();  // kOutlet
    }

    void build() {
        const std::size_t n = m_z.size();
        std::vector<std::uint64_t> order(n);
        for (std::uint32_t i = 0; i < n; ++i) order[i] = detail::priorityKey(m_z[i], i);
        tbb::parallel_sort(order.begin(), order.end());  // keys are unique: one order
        Components comps(n);
        bool anyOutlet = false;
        for (std::size_t i = 0; i < n; ++i) {
            if (i + kAhead < n) prefetchAround(detail::cellOfKey(order[i + kAhead]), comps);
            const std::uint32_t c = detail::cellOfKey(order[i]);
            const bool outlet = detail::isOutlet(m_shape, m_outlets, c, m_z[c]);
            anyOutlet = anyOutlet || outlet;
            add(c, outlet, comps);
            m_order.push_back(c);
        }
        if (!anyOutlet)
            throw std::invalid_argument(
                "balancedSurface: no outlet (no map edge, and no cell at or below the sea level)");
        // Each node's own cells, in the order they were taken (by height).
        std::vector<std::uint32_t> count(m_nodes.size() + 1, 0);
        for (const std::uint32_t c : m_order) ++count[m_cellNode[c] + 1];
        std::partial_sum(count.begin(), count.end(), count.begin());
        m_own.resize(n);
        std::vector<std::uint32_t> fill(count.begin(), count.end() - 1);
        for (const std::uint32_t c : m_order) m_own[fill[m_cellNode[c]]++] = c;
        for (std::size_t k = 0; k < m_nodes.size(); ++k) {
            m_nodes[k].ownFirst = m_nodes[k].cursor = count[k];
            m_nodes[k].ownEnd = count[k + 1];
        }
        m_order.clear();
        m_order.shrink_to_fit();
    }

    /// Every pit's catchment runoff poured in, pit by pit in the order they were found.
    void pour(WaterBalanceSummary& summary) {
        std::vector<double> runoff(m_nodes.size(), 0.0);
        for (std::size_t c = 0; c < m_z.size(); ++c)
            if (m_leafOf[c] != kOutlet) runoff[m_leafOf[c]] += double(m_budget.runoff[c]);
        for (std::uint32_t k = 1; k < m_nodes.size(); ++k) {
            if (m_nodes[k].children != 0) continue;
            ++summary.depressions;
            if (runoff[k] > 0) route(k, runoff[k], summary);
        }
        for (const Node& node : m_nodes) summary.full += node.full ? 1 : 0;
    }

    std::vector<float> surface() const {
        // Parents are made after their children: from the last node down, each node's level
        // is known when its children ask for it.
        std::vector<float> level(m_nodes.size(), -std::numeric_limits<float>::infinity());
        for (std::size_t k = m_nodes.size(); k-- > 1;) level[k] = levelOf(std::uint32_t(k), level);
        std::vector<float> out(m_z);
        for (std::size_t c = 0; c < out.size(); ++c) {
            const std::uint32_t node = m_cellNode[c];
            if (node != kOutlet && level[node] > m_z[c]) out[c] = level[node];
        }
        return out;
    }

private:
    /// How many cells ahead build() asks for the neighbourhoods it will read: the cells come in
    /// height order, scattered over the grid, and each add() waited on its neighbours' cache
    /// misses (the drain's leaf, the heights, the components), one cell after another. Asked
    /// for 16 cells ahead they overlap: the water balance of the climate preset at 4096^2 took
    /// 5.1-5.5 s against 5.9-6.0 (48 ahead was no better).
    static constexpr std::size_t kAhead = 16;

    /// Asks for the three rows of cell c's neighbourhood in the arrays add() reads.
    void prefetchAround(std::uint32_t c, const Components& comps) const {
        const std::size_t n = m_z.size();
        const std::size_t w = static_cast<std::size_t>(m_shape.width);
        const std::size_t i = c;
        const std::size_t rows[3] = {i >= w + 1 ? i - w - 1 : 0, i >= 1 ? i - 1 : 0, std::min(i + w - 1, n - 1)};
        for (const std::size_t row : rows) {
            __builtin_prefetch(&comps.parent[row]);
            __builtin_prefetch(&m_z[row]);
            __builtin_prefetch(&m_leafOf[row]);
        }
    }

    /// Takes cell c (all lower cells taken) into the hierarchy.
    void add(std::uint32_t c, bool outlet, Components& comps) {
        std::uint32_t roots[8];
        int count = 0;
        m_shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
            if (!comps.seen(nb)) return;
            const std::uint32_t r = comps.find(nb);
            for (int k = 0; k < count; ++k)
                if (roots[k] == r) return;
            roots[count++] = r;
        });
        bool drains = outlet;
        for (int k = 0; k < count; ++k) drains = drains || comps.node[roots[k]] == kOutlet;
        std::uint32_t node;
        if (drains) {
            node = kOutlet;
            for (int k = 0; k < count; ++k) join(comps.node[roots[k]], kOutlet, c);
        } else if (count == 0) {
            node = newNode();
        } else if (count == 1) {
            node = comps.node[roots[0]];
        } else {
            node = newNode();
            for (int k = 0; k < count; ++k) join(comps.node[roots[k]], node, c);
        }
        comps.merge(c, roots, count, node);
        m_cellNode[c] = node;
        m_leafOf[c] = drains && outlet ? kOutlet : drainLeaf(c, node, comps);
    }

    std::uint32_t newNode() {
        m_nodes.emplace_back();
        return std::uint32_t(m_nodes.size() - 1);
    }

    void join(std::uint32_t child, std::uint32_t parent, std::uint32_t saddle) {
        if (child == parent) return;
        m_nodes[child].parent = parent;
        m_nodes[child].saddle = saddle;
        ++m_nodes[parent].children;
    }

    /// The pit cell c drains to: its steepest lower neighbour's (D8, as routeFlow measures);
    /// on a flat, the first taken neighbour of its height's; a new pit its own node.
    std::uint32_t drainLeaf(std::uint32_t c, std::uint32_t node, const Components& comps) const {
        std::uint32_t lower = kNone, level = kNone;
        double best = 0;
        m_shape.forEachNeighbour(c, [&](int k, std::uint32_t nb) {
            const double slope = (double(m_z[c]) - double(m_z[nb])) * detail::kInvDistance[k];
            if (slope > best) {
                best = slope;
                lower = nb;
            } else if (slope == 0 && level == kNone && comps.seen(nb)) {
                level = nb;
            }
        });
        if (lower != kNone) return m_leafOf[lower];
        if (level != kNone) return m_leafOf[level];
        return node;
    }

    /// Water w arriving at node n (a pit, at first): absorbed by lakes, passed over spill
    /// points, or gone to an outlet.
    void route(std::uint32_t n, double w, WaterBalanceSummary& summary) {
        for (;;) {
            if (!m_nodes[n].full) {
                w = absorb(n, w);
                if (!(w > 0)) return;
            }
            const Node& node = m_nodes[n];
            if (node.parent == kOutlet) {
                summary.toOutlets += w;
                return;
            }
            const Node& parent = m_nodes[node.parent];
            n = parent.fullChildren == parent.children ? node.parent : spillTarget(n);
        }
    }

    /// Floods node n's own cells, a height at a time, while it has water in hand; returns the
    /// water it passes on (0 unless it filled to its spill point).
    double absorb(std::uint32_t n, double w) {
        Node& node = m_nodes[n];
        node.balance += w;
        while (node.cursor < node.ownEnd && node.balance > 0) {
            const float height = m_z[m_own[node.cursor]];
            for (; node.cursor < node.ownEnd && m_z[m_own[node.cursor]] == height; ++node.cursor) {
                const std::uint32_t c = m_own[node.cursor];
                node.balance += double(m_budget.lake[c]) - double(m_budget.runoff[c]);
            }
        }
        if (node.cursor < node.ownEnd || !(node.balance > 0)) return 0;
        node.full = true;
        if (node.parent != kOutlet) ++m_nodes[node.parent].fullChildren;
        const double excess = node.balance;
        node.balance = 0;
        return excess;
    }

    /// The pit that water from full node n runs to over its spill point: down the saddle's
    /// steepest neighbour (of at most its height) in a depression of the same join that is not
    /// full yet.
    std::uint32_t spillTarget(std::uint32_t n) const {
        const Node& node = m_nodes[n];
        const std::uint32_t c = node.saddle;
        std::uint32_t target = kNone;
        double best = -1;
        m_shape.forEachNeighbour(c, [&](int k, std::uint32_t nb) {
            const double slope = (double(m_z[c]) - double(m_z[nb])) * detail::kInvDistance[k];
            if (slope < 0 || !(slope > best) || m_cellNode[nb] == kOutlet) return;
            if (detail::priorityKey(m_z[nb], nb) > detail::priorityKey(m_z[c], c)) return;
            const std::uint32_t sibling = childOf(m_cellNode[nb], node.parent);
            if (sibling == n || sibling == kNone || m_nodes[sibling].full) return;
            best = slope;
            target = nb;
        });
        if (target == kNone)
            throw std::logic_error("balancedSurface: a full depression has nowhere to spill");
        return m_leafOf[target];
    }

    /// The child of `parent` whose subtree holds node n (kNone when none does).
    std::uint32_t childOf(std::uint32_t n, std::uint32_t parent) const {
        while (n != kNone && m_nodes[n].parent != parent) n = m_nodes[n].parent;
        return n;
    }

    /// The water level over node k's cells (levels of its parents known): its own lake's, its
    /// parent's when all the depressions of the join are full, else its spill point's when it is
    /// full; -inf when it holds no water.
    float levelOf(std::uint32_t k, const std::vector<float>& level) const {
        const Node& node = m_nodes[k];
        const bool active = node.fullChildren == node.children;
        if (!node.full) {
            if (!active || node.cursor == node.ownFirst) return -std::numeric_limits<float>::infinity();
            const float below = m_z[m_own[node.cursor - 1]];
            const float above = node.cursor < node.ownEnd ? m_z[m_own[node.cursor]]
                                                           : m_z[node.saddle];
            return static_cast<float>(double(below) + (double(above) - double(below)) / 2);
        }
        const float spill = m_z[node.saddle];
        if (node.parent == kOutlet) return spill;
        const Node& parent = m_nodes[node.parent];
        return parent.fullChildren == parent.children ? std::max(spill, level[node.parent]) : spill;
    }

    const Shape m_shape;
    const std::vector<float>& m_z;
    const Outlets& m_outlets;
    const WaterBudget& m_budget;
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_cellNode;  ///< the node whose own cells hold each cell
    std::vector<std::uint32_t> m_leafOf;    ///< the pit each cell drains to (kOutlet: none)
    std::vector<std::uint32_t> m_order;     ///< the cells by height, while building
    std::vector<std::uint32_t> m_own;       ///< every node's own cells, node by node
};

}  // namespace

std::vector<float> balancedSurface(const Grid& dem, const Outlets& outlets,
                                   const WaterBudget& budget, WaterBalanceSummary* summary) {
    Hierarchy hierarchy(dem, outlets, budget);
    hierarchy.build();
    WaterBalanceSummary local;
    hierarchy.pour(summary ? *summary : local);
    return hierarchy.surface();
}

}  // namespace terragrid::hydro

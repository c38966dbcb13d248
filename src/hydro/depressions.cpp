// Depression filling: Priority-Flood (Barnes, Lehman & Mulla 2014, "Priority-Flood: An optimal
// depression-filling and watershed-labeling algorithm for digital elevation models", the
// improved variant with a plain queue for cells inside depressions, and Zhou, Sun & Fu 2016,
// "An efficient variant of the Priority-Flood algorithm for filling depressions in raster
// digital elevation models": a second plain queue for slopes traced uphill), run on horizontal strips
// in parallel and joined as in Barnes 2016 ("Parallel Priority-Flood depression filling for
// trillion cell digital elevation models"):
//  1. each strip is flooded on its own, from the map's outlets in it and from its rows shared
//     with the strips above and below, as if those were outlets; every cell gets the strip's
//     fill T and the label of the watershed (within the strip) it was flooded from;
//  2. where two watersheds touch (inside a strip, or across a shared row) the lowest height
//     water can cross between them is an edge of a small graph, outlets being one node;
//  3. a Priority-Flood over that graph gives each watershed its spill level W (the least height
//     of a path to an outlet);
//  4. every cell's fill is max(T, W of its watershed).
// The filled surface is a unique function of the grid, so the strip count changes no bit.

#include "terragrid/hydro/depressions.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "depressions_detail.hpp"
#include "neighbours.hpp"
#include "priority_key.hpp"

namespace terragrid::hydro {

namespace {

using detail::Shape;

using MinQueue =
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>>;

/// Label states of a strip's cells: not reached yet, and a seed (closed) still unlabelled.
constexpr std::uint32_t kOpen = 0;
constexpr std::uint32_t kSeed = 0xFFFFFFFFu;
constexpr std::uint32_t kOcean = 1;  ///< the label of the map's outlets, in every strip

/// Where water can cross between two watersheds: labels (strip-local) and the height.
struct Edge {
    std::uint32_t a, b;
    float height;
};

/// One strip: rows [y0, y1), its labels 1..labels (1 = ocean) and the edges between them.
struct Strip {
    std::int32_t y0 = 0, y1 = 0;
    std::uint32_t labels = 1;
    std::vector<Edge> edges;
};

class StripFlood {
public:
    StripFlood(const Shape& shape, const Outlets& outlets, std::vector<float>& z,
               std::vector<std::uint32_t>& label, Strip& strip)
        : m_shape(shape), m_outlets(outlets), m_z(z), m_label(label), m_strip(strip) {}

    void run() {
        seed();
        while (true) {
            std::uint32_t c;
            bool traced = false;
            if (m_pitHead < m_pit.size()) {
                c = m_pit[m_pitHead++];
            } else if (m_traceHead < m_trace.size()) {
                c = m_trace[m_traceHead++];
                if (!traceable(c)) {
                    m_open.push(detail::priorityKey(m_z[c], c));
                    continue;
                }
                traced = true;
            } else {
                m_pit.clear();
                m_trace.clear();
                m_pitHead = m_traceHead = 0;
                if (m_open.empty()) break;
                c = detail::cellOfKey(m_open.top());
                m_open.pop();
            }
            expand(c, traced);
        }
        for (const auto& [key, height] : m_edges)
            m_strip.edges.push_back({static_cast<std::uint32_t>(key >> 32),
                                     static_cast<std::uint32_t>(key), height});
        std::sort(m_strip.edges.begin(), m_strip.edges.end(), [](const Edge& p, const Edge& q) {
            return p.a != q.a ? p.a < q.a : p.b < q.b;
        });
    }

private:
    /// Calls f(nb) for each neighbour of c inside the strip.
    template <class F>
    void forEachNeighbour(std::uint32_t c, F&& f) const {
        const std::int32_t y = m_shape.rowOf(c);
        const auto x = static_cast<std::int32_t>(c - static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(m_shape.width));
        m_shape.forEachNeighbourInRows(x, y, m_strip.y0, m_strip.y1, [&](int, std::uint32_t nb) { f(nb); });
    }

    /// Zhou, Sun & Fu (2016): a cell reached uphill from the flood needs no heap when no cell
    /// it could reach is lower than itself and not yet flooded (an open cell or a queued
    /// seed). Then every such neighbour keeps its own height, whatever floods later, and is
    /// traced on in turn; else the cell waits in the heap for its turn.
    bool traceable(std::uint32_t c) const {
        bool lower = false;
        forEachNeighbour(c, [&](std::uint32_t nb) {
            const std::uint32_t l = m_label[nb];
            lower |= (l == kOpen || l == kSeed) && m_z[nb] < m_z[c];
        });
        return !lower;
    }

    /// Floods from c: open neighbours join its watershed (raised to its level and queued as a
    /// pit when not higher, else traced), queued seeds join it too, and other watersheds
    /// met give an edge. A `traced` cell has no open neighbour below it (traceable), and its
    /// level may be above the heap's: its neighbours are only traced.
    void expand(std::uint32_t c, bool traced) {
        if (m_label[c] == kSeed) m_label[c] = ++m_strip.labels;  // a new watershed
        const std::uint32_t own = m_label[c];
        const float level = m_z[c];
        forEachNeighbour(c, [&](std::uint32_t nb) {
            const std::uint32_t other = m_label[nb];
            if (other == kOpen) {
                m_label[nb] = own;
                if (!traced && m_z[nb] <= level) {
                    m_z[nb] = level;
                    m_pit.push_back(nb);
                } else {
                    m_trace.push_back(nb);
                }
            } else if (other == kSeed) {
                // A seed not yet flooded, at least as high as this level (it is still
                // queued, or `traceable` said so): water here reaches it, so it joins.
                m_label[nb] = own;
            } else if (other != own) {
                addEdge(own, other, std::max(level, m_z[nb]));
            }
        });
    }

    /// The map's outlets in the strip (label ocean) and the rows shared with other strips.
    void seed() {
        for (std::int32_t y = m_strip.y0; y < m_strip.y1; ++y) {
            const bool shared = (y == m_strip.y0 && y > 0) ||
                                (y == m_strip.y1 - 1 && y < m_shape.height - 1);
            for (std::int32_t x = 0; x < m_shape.width; ++x) {
                const auto i = static_cast<std::uint32_t>(std::int64_t{y} * m_shape.width + x);
                if (detail::isOutlet(m_shape, m_outlets, i, m_z[i])) {
                    m_label[i] = kOcean;
                } else if (shared) {
                    m_label[i] = kSeed;
                } else {
                    m_label[i] = kOpen;
                    continue;
                }
                m_open.push(detail::priorityKey(m_z[i], i));
            }
        }
    }

    void addEdge(std::uint32_t a, std::uint32_t b, float height) {
        if (a > b) std::swap(a, b);
        const auto [it, fresh] = m_edges.try_emplace((std::uint64_t{a} << 32) | b, height);
        if (!fresh) it->second = std::min(it->second, height);
    }

    const Shape& m_shape;
    const Outlets& m_outlets;
    std::vector<float>& m_z;
    std::vector<std::uint32_t>& m_label;
    Strip& m_strip;
    MinQueue m_open;
    std::vector<std::uint32_t> m_pit, m_trace;  ///< plain FIFO queues (cells at the level, uphill)
    std::size_t m_pitHead = 0, m_traceHead = 0;
    std::unordered_map<std::uint64_t, float> m_edges;
};

/// The watershed graph of all strips: node 0 the ocean, then each strip's labels 2.. in turn.
class WatershedGraph {
public:
    explicit WatershedGraph(const std::vector<Strip>& strips) {
        m_base.resize(strips.size());
        std::uint32_t nodes = 1;
        for (std::size_t s = 0; s < strips.size(); ++s) {
            m_base[s] = nodes;
            nodes += strips[s].labels - 1;
        }
        m_first.assign(nodes + 1, 0);
    }

    std::uint32_t node(std::size_t strip, std::uint32_t label) const {
        return label == kOcean ? 0 : m_base[strip] + (label - 2);
    }

    /// Adjacency in CSR form from undirected edges.
    void build(const std::vector<Edge>& edges) {
        for (const Edge& e : edges) {
            ++m_first[e.a + 1];
            ++m_first[e.b + 1];
        }
        for (std::size_t i = 1; i < m_first.size(); ++i) m_first[i] += m_first[i - 1];
        m_to.resize(m_first.back());
        m_height.resize(m_first.back());
        std::vector<std::uint32_t> fill(m_first.begin(), m_first.end() - 1);
        for (const Edge& e : edges) {
            m_to[fill[e.a]] = e.b;
            m_height[fill[e.a]++] = e.height;
            m_to[fill[e.b]] = e.a;
            m_height[fill[e.b]++] = e.height;
        }
    }

    /// Priority-Flood over the graph from the ocean: each node's spill level.
    std::vector<float> spillLevels() const {
        const std::size_t n = m_first.size() - 1;
        std::vector<float> level(n, std::numeric_limits<float>::infinity());
        std::vector<std::uint8_t> done(n, 0);
        MinQueue queue;
        level[0] = -std::numeric_limits<float>::infinity();
        queue.push(detail::priorityKey(level[0], 0));
        while (!queue.empty()) {
            const std::uint32_t u = detail::cellOfKey(queue.top());
            queue.pop();
            if (done[u]) continue;
            done[u] = 1;
            for (std::uint32_t k = m_first[u]; k < m_first[u + 1]; ++k) {
                const std::uint32_t v = m_to[k];
                const float reach = std::max(level[u], m_height[k]);
                if (done[v] || reach >= level[v]) continue;
                level[v] = reach;
                queue.push(detail::priorityKey(reach, v));
            }
        }
        return level;
    }

private:
    std::vector<std::uint32_t> m_base, m_first, m_to;
    std::vector<float> m_height;
};

/// Edges across the row shared by strip s (its last row) and strip s + 1 (its first row):
/// both rows are seeds, never raised, so water crosses at the higher of the two cells.
void addSharedRowEdges(const Shape& shape, const std::vector<float>& z,
                       const std::vector<std::uint32_t>& label, const std::vector<Strip>& strips,
                       const WatershedGraph& graph, std::size_t s, std::vector<Edge>& edges) {
    const std::int32_t above = strips[s].y1 - 1;
    for (std::int32_t x = 0; x < shape.width; ++x) {
        const auto a = static_cast<std::uint32_t>(std::int64_t{above} * shape.width + x);
        for (int dx = -1; dx <= 1; ++dx) {
            if (x + dx < 0 || x + dx >= shape.width) continue;
            const auto b = static_cast<std::uint32_t>(a + shape.width + dx);
            const std::uint32_t na = graph.node(s, label[a]), nb = graph.node(s + 1, label[b]);
            if (na != nb) edges.push_back({na, nb, std::max(z[a], z[b])});
        }
    }
}

}  // namespace

namespace detail {

std::vector<float> fillInStrips(const Grid& dem, const Outlets& outlets, std::int32_t stripRows) {
    const Shape shape = checkedShape(dem, "fillDepressions");
    if (!outlets.edges &&
        std::none_of(dem.z.begin(), dem.z.end(), [&](float h) { return outlets.seaLevel && h <= *outlets.seaLevel; }))
        throw std::invalid_argument("fillDepressions: the map has no outlet (no border outlet and no cell at or below the sea level)");
    stripRows = std::max(1, stripRows);
    std::vector<Strip> strips;
    for (std::int32_t y = 0; y < shape.height; y += stripRows)
        strips.push_back({y, std::min(shape.height, y + stripRows), 1, {}});

    std::vector<float> z = dem.z;
    std::vector<std::uint32_t> label(shape.cells(), kOpen);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, strips.size(), 1), [&](const auto& range) {
        for (std::size_t s = range.begin(); s < range.end(); ++s)
            StripFlood(shape, outlets, z, label, strips[s]).run();
    });
    if (strips.size() == 1) return z;  // one strip: its fill is the answer

    WatershedGraph graph(strips);
    std::vector<Edge> edges;
    for (std::size_t s = 0; s < strips.size(); ++s) {
        for (const Edge& e : strips[s].edges) edges.push_back({graph.node(s, e.a), graph.node(s, e.b), e.height});
        if (s + 1 < strips.size()) addSharedRowEdges(shape, z, label, strips, graph, s, edges);
    }
    graph.build(edges);
    const std::vector<float> level = graph.spillLevels();

    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, strips.size(), 1), [&](const auto& range) {
        for (std::size_t s = range.begin(); s < range.end(); ++s) {
            const std::size_t begin = static_cast<std::size_t>(strips[s].y0) * shape.width;
            const std::size_t end = static_cast<std::size_t>(strips[s].y1) * shape.width;
            for (std::size_t i = begin; i < end; ++i) z[i] = std::max(z[i], level[graph.node(s, label[i])]);
        }
    });
    return z;
}

std::int32_t defaultStripRows(std::int32_t height) {
    // Enough strips for the cores to share (and balance) the work, few enough that the
    // watershed graph stays small: 16 strips of at least 64 rows.
    return std::max<std::int32_t>(64, (height + 15) / 16);
}

}  // namespace detail

std::vector<float> fillDepressions(const Grid& dem, const Outlets& outlets) {
    return detail::fillInStrips(dem, outlets, detail::defaultStripRows(dem.height));
}

}  // namespace terragrid::hydro

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
#include <memory>
#include <queue>
#include <stdexcept>
#include <vector>

#include "depressions_detail.hpp"
#include "neighbours.hpp"
#include "priority_key.hpp"

namespace terragrid::hydro {

namespace {

using detail::kDx;
using detail::kDy;
using detail::Shape;

using MinQueue =
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>>;

/// Label states of a strip's cells: not reached yet, a seed (closed) still unlabelled, and the
/// frame around the strip, which no flood enters.
constexpr std::uint32_t kOpen = 0;
constexpr std::uint32_t kSeed = 0xFFFFFFFFu;
constexpr std::uint32_t kFrame = 0xFFFFFFFEu;
constexpr std::uint32_t kOcean = 1;  ///< the label of the map's outlets, in every strip

/// Where water can cross between two watersheds: labels (strip-local) and the height.
struct Edge {
    std::uint32_t a, b;
    float height;
};

/// The lowest crossing height of each pair of watersheds met, in an open-addressing table
/// (a flood meets the same pair again and again along their border).
class EdgeTable {
public:
    void add(std::uint32_t a, std::uint32_t b, float height) {
        if (a > b) std::swap(a, b);
        const std::uint64_t key = (std::uint64_t{a} << 32) | b;
        if (key == m_lastKey && height >= m_slots[m_lastSlot].height) return;
        if (2 * (m_used + 1) > m_slots.size()) grow();
        std::size_t slot = slotOf(key);
        while (m_slots[slot].key != kEmpty && m_slots[slot].key != key) slot = (slot + 1) & (m_slots.size() - 1);
        Slot& entry = m_slots[slot];
        if (entry.key == kEmpty) {
            entry = {key, height};
            ++m_used;
        } else {
            entry.height = std::min(entry.height, height);
        }
        m_lastKey = key;
        m_lastSlot = slot;
    }

    /// The edges, sorted by their labels.
    std::vector<Edge> sorted() const {
        std::vector<Edge> edges;
        edges.reserve(m_used);
        for (const Slot& slot : m_slots)
            if (slot.key != kEmpty)
                edges.push_back({std::uint32_t(slot.key >> 32), std::uint32_t(slot.key), slot.height});
        std::sort(edges.begin(), edges.end(), [](const Edge& p, const Edge& q) {
            return p.a != q.a ? p.a < q.a : p.b < q.b;
        });
        return edges;
    }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // labels are never both kSeed
    struct Slot {
        std::uint64_t key = kEmpty;
        float height = 0;
    };

    std::size_t slotOf(std::uint64_t key) const {
        return std::size_t((key * 0x9E3779B97F4A7C15ull) >> 32) & (m_slots.size() - 1);
    }
    void grow() {
        std::vector<Slot> old(std::max<std::size_t>(1024, 2 * m_slots.size()));
        old.swap(m_slots);
        m_lastKey = kEmpty;
        for (const Slot& entry : old) {
            if (entry.key == kEmpty) continue;
            std::size_t slot = slotOf(entry.key);
            while (m_slots[slot].key != kEmpty) slot = (slot + 1) & (m_slots.size() - 1);
            m_slots[slot] = entry;
        }
    }

    std::vector<Slot> m_slots;
    std::size_t m_used = 0;
    std::uint64_t m_lastKey = kEmpty;
    std::size_t m_lastSlot = 0;
};

/// One strip: rows [y0, y1), its labels 1..labels (1 = ocean) per cell of the strip and of a
/// frame one cell wide around it (rows y0 - 1 and y1, columns -1 and width: kFrame), and the
/// edges between its watersheds.
struct Strip {
    std::int32_t y0 = 0, y1 = 0;
    std::uint32_t labels = 1;
    std::vector<Edge> edges;
    std::vector<std::uint32_t> label;

    std::size_t stride(const Shape& shape) const { return std::size_t(shape.width) + 2; }
    /// Where cell (x, y) of the map (y in [y0 - 1, y1]) is in the strip's framed arrays.
    std::size_t at(const Shape& shape, std::int32_t x, std::int32_t y) const {
        return std::size_t(y - y0 + 1) * stride(shape) + std::size_t(x + 1);
    }
};

/// Priority-Flood of one strip on its own framed copy of the heights: every cell's 8
/// neighbours are in the arrays (the frame is closed), so no step needs a bounds test.
class StripFlood {
public:
    StripFlood(const Shape& shape, const Outlets& outlets, const std::vector<float>& dem, Strip& strip)
        : m_shape(shape), m_outlets(outlets), m_dem(dem), m_strip(strip) {
        const std::size_t stride = strip.stride(shape);
        for (int k = 0; k < 8; ++k) m_step[k] = std::int64_t{kDy[k]} * std::int64_t(stride) + kDx[k];
        const std::size_t size = stride * std::size_t(strip.y1 - strip.y0 + 2);
        m_z.reset(new float[size]);
        strip.label.assign(size, kFrame);
    }

    /// Floods the strip and writes its fill T into `filled` (the strip's rows).
    void run(std::vector<float>& filled) {
        seed();
        while (true) {
            std::uint32_t c;
            if (m_pitHead < m_pit.size()) {
                c = m_pit[m_pitHead++];
                expand(c, false);
            } else if (m_traceHead < m_trace.size()) {
                trace(m_trace[m_traceHead++]);
            } else {
                m_pit.clear();
                m_trace.clear();
                m_pitHead = m_traceHead = 0;
                if (m_open.empty()) break;
                c = detail::cellOfKey(m_open.top());
                m_open.pop();
                expand(c, false);
            }
        }
        m_strip.edges = m_edges.sorted();
        for (std::int32_t y = m_strip.y0; y < m_strip.y1; ++y)
            std::copy_n(m_z.get() + m_strip.at(m_shape, 0, y), m_shape.width,
                        filled.begin() + std::ptrdiff_t(std::int64_t{y} * m_shape.width));
    }

private:
    std::uint32_t neighbour(std::uint32_t c, int k) const { return std::uint32_t(std::int64_t{c} + m_step[k]); }

    /// Zhou, Sun & Fu (2016): a cell reached uphill from the flood needs no heap when no cell
    /// it could reach is lower than itself and not yet flooded (an open cell or a queued
    /// seed). Then every such neighbour keeps its own height, whatever floods later, and is
    /// traced on in turn (expand); else the cell waits in the heap for its turn.
    void trace(std::uint32_t c) {
        const float h = m_z[c];
        std::uint32_t label[8];
        bool lower = false;
        for (int k = 0; k < 8; ++k) {
            const std::uint32_t nb = neighbour(c, k);
            label[k] = m_strip.label[nb];
            lower |= (label[k] == kOpen || label[k] == kSeed) && m_z[nb] < h;
        }
        if (lower) {
            m_open.push(detail::priorityKey(h, c));
            return;
        }
        const std::uint32_t own = m_strip.label[c];
        for (int k = 0; k < 8; ++k) visit(own, h, neighbour(c, k), label[k], true);
    }

    /// Floods from c: open neighbours join its watershed (raised to its level and queued as a
    /// pit when not higher, else traced), queued seeds join it too, and other watersheds
    /// met give an edge. A `traced` cell has no open neighbour below it (trace), and its
    /// level may be above the heap's: its neighbours are only traced.
    void expand(std::uint32_t c, bool traced) {
        if (m_strip.label[c] == kSeed) m_strip.label[c] = ++m_strip.labels;  // a new watershed
        const std::uint32_t own = m_strip.label[c];
        const float level = m_z[c];
        for (int k = 0; k < 8; ++k) {
            const std::uint32_t nb = neighbour(c, k);
            visit(own, level, nb, m_strip.label[nb], traced);
        }
    }

    void visit(std::uint32_t own, float level, std::uint32_t nb, std::uint32_t other, bool traced) {
        if (other == kOpen) {
            m_strip.label[nb] = own;
            if (!traced && m_z[nb] <= level) {
                m_z[nb] = level;
                m_pit.push_back(nb);
            } else {
                m_trace.push_back(nb);
            }
        } else if (other == kSeed) {
            // A seed not yet flooded, at least as high as this level (it is still
            // queued, or `trace` said so): water here reaches it, so it joins.
            m_strip.label[nb] = own;
        } else if (other != own && other != kFrame) {
            m_edges.add(own, other, std::max(level, m_z[nb]));
        }
    }

    /// The strip's heights, the map's outlets in it (label ocean) and the rows shared with
    /// other strips (seeds); the rest open.
    void seed() {
        for (std::int32_t y = m_strip.y0; y < m_strip.y1; ++y) {
            const bool shared = (y == m_strip.y0 && y > 0) ||
                                (y == m_strip.y1 - 1 && y < m_shape.height - 1);
            const bool edgeRow = y == 0 || y == m_shape.height - 1;
            const std::size_t row = std::size_t(y) * std::size_t(m_shape.width);
            const std::size_t p0 = m_strip.at(m_shape, 0, y);
            std::copy_n(m_dem.begin() + std::ptrdiff_t(row), m_shape.width, m_z.get() + p0);
            for (std::int32_t x = 0; x < m_shape.width; ++x) {
                const float h = m_dem[row + std::size_t(x)];
                const auto p = std::uint32_t(p0 + std::size_t(x));
                const bool border = edgeRow || x == 0 || x == m_shape.width - 1;
                if ((m_outlets.seaLevel && h <= *m_outlets.seaLevel) || (m_outlets.edges && border)) {
                    m_strip.label[p] = kOcean;
                } else if (shared) {
                    m_strip.label[p] = kSeed;
                } else {
                    m_strip.label[p] = kOpen;
                    continue;
                }
                m_open.push(detail::priorityKey(h, p));
            }
        }
    }

    const Shape& m_shape;
    const Outlets& m_outlets;
    const std::vector<float>& m_dem;
    Strip& m_strip;
    std::int64_t m_step[8];
    std::unique_ptr<float[]> m_z;  ///< the strip's heights, framed like its labels, raised as it floods
    MinQueue m_open;
    std::vector<std::uint32_t> m_pit, m_trace;  ///< plain FIFO queues (cells at the level, uphill)
    std::size_t m_pitHead = 0, m_traceHead = 0;
    EdgeTable m_edges;
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
void addSharedRowEdges(const Shape& shape, const std::vector<float>& z, const std::vector<Strip>& strips,
                       const WatershedGraph& graph, std::size_t s, std::vector<Edge>& edges) {
    const Strip& upper = strips[s];
    const Strip& lower = strips[s + 1];
    const std::int32_t above = upper.y1 - 1;
    for (std::int32_t x = 0; x < shape.width; ++x) {
        const auto a = static_cast<std::uint32_t>(std::int64_t{above} * shape.width + x);
        const std::uint32_t na = graph.node(s, upper.label[upper.at(shape, x, above)]);
        for (int dx = -1; dx <= 1; ++dx) {
            if (x + dx < 0 || x + dx >= shape.width) continue;
            const auto b = static_cast<std::uint32_t>(a + shape.width + dx);
            const std::uint32_t nb = graph.node(s + 1, lower.label[lower.at(shape, x + dx, above + 1)]);
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
    // A strip's framed arrays are indexed by uint32 (the heap's keys hold the index).
    const auto maxRows = std::int32_t(std::min<std::uint64_t>(
        std::uint64_t(shape.height), 0xFFFFFFFFull / (std::uint64_t(shape.width) + 2) - 2));
    stripRows = std::clamp(stripRows, 1, maxRows);
    std::vector<Strip> strips;
    for (std::int32_t y = 0; y < shape.height; y += stripRows)
        strips.push_back({y, std::min(shape.height, y + stripRows), 1, {}, {}});

    std::vector<float> z(shape.cells());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, strips.size(), 1), [&](const auto& range) {
        for (std::size_t s = range.begin(); s < range.end(); ++s)
            StripFlood(shape, outlets, dem.z, strips[s]).run(z);
    });
    if (strips.size() == 1) return z;  // one strip: its fill is the answer

    WatershedGraph graph(strips);
    std::vector<Edge> edges;
    for (std::size_t s = 0; s < strips.size(); ++s) {
        for (const Edge& e : strips[s].edges) edges.push_back({graph.node(s, e.a), graph.node(s, e.b), e.height});
        if (s + 1 < strips.size()) addSharedRowEdges(shape, z, strips, graph, s, edges);
    }
    graph.build(edges);
    const std::vector<float> level = graph.spillLevels();

    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, strips.size(), 1), [&](const auto& range) {
        for (std::size_t s = range.begin(); s < range.end(); ++s) {
            const Strip& strip = strips[s];
            for (std::int32_t y = strip.y0; y < strip.y1; ++y) {
                float* row = z.data() + std::int64_t{y} * shape.width;
                const std::uint32_t* label = strip.label.data() + strip.at(shape, 0, y);
                for (std::int32_t x = 0; x < shape.width; ++x)
                    row[x] = std::max(row[x], level[graph.node(s, label[x])]);
            }
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

// Lake outlines: the boundary edges of each lake's cells, traced into loops, loops split where
// they pass a corner twice (cells meeting diagonally), sorted into outer rings and holes.

#include "terragrid/hydro/lake_outlines.hpp"

#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace terragrid::hydro {

namespace {

/// Directions of travel along cell edges. The edge of a lake cell on its left side runs Down,
/// its bottom Right, its right side Up, its top Left: the lake lies to the left of travel with
/// y down, so outer loops have negative shoelace area (counterclockwise once y points north).
enum Dir : std::uint8_t { Down, Right, Up, Left };
constexpr int kStepX[4] = {0, 1, 0, -1};
constexpr int kStepY[4] = {1, 0, -1, 0};

using Loop = std::vector<CornerPoint>;  // not closed: back() connects to front()

class Tracer {
public:
    Tracer(const Lakes& lakes, std::int32_t width, std::int32_t height)
        : m_id(lakes.id), m_w(width), m_h(height), m_used(lakes.id.size(), 0) {}

    std::uint32_t at(std::int32_t x, std::int32_t y) const {
        if (x < 0 || y < 0 || x >= m_w || y >= m_h) return 0;
        return m_id[static_cast<std::size_t>(y) * m_w + x];
    }

    /// The cell an edge from corner (x, y) in direction d belongs to (the lake cell it bounds).
    static CornerPoint edgeCell(CornerPoint p, Dir d) {
        switch (d) {
            case Down: return p;                    // left side of (x, y)
            case Right: return {p.x, p.y - 1};      // bottom of (x, y - 1)
            case Up: return {p.x - 1, p.y - 1};     // right side of (x - 1, y - 1)
            case Left: return {p.x - 1, p.y};       // top of (x - 1, y)
        }
        return p;
    }

    /// Whether lake `id` has a boundary edge leaving corner p in direction d.
    bool isEdge(std::uint32_t id, CornerPoint p, Dir d) const {
        const auto [cx, cy] = edgeCell(p, d);
        if (at(cx, cy) != id) return false;
        // The cell across the edge (to the right of travel) must not be in the lake.
        switch (d) {
            case Down: return at(cx - 1, cy) != id;
            case Right: return at(cx, cy + 1) != id;
            case Up: return at(cx + 1, cy) != id;
            case Left: return at(cx, cy - 1) != id;
        }
        return false;
    }

    bool isUsed(CornerPoint p, Dir d) const {
        const auto [cx, cy] = edgeCell(p, d);
        return (m_used[static_cast<std::size_t>(cy) * m_w + cx] >> d) & 1;
    }
    void markUsed(CornerPoint p, Dir d) {
        const auto [cx, cy] = edgeCell(p, d);
        m_used[static_cast<std::size_t>(cy) * m_w + cx] |= std::uint8_t(1u << d);
    }

    /// Follows the boundary of lake `id` from corner p in direction d back to the start.
    /// Where two edges leave a corner (cells meeting diagonally) it keeps to the same cell:
    /// a left turn.
    Loop trace(std::uint32_t id, CornerPoint p, Dir d) {
        Loop loop;
        const CornerPoint start = p;
        const Dir first = d;
        do {
            loop.push_back(p);
            markUsed(p, d);
            p = {p.x + kStepX[d], p.y + kStepY[d]};
            const Dir left = Dir((d + 1) % 4), straight = d, right = Dir((d + 3) % 4);
            if (isEdge(id, p, left)) d = left;
            else if (isEdge(id, p, straight)) d = straight;
            else d = right;
        } while (!(p == start && d == first));
        return loop;
    }

    /// Calls f(id, corner, direction) for each boundary edge not yet traced, in cell order, so
    /// each loop starts at the first edge of its first cell.
    template <class F>
    void forEachLoopStart(F&& f) {
        for (std::int32_t y = 0; y < m_h; ++y)
            for (std::int32_t x = 0; x < m_w; ++x) {
                const std::uint32_t id = at(x, y);
                if (id == 0) continue;
                for (Dir d : {Down, Right, Up, Left}) {
                    CornerPoint p{x, y};
                    // The corner an edge of cell (x, y) in direction d starts at.
                    if (d == Right) p = {x, y + 1};
                    else if (d == Up) p = {x + 1, y + 1};
                    else if (d == Left) p = {x + 1, y};
                    if (isEdge(id, p, d) && !isUsed(p, d)) f(id, p, d);
                }
            }
    }

private:
    const std::vector<std::uint32_t>& m_id;
    std::int32_t m_w, m_h;
    std::vector<std::uint8_t> m_used;  ///< per cell: bit d set once its edge in direction d is traced
};

/// Splits a loop wherever it passes a corner twice, into loops that pass each corner once.
std::vector<Loop> splitAtRepeats(const Loop& loop, std::int32_t width) {
    std::vector<Loop> out;
    Loop stack;
    std::unordered_map<std::int64_t, std::size_t> where;
    const auto key = [width](CornerPoint p) { return std::int64_t{p.y} * (width + 1) + p.x; };
    for (const CornerPoint& p : loop) {
        const auto it = where.find(key(p));
        if (it == where.end()) {
            where.emplace(key(p), stack.size());
            stack.push_back(p);
            continue;
        }
        const std::size_t from = it->second;
        Loop part(stack.begin() + static_cast<std::ptrdiff_t>(from), stack.end());
        for (std::size_t k = from + 1; k < stack.size(); ++k) where.erase(key(stack[k]));
        stack.resize(from + 1);
        out.push_back(std::move(part));
    }
    out.push_back(std::move(stack));
    return out;
}

/// The loop's corners only (no point inside a straight run), closed (front() == back()),
/// starting at its first corner.
std::vector<CornerPoint> closedCorners(const Loop& loop) {
    std::vector<CornerPoint> ring;
    const std::size_t n = loop.size();
    for (std::size_t k = 0; k < n; ++k) {
        const CornerPoint& prev = loop[(k + n - 1) % n];
        const CornerPoint& p = loop[k];
        const CornerPoint& next = loop[(k + 1) % n];
        const bool straight = (prev.x == p.x && p.x == next.x) || (prev.y == p.y && p.y == next.y);
        if (!straight) ring.push_back(p);
    }
    ring.push_back(ring.front());
    return ring;
}

/// Twice the shoelace area (y down: negative for outer rings).
std::int64_t twiceArea(const std::vector<CornerPoint>& ring) {
    std::int64_t a = 0;
    for (std::size_t k = 0; k + 1 < ring.size(); ++k)
        a += std::int64_t{ring[k].x} * ring[k + 1].y - std::int64_t{ring[k + 1].x} * ring[k].y;
    return a;
}

/// Whether the point (px / 2, py / 2) (a cell centre: odd coordinates) lies inside the ring
/// (even-odd rule; never on it).
bool contains(const std::vector<CornerPoint>& ring, std::int64_t px, std::int64_t py) {
    bool inside = false;
    for (std::size_t k = 0; k + 1 < ring.size(); ++k) {
        const std::int64_t ax = 2 * std::int64_t{ring[k].x}, ay = 2 * std::int64_t{ring[k].y};
        const std::int64_t bx = 2 * std::int64_t{ring[k + 1].x}, by = 2 * std::int64_t{ring[k + 1].y};
        if (ax != bx || (ay > py) == (by > py)) continue;  // only vertical edges cross a row
        if (ax > px) inside = !inside;
    }
    return inside;
}

/// The doubled centre of the lake cell beside a ring's first edge (on the left of travel).
void cellBeside(const std::vector<CornerPoint>& ring, std::int64_t& px, std::int64_t& py) {
    const int dx = (ring[1].x > ring[0].x) - (ring[1].x < ring[0].x);
    const int dy = (ring[1].y > ring[0].y) - (ring[1].y < ring[0].y);
    px = 2 * std::int64_t{ring[0].x} + dx + dy;
    py = 2 * std::int64_t{ring[0].y} + dy - dx;
}

/// Sorts one lake's loops into polygons: each hole goes to the smallest outer ring around it.
void addPolygons(std::uint32_t id, std::vector<std::vector<CornerPoint>>& rings,
                 std::vector<LakePolygon>& out) {
    std::vector<std::size_t> outers;
    for (auto& ring : rings)
        if (twiceArea(ring) < 0) {
            outers.push_back(out.size());
            out.push_back({id, {std::move(ring)}});
        }
    for (auto& ring : rings) {
        if (ring.empty() || twiceArea(ring) < 0) continue;
        std::int64_t px, py;
        cellBeside(ring, px, py);
        if (outers.empty()) break;
        std::size_t best = outers.front();
        std::int64_t bestArea = std::numeric_limits<std::int64_t>::max();
        for (std::size_t o : outers) {
            const std::int64_t area = -twiceArea(out[o].rings[0]);
            if (area < bestArea && contains(out[o].rings[0], px, py)) {
                best = o;
                bestArea = area;
            }
        }
        out[best].rings.push_back(std::move(ring));
    }
}

}  // namespace

std::vector<LakePolygon> lakePolygons(const Lakes& lakes, std::int32_t width, std::int32_t height) {
    if (width <= 0 || height <= 0 || lakes.id.size() != static_cast<std::size_t>(width) * height)
        throw std::invalid_argument("lakePolygons: the lake ids must cover the width x height grid");
    Tracer tracer(lakes, width, height);
    std::vector<std::vector<std::vector<CornerPoint>>> ringsOf(lakes.count() + 1);
    tracer.forEachLoopStart([&](std::uint32_t id, CornerPoint p, Dir d) {
        for (const Loop& loop : splitAtRepeats(tracer.trace(id, p, d), width))
            ringsOf[id].push_back(closedCorners(loop));
    });
    std::vector<LakePolygon> polygons;
    for (std::uint32_t id = 1; id < ringsOf.size(); ++id) addPolygons(id, ringsOf[id], polygons);
    return polygons;
}

}  // namespace terragrid::hydro

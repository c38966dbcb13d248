#pragma once
// The basin graph of Cordonnier, Bovy and Braun (2019, "A versatile, linear complexity
// algorithm for flow routing in topographies with depressions"), shared by both forms of the
// erosion routing (ErosionRouter's receiver array, ErosionFlow's directions): nodes are the
// depressions' basins plus one node (0) for everything that drains to an outlet; an edge per
// pair of neighbouring basins, weighted by their lowest pass (over pairs of neighbouring
// cells, one in each, the higher of the two heights). Its minimum spanning tree from node 0 is
// the path water takes when each depression fills to its spill point. Each depression then
// drains through its tree edge: the receivers on the path from its pass cell down to its pit
// are reversed ("carving"), so every cell's receiver stays a neighbour.
//
// The result depends on nothing but the receivers and the heights: pass keys (height, then
// the two cells) are unique, so the lowest pass of each pair, the tree and the carved paths
// are unique too, whatever order the basins are numbered or scanned in.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <numeric>
#include <tuple>
#include <vector>

#include "hydro/neighbours.hpp"

namespace terragrid::hydro::detail {

/// A place where two basins touch: the pair of neighbouring cells and the height water must
/// reach to pass between them.
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

/// Drains `basins` - 1 depressions out through their passes. basin[i] is cell i's basin (0:
/// drains to an outlet); `edges` holds the lowest pass of each pair of neighbouring basins
/// (one edge per pair, in any order); receiver(i) reads a receiver, and redirect(cell, to)
/// makes `to` (a neighbour) the receiver of `cell`.
template <class Receiver, class Redirect>
void drainThroughPasses(const std::uint32_t* basin, std::uint32_t basins, std::vector<PassEdge> edges,
                        Receiver&& receiver, Redirect&& redirect) {
    // Keys are unique (cell pairs), so the sorted order, and the tree, are unique too.
    std::sort(edges.begin(), edges.end(), passOrder);

    DisjointSets sets(basins);
    std::vector<PassEdge> tree;
    tree.reserve(basins - 1);
    for (const PassEdge& e : edges) {
        if (sets.unite(basin[e.a], basin[e.b])) {
            tree.push_back(e);
            if (tree.size() + 1 == basins) break;
        }
    }
    // The tree as adjacency lists, walked breadth first from the outlets' node.
    std::vector<std::uint32_t> start(basins + 1, 0), adjacent(2 * tree.size());
    for (const PassEdge& e : tree) {
        ++start[basin[e.a] + 1];
        ++start[basin[e.b] + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint32_t> cursor(start.begin(), start.end() - 1);
    for (std::uint32_t t = 0; t < tree.size(); ++t) {
        adjacent[cursor[basin[tree[t].a]]++] = t;
        adjacent[cursor[basin[tree[t].b]]++] = t;
    }
    std::vector<std::uint8_t> reached(basins, 0);
    std::vector<std::uint32_t> queue{0};
    reached[0] = 1;
    for (std::size_t q = 0; q < queue.size(); ++q) {
        const std::uint32_t from = queue[q];
        for (std::uint32_t k = start[from]; k < start[from + 1]; ++k) {
            const PassEdge& e = tree[adjacent[k]];
            const bool aInFrom = basin[e.a] == from;
            const std::uint32_t outside = aInFrom ? e.a : e.b, inside = aInFrom ? e.b : e.a;
            const std::uint32_t b = basin[inside];
            if (reached[b]) continue;
            reached[b] = 1;
            queue.push_back(b);
            // Reverse the path inside -> ... -> pit, then let `inside` drain across the pass.
            std::uint32_t previous = outside, cell = inside;
            for (;;) {
                const std::uint32_t next = receiver(cell);
                redirect(cell, previous);
                if (next == cell) break;
                previous = cell;
                cell = next;
            }
        }
    }
    assert(queue.size() == basins);
}

}  // namespace terragrid::hydro::detail

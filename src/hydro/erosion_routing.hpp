#pragma once
// Flow routing for the erosion model, recomputed on the evolving surface at every step: D8
// steepest descent, with every closed depression routed out through its spill point by the
// basin graph of Cordonnier, Bovy and Braun (2019, "A versatile, linear complexity algorithm
// for flow routing in topographies with depressions"). The surface is never changed: a
// depression keeps its shape (it is a lake the river crosses), only its drainage is redirected.
//
// Why not fill + route every step: a Priority-Flood costs O(n log n) with a heap over every
// cell, every step. Here the common case is O(n) (one pass of steepest descent and one
// traversal); the basin graph only costs in proportion to the boundary cells of the
// depressions, which erosion quickly removes (see ErosionRouter::route).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace terragrid::hydro::detail {

/// Receivers and traversal order on one surface. receiver[i] == i marks a base-level cell (an
/// outlet); every other cell's receiver is one of its 8 neighbours. `stack` lists every cell
/// with each receiver before its donors (outlets first), as Braun and Willett's solver needs.
/// stack[groupStart[g] .. groupStart[g + 1]) are whole subtrees of some outlets, independent of
/// every other group: work along the stack can run group by group in parallel.
struct D8Routing {
    std::vector<std::uint32_t> receiver;
    std::vector<std::uint32_t> stack;
    std::vector<std::uint32_t> groupStart;
};

/// Reusable routing on a width x height grid. Not thread-safe; route() uses TBB inside and its
/// result does not depend on the number of threads.
class ErosionRouter {
public:
    /// `fixed[i]` != 0 marks the outlet cells (base level); at least one must be set.
    ErosionRouter(std::int32_t width, std::int32_t height, std::vector<std::uint8_t> fixed);

    /// Routes flow on `h` (width * height heights, row-major). Ties in steepest descent go to
    /// the first neighbour in hydro's fixed order (neighbours.hpp); depressions spill through their lowest pass, ties
    /// broken by cell index, so the result is a pure function of `h`.
    const D8Routing& route(const double* h);
    /// Depressions (local minima that are not outlets) the last route() found and rerouted.
    std::size_t pits() const noexcept { return m_pits; }

    std::int32_t width() const noexcept { return m_width; }
    std::int32_t height() const noexcept { return m_height; }

private:
    void steepestDescent(const double* h);
    void buildDonors();
    void traverse(std::uint32_t root, std::vector<std::uint32_t>& out,
                  std::vector<std::uint32_t>& pending) const;
    void buildBasinStack();
    void buildOutletStack();
    void routeDepressions(const double* h);

    /// Groups the outlets' traversal is split into: fixed, so the stack never depends on the
    /// thread count (and it would not anyway: the groups are joined in order).
    static constexpr std::size_t kStackGroups = 64;

    std::int32_t m_width;
    std::int32_t m_height;
    std::vector<std::uint8_t> m_fixed;
    D8Routing m_routing;
    std::vector<std::uint32_t> m_donorStart;  ///< CSR of donors: start per cell, size n + 1
    std::vector<std::uint32_t> m_donors;
    std::vector<std::uint32_t> m_basin;  ///< basin index of each cell (after a full traversal)
    std::vector<std::uint32_t> m_pending;  ///< the traversal's work stack, kept between steps
    std::vector<std::uint32_t> m_roots;    ///< the outlets, in index order
    std::vector<std::vector<std::uint32_t>> m_groupStacks;  ///< each group's traversal
    std::size_t m_pits = 0;
};

}  // namespace terragrid::hydro::detail

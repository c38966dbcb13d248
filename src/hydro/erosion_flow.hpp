#pragma once
// Flow routing for the erosion model as one byte per cell: the direction of each cell's
// receiver (neighbours.hpp's k), recomputed on the evolving surface at every step. The same
// receivers as ErosionRouter (erosion_routing.hpp: D8 steepest descent, every closed
// depression drained through its lowest pass by the basin graph of Cordonnier et al. 2019),
// without its stack.
//
// Why no stack: the passes that follow need only "donors before receivers" (the drainage
// area) or "receivers before donors" (the incision), and each cell's result there is a pure
// function of its neighbours' (drainage_area.hpp, stream_power.hpp). Walking the grid in
// row order and following the flow from each cell reaches every cell once, with the arrays
// read mostly in memory order; building the stack (donor lists, a depth-first traversal and
// its copies) cost more than the passes it served, most of it in serial code, and its order
// scattered the reads of every pass over the whole grid.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hydro/basin_graph.hpp"
#include "hydro/huge_pages.hpp"
#include "hydro/neighbours.hpp"

namespace terragrid::hydro::detail {

/// A cell that is its own receiver: a base-level cell (or, inside route(), a pit).
inline constexpr std::uint8_t kSelf = 8;

/// The direction that points back: neighbour k of a cell has the cell as its neighbour 7 - k.
constexpr int opposite(int k) { return 7 - k; }

/// Reusable routing on a width x height grid. Not thread-safe; route() uses TBB inside and its
/// result does not depend on the number of threads.
class ErosionFlow {
public:
    /// `fixed[i]` != 0 marks the outlet cells (base level); at least one must be set.
    ErosionFlow(std::int32_t width, std::int32_t height, std::vector<std::uint8_t> fixed);

    /// Lists of cells, each [first, last); together every cell once, or none.
    using CellLists = std::vector<std::pair<const std::uint32_t*, const std::uint32_t*>>;

    /// Routes flow on `h` (width * height heights, row-major): the receivers
    /// ErosionRouter::route gives on the same heights. `hint`: lists whose reverse orders put
    /// most receivers before their donors (the last step's walks, DrainageArea::forEachWalked),
    /// or none; the receivers do not depend on it, only the time to label the basins.
    void route(const double* h, const CellLists& hint = {});

    /// Per cell: the direction k of its receiver, or kSelf for a base-level cell.
    const CellVector<std::uint8_t>& directions() const noexcept { return m_direction; }
    std::uint32_t receiver(std::uint32_t i) const {
        const std::uint8_t k = m_direction[i];
        return k == kSelf ? i : std::uint32_t(std::int64_t(i) + m_shape.offset[k]);
    }
    /// Depressions (local minima that are not outlets) the last route() found and rerouted.
    std::size_t pits() const noexcept { return m_pits.size(); }
    const Shape& shape() const noexcept { return m_shape; }
    const CellVector<std::uint8_t>& fixed() const noexcept { return m_fixed; }

private:
    void steepestDescent(const double* h);
    // erosion_pits.cpp
    void drainDepressions(const double* h, const CellLists& hint);
    void labelBasins(const CellLists& hint);
    std::vector<PassEdge> lowestPasses(const double* h) const;

    Shape m_shape;
    CellVector<std::uint8_t> m_fixed;
    CellVector<std::uint8_t> m_direction;
    std::vector<std::uint32_t> m_pits;  ///< the non-outlet cells that are their own receiver, in index order
    /// Basin of each cell while depressions are drained: 1.. for the depressions in m_pits'
    /// order, 0 for the cells that drain to an outlet, kUnlabelled for a cell labelBasins has
    /// not reached yet (the value is its own mark: no array of marks to read beside it).
    CellVector<std::uint32_t> m_basin;
    static constexpr std::uint32_t kUnlabelled = 0xFFFFFFFFu;
};

}  // namespace terragrid::hydro::detail

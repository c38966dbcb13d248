#pragma once
// Drainage area for the erosion model: each cell's own area plus everything upstream.

#include <cstdint>
#include <utility>
#include <vector>

#include "hydro/banded_walks.hpp"
#include "hydro/erosion_flow.hpp"

namespace terragrid::hydro::detail {


/// Reusable drainage areas on one grid. Not thread-safe; compute() uses TBB inside.
class DrainageArea {
public:
    /// Each cell's area in m^2: cellArea, plus its donors' areas added in increasing index
    /// order, each donor finished before. The sums (terms and order) ErosionRouter's stack
    /// gives, whose reverse adds a cell's donors in index order too, so the bits are the same,
    /// and the same for any thread count.
    void compute(const ErosionFlow& flow, double cellArea);
    const CellVector<double>& area() const noexcept { return m_area; }

    /// A list of cells compute() summed, in the order it summed them.
    using List = CellList;

    /// Calls f(first, last) for each list, donors before receivers within a list (on one
    /// thread, one list of every cell): their reverse orders put receivers first.
    template <class F>
    void forEachWalked(F&& f) const {
        for (std::size_t r = 0; r < m_rounds.size(); ++r)
            for (const List& list : m_rounds[r]) f(list.first, list.second);
    }

    /// Calls f(lists) for each round of the walks (banded_walks.hpp), the last round first: a
    /// round's lists (one per band of rows that summed cells in it) hold every cell whose
    /// receiver comes after it in its own list or in a later round. So once the later rounds
    /// are done, the lists of a round, each last cell first, may run in parallel, with
    /// receivers always first.
    template <class F>
    void forEachRoundReversed(F&& f) const {
        for (std::size_t r = m_rounds.size(); r-- > 0;) f(std::as_const(m_rounds[r]));
    }

private:
    void findDonors(const ErosionFlow& flow);
    void walk(const ErosionFlow& flow, double cellArea);

    CellVector<double> m_area;
    CellVector<std::uint32_t> m_order;  ///< each band's cells in its rows' place, in the order summed
    std::vector<std::vector<List>> m_rounds;  ///< per round, its non-empty lists (parts of m_order)
    CellVector<std::uint8_t> m_donors;   ///< per cell: bit k set when neighbour k drains into it
    CellVector<std::uint8_t> m_waiting;  ///< per cell: donors not finished yet
};

}  // namespace terragrid::hydro::detail

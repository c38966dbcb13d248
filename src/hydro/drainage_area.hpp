#pragma once
// Drainage area for the erosion model: each cell's own area plus everything upstream.

#include <tbb/enumerable_thread_specific.h>

#include <cstdint>
#include <vector>

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

    /// Calls f(first, last) for each list of cells compute() finished, in the order it
    /// finished them (donors before receivers within a list); on one thread, one list of
    /// every cell. The lists' reverse orders put receivers first, as the incision wants.
    template <class F>
    void forEachWalked(F&& f) const {
        for (const auto& cells : m_walked)
            if (!cells.empty()) f(cells.data(), cells.data() + cells.size());
    }

private:
    void findDonors(const ErosionFlow& flow);
    void walk(const ErosionFlow& flow, double cellArea);

    CellVector<double> m_area;
    tbb::enumerable_thread_specific<CellVector<std::uint32_t>> m_walked;  ///< per thread
    CellVector<std::uint8_t> m_donors;   ///< per cell: bit k set when neighbour k drains into it
    CellVector<std::uint8_t> m_waiting;  ///< per cell: donors not finished yet
};

}  // namespace terragrid::hydro::detail

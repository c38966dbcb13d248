#pragma once
// Linear hillslope diffusion dh/dt = D laplacian(h), one implicit (backward Euler) step split
// by direction: rows, then columns, each a tridiagonal system solved by the Thomas algorithm.
// Each 1D system is an M-matrix, so the step is unconditionally stable and obeys the maximum
// principle (no new highs or lows) for any D dt / dx^2.

#include <cstdint>
#include <span>
#include <vector>

#include "hydro/huge_pages.hpp"

namespace terragrid::hydro::detail {

class HillslopeDiffusion {
public:
    /// `fixed[i]` != 0 holds cell i (base level, Dirichlet); the map's border is otherwise
    /// closed (no flux). `ratio` = D dt / dx^2 (>= 0).
    HillslopeDiffusion(std::int32_t width, std::int32_t height, std::vector<std::uint8_t> fixed,
                       double ratio);

    /// One step on `h` in place. Rows and column blocks in parallel: every 1D system is solved
    /// alone with the same operations, so the result does not depend on the thread count.
    void apply(std::span<double> h);

private:
    void rows(std::span<double> h);
    void columns(std::span<double> h);

    std::int32_t m_width;
    std::int32_t m_height;
    CellVector<std::uint8_t> m_fixed;
    double m_ratio;
    CellVector<double> m_scratch;  ///< the Thomas algorithm's modified super-diagonal
};

}  // namespace terragrid::hydro::detail

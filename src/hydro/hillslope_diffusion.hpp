#pragma once
// Linear hillslope diffusion dh/dt = D laplacian(h), one implicit (backward Euler) step split
// by direction: rows, then columns, each a tridiagonal system solved by the Thomas algorithm.
// Each 1D system is an M-matrix, so the step is unconditionally stable and obeys the maximum
// principle (no new highs or lows) for any D dt / dx^2.

#include <cstdint>
#include <vector>

namespace terragrid::hydro::detail {

class HillslopeDiffusion {
public:
    /// `fixed[i]` != 0 holds cell i (base level, Dirichlet); the map's border is otherwise
    /// closed (no flux). `ratio` = D dt / dx^2 (>= 0).
    HillslopeDiffusion(std::int32_t width, std::int32_t height, std::vector<std::uint8_t> fixed,
                       double ratio);

    /// One step on `h` in place. Rows and column blocks in parallel: every 1D system is solved
    /// alone with the same operations, so the result does not depend on the thread count.
    void apply(std::vector<double>& h);

private:
    void rows(std::vector<double>& h);
    void columns(std::vector<double>& h);

    std::int32_t m_width;
    std::int32_t m_height;
    std::vector<std::uint8_t> m_fixed;
    double m_ratio;
    std::vector<double> m_scratch;  ///< the Thomas algorithm's modified super-diagonal
};

}  // namespace terragrid::hydro::detail

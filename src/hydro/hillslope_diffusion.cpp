#include "hydro/hillslope_diffusion.hpp"

#include "hydro/avx2_lanes.hpp"
#include "hydro/diffusion_lanes.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>

namespace terragrid::hydro::detail {

namespace {

/// Solves in place one line of the implicit system: cells x[0], x[stride], ... (count of them),
/// each free cell  -r x_prev + (1 + r k) x - r x_next = x_old  (k its neighbours on the line),
/// each fixed cell  x = x_old. `super` holds count scratch values at the same stride.
void solveLine(double* x, const std::uint8_t* fixed, double* super, std::size_t count,
               std::size_t stride, double r) {
    double previousSuper = 0, previousValue = 0;
    for (std::size_t j = 0; j < count; ++j) {
        const std::size_t at = j * stride;
        double lower = 0, diagonal = 1, upper = 0;
        if (!fixed[at]) {
            if (j > 0) lower = -r, diagonal += r;
            if (j + 1 < count) upper = -r, diagonal += r;
        }
        const double pivot = diagonal - lower * previousSuper;
        previousSuper = super[at] = upper / pivot;
        previousValue = x[at] = (x[at] - lower * previousValue) / pivot;
    }
    for (std::size_t j = count - 1; j-- > 0;) {
        const std::size_t at = j * stride;
        x[at] -= super[at] * x[at + stride];
    }
}

}  // namespace

HillslopeDiffusion::HillslopeDiffusion(std::int32_t width, std::int32_t height,
                                       std::vector<std::uint8_t> fixed, double ratio)
    : m_width(width), m_height(height), m_fixed(fixed.begin(), fixed.end()), m_ratio(ratio) {}

void HillslopeDiffusion::apply(std::span<double> h) {
    if (m_ratio == 0) return;
    m_scratch.resize(h.size());
    rows(h);
    columns(h);
}

// Rows four at a time in lanes where the CPU has them (diffusion_lanes.hpp, avx2_lanes.hpp),
// the rest alone.
void HillslopeDiffusion::rows(std::span<double> h) {
    const std::size_t w = std::size_t(m_width);
    double* scratch = m_scratch.data();
    const std::size_t lanes = avx2Lanes() ? 4 : 1;
    const std::size_t groups = std::size_t(m_height) / lanes;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, groups + std::size_t(m_height) % lanes), [&](const auto& range) {
        for (std::size_t g = range.begin(); g < range.end(); ++g) {
            if (g < groups && lanes == 4) {
                solveFourRows(h.data(), m_fixed.data(), scratch, w, 4 * g, m_ratio);
                continue;
            }
            const std::size_t first = (g < groups ? g * lanes : groups * lanes + (g - groups)) * w;
            solveLine(h.data() + first, m_fixed.data() + first, scratch + first, w, 1, m_ratio);
        }
    });
}

// Columns a block of neighbours at a time, swept row by row together (the same operations as
// solveLine on each column): one column alone would stride through memory.
void HillslopeDiffusion::columns(std::span<double> h) {
    const std::size_t w = std::size_t(m_width), rowsCount = std::size_t(m_height);
    constexpr std::size_t kBlock = 64;
    const std::size_t blocks = (w + kBlock - 1) / kBlock;
    const double r = m_ratio;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const auto& range) {
        for (std::size_t b = range.begin(); b < range.end(); ++b) {
            std::size_t x0 = b * kBlock;
            const std::size_t x1 = std::min(w, x0 + kBlock);
            if (avx2Lanes())
                while (x0 + 4 <= x1) {
                    const std::size_t groups = std::min(kColumnGroups, (x1 - x0) / 4);
                    solveColumns(h.data(), m_fixed.data(), m_scratch.data(), w, rowsCount, x0, groups, r);
                    x0 += 4 * groups;
                }
            if (x0 == x1) continue;
            for (std::size_t y = 0; y < rowsCount; ++y) {
                const std::size_t row = y * w;
                for (std::size_t x = x0; x < x1; ++x) {
                    const std::size_t at = row + x;
                    double lower = 0, diagonal = 1, upper = 0;
                    if (!m_fixed[at]) {
                        if (y > 0) lower = -r, diagonal += r;
                        if (y + 1 < rowsCount) upper = -r, diagonal += r;
                    }
                    const double previousSuper = y > 0 ? m_scratch[at - w] : 0;
                    const double previousValue = y > 0 ? h[at - w] : 0;
                    const double pivot = diagonal - lower * previousSuper;
                    m_scratch[at] = upper / pivot;
                    h[at] = (h[at] - lower * previousValue) / pivot;
                }
            }
            for (std::size_t y = rowsCount - 1; y-- > 0;)
                for (std::size_t x = x0; x < x1; ++x) h[y * w + x] -= m_scratch[y * w + x] * h[(y + 1) * w + x];
        }
    });
}

}  // namespace terragrid::hydro::detail

#pragma once
// The diffusion's tridiagonal solves four lines at a time (AVX2 lanes), for HillslopeDiffusion:
// each line is the Thomas algorithm of hillslope_diffusion.cpp's solveLine, operation for
// operation, so the bits are the same; the lanes only put four independent lines side by
// side. A line alone waits on each cell's two divisions before the next cell can start.

#include <cstddef>
#include <cstdint>

namespace terragrid::hydro::detail {

/// Rows y0 .. y0 + 3 of a width-wide grid (row-major h, fixed, super), each solved alone.
void solveFourRows(double* h, const std::uint8_t* fixed, double* super, std::size_t width,
                   std::size_t y0, double r);

/// The most groups of four columns solveColumns takes: 16 columns, two cache lines a row.
inline constexpr std::size_t kColumnGroups = 4;

/// Columns x0 .. x0 + 4 groups - 1 of a width x height grid, each solved alone: the forward
/// sweep row by row, then the backward one, all the groups' lanes of a row together.
void solveColumns(double* h, const std::uint8_t* fixed, double* super, std::size_t width,
                  std::size_t height, std::size_t x0, std::size_t groups, double r);

}  // namespace terragrid::hydro::detail

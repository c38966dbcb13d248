#pragma once
// The texture weights of splat maps (splat_N.png) and Unreal weightmaps (weight_<class>.png):
// for each cell, how much of each terrain class to paint, in 255ths that sum to exactly 255.
//
// With blending off (0 cells) a cell is all its own class. With `blendCells` = b a cell takes
// each class in proportion to the cells of that class in the (2b + 1) x (2b + 1) square around
// it (cut by the map's edges), so class borders fade over about 2b + 1 cells. The weights
// depend only on the classes of the whole map, never on tiles or threads: rows come in whole,
// in order, and a row's weights are given once the rows b below it are in.

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace terragrid {

class SplatWeights {
public:
    /// Weights for a width x height map of `classCount` classes (1..255), blended over
    /// `blendCells` cells (0 = hard borders).
    SplatWeights(std::int64_t width, std::int64_t height, int classCount, std::int64_t blendCells);

    /// A row's weights: width x classCount bytes, cell by cell (cell x's weight for class c at
    /// x * classCount + c), summing to 255 for each cell.
    using RowOut = std::function<void(std::int64_t row, const std::vector<std::uint8_t>& weights)>;

    /// Takes the next `rows` full rows of class indices (row-major, width each) and hands
    /// `out` every row whose weights are now known, in order. Precondition: indices below
    /// classCount (checked: std::out_of_range).
    void addRows(const std::uint8_t* classes, std::int64_t rows, const RowOut& out);

    /// Rows whose weights have been handed out.
    std::int64_t rowsOut() const noexcept { return m_nextOut; }

    int classCount() const noexcept { return m_classes; }

private:
    void addToWindow(std::int64_t row, int sign);
    void emitRow(const RowOut& out);

    std::int64_t m_width;
    std::int64_t m_height;
    int m_classes;
    std::int64_t m_blend;
    std::deque<std::vector<std::uint8_t>> m_rows;  // rows m_firstKept .. m_rowsIn - 1
    std::int64_t m_firstKept = 0;
    std::int64_t m_rowsIn = 0;
    std::int64_t m_nextOut = 0;
    // Cells of each class in each column within the window's rows [m_windowLo, m_windowHi).
    std::vector<std::uint16_t> m_columnCounts;  // width x classes
    std::int64_t m_windowLo = 0;
    std::int64_t m_windowHi = 0;
    std::vector<std::uint32_t> m_sums;      // one cell's window, per class
    std::vector<std::uint8_t> m_weights;    // one row's weights
};

/// Splits 255 between classes in proportion to `counts` (not all 0): floor of each share, then
/// one more to the classes with the largest remainders (ties: the lower class index), so the
/// weights sum to exactly 255. Writes counts.size() bytes to `weights`.
void splitWeights(const std::vector<std::uint32_t>& counts, std::uint8_t* weights);

}  // namespace terragrid

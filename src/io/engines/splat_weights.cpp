#include "io/engines/splat_weights.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace terragrid {

void splitWeights(const std::vector<std::uint32_t>& counts, std::uint8_t* weights) {
    const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    // Most cells see one class alone (every cell without blending, and the inside of each
    // class's areas with it): all 255 are its, which the divisions below would also give.
    const auto only = std::find(counts.begin(), counts.end(), total);
    if (only != counts.end()) {
        std::fill_n(weights, counts.size(), std::uint8_t{0});
        weights[only - counts.begin()] = 255;
        return;
    }
    std::uint64_t given = 0;
    for (std::size_t c = 0; c < counts.size(); ++c) {
        weights[c] = static_cast<std::uint8_t>(255 * std::uint64_t{counts[c]} / total);
        given += weights[c];
    }
    // At most one extra step per class with a remainder, largest remainder first.
    for (std::uint64_t left = 255 - given; left > 0; --left) {
        std::size_t best = 0;
        std::uint64_t bestRemainder = 0;
        for (std::size_t c = 0; c < counts.size(); ++c) {
            const std::uint64_t remainder = 255 * std::uint64_t{counts[c]} % total;
            // Strictly greater: on a tie the lower index keeps it. A class that took its extra
            // step has its remainder spent, marked by a weight past its floor.
            const bool spent = weights[c] != 255 * std::uint64_t{counts[c]} / total;
            if (!spent && remainder > bestRemainder) {
                best = c;
                bestRemainder = remainder;
            }
        }
        ++weights[best];
    }
}

SplatWeights::SplatWeights(std::int64_t width, std::int64_t height, int classCount,
                           std::int64_t blendCells)
    : m_width(width),
      m_height(height),
      m_classes(classCount),
      m_blend(blendCells),
      m_columnCounts(static_cast<std::size_t>(width * classCount)),
      m_sums(static_cast<std::size_t>(classCount)),
      m_weights(static_cast<std::size_t>(width * classCount)) {}

void SplatWeights::addToWindow(std::int64_t row, int sign) {
    const std::vector<std::uint8_t>& classes = m_rows[static_cast<std::size_t>(row - m_firstKept)];
    for (std::int64_t x = 0; x < m_width; ++x) {
        std::uint16_t& count = m_columnCounts[static_cast<std::size_t>(x * m_classes + classes[x])];
        count = static_cast<std::uint16_t>(count + sign);
    }
}

void SplatWeights::addRows(const std::uint8_t* classes, std::int64_t rows, const RowOut& out) {
    for (std::int64_t y = 0; y < rows; ++y) {
        const std::uint8_t* row = classes + y * m_width;
        const auto bad = std::find_if(row, row + m_width, [&](std::uint8_t c) { return c >= m_classes; });
        if (bad != row + m_width)
            throw std::out_of_range("SplatWeights: class " + std::to_string(*bad) + " in row " +
                                    std::to_string(m_rowsIn) + " of a table of " +
                                    std::to_string(m_classes) + " classes");
        m_rows.emplace_back(row, row + m_width);
        ++m_rowsIn;
    }
    // A row is known once the rows `blend` below it (or the map's last row) are in.
    while (m_nextOut < m_height && std::min(m_nextOut + m_blend, m_height - 1) < m_rowsIn)
        emitRow(out);
}

void SplatWeights::emitRow(const RowOut& out) {
    const std::int64_t row = m_nextOut;
    if (m_blend == 0) {
        // Each cell is all its own class: the weights the window would give, without one.
        const std::vector<std::uint8_t>& classes = m_rows.front();  // the row itself
        std::fill(m_weights.begin(), m_weights.end(), std::uint8_t{0});
        for (std::int64_t x = 0; x < m_width; ++x)
            m_weights[static_cast<std::size_t>(x * m_classes + classes[static_cast<std::size_t>(x)])] = 255;
        out(row, m_weights);
        m_rows.pop_front();
        ++m_firstKept;
        ++m_nextOut;
        return;
    }
    const std::int64_t lo = std::max<std::int64_t>(0, row - m_blend);
    const std::int64_t hi = std::min(m_height, row + m_blend + 1);
    while (m_windowHi < hi) addToWindow(m_windowHi++, +1);
    while (m_windowLo < lo) addToWindow(m_windowLo++, -1);
    // Rows above the window are no longer needed.
    while (m_firstKept < m_windowLo) {
        m_rows.pop_front();
        ++m_firstKept;
    }
    // Slide the square along the row: add the column entering on the right, drop the one
    // leaving on the left.
    std::fill(m_sums.begin(), m_sums.end(), 0);
    const auto addColumn = [&](std::int64_t x, int sign) {
        const std::uint16_t* counts = &m_columnCounts[static_cast<std::size_t>(x * m_classes)];
        for (int c = 0; c < m_classes; ++c) m_sums[static_cast<std::size_t>(c)] += sign * counts[c];
    };
    for (std::int64_t x = 0; x < std::min(m_blend, m_width); ++x) addColumn(x, +1);
    for (std::int64_t x = 0; x < m_width; ++x) {
        if (x + m_blend < m_width) addColumn(x + m_blend, +1);
        if (x - m_blend - 1 >= 0) addColumn(x - m_blend - 1, -1);
        splitWeights(m_sums, &m_weights[static_cast<std::size_t>(x * m_classes)]);
    }
    out(row, m_weights);
    ++m_nextOut;
}

}  // namespace terragrid

#pragma once
// A band of full map rows gathered from the tiles of one tile row, for the writers that
// encode whole rows (PNG, OpenEXR): tiles arrive in row-major tile order, so a band completes
// with the last tile of its row and holds at most width x tile-height values.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "terragrid/model/tiling.hpp"

namespace terragrid {

template <typename T>
class TileBand {
public:
    explicit TileBand(std::int64_t width) : m_width(width) {}

    /// Places tile `r`'s rows in the band: `copyRow(y, destination)` writes the tile's row y
    /// (r.width values) at `destination`. Returns true when the tile completes the band, which
    /// data() and rows() then hold until the next place(). Throws std::logic_error naming
    /// `path` when the tile breaks row-major tile order.
    template <typename CopyRow>
    bool place(const TileRect& r, const std::string& path, CopyRow copyRow) {
        if (r.col0 == 0) {  // the first tile of a band
            if (r.row0 != m_rowsDone) outOfOrder(r, path);
            m_rows = r.height;
            m_values.resize(static_cast<std::size_t>(m_width * r.height));
        } else if (r.col0 != m_nextCol || r.row0 != m_rowsDone || r.height != m_rows) {
            outOfOrder(r, path);
        }
        for (std::int64_t y = 0; y < r.height; ++y)
            copyRow(y, m_values.data() + y * m_width + r.col0);
        m_nextCol = r.col0 + r.width;
        if (m_nextCol < m_width) return false;
        m_rowsDone += m_rows;
        m_nextCol = 0;
        return true;
    }

    /// The band: rows() x width values, row-major.
    const T* data() const noexcept { return m_values.data(); }
    std::int64_t rows() const noexcept { return m_rows; }
    /// The map rows of every completed band.
    std::int64_t rowsDone() const noexcept { return m_rowsDone; }

private:
    [[noreturn]] static void outOfOrder(const TileRect& r, const std::string& path) {
        throw std::logic_error("sink for '" + path + "': tile " + std::to_string(r.index) +
                               " arrived out of row-major tile order");
    }

    std::int64_t m_width;
    std::vector<T> m_values;
    std::int64_t m_rows = 0;      // rows of the band being gathered
    std::int64_t m_rowsDone = 0;  // first map row of the band being gathered
    std::int64_t m_nextCol = 0;   // where the band's next tile must start
};

}  // namespace terragrid

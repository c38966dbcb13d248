#pragma once
// One byte per cell marking the cells a pass over the grid has finished, for the passes that
// walk along the flow and must know which cells are done: each pass marks with a value of its
// own, so a new pass needs no sweep to clear the marks of the last one (but one in 127).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hydro/huge_pages.hpp"

namespace terragrid::hydro::detail {

class PassMarks {
public:
    /// The values below 0x80 are marks; a pass may use its mark | 0x80 for a state of its own.
    static constexpr std::uint8_t kFlag = 0x80;

    /// Starts a pass over `cells` cells: returns its mark, which no cell holds yet.
    std::uint8_t begin(std::size_t cells) {
        if (m_marks.size() != cells || m_mark == kFlag - 1) {
            m_marks.assign(cells, 0);
            m_mark = 0;
        }
        return ++m_mark;
    }
    std::uint8_t* data() noexcept { return m_marks.data(); }

private:
    CellVector<std::uint8_t> m_marks;
    std::uint8_t m_mark = 0;
};

}  // namespace terragrid::hydro::detail

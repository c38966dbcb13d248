#pragma once
// Whether pieces of a map (windows of it, each from one directory) cover it exactly once, and
// if not, which cells are in no piece or in more than one, in words a user can act on.

#include <cstdint>
#include <string>
#include <vector>

#include "terragrid/model/window.hpp"

namespace terragrid {

struct CoveragePiece {
    std::string name;  ///< the piece's directory, for messages
    CellWindow window;
};

/// One sentence per gap or overlap, top to bottom, adjacent rows with the same problem told
/// once: "rows 38-75 are in no piece", "rows 0-37 are in more than one piece: 'a', 'b'"
/// (with ", columns C-D" when the problem does not span the map's width). Rows and columns
/// count from 0, ranges inclusive. Empty when the pieces tile the width x height map. Pure.
std::vector<std::string> coverageProblems(const std::vector<CoveragePiece>& pieces,
                                          std::int64_t width, std::int64_t height);

}  // namespace terragrid

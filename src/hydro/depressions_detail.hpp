#pragma once
// The strip decomposition of fillDepressions, exposed for the tests (any strip height must
// give the same surface).

#include <cstdint>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro::detail {

/// fillDepressions on strips of `stripRows` rows (the last may be shorter).
std::vector<float> fillInStrips(const Grid& dem, const Outlets& outlets, std::int32_t stripRows);

/// The strip height fillDepressions uses for a grid of `height` rows.
std::int32_t defaultStripRows(std::int32_t height);

}  // namespace terragrid::hydro::detail

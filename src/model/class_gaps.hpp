#pragma once
// The coverage check of class tables that restrict temperature, precipitation or slope
// (findGap in terragrid/model/terrain.hpp hands them here). Private to src/model.

#include <optional>
#include <string>
#include <vector>

#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// nullopt when every cell (height and moisture on 0..1, temperature, precipitation and slope on
/// their axes) matches some class of `classes`; otherwise one uncovered box in words, e.g.
/// "height 0..1 with moisture 0..1, temperature 5..20 and precipitation 0..300" (the axes no
/// class restricts left out, but height and moisture). Pure.
std::optional<std::string> findClimateGap(const std::vector<TerrainClass>& classes);

}  // namespace terragrid

#pragma once
// Rules across fields for the map's shape (private to src/).

#include "config/text.hpp"

namespace terragrid::config_detail {

struct Validation;

/// The map's shape: wrapping maps and planets, and the layer stacks they can hold. Completes a
/// planet's grid (cell size in degrees, origin, EPSG:4326).
void checkWorldShape(Validation& v, Problems& out);

}  // namespace terragrid::config_detail

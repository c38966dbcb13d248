#pragma once
// Rules across fields for hydrology (private to src/config): the water outputs need it on, and
// it needs a flat map with edges to drain to.

#include "config/text.hpp"

namespace terragrid::config_detail {

struct Validation;

/// Water outputs (the output drivers that need hydrology) asked for with hydrology.enabled
/// false; hydrology on a wrapping map or a planet, which have no edge for water to leave by;
/// a custom class table whose classes other than lake and river (taken by hydrology's water
/// alone) leave a (height, moisture) unclassified.
void checkHydrology(const Validation& v, Problems& out);

}  // namespace terragrid::config_detail

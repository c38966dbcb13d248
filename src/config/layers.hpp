#pragma once
// Stacked layers (private to src/): checking a `layers` list and turning it into the layers
// of a stack.

#include <vector>

#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "config/values.hpp"

namespace terragrid::config_detail {

/// Checks a `layers` list (Kind::LayerList): every entry's layer keys and its combine, weight
/// and mask. Returns the canonical list, or nullopt after reporting.
Checked checkLayerList(const Option& option, const Json& value, Problems& out);

/// A checked `layers` list as stacked layers, each starting from `base`.
std::vector<StackedLayer> stackedLayersFrom(const NoiseParams& base, const Json& entries);

}  // namespace terragrid::config_detail

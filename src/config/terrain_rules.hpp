#pragma once
// Terrain validation (private to src/): thresholds, the custom class table and the rules
// between the terrain keys.

#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "config/values.hpp"

namespace terragrid::config_detail {

struct Validation;

Checked checkThreshold(const Option& o, const Json& value, Problems& out);

/// The custom class table: valid entries, unique names, and every cell classified.
Checked checkClassTable(const Option& o, const Json& value, Problems& out);

void checkTerrainThresholds(const Validation& v, Problems& out);

/// With a custom class table, the keys of the default rules are ignored; a user who sets them
/// is told so rather than left wondering.
void checkUnusedDefaultRules(Validation& v, Problems& out);

}  // namespace terragrid::config_detail

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The terrain rules in the user's words: config keys for the thresholds of the default
// classes, the order rule's sentence, and a TerrainError (model terms) as the ConfigError the
// user sees. The model reports problems; this is the one place that words them.

#include <string>
#include <string_view>

#include "terragrid/config/loader.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// The config key of the threshold that bounds default class `c`: "terrain.lake_below" for
/// DefaultClass::Lake, and so on. `c` is not Ground, which has none.
std::string_view thresholdKey(DefaultClass c);

/// The order rule of two thresholds, for values as given and for values resolved from
/// coverage alike, without the "config: " prefix:
/// "'terrain.lake_below' (0.8) must be below 'terrain.mountain_above' (0.72)", or
/// "'terrain.lake_below' (coverage 1, resolved to 1) must be below ...".
std::string thresholdOrderText(DefaultClass below, const Threshold& belowGiven, double belowValue,
                               DefaultClass above, const Threshold& aboveGiven, double aboveValue);

/// The ConfigError a user sees for `error`: one problem naming the config keys, the rule and
/// the values.
ConfigError configErrorFrom(const TerrainError& error);

}  // namespace terragrid

#pragma once
// Rules across fields for the climate (private to src/config): what needs it on, and keys that
// have no effect with the choices around them.

#include "config/text.hpp"

namespace terragrid::config_detail {

struct Validation;

/// terrain.model climate, hydrology.rainfall climate, a class table with temperature or
/// precipitation ranges, and the climate outputs asked for with climate.enabled false;
/// terrain.model climate with the noise model's keys set; climate.latitude set on a planet,
/// climate.wind.direction with the wind by bands, terrain.rock_slope with the noise model;
/// hydrology.outlets sea without a sea.
void checkClimate(Validation& v, Problems& out);

}  // namespace terragrid::config_detail

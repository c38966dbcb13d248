// Temperature, the saturation curve, the circulation cells and the prevailing winds
// (climate_model.hpp).

#include <algorithm>
#include <cmath>
#include <numbers>

#include "terragrid/climate/climate_model.hpp"

namespace terragrid::climate {

namespace {

double radians(double degrees) { return degrees * (std::numbers::pi / 180.0); }

/// The unit vector the wind blows toward when it comes from `fromDegrees` (clockwise from
/// north): from the west (270) it blows east.
WindVector blowingFrom(double fromDegrees) {
    const double a = radians(fromDegrees);
    return {.east = -std::sin(a), .south = std::cos(a)};
}

}  // namespace

double seaLevelTemperature(const Params& p, double latitudeDegrees) {
    return p.poleTemperature +
           (p.equatorTemperature - p.poleTemperature) * std::cos(radians(latitudeDegrees));
}

double temperature(const Params& p, double latitudeDegrees, double elevationMeters) {
    return seaLevelTemperature(p, latitudeDegrees) -
           p.lapseRate * std::max(0.0, elevationMeters) / 1000.0;
}

double saturation(double celsius) { return std::exp2((celsius - 15.0) / 10.0); }

double circulationFactor(double latitudeDegrees) {
    return 1.0 + kCirculationAmplitude * std::cos(radians(6.0 * latitudeDegrees));
}

WindVector windAt(const Params& p, double latitudeDegrees) {
    if (p.windMode == WindMode::Fixed) return blowingFrom(p.windFromDegrees);
    // Earth's bands, 30 degrees off the zonal direction: the trades and the polar easterlies
    // from the east, toward the equator's side (north-east in the north, south-east in the
    // south); the westerlies from the west, toward the pole's side.
    const double lat = std::fabs(latitudeDegrees);
    const bool north = latitudeDegrees >= 0;
    const bool westerly = lat >= 30 && lat < 60;
    if (westerly) return blowingFrom(north ? 240 : 300);
    return blowingFrom(north ? 60 : 120);
}

}  // namespace terragrid::climate

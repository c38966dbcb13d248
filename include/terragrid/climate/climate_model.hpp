#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The climate model: temperature from latitude and elevation, and precipitation carried by a
// prevailing wind across a grid of the whole map (design.md: a deterministic whole-map stage).
//
// Temperature. At sea level T0(lat) = Tpole + (Tequator - Tpole) cos(lat): with the defaults
// (27 and -25 degrees C) 20 C at 30 degrees, 12 C at 45, 1 C at 60, close to Earth's zonal
// means. Above sea level (0 m) it falls by the lapse rate: T = T0(lat) - lapse max(0, z) / 1000.
//
// Precipitation. Air moves along the wind one grid cell at a time carrying water vapour q and
// cloud water c (both as fluxes: mm of rain a year times km of path). Saturated air at
// temperature T holds qsat(T) = P15 L 2^((T - 15) / 10) (about 7 % more per degree, as
// Clausius-Clapeyron has it), P15 the flat-land precipitation of saturated air at 15 C
// (climate.precipitation) and L the model's rain-out distance. Per cell of path length ds:
//   - over open water (fraction w of the cell) the air takes up vapour toward kSeaHumidity of
//     saturation over kPickupKm;
//   - air that climbs cools by the lapse rate and condenses the share of its vapour that its
//     capacity loses, weighted by its relative humidity (orographic lift: dry air must climb
//     further before it rains), and vapour beyond the capacity at the cell's temperature
//     condenses whatever the path; both become cloud water;
//   - air that descends warms and evaporates part of its cloud water (the lee dries out);
//   - cloud water falls as rain over kFallKm (so rain falls on the windward slopes and crests);
//   - vapour rains out over L / f(lat) (background rain), while the air loses it over L, of
//     which kRecycling evaporates again: the moisture of a continent's interior fades over
//     L / (1 - kRecycling) = climate.moisture_range at every latitude. f(lat) = 1 + a cos(6 lat):
//     the three circulation cells, rainy at the equator (ITCZ) and the polar front, dry under
//     the subtropical and polar highs; the rain f adds or withholds is the moisture the cells
//     bring in or carry off across the wind.
// The rain a cell receives is what the air lost over it, per km: mm a year, finally spread over
// kSpreadKm (rain falls from clouds that drift and spread).
//
// The wind: a fixed direction, or the planet's bands (trade winds from the east below 30
// degrees, westerlies to 60, polar easterlies beyond), each 30 degrees off the zonal direction
// toward the equator's or the poles' side as on Earth. The grid is swept along the wind's
// dominant axis: each step reads only the step before it (the upwind column or row,
// interpolated linearly across the wind's drift), so the cells of one step are independent and
// run in parallel: the same bits for any thread count. Where the map wraps (a planet's
// longitudes, a tileable map) the sweep goes round twice from a fixed start and keeps the
// second round.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace terragrid::climate {

/// How the prevailing wind blows: one direction everywhere, or by latitude band.
enum class WindMode : std::uint8_t { Fixed, Bands, Last = Bands };
inline constexpr std::array<std::string_view, 2> kWindModeNames{"fixed", "bands"};
static_assert(kWindModeNames.size() == std::size_t(WindMode::Last) + 1);

/// The model's parameters (climate.* in the config; defaults in configs/default.json).
struct Params {
    double equatorTemperature = 0;  ///< degrees C at sea level on the equator
    double poleTemperature = 0;     ///< degrees C at sea level at the poles
    double lapseRate = 0;           ///< degrees C per km of elevation above 0 m
    WindMode windMode = WindMode::Fixed;
    double windFromDegrees = 0;     ///< Fixed: where the wind comes from, clockwise from north
    double precipitation = 0;       ///< mm a year of saturated 15 C air over flat land
    double moistureRangeKm = 0;     ///< e-folding distance of the air's moisture over flat land
    double inflowHumidity = 0;      ///< 0..1 of saturation, the air entering across the map's edge
};

/// Air over open water takes up vapour toward this share of saturation...
inline constexpr double kSeaHumidity = 0.85;
/// ... closing 1/e of the gap per this many km.
inline constexpr double kPickupKm = 300;
/// Cloud water falls over this many km (Smith and Barstad's delays, about 1000 s each at
/// 10 m/s, together).
inline constexpr double kFallKm = 15;
/// The share of background rain over land that evaporates back into the air.
inline constexpr double kRecycling = 0.9;
/// The rain is spread over about this many km (a Gaussian's sigma) once the wind has crossed
/// the grid.
inline constexpr double kSpreadKm = 2;

/// Sea-level temperature at `latitudeDegrees`. Pure.
double seaLevelTemperature(const Params& p, double latitudeDegrees);

/// Temperature of a surface at `elevationMeters` at `latitudeDegrees`: the sea-level
/// temperature minus p.lapseRate per km above 0 m (nothing below). Pure.
double temperature(const Params& p, double latitudeDegrees, double elevationMeters);

/// 2^((T - 15) / 10): how much water saturated air at `celsius` holds, relative to 15 C. The
/// one source of the saturation curve for the air's capacity and for evaporation. Pure.
double saturation(double celsius);

/// The circulation cells' swing: background rain from 1 - a (the subtropical highs, the
/// poles) to 1 + a (the equator, the polar front). 0.8: the sea's rain near 55 degrees then
/// exceeds the sea's near 28, though the air holds half as much there (0.6 left it below).
inline constexpr double kCirculationAmplitude = 0.8;

/// The background-rain factor of the circulation cells at `latitudeDegrees`:
/// 1 + kCirculationAmplitude cos(6 lat).
double circulationFactor(double latitudeDegrees);

/// Where the wind blows toward at `latitudeDegrees`, as a unit vector (east, south) on the
/// ground. Pure.
struct WindVector {
    double east = 0;
    double south = 0;
};
WindVector windAt(const Params& p, double latitudeDegrees);

/// The grid the wind crosses: width x height cells, row-major, rows north to south.
struct Grid {
    std::int32_t width = 0, height = 0;
    /// Ground size of a cell in km: along the rows and down the columns. On a planet the rows
    /// shrink with cos(latitude) (cellKm[row] holds that), the columns do not.
    std::vector<double> rowCellKm;  ///< per row: east-west size of a cell
    double columnCellKm = 0;        ///< north-south size of a cell
    std::vector<double> latitude;   ///< per row, degrees
    bool wrapX = false, wrapY = false;
    /// Height of the surface the air crosses (the ground, or the water surface), metres.
    std::vector<float> surface;
    /// Share of each cell that is open water (sea, lake, river), 0..1.
    std::vector<float> water;
};

/// Precipitation, mm a year, of every cell of `grid`. Deterministic: the same bits for any
/// thread count (TBB inside). Throws std::invalid_argument on a malformed grid.
std::vector<float> precipitation(const Grid& grid, const Params& p);

}  // namespace terragrid::climate

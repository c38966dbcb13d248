#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The CRS a map's world coordinates are in, as PROJ's database describes it. The config loader
// resolves output.crs once (terragrid/config/crs.hpp) and stores the facts here, so the writers
// and the engine sidecars never ask PROJ, nor guess from the code.

#include <string>

#include "terragrid/model/world.hpp"

namespace terragrid {

struct CrsInfo {
    int epsg = 0;             ///< EPSG code (GeoTIFF's 16-bit GeoKeys take 1024..32766)
    /// A 2D geographic CRS (longitude/latitude in degrees: map.cell_size and map.origin are
    /// degrees), else a projected one.
    bool geographic = false;
    /// Projected: metres in one unit of the axes (1 for metres, 0.3048 for feet); geographic: 0.
    double unitToMetre = 1;
    double semiMajorMetres = 6378137.0;        ///< the CRS's ellipsoid: equatorial radius
    double inverseFlattening = 298.257223563;  ///< 1/f (0: a sphere)
    std::string name;                          ///< PROJ's name ("WGS 84 / UTM zone 33N")
};

/// Ground size of one cell in metres, east-west (x) and north-south (y).
struct CellMetres {
    double x = 0;
    double y = 0;
    /// The side of a square of the same area: the one size an engine's square grid takes.
    double square() const noexcept;
};

/// Latitude (degrees) of the centre of the whole map (its windows and shards included) of a
/// geographic CRS: where its cells are measured in metres.
double centreLatitude(const MapConfig& map) noexcept;

/// The ground size of one of `map`'s cells in metres. On an equirectangular planet, the
/// configured ground size (map.cell_size at the equator); in a projected CRS, the cell size in
/// the CRS's unit times unitToMetre (the grid's own size, not corrected for the projection's
/// scale); in a geographic CRS, a degree of longitude and of latitude on the CRS's ellipsoid at
/// the whole map's centre latitude (so every shard says the same). Pure, thread-safe.
CellMetres cellMetres(const MapConfig& map, const CrsInfo& crs) noexcept;

}  // namespace terragrid

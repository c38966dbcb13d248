#pragma once
// What GIS programs need besides the pixels to show terragrid's rasters as intended: the class
// names and colours of classes.tif as GDAL's category names and raster attribute table (its
// PAM sidecar, classes.tif.aux.xml: GDAL 3.6 reads neither from inside a GeoTIFF), and QGIS
// style files, classes.qml (a paletted renderer: value, colour, name) and height.qml (a
// pseudocolour ramp equal to height.png's). QGIS loads `<name>.qml` beside `<name>.tif` as
// the layer's default style. Pure text builders; the sinks write them beside the rasters.

#include <string>
#include <vector>

#include "io/png/preview.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// height.png's ramp for `config`: water at or below the lake threshold (terrain.lake_below
/// as metres, resolved by `terrain` when it is a coverage target), or at or below 0 m on
/// planets and on maps with an island falloff; no water with a custom class table. With
/// hydrology, water at or below hydrology.sea_level (as metres), none without a sea: the
/// lakes are the stage's, which height.png draws from the tiles.
/// `terrain` may be null unless the lake threshold is a coverage target (heightRampNeedsTerrain).
HeightRamp heightRamp(const Config& config, const Terrain* terrain);

/// Whether heightRamp needs the run's resolved Terrain: the lake threshold is a coverage
/// target of the default classes on a plane map without falloff.
bool heightRampNeedsTerrain(const Config& config);

/// What GDAL needs besides the pixels to name classes.tif's values: <CategoryNames> (one per
/// class index) and a thematic <GDALRasterAttributeTable> (Value, Class, Red, Green, Blue,
/// Walkable), the elements of a band in GDAL's PAM and VRT files alike.
std::string classesBandXml(const std::vector<TerrainClass>& classes);

/// classes.tif.aux.xml: GDAL PAM with <CategoryNames> (one per class index) and a thematic
/// <GDALRasterAttributeTable> (Value, Class, Red, Green, Blue, Walkable).
std::string classesAuxXml(const std::vector<TerrainClass>& classes);

/// classes.qml: QGIS 3's paletted renderer, one paletteEntry per class.
std::string classesQml(const std::vector<TerrainClass>& classes);

/// height.qml: QGIS 3's singleband pseudocolour renderer, an interpolated colour ramp with
/// heightRampStops(ramp).
std::string heightQml(const HeightRamp& ramp);

}  // namespace terragrid

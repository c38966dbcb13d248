#pragma once
// What GIS programs need besides the pixels to show terragrid's rasters as intended: the class
// names and colours of classes.tif as GDAL's category names and raster attribute table (its
// PAM sidecar, classes.tif.aux.xml: GDAL 3.6 reads neither from inside a GeoTIFF), and QGIS
// style files, classes.qml (a paletted renderer: value, colour, name) and height.qml (a
// pseudocolour ramp equal to height.png's). QGIS loads `<name>.qml` beside `<name>.tif` as
// the layer's default style. Pure text builders; the sinks write them beside the rasters.

#include <string>
#include <vector>

#include "io/height_range.hpp"
#include "io/png/preview.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// height.png's ramp for `config`, over the map's height range (mapHeightRange: with erosion
/// the eroded heights', from `hydrology`, the whole map's stage, required then). Water at or
/// below the lake class's threshold (terrain.lake_below as metres, resolved by `terrain` when
/// it is a coverage target: the same cells as classes.tif's lake, on planets and islands too);
/// no water with a custom class table. With hydrology, water at or below hydrology.sea_level
/// (as metres), none without a sea: the lakes are the stage's, which height.png draws from the
/// tiles. `terrain` may be null unless the lake threshold is a coverage target
/// (heightRampNeedsTerrain); std::invalid_argument when an input it needs is null. Pure.
HeightRamp heightRamp(const Config& config, const Terrain* terrain,
                      const HydrologyStage* hydrology = nullptr);

/// The same ramp over a given height range (`range`): noiseHeightRange for the heights of an
/// eroded map before its stage is done (the explorer's first pictures). Pure.
HeightRamp heightRamp(const Config& config, const Terrain* terrain, const HeightRange& range);

/// Whether heightRamp needs the run's resolved Terrain: the lake threshold is a coverage
/// target of the default classes, without hydrology.
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

/// One value of a categorical raster other than classes.tif (water.tif): its name and colour,
/// and whether QGIS draws it (a transparent value lets the layers below show through).
struct RasterCategory {
    std::string name;
    Rgb colour;
    bool transparent = false;
};

/// `<raster>.aux.xml` of such a raster: <CategoryNames> (value i: categories[i].name) and a
/// thematic <GDALRasterAttributeTable> (Value, Class, Red, Green, Blue).
std::string categoriesAuxXml(const std::vector<RasterCategory>& categories);

/// Its QGIS style: a paletted renderer, one paletteEntry per value (alpha 0 when transparent).
std::string categoriesQml(const std::vector<RasterCategory>& categories);

/// height.qml: QGIS 3's singleband pseudocolour renderer, an interpolated colour ramp with
/// heightRampStops(ramp).
std::string heightQml(const HeightRamp& ramp);

}  // namespace terragrid

#pragma once
// A GDAL VRT (virtual raster) of a map raster made of pieces: one XML file that references the
// pieces' GeoTIFFs where they lie, and carries what the pieces' run wrote into each GeoTIFF
// (georeferencing, nodata, unit, scale and offset, palette, metadata) plus what classes.tif
// keeps in its sidecar (category names and attribute table). gdalbuildvrt would take some of
// it from the first piece and lose the rest (the sidecar's names, the units); this one is
// written from the same GeoTiffOptions the run's writer used.

#include <string>
#include <vector>

#include "io/geotiff/geotiff_writer.hpp"
#include "terragrid/model/window.hpp"

namespace terragrid {

/// One piece of the raster.
struct VrtSource {
    std::string path;    ///< the piece's GeoTIFF, as the VRT names it
    bool relative = true;  ///< whether `path` is relative to the VRT's directory
    CellWindow window;   ///< where the piece lies in the raster
};

/// The VRT of the options.width x options.height raster `options` describes, made of
/// `sources`. `bandXml`: more elements for the band (classesBandXml), or empty. Pure.
std::string vrtXml(const GeoTiffOptions& options, const std::vector<VrtSource>& sources,
                   const std::string& bandXml = {});

}  // namespace terragrid

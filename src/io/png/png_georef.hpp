#pragma once
// Georeferencing for the PNGs that picture the map's grid (height16.png, water_mask.png, the
// splat and weight maps, preview.png and height.png): a PNG has no place for it, so two text
// files go beside each, committed with it (withSidecars, sinks.hpp):
//   - `<name>.pgw`, the world file GDAL, QGIS, ArcGIS and Global Mapper read: pixel size and
//     the centre of the top-left pixel, no CRS;
//   - `<name>.png.aux.xml`, GDAL's PAM sidecar: the CRS and the geotransform (the same as the
//     map's GeoTIFFs', each pixel `scale` cells a side), and for a band with a meaning of its
//     own its offset, scale and unit (height16.png: GDAL then reports metres).
// Internal to src/io.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/sinks.hpp"

namespace terragrid {

/// What a PNG's single band means, for GDAL (gdalinfo's Offset, Scale and unit).
struct PngBandMeaning {
    double offset = 0;
    double scale = 1;
    std::string unit;
};

/// The world file's six lines for a picture of `config`'s map (a window's, for a window run)
/// whose pixels are `scale` x `scale` cells, the first at the map's top-left corner. Pure.
std::string worldFileText(const Config& config, std::int64_t scale);

/// The PAM sidecar of that picture: SRS (output.crs), GeoTransform and, with `band`, the
/// band's offset, scale and unit. Pure.
std::string pngAuxXml(const Config& config, std::int64_t scale,
                      const std::optional<PngBandMeaning>& band = std::nullopt);

/// `<png without .png>.pgw` and `<png>.aux.xml` for the picture at `pngPath`. Pure.
std::vector<Sidecar> pngGeoSidecars(const Config& config, const std::string& pngPath,
                                    std::int64_t scale,
                                    const std::optional<PngBandMeaning>& band = std::nullopt);

/// The most bytes pngGeoSidecars writes for one picture (the disk bound's share).
std::uint64_t pngGeoSidecarBytes();

/// How many files pngGeoSidecars adds per picture.
inline constexpr std::int64_t kPngGeoSidecarFiles = 2;

}  // namespace terragrid

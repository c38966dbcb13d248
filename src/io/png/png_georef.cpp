#include "io/png/png_georef.hpp"

#include <filesystem>

#include "io/xml_text.hpp"

namespace terragrid {
namespace {

// The picture's geotransform, as GDAL states one: top-left corner x, pixel width, row
// rotation, top-left corner y, column rotation, pixel height (negative: rows go south). The
// map's GeoTIFFs have the same (mapGeoTiffOptions) with pixels of one cell.
struct GeoTransform {
    double originX, pixelWidth, originY, pixelHeight;
};

GeoTransform geoTransform(const Config& config, std::int64_t scale) {
    const double pixel = config.map.cellSize * static_cast<double>(scale);
    return {config.map.originX, pixel, config.map.originY, -pixel};
}

}  // namespace

std::string worldFileText(const Config& config, std::int64_t scale) {
    const GeoTransform g = geoTransform(config, scale);
    // A world file names the centre of the top-left pixel, not its corner.
    std::string text;
    for (const double value : {g.pixelWidth, 0.0, 0.0, g.pixelHeight,
                               g.originX + g.pixelWidth / 2, g.originY + g.pixelHeight / 2})
        text += exactDecimal(value) + "\n";
    return text;
}

std::string pngAuxXml(const Config& config, std::int64_t scale,
                      const std::optional<PngBandMeaning>& band) {
    const GeoTransform g = geoTransform(config, scale);
    // GDAL reads "EPSG:n" in <SRS> and, without a dataAxisToSRSAxisMapping, puts x east
    // (longitude) and y north, as the GeoTIFFs' GeoKeys say.
    std::string xml = "<PAMDataset>\n  <SRS>EPSG:" + std::to_string(config.output.crs.epsg) +
                      "</SRS>\n  <GeoTransform>" + exactDecimal(g.originX) + ", " +
                      exactDecimal(g.pixelWidth) + ", 0, " + exactDecimal(g.originY) + ", 0, " +
                      exactDecimal(g.pixelHeight) + "</GeoTransform>\n";
    if (band) {
        xml += "  <PAMRasterBand band=\"1\">\n";
        if (!band->unit.empty()) xml += "    <UnitType>" + xmlEscape(band->unit) + "</UnitType>\n";
        xml += "    <Offset>" + exactDecimal(band->offset) + "</Offset>\n    <Scale>" +
               exactDecimal(band->scale) + "</Scale>\n  </PAMRasterBand>\n";
    }
    return xml + "</PAMDataset>\n";
}

std::vector<Sidecar> pngGeoSidecars(const Config& config, const std::string& pngPath,
                                    std::int64_t scale, const std::optional<PngBandMeaning>& band) {
    const std::string worldFile =
        std::filesystem::path(pngPath).replace_extension(".pgw").string();
    return {{worldFile, worldFileText(config, scale)},
            {pngPath + ".aux.xml", pngAuxXml(config, scale, band)}};
}

std::uint64_t pngGeoSidecarBytes() {
    // Six numbers of at most 25 characters and their newlines; the PAM frame (about 200
    // bytes), an EPSG code, six numbers, two more and a short unit.
    return 6 * 26 + 1024;
}

}  // namespace terragrid

#include "io/mosaic/vrt.hpp"

#include <cstddef>
#include <optional>

#include "io/xml_text.hpp"

namespace terragrid {
namespace {

const char* gdalDataType(SampleFormat format) {
    switch (format) {
        case SampleFormat::Float32: return "Float32";
        case SampleFormat::UInt8: return "Byte";
        case SampleFormat::UInt16: return "UInt16";
    }
    return "Byte";
}

std::string attribute(const char* name, std::int64_t value) {
    return std::string(" ") + name + "=\"" + std::to_string(value) + "\"";
}

// Where each source's cells land; its whole image is read.
std::string sourceXml(const GeoTiffOptions& o, const VrtSource& s) {
    const CellWindow& w = s.window;
    const std::int64_t block = o.tileSize;
    std::string xml = "    <SimpleSource>\n";
    xml += "      <SourceFilename relativeToVRT=\"" + std::string(s.relative ? "1" : "0") +
           "\">" + xmlEscape(s.path) + "</SourceFilename>\n";
    xml += "      <SourceBand>1</SourceBand>\n";
    xml += "      <SourceProperties" + attribute("RasterXSize", w.width) +
           attribute("RasterYSize", w.height) + " DataType=\"" + gdalDataType(o.sampleFormat) +
           "\"" + attribute("BlockXSize", block) + attribute("BlockYSize", block) + "/>\n";
    xml += "      <SrcRect" + attribute("xOff", 0) + attribute("yOff", 0) +
           attribute("xSize", w.width) + attribute("ySize", w.height) + "/>\n";
    xml += "      <DstRect" + attribute("xOff", w.col0) + attribute("yOff", w.row0) +
           attribute("xSize", w.width) + attribute("ySize", w.height) + "/>\n";
    return xml + "    </SimpleSource>\n";
}

// The TIFF's ColorMap as GDAL reads it: the palette, then black up to 256 entries, the
// nodata value's entry transparent.
std::string colourTableXml(const std::vector<Rgb>& palette, const std::optional<double>& nodata) {
    std::string xml = "    <ColorInterp>Palette</ColorInterp>\n    <ColorTable>\n";
    for (std::size_t i = 0; i < 256; ++i) {
        const Rgb c = i < palette.size() ? palette[i] : Rgb{};
        const bool empty = nodata && *nodata == double(i);
        xml += "      <Entry c1=\"" + std::to_string(c.r) + "\" c2=\"" + std::to_string(c.g) +
               "\" c3=\"" + std::to_string(c.b) + "\" c4=\"" + (empty ? "0" : "255") + "\"/>\n";
    }
    return xml + "    </ColorTable>\n";
}

}  // namespace

std::string vrtXml(const GeoTiffOptions& o, const std::vector<VrtSource>& sources,
                   const std::string& bandXml) {
    const GeoReference& g = o.geo;
    std::string xml = "<VRTDataset" + attribute("rasterXSize", o.width) +
                      attribute("rasterYSize", o.height) + ">\n";
    // GDAL reads "EPSG:n" as its user input and keeps x as easting or longitude, as in the
    // GeoTIFFs.
    xml += "  <SRS>EPSG:" + std::to_string(g.epsg) + "</SRS>\n";
    xml += "  <GeoTransform>" + exactDecimal(g.originX) + ", " + exactDecimal(g.cellSize) +
           ", 0, " + exactDecimal(g.originY) + ", 0, " + exactDecimal(-g.cellSize) +
           "</GeoTransform>\n";
    {
        // PixelIsArea, as the GeoTIFFs say it.
        xml += "  <Metadata>\n    <MDI key=\"AREA_OR_POINT\">Area</MDI>\n";
        for (const auto& [name, value] : o.metadata)
            xml += "    <MDI key=\"" + xmlEscape(name) + "\">" + xmlEscape(value) + "</MDI>\n";
        xml += "  </Metadata>\n";
    }
    xml += "  <VRTRasterBand dataType=\"" + std::string(gdalDataType(o.sampleFormat)) +
           "\" band=\"1\">\n";
    if (o.nodata) xml += "    <NoDataValue>" + exactDecimal(*o.nodata) + "</NoDataValue>\n";
    if (!o.unit.empty()) xml += "    <UnitType>" + xmlEscape(o.unit) + "</UnitType>\n";
    if (o.scale != 1.0 || o.offset != 0.0) {
        xml += "    <Offset>" + exactDecimal(o.offset) + "</Offset>\n";
        xml += "    <Scale>" + exactDecimal(o.scale) + "</Scale>\n";
    }
    xml += o.palette.empty() ? "    <ColorInterp>Gray</ColorInterp>\n"
                             : colourTableXml(o.palette, o.nodata);
    xml += bandXml;
    for (const VrtSource& source : sources) xml += sourceXml(o, source);
    return xml + "  </VRTRasterBand>\n</VRTDataset>\n";
}

}  // namespace terragrid

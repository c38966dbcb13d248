#include "io/geotiff/raster_styles.hpp"

#include <cmath>

#include "io/xml_text.hpp"

namespace terragrid {
namespace {

std::string metres(double value) { return exactDecimal(std::round(value)) + " m"; }

bool waterAtSeaLevel(const Config& config) {
    return config.map.projection == Projection::Equirectangular ||
           config.height.falloff.shape != Falloff::None;
}

// QGIS's header and the parts of a raster style every renderer shares.
std::string qmlOpen() {
    return "<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n"
           "<qgis version=\"3.28.0-Firenze\" styleCategories=\"AllStyleCategories\">\n"
           "  <pipe>\n";
}

std::string qmlClose() {
    return "    <brightnesscontrast brightness=\"0\" contrast=\"0\" gamma=\"1\"/>\n"
           "    <huesaturation saturation=\"0\" grayscaleMode=\"0\" colorizeOn=\"0\" "
           "colorizeRed=\"255\" colorizeGreen=\"128\" colorizeBlue=\"128\" "
           "colorizeStrength=\"100\"/>\n"
           "    <rasterresampler maxOversampling=\"2\"/>\n"
           "  </pipe>\n"
           "  <blendMode>0</blendMode>\n"
           "</qgis>\n";
}

const char* kMinMaxOrigin =
    "      <rasterTransparency/>\n"
    "      <minMaxOrigin>\n"
    "        <limits>None</limits>\n"
    "        <extent>WholeRaster</extent>\n"
    "        <statAccuracy>Estimated</statAccuracy>\n"
    "        <cumulativeCutLower>0.02</cumulativeCutLower>\n"
    "        <cumulativeCutUpper>0.98</cumulativeCutUpper>\n"
    "        <stdDevFactor>2</stdDevFactor>\n"
    "      </minMaxOrigin>\n";

}  // namespace

bool heightRampNeedsTerrain(const Config& config) {
    return !config.hydrology.enabled && !waterAtSeaLevel(config) &&
           !config.terrain.customClasses &&
           config.terrain.lakeBelow.byCoverage;
}

HeightRamp heightRamp(const Config& config, const Terrain* terrain) {
    HeightRamp ramp;
    ramp.minMeters = config.elevation.minMeters;
    ramp.maxMeters = config.elevation.maxMeters;
    if (config.hydrology.enabled) {
        // Lakes come from the stage (height.png draws them cell by cell); the level is the
        // sea's, when there is one.
        ramp.hasWater = config.hydrology.seaLevel > 0;
        ramp.waterMeters = ramp.minMeters + config.hydrology.seaLevel * (ramp.maxMeters -
                                                                         ramp.minMeters);
    } else if (waterAtSeaLevel(config)) {
        ramp.hasWater = ramp.minMeters < 0;
        ramp.waterMeters = 0;
    } else if (!config.terrain.customClasses) {
        // The lake class holds normalised heights [0, lake]; elevation is min + h (max - min).
        double lake = config.terrain.lakeBelow.value;
        if (config.terrain.lakeBelow.byCoverage && terrain != nullptr)
            lake = terrain->classes()[static_cast<std::size_t>(DefaultClass::Lake)].heightMax;
        ramp.hasWater = true;
        ramp.waterMeters = ramp.minMeters + lake * (ramp.maxMeters - ramp.minMeters);
    }
    return ramp;
}

std::string classesBandXml(const std::vector<TerrainClass>& classes) {
    std::string xml = "    <CategoryNames>\n";
    for (const TerrainClass& c : classes)
        xml += "      <Category>" + xmlEscape(c.name) + "</Category>\n";
    xml += "    </CategoryNames>\n"
           "    <GDALRasterAttributeTable tableType=\"thematic\">\n";
    // GDAL's field types: 0 integer, 2 string; usages: 5 min-max (the value), 2 name,
    // 6-8 red, green, blue, 0 generic.
    const struct {
        const char* name;
        int type;
        int usage;
    } fields[] = {{"Value", 0, 5}, {"Class", 2, 2}, {"Red", 0, 6},
                  {"Green", 0, 7}, {"Blue", 0, 8},  {"Walkable", 0, 0}};
    for (std::size_t i = 0; i < std::size(fields); ++i) {
        xml += "      <FieldDefn index=\"" + std::to_string(i) + "\">\n        <Name>" +
               fields[i].name + "</Name>\n        <Type>" + std::to_string(fields[i].type) +
               "</Type>\n        <Usage>" + std::to_string(fields[i].usage) +
               "</Usage>\n      </FieldDefn>\n";
    }
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const TerrainClass& c = classes[i];
        xml += "      <Row index=\"" + std::to_string(i) + "\">\n";
        for (const std::string& field :
             {std::to_string(i), xmlEscape(c.name), std::to_string(c.colour.r),
              std::to_string(c.colour.g), std::to_string(c.colour.b),
              std::string(c.walkable ? "1" : "0")}) {
            xml += "        <F>" + field + "</F>\n";
        }
        xml += "      </Row>\n";
    }
    xml += "    </GDALRasterAttributeTable>\n";
    return xml;
}

std::string classesAuxXml(const std::vector<TerrainClass>& classes) {
    return "<PAMDataset>\n  <PAMRasterBand band=\"1\">\n" + classesBandXml(classes) +
           "  </PAMRasterBand>\n</PAMDataset>\n";
}

std::string classesQml(const std::vector<TerrainClass>& classes) {
    std::string xml = qmlOpen();
    xml += "    <rasterrenderer type=\"paletted\" band=\"1\" opacity=\"1\" alphaBand=\"-1\" "
           "nodataColor=\"\">\n";
    xml += kMinMaxOrigin;
    xml += "      <colorPalette>\n";
    for (std::size_t i = 0; i < classes.size(); ++i) {
        xml += "        <paletteEntry value=\"" + std::to_string(i) + "\" color=\"" +
               hexColour(classes[i].colour) + "\" alpha=\"255\" label=\"" +
               xmlEscape(classes[i].name) + "\"/>\n";
    }
    xml += "      </colorPalette>\n    </rasterrenderer>\n";
    return xml + qmlClose();
}

std::string heightQml(const HeightRamp& ramp) {
    const std::vector<RampStop> stops = heightRampStops(ramp);
    const std::string lo = exactDecimal(ramp.minMeters), hi = exactDecimal(ramp.maxMeters);
    std::string xml = qmlOpen();
    xml += "    <rasterrenderer type=\"singlebandpseudocolor\" band=\"1\" opacity=\"1\" "
           "alphaBand=\"-1\" nodataColor=\"\" classificationMin=\"" + lo +
           "\" classificationMax=\"" + hi + "\">\n";
    xml += kMinMaxOrigin;
    xml += "      <rastershader>\n"
           "        <colorrampshader colorRampType=\"INTERPOLATED\" classificationMode=\"1\" "
           "clip=\"0\" labelPrecision=\"0\" minimumValue=\"" + lo + "\" maximumValue=\"" + hi +
           "\">\n";
    for (const RampStop& stop : stops) {
        xml += "          <item value=\"" + exactDecimal(stop.meters) + "\" color=\"" +
               hexColour(stop.colour) + "\" alpha=\"255\" label=\"" + metres(stop.meters) +
               (stop.water ? " (water)" : "") + "\"/>\n";
    }
    xml += "        </colorrampshader>\n      </rastershader>\n    </rasterrenderer>\n";
    return xml + qmlClose();
}

}  // namespace terragrid

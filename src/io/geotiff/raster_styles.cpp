#include "io/geotiff/raster_styles.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "io/xml_text.hpp"

namespace terragrid {
namespace {

std::string metres(double value) { return exactDecimal(std::round(value)) + " m"; }

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
    return !config.hydrology.enabled && !config.terrain.customClasses &&
           config.terrain.lakeBelow.byCoverage;
}

HeightRamp heightRamp(const Config& config, const Terrain* terrain,
                      const HydrologyStage* hydrology) {
    return heightRamp(config, terrain, mapHeightRange(config, hydrology));
}

HeightRamp heightRamp(const Config& config, const Terrain* terrain, const HeightRange& range) {
    HeightRamp ramp;
    ramp.minMeters = range.minMeters;
    ramp.maxMeters = range.maxMeters;
    // The water level is the one the classes and the water outputs use, in the expression
    // the tiles compare heights with, so every output draws the same coast.
    const double low = config.elevation.minMeters;
    const double span = config.elevation.maxMeters - low;
    if (config.hydrology.enabled) {
        // Lakes come from the stage (height.png draws them cell by cell); the level is the
        // sea's (HydrologyStage::seaLevelMeters, a float), when there is one.
        ramp.hasWater = config.hydrology.seaLevel > 0;
        ramp.waterMeters = static_cast<float>(low + span * config.hydrology.seaLevel);
    } else if (!config.terrain.customClasses) {
        // The lake class holds normalised heights [0, lake] (resolved from its coverage target
        // when it is one); a cell's elevation is float(min + h (max - min)), monotone in h, so
        // cells at or below float(min + lake (max - min)) are the lake cells.
        double lake = config.terrain.lakeBelow.value;
        if (config.terrain.lakeBelow.byCoverage) {
            if (terrain == nullptr)
                throw std::invalid_argument(
                    "heightRamp: a lake threshold by coverage needs the resolved Terrain");
            lake = terrain->classes()[static_cast<std::size_t>(DefaultClass::Lake)].heightMax;
        }
        ramp.hasWater = true;
        ramp.waterMeters = static_cast<float>(low + span * lake);
    }
    return ramp;
}

namespace {

// A category as both builders see it: classes add their walkability, the others nothing.
struct Entry {
    std::string name;
    Rgb colour;
    std::optional<bool> walkable;
    bool transparent = false;
};

std::vector<Entry> entriesOf(const std::vector<TerrainClass>& classes) {
    std::vector<Entry> entries;
    for (const TerrainClass& c : classes) entries.push_back({c.name, c.colour, c.walkable});
    return entries;
}

std::vector<Entry> entriesOf(const std::vector<RasterCategory>& categories) {
    std::vector<Entry> entries;
    for (const RasterCategory& c : categories)
        entries.push_back({c.name, c.colour, std::nullopt, c.transparent});
    return entries;
}

// A band's <CategoryNames> and thematic <GDALRasterAttributeTable>, as GDAL's PAM (.aux.xml)
// and VRT files both hold them.
std::string bandXml(const std::vector<Entry>& entries, bool walkable) {
    std::string xml = "    <CategoryNames>\n";
    for (const Entry& e : entries)
        xml += "      <Category>" + xmlEscape(e.name) + "</Category>\n";
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
    const std::size_t fieldCount = walkable ? std::size(fields) : std::size(fields) - 1;
    for (std::size_t i = 0; i < fieldCount; ++i) {
        xml += "      <FieldDefn index=\"" + std::to_string(i) + "\">\n        <Name>" +
               fields[i].name + "</Name>\n        <Type>" + std::to_string(fields[i].type) +
               "</Type>\n        <Usage>" + std::to_string(fields[i].usage) +
               "</Usage>\n      </FieldDefn>\n";
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        xml += "      <Row index=\"" + std::to_string(i) + "\">\n";
        std::vector<std::string> row{std::to_string(i), xmlEscape(e.name),
                                     std::to_string(e.colour.r), std::to_string(e.colour.g),
                                     std::to_string(e.colour.b)};
        if (walkable) row.push_back(e.walkable.value_or(false) ? "1" : "0");
        for (const std::string& field : row) xml += "        <F>" + field + "</F>\n";
        xml += "      </Row>\n";
    }
    xml += "    </GDALRasterAttributeTable>\n";
    return xml;
}

std::string auxXml(const std::vector<Entry>& entries, bool walkable) {
    return "<PAMDataset>\n  <PAMRasterBand band=\"1\">\n" + bandXml(entries, walkable) +
           "  </PAMRasterBand>\n</PAMDataset>\n";
}

std::string palettedQml(const std::vector<Entry>& entries) {
    std::string xml = qmlOpen();
    xml += "    <rasterrenderer type=\"paletted\" band=\"1\" opacity=\"1\" alphaBand=\"-1\" "
           "nodataColor=\"\">\n";
    xml += kMinMaxOrigin;
    xml += "      <colorPalette>\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        xml += "        <paletteEntry value=\"" + std::to_string(i) + "\" color=\"" +
               hexColour(entries[i].colour) + "\" alpha=\"" +
               (entries[i].transparent ? "0" : "255") + "\" label=\"" +
               xmlEscape(entries[i].name) + "\"/>\n";
    }
    xml += "      </colorPalette>\n    </rasterrenderer>\n";
    return xml + qmlClose();
}

}  // namespace

std::string classesBandXml(const std::vector<TerrainClass>& classes) {
    return bandXml(entriesOf(classes), true);
}

std::string classesAuxXml(const std::vector<TerrainClass>& classes) {
    return auxXml(entriesOf(classes), true);
}

std::string classesQml(const std::vector<TerrainClass>& classes) {
    return palettedQml(entriesOf(classes));
}

std::string categoriesAuxXml(const std::vector<RasterCategory>& categories) {
    return auxXml(entriesOf(categories), false);
}

std::string categoriesQml(const std::vector<RasterCategory>& categories) {
    return palettedQml(entriesOf(categories));
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

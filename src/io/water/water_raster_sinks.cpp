// flow.tif, water.tif and water_depth.tif: the hydrology stage's per-cell results (the tiles'
// water fields, generator.hpp) as GeoTIFFs on height.tif's grid, so they overlay it cell for
// cell. They exist only with hydrology.enabled (the config refuses them otherwise). Like the
// map's other rasters, each has a nodata value no cell takes (a reprojection's empty corners
// stay empty) and says what its values are: flow.tif and water_depth.tif a unit, water.tif
// (categories, as classes.tif) a palette, GDAL category names and attribute table in
// water.tif.aux.xml and a QGIS style, water.qml.

#include <memory>
#include <string>
#include <vector>

#include "io/geotiff/raster_styles.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"

namespace terragrid {
namespace {

GeoTiffOptions waterOptions(const Config& config, SampleFormat format, std::string_view meaning,
                            std::string unit) {
    GeoTiffOptions options = mapGeoTiffOptions(config, format);
    options.unit = std::move(unit);
    options.metadata.emplace_back("TERRAGRID_HYDROLOGY", std::string(meaning));
    return options;
}

WriterMemory floatMemory(const Config& config, int threads) {
    return bounds::geoTiffWriterMemory(config, SampleFormat::Float32, threads);
}

// The metadata texts, one place each: the sink writes them and the bound counts them.
constexpr std::string_view kFlowMeaning =
    "flow accumulation: rainfall from the cell and every cell upstream, in map cells' worth "
    "(times the cell area: the upstream area)";
constexpr std::string_view kFlowUnit = "cells";
constexpr std::string_view kWaterMeaning = "0 land, 1 lake or sea, 2 river";
constexpr std::string_view kDepthMeaning = "depth of lake or sea water above the ground, metres";

// Each raster's options, for its sink and for `terragrid mosaic`'s VRT alike (the driver's
// geoTiffOptions). Flow and depth are never negative: -FLT_MAX, height.tif's nodata, is taken
// by no cell.
GeoTiffOptions floatOptions(const Config& config, std::string_view meaning, std::string unit) {
    GeoTiffOptions options = waterOptions(config, SampleFormat::Float32, meaning, std::move(unit));
    options.nodata = kHeightNodata;
    return options;
}
GeoTiffOptions flowOptions(const Config& config, const Terrain* = nullptr) {
    return floatOptions(config, kFlowMeaning, std::string(kFlowUnit));
}
GeoTiffOptions depthOptions(const Config& config, const Terrain* = nullptr) {
    return floatOptions(config, kDepthMeaning, "metre");
}

// water.tif's values (Water), named and coloured as the classes lake and river of the run's
// table are (withWaterClasses: the configured colours); land is white in the file's palette and
// transparent in water.qml, so the water lies over any other layer.
std::vector<RasterCategory> waterCategories(const Config& config) {
    RasterCategory land{"land", {255, 255, 255}, true};
    RasterCategory lake{"lake or sea", {}, false};
    RasterCategory river{"river", {}, false};
    for (const TerrainClass& c : withWaterClasses(config, config.terrain.classes)) {
        if (c.name == kLakeClassName) lake.colour = c.colour;
        if (c.name == kRiverClassName) river.colour = c.colour;
    }
    return {land, lake, river};
}

GeoTiffOptions waterKindOptions(const Config& config, const Terrain* = nullptr) {
    GeoTiffOptions options = waterOptions(config, SampleFormat::UInt8, kWaterMeaning, "");
    options.resampling = Resampling::Mode;  // an overview cell is land, lake or river
    options.nodata = kNoClass;              // as classes.tif: 255, never a value
    for (const RasterCategory& c : waterCategories(config)) options.palette.push_back(c.colour);
    return options;
}

std::unique_ptr<OutputSink> makeWaterSink(const Config& config) {
    const std::vector<RasterCategory> categories = waterCategories(config);
    const std::string path = outputPath(config, OutputFile::WaterTif);
    return withSidecars(
        std::make_unique<TileRasterSink<std::uint8_t>>(path, waterKindOptions(config), &Tile::water),
        {{path + ".aux.xml", categoriesAuxXml(categories)},
         {pathInOutput(config, "water.qml"), categoriesQml(categories)}});
}

}  // namespace

constexpr OutputDriver kFlowTifDriver{
    .file = OutputFile::FlowTif,
    .name = "flow.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs&) -> std::unique_ptr<OutputSink> {
        return std::make_unique<TileRasterSink<float>>(
            outputPath(config, OutputFile::FlowTif), flowOptions(config), &Tile::flow);
    },
    .geoTiffOptions = flowOptions,
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::FlowTif, SampleFormat::Float32,
                                      kFlowMeaning.size() + kFlowUnit.size() + 64);
    },
    .memoryBound = floatMemory,
};
static_assert(namedAsInTable(kFlowTifDriver));
const DriverRegistration kFlowTifRegistered{kFlowTifDriver};

// With water.tif.aux.xml and water.qml, a few hundred bytes of frame and a line or two per
// value, the two class names (bounded by the run's class names) among them.
constexpr OutputDriver kWaterTifDriver{
    .file = OutputFile::WaterTif,
    .name = "water.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs&) { return makeWaterSink(config); },
    .geoTiffOptions = waterKindOptions,
    .diskBound = [](const Config& config) {
        PlannedOutput out = bounds::plannedGeoTiff(config, OutputFile::WaterTif,
                                                   SampleFormat::UInt8, kWaterMeaning.size() + 64);
        out.files += 2;
        out.bytes += 8 * bounds::kKiB;
        return out;
    },
    .memoryBound = [](const Config& config, int threads) {
        return bounds::geoTiffWriterMemory(config, SampleFormat::UInt8, threads);
    },
};
static_assert(namedAsInTable(kWaterTifDriver));
const DriverRegistration kWaterTifRegistered{kWaterTifDriver};

constexpr OutputDriver kWaterDepthTifDriver{
    .file = OutputFile::WaterDepthTif,
    .name = "water_depth.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs&) -> std::unique_ptr<OutputSink> {
        return std::make_unique<TileRasterSink<float>>(
            outputPath(config, OutputFile::WaterDepthTif), depthOptions(config),
            &Tile::waterDepth);
    },
    .geoTiffOptions = depthOptions,
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::WaterDepthTif, SampleFormat::Float32,
                                      kDepthMeaning.size() + 64);
    },
    .memoryBound = floatMemory,
};
static_assert(namedAsInTable(kWaterDepthTifDriver));
const DriverRegistration kWaterDepthTifRegistered{kWaterDepthTifDriver};

}  // namespace terragrid

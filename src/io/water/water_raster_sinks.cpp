// flow.tif, water.tif and water_depth.tif: the hydrology stage's per-cell results (the tiles'
// water fields, generator.hpp) as GeoTIFFs on height.tif's grid, so they overlay it cell for
// cell. They exist only with hydrology.enabled (the config refuses them otherwise).

#include <memory>
#include <string>

#include "io/sinks.hpp"
#include "io/size_bounds.hpp"

namespace terragrid {
namespace {

template <typename T>
std::unique_ptr<OutputSink> waterRaster(const Config& config, OutputFile file,
                                        SampleFormat format, std::vector<T> CellValues::*field,
                                        std::string meaning, std::string unit) {
    GeoTiffOptions options = mapGeoTiffOptions(config, format);
    options.unit = std::move(unit);
    options.metadata.emplace_back("TERRAGRID_HYDROLOGY", std::move(meaning));
    return std::make_unique<TileRasterSink<T>>(outputPath(config, file), std::move(options),
                                               field);
}

WriterMemory floatMemory(const Config& config, int threads) {
    return {MemoryGroup::Writers, bounds::geoTiffMemory(config, SampleFormat::Float32, threads),
            0};
}

// The metadata texts, one place each: the sink writes them and the bound counts them.
constexpr std::string_view kFlowMeaning =
    "flow accumulation: rainfall from the cell and every cell upstream, in map cells' worth";
constexpr std::string_view kWaterMeaning = "0 land, 1 lake or sea, 2 river";
constexpr std::string_view kDepthMeaning = "depth of lake or sea water above the ground, metres";

}  // namespace

constexpr OutputDriver kFlowTifDriver{
    .file = OutputFile::FlowTif,
    .name = "flow.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs&) {
        return waterRaster(config, OutputFile::FlowTif, SampleFormat::Float32, &Tile::flow,
                           std::string(kFlowMeaning), "");
    },
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::FlowTif, SampleFormat::Float32,
                                      kFlowMeaning.size() + 64);
    },
    .memoryBound = floatMemory,
};
static_assert(namedAsInTable(kFlowTifDriver));
const DriverRegistration kFlowTifRegistered{kFlowTifDriver};

constexpr OutputDriver kWaterTifDriver{
    .file = OutputFile::WaterTif,
    .name = "water.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs&) {
        return waterRaster(config, OutputFile::WaterTif, SampleFormat::UInt8, &Tile::water,
                           std::string(kWaterMeaning), "");
    },
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::WaterTif, SampleFormat::UInt8,
                                      kWaterMeaning.size() + 64);
    },
    .memoryBound = [](const Config& config, int threads) {
        return WriterMemory{MemoryGroup::Writers,
                            bounds::geoTiffMemory(config, SampleFormat::UInt8, threads), 0};
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
    .makeSink = [](const Config& config, const SinkInputs&) {
        return waterRaster(config, OutputFile::WaterDepthTif, SampleFormat::Float32,
                           &Tile::waterDepth, std::string(kDepthMeaning), "metre");
    },
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::WaterDepthTif, SampleFormat::Float32,
                                      kDepthMeaning.size() + 64);
    },
    .memoryBound = floatMemory,
};
static_assert(namedAsInTable(kWaterDepthTifDriver));
const DriverRegistration kWaterDepthTifRegistered{kWaterDepthTifDriver};

}  // namespace terragrid

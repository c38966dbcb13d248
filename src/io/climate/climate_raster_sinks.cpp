// temperature.tif and precipitation.tif: the climate's per-cell values (the tiles' climate
// fields, generator.hpp) as Float32 GeoTIFFs on height.tif's grid, so they overlay it cell for
// cell. They exist only with climate.enabled (the config refuses them otherwise).

#include <memory>
#include <string>

#include "io/sinks.hpp"
#include "io/size_bounds.hpp"

namespace terragrid {
namespace {

std::unique_ptr<OutputSink> climateRaster(const Config& config, OutputFile file,
                                          std::vector<float> CellValues::*field,
                                          std::string_view meaning, std::string unit) {
    GeoTiffOptions options = mapGeoTiffOptions(config, SampleFormat::Float32);
    options.unit = std::move(unit);
    options.metadata.emplace_back("TERRAGRID_CLIMATE", std::string(meaning));
    return std::make_unique<TileRasterSink<float>>(outputPath(config, file), std::move(options),
                                                   field);
}

WriterMemory floatMemory(const Config& config, int threads) {
    return bounds::geoTiffWriterMemory(config, SampleFormat::Float32, threads);
}

// The metadata texts, one place each: the sink writes them and the bound counts them.
constexpr std::string_view kTemperatureMeaning =
    "mean annual temperature at the surface (the ground, or the water over it), degrees C";
constexpr std::string_view kPrecipitationMeaning = "mean annual precipitation, mm a year";

}  // namespace

constexpr OutputDriver kTemperatureTifDriver{
    .file = OutputFile::TemperatureTif,
    .name = "temperature.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsClimate = true,
    .makeSink = [](const Config& config, const SinkInputs&) {
        return climateRaster(config, OutputFile::TemperatureTif, &CellValues::temperature,
                             kTemperatureMeaning, "Celsius");
    },
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::TemperatureTif, SampleFormat::Float32,
                                      kTemperatureMeaning.size() + 64);
    },
    .memoryBound = floatMemory,
};
static_assert(namedAsInTable(kTemperatureTifDriver));
const DriverRegistration kTemperatureTifRegistered{kTemperatureTifDriver};

constexpr OutputDriver kPrecipitationTifDriver{
    .file = OutputFile::PrecipitationTif,
    .name = "precipitation.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsClimate = true,
    .makeSink = [](const Config& config, const SinkInputs&) {
        return climateRaster(config, OutputFile::PrecipitationTif, &CellValues::precipitation,
                             kPrecipitationMeaning, "mm");
    },
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::PrecipitationTif, SampleFormat::Float32,
                                      kPrecipitationMeaning.size() + 64);
    },
    .memoryBound = floatMemory,
};
static_assert(namedAsInTable(kPrecipitationTifDriver));
const DriverRegistration kPrecipitationTifRegistered{kPrecipitationTifDriver};

}  // namespace terragrid

#include "terragrid/io/outputs.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

#include "io/geotiff/geotiff_writer.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

// The TIFF tiles are output.geotiff.block_size, never the generator's tiles: map.tile_size is
// an execution parameter and must not change a byte. When the two match, each TIFF tile is
// encoded straight from the tile that completes it; otherwise the writer assembles TIFF tiles
// from pieces, with the same bytes.
std::int64_t tiffTileSize(const Config& config) { return config.output.geotiffBlockSize; }

}  // namespace

void checkMapSize(const TileLayout& layout, std::int64_t width, std::int64_t height,
                  const std::string& path) {
    if (layout.mapWidth() != width || layout.mapHeight() != height)
        throw std::logic_error("sink for '" + path + "' was made for another map size");
}

void checkPngSize(std::int64_t width, std::int64_t height, const std::string& path) {
    constexpr std::int64_t kLargest = 0x7fffffff;  // PNG's limit on either side
    if (width > kLargest || height > kLargest)
        throw OutputError("writing '" + path + "': a " + std::to_string(width) + "x" +
                          std::to_string(height) + " map is larger than a PNG can be");
}

std::string outputPath(const Config& config, OutputFile file) {
    return (std::filesystem::path(config.output.directory) /
            kOutputFileNames[static_cast<std::size_t>(file)])
        .string();
}

GeoTiffOptions mapGeoTiffOptions(const Config& config, SampleFormat format) {
    GeoTiffOptions options;
    options.width = config.map.width;
    options.height = config.map.height;
    options.tileSize = tiffTileSize(config);
    options.sampleFormat = format;
    options.compression = config.output.compression;
    options.bigTiff = config.output.bigTiff;
    options.layout = config.output.layout;
    options.geo.epsg = config.output.crs.epsg;
    options.geo.geographic = config.output.crs.geographic;
    options.geo.originX = config.map.originX;
    options.geo.originY = config.map.originY;
    options.geo.cellSize = config.map.cellSize;
    // Enough to tell which run made a file, and to make it again.
    options.metadata = {
        {"TERRAGRID_SEED", std::to_string(config.seed)},
        {"TERRAGRID_CONFIG_HASH", config.hash},
        {"TERRAGRID_NOISE_VERSION", std::to_string(versionNumber(config.noiseVersion))},
        {"TERRAGRID_VERSION", kVersion},
    };
    return options;
}

std::string pathInOutput(const Config& config, const std::string& name) {
    return (std::filesystem::path(config.output.directory) / name).string();
}

namespace {

GeoTiffOptions heightOptions(const Config& config, const Terrain* = nullptr) {
    GeoTiffOptions options = mapGeoTiffOptions(config, SampleFormat::Float32);
    options.unit = "metre";
    options.nodata = kHeightNodata;
    return options;
}

}  // namespace

std::unique_ptr<OutputSink> makeHeightSink(const Config& config) {
    return std::make_unique<TileRasterSink<float>>(outputPath(config, OutputFile::HeightTif),
                                                   heightOptions(config), &Tile::elevationMeters);
}

constexpr OutputDriver kHeightTifDriver{
    .file = OutputFile::HeightTif,
    .name = "height.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .makeSink = [](const Config& config, const SinkInputs&) { return makeHeightSink(config); },
    .geoTiffOptions = heightOptions,
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::HeightTif, SampleFormat::Float32);
    },
    .memoryBound = [](const Config& config, int threads) {
        return bounds::geoTiffWriterMemory(config, SampleFormat::Float32, threads);
    },
};
static_assert(namedAsInTable(kHeightTifDriver));
const DriverRegistration kHeightTifRegistered{kHeightTifDriver};

std::vector<std::unique_ptr<OutputSink>> makeSinks(const Config& config, const Terrain* terrain,
                                                   const WalkableRegions* regions,
                                                   const HydrologyStage* hydrology) {
    std::vector<std::unique_ptr<OutputSink>> sinks;
    for (OutputFile file : config.output.files) {
        const OutputDriver& driver = driverFor(file);
        if (driver.makeSink == nullptr) continue;  // the run writes it (stats.json)
        // A driver sees only the inputs it declares, so one that reads more fails here, in
        // every test, not only in runs that happen to want another output too.
        const SinkInputs inputs{driver.needsClasses(config) ? terrain : nullptr,
                                driver.needsRegions(config) ? regions : nullptr,
                                driver.needsHydrology || driver.readsHydrology ? hydrology
                                                                               : nullptr};
        sinks.push_back(driver.makeSink(config, inputs));
    }
    return sinks;
}

}  // namespace terragrid

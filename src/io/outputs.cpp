#include "terragrid/io/outputs.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

#include "io/geotiff_writer.hpp"
#include "io/sinks.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

// TIFF tiles must be multiples of 16 cells. Matching the generator's tiles means each tile is
// encoded straight from the tile that completes it; any other size still works (the writer
// assembles TIFF tiles from pieces), so 256, the common GeoTIFF choice, is the fallback.
std::int64_t tiffTileSize(const MapConfig& map) {
    constexpr std::int64_t kFallback = 256;
    constexpr std::int64_t kLargest = 65536;
    const std::int64_t t = map.tileSizeCells;
    return t > 0 && t % 16 == 0 && t <= kLargest ? t : kFallback;
}

// A missing Terrain or WalkableRegions is the caller's mistake, not a failed write.
template <typename T>
const T& required(const T* input, OutputFile file, const char* what) {
    if (input == nullptr) {
        throw std::invalid_argument(
            std::string("makeSinks: ") +
            std::string(kOutputFileNames[static_cast<std::size_t>(file)]) + " needs " + what);
    }
    return *input;
}

}  // namespace

std::string outputPath(const Config& config, OutputFile file) {
    return (std::filesystem::path(config.output.directory) /
            kOutputFileNames[static_cast<std::size_t>(file)])
        .string();
}

GeoTiffOptions mapGeoTiffOptions(const Config& config, SampleFormat format) {
    GeoTiffOptions options;
    options.width = config.map.width;
    options.height = config.map.height;
    options.tileSize = tiffTileSize(config.map);
    options.sampleFormat = format;
    options.compression = config.output.compression;
    options.bigTiff = config.output.bigTiff;
    options.geo.epsg = config.output.epsg;
    options.geo.originX = config.map.originX;
    options.geo.originY = config.map.originY;
    options.geo.cellSize = config.map.cellSize;
    // Enough to tell which run made a file, and to make it again.
    options.metadata = {
        {"TERRAGRID_SEED", std::to_string(config.seed)},
        {"TERRAGRID_CONFIG_HASH", config.hash},
        {"TERRAGRID_VERSION", kVersion},
    };
    return options;
}

std::unique_ptr<OutputSink> makeHeightSink(const Config& config) {
    GeoTiffOptions options = mapGeoTiffOptions(config, SampleFormat::Float32);
    options.unit = "metre";
    return std::make_unique<TileRasterSink<float>>(outputPath(config, OutputFile::HeightTif),
                                                   std::move(options), &Tile::elevationMeters);
}

std::vector<std::unique_ptr<OutputSink>> makeSinks(const Config& config, const Terrain* terrain,
                                                   const WalkableRegions* regions) {
    std::vector<std::unique_ptr<OutputSink>> sinks;
    for (OutputFile file : config.output.files) {
        switch (file) {
            case OutputFile::HeightTif:
                sinks.push_back(makeHeightSink(config));
                break;
            case OutputFile::ClassesTif:
                sinks.push_back(makeClassesSink(config, required(terrain, file, "a Terrain")));
                break;
            case OutputFile::WalkableTif:
                sinks.push_back(
                    makeWalkableSink(config, required(regions, file, "the WalkableRegions")));
                break;
            case OutputFile::PreviewPng:
                sinks.push_back(makePreviewSink(config, required(terrain, file, "a Terrain")));
                break;
            case OutputFile::HeightPng:
                sinks.push_back(makeHeightPreviewSink(config));
                break;
            case OutputFile::TiledMap: {
                // One check after the other (argument order is unspecified), so a call with
                // neither names the Terrain first.
                const Terrain& classes = required(terrain, file, "a Terrain");
                const WalkableRegions* walkable =
                    config.output.tiled.walkableLayer
                        ? &required(regions, file,
                                    "the WalkableRegions for 'output.tiled.walkable_layer'")
                        : nullptr;
                sinks.push_back(makeTiledSink(config, classes, walkable));
                break;
            }
            case OutputFile::HeightR16:
                sinks.push_back(makeR16Sink(config));
                break;
            case OutputFile::Height16Png:
                sinks.push_back(makeHeight16PngSink(config));
                break;
            case OutputFile::Height16Tif:
                sinks.push_back(makeHeight16TifSink(config));
                break;
            case OutputFile::HeightExr:
                sinks.push_back(makeHeightExrSink(config));
                break;
            case OutputFile::SplatPng:
                sinks.push_back(makeSplatSink(config, required(terrain, file, "a Terrain")));
                break;
            case OutputFile::WeightPng:
                sinks.push_back(makeWeightSink(config, required(terrain, file, "a Terrain")));
                break;
            case OutputFile::StatsJson:
                break;  // written by the run from the other outputs' results (stats.hpp)
        }
    }
    return sinks;
}

}  // namespace terragrid

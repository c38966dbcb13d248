#include "terragrid/outputs.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

#include "io/geotiff_writer.hpp"
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

GeoTiffOptions heightOptions(const Config& config) {
    GeoTiffOptions options;
    options.width = config.map.width;
    options.height = config.map.height;
    options.tileSize = tiffTileSize(config.map);
    options.sampleFormat = SampleFormat::Float32;
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
    options.unit = "metre";
    return options;
}

/// height.tif: elevation in metres as Float32, one TIFF tile per generator tile when it can.
class HeightSink final : public OutputSink {
public:
    explicit HeightSink(const Config& config)
        : m_width(config.map.width),
          m_height(config.map.height),
          m_writer((std::filesystem::path(config.output.directory) /
                    kOutputFileNames[static_cast<std::size_t>(OutputFile::HeightTif)])
                       .string(),
                   heightOptions(config)) {}

    const std::string& path() const override { return m_writer.path(); }

    void begin(const TileLayout& layout) override {
        if (layout.mapWidth() != m_width || layout.mapHeight() != m_height) {
            throw std::logic_error("height sink for '" + path() +
                                   "' was made for another map size");
        }
    }

    void consume(const Tile& tile) override {
        if (static_cast<std::int64_t>(tile.elevationMeters.size()) != tile.rect.cellCount()) {
            throw std::logic_error("height sink for '" + path() + "': tile " +
                                   std::to_string(tile.rect.index) +
                                   " has the wrong number of cells");
        }
        m_writer.writeBlock(tile.rect.col0, tile.rect.row0, tile.rect.width, tile.rect.height,
                            tile.elevationMeters.data());
    }

    void finish() override { m_writer.close(); }

    void commit() override { m_writer.commit(); }

private:
    std::int64_t m_width;
    std::int64_t m_height;
    GeoTiffWriter m_writer;
};

}  // namespace

std::vector<std::unique_ptr<OutputSink>> makeSinks(const Config& config) {
    std::vector<std::unique_ptr<OutputSink>> sinks;
    for (OutputFile file : config.output.files) {
        switch (file) {
            case OutputFile::HeightTif:
                sinks.push_back(std::make_unique<HeightSink>(config));
                break;
        }
    }
    return sinks;
}

}  // namespace terragrid

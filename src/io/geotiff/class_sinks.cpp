// classes.tif and walkable.tif: the per-cell results of classification as UInt8 GeoTIFFs with
// the same grid, tiling and compression as height.tif, so GIS tools overlay them cell for cell.

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/geotiff/geotiff_writer.hpp"
#include "io/geotiff/raster_styles.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"

namespace terragrid {
namespace {

// GDAL shows the metadata items beside the colour table, so a reader of the file alone can
// tell what each value means without the config that made it.
GeoTiffOptions classesOptions(const Config& config, const Terrain& terrain) {
    GeoTiffOptions options = mapGeoTiffOptions(config, SampleFormat::UInt8);
    options.resampling = Resampling::Mode;  // an overview cell is one of the classes below
    options.nodata = kNoClass;  // no class takes 255: a reprojection's empty cells, not lake
    std::string names;
    for (const TerrainClass& c : terrain.classes()) {
        names += (names.empty() ? "" : ",") + c.name;
        options.palette.push_back(c.colour);
    }
    options.metadata.emplace_back("TERRAGRID_CLASSES", names);
    for (std::size_t i = 0; i < terrain.classes().size(); ++i) {
        const TerrainClass& c = terrain.classes()[i];
        const std::string key = "TERRAGRID_CLASS_" + std::to_string(i);
        options.metadata.emplace_back(key, c.name);
        options.metadata.emplace_back(key + "_WALKABLE", c.walkable ? "true" : "false");
    }
    return options;
}

GeoTiffOptions walkableOptions(const Config& config, const Terrain* = nullptr) {
    GeoTiffOptions options = mapGeoTiffOptions(config, SampleFormat::UInt8);
    options.resampling = Resampling::Mode;  // 0 or 1, never a blend
    options.nodata = kNoClass;  // as classes.tif: 255 is "no data", never 0 or 1
    options.metadata.emplace_back("TERRAGRID_WALKABLE", "1 = walkable, 0 = not walkable");
    options.metadata.emplace_back(
        "TERRAGRID_CONNECTIVITY",
        std::string(kConnectivityNames[static_cast<std::size_t>(config.terrain.connectivity)]));
    return options;
}

/// walkable.tif: 1 where a cell is walkable after the connectivity rule, 0 elsewhere. The rule
/// needs the whole map, so the file is written from the finished WalkableRegions in finish()
/// rather than from the tiles.
class WalkableSink final : public OutputSink {
public:
    WalkableSink(const Config& config, const WalkableRegions& regions)
        : m_width(config.map.width),
          m_height(config.map.height),
          m_tileSize(mapGeoTiffOptions(config, SampleFormat::UInt8).tileSize),
          m_regions(regions),
          m_writer(outputPath(config, OutputFile::WalkableTif), walkableOptions(config)) {}

    const std::string& path() const override { return m_writer.path(); }

    void begin(const TileLayout& layout) override {
        if (layout.mapWidth() != m_width || layout.mapHeight() != m_height) {
            throw std::logic_error("walkable sink for '" + path() +
                                   "' was made for another map size");
        }
    }

    void consume(const Tile&) override {}

    void finish() override {
        const BitRaster& mask = m_regions.mask();
        if (mask.width() != m_width || mask.height() != m_height) {
            throw std::logic_error("walkable sink for '" + path() +
                                   "': the walkable regions are not finished (or are for "
                                   "another map); they must come before this sink");
        }
        writeMask(m_writer, mask, m_tileSize);
        m_writer.close();
    }

    void commit() override { m_writer.commit(); }
    double parallelCpuSeconds() const override { return m_writer.parallelCpuSeconds(); }

private:
    std::int64_t m_width;
    std::int64_t m_height;
    std::int64_t m_tileSize;
    const WalkableRegions& m_regions;
    GeoTiffWriter m_writer;
};

}  // namespace

void writeMask(GeoTiffWriter& writer, const BitRaster& mask, std::int64_t tileSize) {
    std::vector<std::uint8_t> block;
    for (std::int64_t row0 = 0; row0 < mask.height(); row0 += tileSize) {
        const std::int64_t rows = std::min(tileSize, mask.height() - row0);
        for (std::int64_t col0 = 0; col0 < mask.width(); col0 += tileSize) {
            const std::int64_t cols = std::min(tileSize, mask.width() - col0);
            block.resize(static_cast<std::size_t>(rows * cols));
            auto out = block.begin();
            for (std::int64_t r = row0; r < row0 + rows; ++r) {
                // Bit c of word k is column 64k + c (regions.hpp): read the words, not cells.
                const std::uint64_t* words = mask.rowWords(r);
                for (std::int64_t c = col0; c < col0 + cols; ++c) {
                    const auto col = static_cast<std::uint64_t>(c);
                    *out++ = static_cast<std::uint8_t>((words[col >> 6] >> (col & 63)) & 1);
                }
            }
            writer.writeBlock(col0, row0, cols, rows, block.data());
        }
    }
}

std::unique_ptr<OutputSink> makeClassesSink(const Config& config, const Terrain& terrain) {
    const std::string path = outputPath(config, OutputFile::ClassesTif);
    return withSidecars(
        std::make_unique<TileRasterSink<std::uint8_t>>(path, classesOptions(config, terrain),
                                                       &Tile::classIndex),
        {{path + ".aux.xml", classesAuxXml(terrain.classes())}});
}

std::unique_ptr<OutputSink> makeWalkableSink(const Config& config,
                                             const WalkableRegions& regions) {
    return std::make_unique<WalkableSink>(config, regions);
}

namespace {

// classes.tif and walkable.tif: one UInt8 GeoTIFF writer each.
WriterMemory byteRasterMemory(const Config& config, int threads) {
    return bounds::geoTiffWriterMemory(config, SampleFormat::UInt8, threads);
}

}  // namespace

constexpr OutputDriver kClassesTifDriver{
    .file = OutputFile::ClassesTif,
    .name = "classes.tif",
    .needsClasses = alwaysNeeded,
    .needsRegions = neverNeeded,
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makeClassesSink(config,
                               requiredInput(in.terrain, OutputFile::ClassesTif, "a Terrain"));
    },
    .geoTiffOptions = [](const Config& config, const Terrain* terrain) {
        return classesOptions(config,
                              requiredInput(terrain, OutputFile::ClassesTif, "a Terrain"));
    },
    // Each class name twice: in TERRAGRID_CLASSES and in its own items; twice more in the
    // sidecar classes.tif.aux.xml (its category and its attribute table row).
    .diskBound = [](const Config& config) {
        PlannedOutput out =
            bounds::plannedGeoTiff(config, OutputFile::ClassesTif, SampleFormat::UInt8,
                                   2 * bounds::classNamesBytes(config, 128));
        out.files += 1;
        out.bytes += 4 * bounds::kKiB + 2 * bounds::classNamesBytes(config, 256);
        return out;
    },
    .memoryBound = byteRasterMemory,
};
static_assert(namedAsInTable(kClassesTifDriver));
const DriverRegistration kClassesTifRegistered{kClassesTifDriver};

// Its terrain classes go to the WalkableRegions through the tiles' walkable bytes.
constexpr OutputDriver kWalkableTifDriver{
    .file = OutputFile::WalkableTif,
    .name = "walkable.tif",
    .needsClasses = alwaysNeeded,
    .needsRegions = alwaysNeeded,
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makeWalkableSink(
            config, requiredInput(in.regions, OutputFile::WalkableTif, "the WalkableRegions"));
    },
    .geoTiffOptions = walkableOptions,
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::WalkableTif, SampleFormat::UInt8);
    },
    .memoryBound = byteRasterMemory,
};
static_assert(namedAsInTable(kWalkableTifDriver));
const DriverRegistration kWalkableTifRegistered{kWalkableTifDriver};

}  // namespace terragrid

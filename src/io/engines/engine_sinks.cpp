// height.r16 (+ height.r16.json), height16.png and height16.tif: the height map as 16-bit
// values for game engines and tools that take 16-bit heightmaps, all three through the one
// mapping of io/engines/height16.hpp over the map's height range (io/height_range.hpp: known
// before the first tile, the same for every shard). Each converts a tile as it arrives and
// holds at most one tile (r16, tif) or one band of full-width rows (png), never the map.

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/transaction/atomic_file.hpp"
#include "io/geotiff/geotiff_writer.hpp"
#include "io/engines/height16.hpp"
#include "io/png/png_georef.hpp"
#include "io/png/png_writer.hpp"
#include "io/engines/r16_sidecar.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "io/tile_band.hpp"

namespace terragrid {
namespace {

// What every 16-bit sink keeps of the config: the map's size and the mapping's range.
struct Height16Map {
    Height16Map(const Config& config, const HeightRange& range,
                std::uint16_t top = kHeight16Max)
        : width(config.map.width), height(config.map.height), range(range), top(top) {}

    std::int64_t width;
    std::int64_t height;
    HeightRange range;
    std::uint16_t top;  ///< the value of range.maxMeters

    void checkSize(const TileLayout& layout, const std::string& path) const {
        checkMapSize(layout, width, height, path);
    }

    std::uint16_t convert(float elevationMeters) const noexcept {
        return toHeight16(elevationMeters, range.minMeters, range.maxMeters, top);
    }

    void convert(const float* elevationMeters, std::size_t count, std::uint16_t* out) const {
        toHeight16(elevationMeters, count, range.minMeters, range.maxMeters, out, top);
    }
};

// A tile without an elevation for every cell is the generator's mistake, not a failed write.
void checkTile(const Tile& tile, const std::string& path) {
    if (static_cast<std::int64_t>(tile.elevationMeters.size()) != tile.rect.cellCount()) {
        throw std::logic_error("sink for '" + path + "': tile " +
                               std::to_string(tile.rect.index) +
                               " lacks elevations for some of its cells");
    }
}

/// height.r16: headerless little-endian uint16, row-major, rows top to bottom (or bottom to top
/// with output.r16_flip_y, which output.engine=unity turns on), the layout Unreal and Unity
/// import as "RAW 16-bit". The file is
/// sized up front and each tile's rows are written at their own offsets, so tiles need no
/// reordering and nothing beyond one row is held. Its sidecar height.r16.json commits with it.
class R16Sink final : public OutputSink {
public:
    R16Sink(const Config& config, const HeightRange& range)
        : m_map(config, range),
          m_flipY(config.output.r16FlipY),
          m_sidecarText(r16Sidecar(config, range).dump(2) + "\n"),
          m_file(outputPath(config, OutputFile::HeightR16)),
          m_sidecar(m_file.targetPath() + ".json") {}

    const std::string& path() const override { return m_file.targetPath(); }
    std::vector<std::string> files() const override { return {path(), m_sidecar.targetPath()}; }

    void begin(const TileLayout& layout) override {
        m_map.checkSize(layout, path());
        // Sized up front, so every tile can be written at its offset in any order.
        const std::int64_t bytes = m_map.width * m_map.height * 2;
        int error = 0;
        if (bytes > std::numeric_limits<off_t>::max()) {
            error = EFBIG;
        } else if (::ftruncate(m_file.fd(), static_cast<off_t>(bytes)) != 0) {
            error = errno;
        }
        if (error != 0) throw OutputError("writing '" + path() + "': " + std::strerror(error));
    }

    void consume(const Tile& tile) override {
        checkTile(tile, path());
        const TileRect& r = tile.rect;
        m_row.resize(static_cast<std::size_t>(r.width) * 2);
        for (std::int64_t y = 0; y < r.height; ++y) {
            const float* cells = tile.elevationMeters.data() + y * r.width;
            // Byte by byte: little-endian whatever the host's order.
            for (std::int64_t x = 0; x < r.width; ++x) {
                const std::uint16_t v = m_map.convert(cells[x]);
                m_row[static_cast<std::size_t>(2 * x)] = static_cast<std::uint8_t>(v & 0xff);
                m_row[static_cast<std::size_t>(2 * x + 1)] = static_cast<std::uint8_t>(v >> 8);
            }
            const std::int64_t row = r.row0 + y;
            const std::int64_t fileRow = m_flipY ? m_map.height - 1 - row : row;
            const auto offset = static_cast<off_t>((fileRow * m_map.width + r.col0) * 2);
            m_file.writeAt(m_row.data(), m_row.size(), offset);
        }
        m_cellsWritten += r.cellCount();
    }

    void finish() override {
        const std::int64_t cells = m_map.width * m_map.height;
        if (m_cellsWritten != cells) {
            throw OutputError("writing '" + path() + "': only " + std::to_string(m_cellsWritten) +
                              " of " + std::to_string(cells) + " cells arrived");
        }
        m_sidecar.write(m_sidecarText);
    }

    // The data first: a sidecar in place always describes a complete height.r16.
    void commit() override {
        m_file.commit();
        m_sidecar.commit();
    }

private:
    Height16Map m_map;
    bool m_flipY;
    std::string m_sidecarText;  // known before the data, like the range
    AtomicFile m_file;
    AtomicFile m_sidecar;
    std::vector<std::uint8_t> m_row;  // one tile row as the file stores it
    std::int64_t m_cellsWritten = 0;
};

/// height16.png: 16-bit linear greyscale. PNG rows go out in order, so the tiles of one tile
/// row are gathered into a band of full-width rows, which is encoded once its last tile is in.
class Png16Sink final : public OutputSink {
public:
    Png16Sink(const Config& config, const HeightRange& range)
        : m_map(config, range), m_writer(outputPath(config, OutputFile::Height16Png)) {}

    const std::string& path() const override { return m_writer.path(); }

    void begin(const TileLayout& layout) override {
        m_map.checkSize(layout, path());
        checkPngSize(m_map.width, m_map.height, path());
        m_writer.start(static_cast<std::uint32_t>(m_map.width),
                       static_cast<std::uint32_t>(m_map.height), PngFormat::Grey16);
    }

    void consume(const Tile& tile) override {
        checkTile(tile, path());
        const TileRect& r = tile.rect;
        const bool bandDone = m_band.place(r, path(), [&](std::int64_t y, std::uint16_t* to) {
            m_map.convert(tile.elevationMeters.data() + y * r.width,
                          static_cast<std::size_t>(r.width), to);
        });
        if (bandDone)
            m_writer.writeRows(m_band.data(), static_cast<std::uint32_t>(m_band.rows()));
    }

    void finish() override { m_writer.close(); }
    void commit() override { m_writer.commit(); }
    double parallelCpuSeconds() const override { return m_writer.parallelCpuSeconds(); }

private:
    Height16Map m_map;
    PngWriter m_writer;
    TileBand<std::uint16_t> m_band{m_map.width};
};

// GDAL shows metres for height16.tif (with its offset and scale applied) on the same grid as
// height.tif. Its heights spread over 0..65534, one step finer than 0..65535 would not be
// worth losing nodata for: 65535 is reserved, so gdalwarp and QGIS can mark empty cells.
GeoTiffOptions height16TifOptions(const Config& config, const HeightRange& range) {
    GeoTiffOptions options = mapGeoTiffOptions(config, SampleFormat::UInt16);
    options.unit = "metre";
    // fromHeight16, in GDAL's terms: metres = offset + v * scale.
    options.offset = range.minMeters;
    options.scale = (range.maxMeters - range.minMeters) / static_cast<double>(kHeight16TifMax);
    options.nodata = kHeight16Nodata;
    options.metadata.emplace_back("TERRAGRID_HEIGHT16_MAPPING", std::string(kHeight16TifFormula));
    return options;
}

// The driver's options, as `terragrid mosaic` writes them into height16.vrt. A mosaic has no
// hydrology stage, and an eroded map's range comes from it: refused with a message rather than
// guessed (the pieces' own height16.tif files carry the right offset and scale).
GeoTiffOptions height16TifDriverOptions(const Config& config, const Terrain*) {
    if (heightRangeNeedsStage(config))
        throw std::invalid_argument(
            "height16.tif of an eroded map: its height range comes from the whole map's "
            "hydrology stage, which a mosaic does not have; mosaic height.tif instead");
    return height16TifOptions(config, mapHeightRange(config, nullptr));
}

/// height16.tif: UInt16 GeoTIFF, each tile converted and handed to the writer as it arrives.
class Height16TifSink final : public OutputSink {
public:
    Height16TifSink(const Config& config, const HeightRange& range)
        : m_map(config, range, kHeight16TifMax),
          m_writer(outputPath(config, OutputFile::Height16Tif),
                   height16TifOptions(config, range)) {}

    const std::string& path() const override { return m_writer.path(); }

    void begin(const TileLayout& layout) override { m_map.checkSize(layout, path()); }

    void consume(const Tile& tile) override {
        checkTile(tile, path());
        const TileRect& r = tile.rect;
        m_cells.resize(tile.elevationMeters.size());
        m_map.convert(tile.elevationMeters.data(), m_cells.size(), m_cells.data());
        m_writer.writeBlock(r.col0, r.row0, r.width, r.height, m_cells.data());
    }

    void finish() override { m_writer.close(); }
    void commit() override { m_writer.commit(); }
    double parallelCpuSeconds() const override { return m_writer.parallelCpuSeconds(); }

private:
    Height16Map m_map;
    GeoTiffWriter m_writer;
    std::vector<std::uint16_t> m_cells;  // one tile's values
};

}  // namespace

std::unique_ptr<OutputSink> makeR16Sink(const Config& config, const HeightRange& range) {
    return std::make_unique<R16Sink>(config, range);
}

std::unique_ptr<OutputSink> makeHeight16PngSink(const Config& config, const HeightRange& range) {
    // Its world file and PAM sidecar, which also tells GDAL the band's metres (fromHeight16).
    const PngBandMeaning metres{
        .offset = range.minMeters,
        .scale = (range.maxMeters - range.minMeters) / static_cast<double>(kHeight16Max),
        .unit = "metre"};
    return withSidecars(std::make_unique<Png16Sink>(config, range),
                        pngGeoSidecars(config, outputPath(config, OutputFile::Height16Png), 1,
                                       metres));
}

std::unique_ptr<OutputSink> makeHeight16TifSink(const Config& config, const HeightRange& range) {
    return std::make_unique<Height16TifSink>(config, range);
}

namespace {

// Rows of the generator's tiles: what a sink holding one band of full-width rows holds.
bounds::Bytes bandRows(const Config& config) {
    return bounds::Bytes(std::min(config.map.tileSizeCells, config.map.height));
}

// height.r16 is two bytes a cell, uncompressed; its sidecar a few hundred bytes of JSON.
PlannedOutput r16Disk(const Config& config) {
    PlannedOutput out = bounds::plannedFile(
        config, OutputFile::HeightR16,
        2 * bounds::cells(config.map.width, config.map.height) + 4 * bounds::kKiB, false);
    out.files = 2;  // and its sidecar, height.r16.json
    return out;
}

// height16.png: a band of 16-bit rows, the PNG row being filtered and one zlib stream.
WriterMemory png16Memory(const Config& config, int) {
    const auto w = bounds::Bytes(config.map.width);
    return {MemoryGroup::Writers, w * bandRows(config) * 2 + 4 * w + bounds::kCodecState, 0};
}

}  // namespace

constexpr OutputDriver kHeightR16Driver{
    .file = OutputFile::HeightR16,
    .name = "height.r16",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range (heightRangeNeedsStage)
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makeR16Sink(config, mapHeightRange(config, in.hydrology));
    },
    .diskBound = r16Disk,
    .memoryBound = [](const Config& config, int) {  // a full-width row of 16-bit values
        return WriterMemory{MemoryGroup::Writers, 2 * bounds::Bytes(config.map.width), 0};
    },
};
static_assert(namedAsInTable(kHeightR16Driver));
const DriverRegistration kHeightR16Registered{kHeightR16Driver};

constexpr OutputDriver kHeight16PngDriver{
    .file = OutputFile::Height16Png,
    .name = "height16.png",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range (heightRangeNeedsStage)
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makeHeight16PngSink(config, mapHeightRange(config, in.hydrology));
    },
    .diskBound = [](const Config& config) {  // and its two georeferencing sidecars
        PlannedOutput out = bounds::plannedFile(
            config, OutputFile::Height16Png,
            bounds::pngBound(config.map.width, config.map.height, 2) + pngGeoSidecarBytes(),
            true);
        out.files += kPngGeoSidecarFiles;
        return out;
    },
    .memoryBound = png16Memory,
};
static_assert(namedAsInTable(kHeight16PngDriver));
const DriverRegistration kHeight16PngRegistered{kHeight16PngDriver};

constexpr OutputDriver kHeight16TifDriver{
    .file = OutputFile::Height16Tif,
    .name = "height16.tif",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range (heightRangeNeedsStage)
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makeHeight16TifSink(config, mapHeightRange(config, in.hydrology));
    },
    .geoTiffOptions = height16TifDriverOptions,
    // Its unit, offset, scale and mapping in the metadata.
    .diskBound = [](const Config& config) {
        return bounds::plannedGeoTiff(config, OutputFile::Height16Tif, SampleFormat::UInt16,
                                      bounds::kKiB);
    },
    .memoryBound = [](const Config& config, int threads) {
        return bounds::geoTiffWriterMemory(config, SampleFormat::UInt16, threads);
    },
};
static_assert(namedAsInTable(kHeight16TifDriver));
const DriverRegistration kHeight16TifRegistered{kHeight16TifDriver};

}  // namespace terragrid

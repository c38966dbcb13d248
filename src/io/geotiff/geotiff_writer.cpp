#include "io/geotiff/geotiff_writer.hpp"

#include <fcntl.h>
#include <geo_normalize.h>
#include <geotiffio.h>
#include <tiffio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "io/transaction/atomic_file.hpp"
#include "io/geotiff/libtiff_support.hpp"
#include "io/geotiff/overview_pyramid.hpp"
#include "io/geotiff/tiff_tile_jobs.hpp"
#include "io/xml_text.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

// ---------------------------------------------------------------------------------------------
// GeoTIFF and GDAL tags (libtiff's messages: libtiff_support.hpp).

constexpr std::uint32_t kTagModelPixelScale = 33550;
constexpr std::uint32_t kTagModelTiepoint = 33922;
constexpr std::uint32_t kTagGeoKeyDirectory = 34735;
constexpr std::uint32_t kTagGeoDoubleParams = 34736;
constexpr std::uint32_t kTagGeoAsciiParams = 34737;
constexpr std::uint32_t kTagGdalMetadata = 42112;
constexpr std::uint32_t kTagGdalNodata = 42113;

// libtiff does not know these tags; without registering them it would refuse to write them
// and, when reading, would return them untyped with a warning each.
const TIFFFieldInfo kGeoTiffFields[] = {
    {kTagModelPixelScale, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("ModelPixelScale")},
    {kTagModelTiepoint, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("ModelTiepoint")},
    {kTagGeoKeyDirectory, -1, -1, TIFF_SHORT, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("GeoKeyDirectory")},
    {kTagGeoDoubleParams, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("GeoDoubleParams")},
    {kTagGeoAsciiParams, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
     const_cast<char*>("GeoASCIIParams")},
    {kTagGdalMetadata, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
     const_cast<char*>("GDALMetadata")},
    {kTagGdalNodata, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
     const_cast<char*>("GDALNoDataValue")},
};

TIFFExtendProc g_parentExtender = nullptr;

void extendTags(TIFF* tif) {
    TIFFMergeFieldInfo(tif, kGeoTiffFields, sizeof kGeoTiffFields / sizeof kGeoTiffFields[0]);
    if (g_parentExtender) g_parentExtender(tif);
}

bool hasBandScale(const GeoTiffOptions& options) {
    return options.scale != 1.0 || options.offset != 0.0;
}

// GDAL's own layout of the GDAL_METADATA tag, so GDAL reads the items back as written.
std::string gdalMetadataXml(const GeoTiffOptions& options) {
    std::string xml = "<GDALMetadata>\n";
    for (const auto& [name, value] : options.metadata) {
        xml += "  <Item name=\"" + xmlEscape(name) + "\">" + xmlEscape(value) + "</Item>\n";
    }
    if (!options.unit.empty()) {
        xml += "  <Item name=\"UNITTYPE\" sample=\"0\" role=\"unittype\">" +
               xmlEscape(options.unit) + "</Item>\n";
    }
    // Band 1's scale and offset, which GDAL applies when asked to unscale (and reports).
    if (hasBandScale(options)) {
        xml += "  <Item name=\"OFFSET\" sample=\"0\" role=\"offset\">" +
               exactDecimal(options.offset) + "</Item>\n";
        xml += "  <Item name=\"SCALE\" sample=\"0\" role=\"scale\">" +
               exactDecimal(options.scale) + "</Item>\n";
    }
    xml += "</GDALMetadata>";
    return xml;
}

}  // namespace

std::size_t bytesPerSample(SampleFormat format) noexcept {
    return sampleFormatInfo(format).bitsPerSample / 8u;
}

bool needsBigTiff(std::int64_t width, std::int64_t height, std::size_t bytesPerSample,
                  std::int64_t tileSize, bool withOverviews) noexcept {
    // In double, so no product can overflow; rounding is nothing at the scale of 4 GiB.
    const auto tilesOf = [tileSize](std::int64_t w, std::int64_t h) {
        return static_cast<double>((w + tileSize - 1) / tileSize) *
               static_cast<double>((h + tileSize - 1) / tileSize);
    };
    double tiles = tilesOf(width, height);
    if (withOverviews) {
        for (const RasterSize& level : overviewSizes(width, height, tileSize))
            tiles += tilesOf(level.width, level.height);
    }
    const double tileBytes =
        static_cast<double>(tileSize) * static_cast<double>(tileSize) *
        static_cast<double>(bytesPerSample);
    constexpr double kGrowth = 1.5;              // incompressible data under LZW
    constexpr double kPerTile = 8;               // its offset and byte count, 4 bytes each
    constexpr double kFixed = 1024.0 * 1024.0;   // header, directory, tags, metadata
    const double worstCase = tiles * (tileBytes * kGrowth + kPerTile) + kFixed;
    return worstCase >= 4294967296.0;  // classic TIFF offsets are 32 bits
}

void prepareLibTiff() {
    static const bool prepared = [] {
        g_parentExtender = TIFFSetTagExtender(extendTags);
        TIFFSetErrorHandler(collectTiffError);
        TIFFSetWarningHandler(collectTiffWarning);
        return true;
    }();
    (void)prepared;
}

// ---------------------------------------------------------------------------------------------

class GeoTiffWriter::Impl {
public:
    Impl(std::string path, GeoTiffOptions options);
    ~Impl();

    void writeSamples(std::int64_t col0, std::int64_t row0, std::int64_t width,
                      std::int64_t height, const std::byte* data, SampleFormat format);
    void close();
    void commit();

    const std::string& path() const noexcept { return m_path; }
    bool isBigTiff() const noexcept { return m_bigTiff; }
    // Both kinds of tiles held: waiting for cells, and encoded but waiting for an earlier one.
    std::size_t peakPendingTiles() const noexcept { return m_peakPending + m_peakWaitingTiles; }
    double parallelCpuSeconds() const noexcept {
        return m_jobs.cpuSeconds() +
               (m_overviews ? m_overviews->parallelCpuSeconds() : m_overviewCpuSeconds);
    }
    std::uint64_t peakWaitingBytes() const noexcept { return m_peakWaitingBytes; }
    std::uint64_t peakOverviewBytes() const noexcept {
        return m_overviews ? m_overviews->peakPendingBytes() : m_peakOverviewBytes;
    }

private:
    enum class State : std::uint8_t { Open, Closed, Committed, Failed };

    // A TIFF tile still waiting for some of its cells.
    struct PendingTile {
        std::vector<std::byte> bytes;
        std::int64_t cellsReceived = 0;
    };

    void open();
    void abandonTiff() noexcept;
    // Both throw TiffError when libtiff refuses a tag.
    void writeTags();
    void writeColorMap();
    void writeGeoKeys();
    void encodeTile(std::int64_t index, PendingTile& tile);
    void deliverEncoded(std::int64_t index, const std::byte* bytes, std::size_t count);
    void writeWaitingTiles();
    bool isCog() const noexcept { return m_options.layout == TiffLayout::Cog; }
    void setOverviewTags(std::size_t level);
    void writeOverviews();
    void writeCog();
    void writeCogGhostHeader();
    void writeLevelTiles(TIFF* tif, std::size_t level);
    void writeRawTile(std::int64_t index, const std::byte* bytes, std::size_t count);
    void startWriteback(std::size_t bytesWritten) noexcept;
    bool writeWholeRawTile(std::int64_t col0, std::int64_t row0, std::int64_t width,
                           std::int64_t height, const std::byte* data);
    template <typename Step>
    void runJobs(Step step);
    std::int64_t cellsInTile(std::int64_t tx, std::int64_t ty) const noexcept;

    [[noreturn]] void fail(const std::string& cause);
    [[noreturn]] void failTiff(const char* call, bool withErrno = false);
    [[noreturn]] void failTileWrite(const char* call, std::int64_t index);
    [[noreturn]] void failOverlap(std::int64_t index);

    std::string m_path;
    GeoTiffOptions m_options;
    std::size_t m_sampleBytes = 0;
    bool m_bigTiff = false;
    std::int64_t m_tilesAcross = 0;
    std::int64_t m_tilesDown = 0;
    std::optional<AtomicFile> m_file;
    TIFF* m_tif = nullptr;
    State m_state = State::Open;

    std::unordered_map<std::int64_t, PendingTile> m_pending;
    std::vector<bool> m_tileWritten;
    std::int64_t m_tilesWrittenCount = 0;
    std::size_t m_bytesSinceWriteback = 0;  // tile bytes handed to the file since the last kick
    std::size_t m_peakPending = 0;
    std::vector<std::byte> m_spare;  // a written tile's buffer, reused for the next tile
    std::vector<std::byte> m_encoded;  // serial encoding's output, reused

    // Tiles reach the file in row-major order: m_nextTile is the next to write, m_waiting
    // holds encoded tiles that completed before it (COG: every tile goes to the pyramid's
    // full-resolution store instead and is written at close()).
    std::int64_t m_nextTile = 0;
    std::map<std::int64_t, std::vector<std::byte>> m_waiting;
    std::uint64_t m_waitingBytes = 0;
    std::uint64_t m_peakWaitingBytes = 0;
    std::size_t m_peakWaitingTiles = 0;
    std::optional<OverviewPyramid> m_overviews;  // until close() has written the levels
    std::uint64_t m_peakOverviewBytes = 0;       // its peakPendingBytes(), kept by close()
    double m_overviewCpuSeconds = 0;             // its parallelCpuSeconds(), kept by close()

    // Tile encoding, on workers when that pays (decided when the first tile completes: it
    // depends on the arena the tiles come from). Declared last: destroyed first, while what
    // the jobs deliver to still exists.
    TiffTileJobs m_jobs;
};

GeoTiffWriter::Impl::Impl(std::string path, GeoTiffOptions options)
    : m_path(std::move(path)),
      m_options(std::move(options)),
      m_jobs(m_options, [this](std::int64_t index, const std::vector<std::byte>& bytes) {
          deliverEncoded(index, bytes.data(), bytes.size());
      }) {
    const GeoTiffOptions& o = m_options;
    constexpr std::int64_t kMaxSide = std::numeric_limits<std::uint32_t>::max();
    if (o.width <= 0 || o.height <= 0 || o.width > kMaxSide || o.height > kMaxSide) {
        throw std::invalid_argument("GeoTiffWriter: raster size " + std::to_string(o.width) +
                                    "x" + std::to_string(o.height) + " for '" + m_path +
                                    "' must be positive and below 2^32");
    }
    if (o.tileSize <= 0 || o.tileSize % 16 != 0 || o.tileSize > 65536) {
        throw std::invalid_argument("GeoTiffWriter: tile size " + std::to_string(o.tileSize) +
                                    " for '" + m_path +
                                    "' must be a positive multiple of 16, at most 65536");
    }
    if (o.geo.epsg <= 0 || o.geo.epsg >= 32767) {
        throw std::invalid_argument("GeoTiffWriter: EPSG code " + std::to_string(o.geo.epsg) +
                                    " for '" + m_path + "' must be in 1..32766");
    }
    if (!o.palette.empty() && o.sampleFormat != SampleFormat::UInt8) {
        throw std::invalid_argument("GeoTiffWriter: a palette for '" + m_path +
                                    "' needs UInt8 samples");
    }
    if (o.palette.size() > 256) {
        throw std::invalid_argument("GeoTiffWriter: palette of " +
                                    std::to_string(o.palette.size()) + " colours for '" +
                                    m_path + "' has more than 256");
    }
    m_sampleBytes = bytesPerSample(o.sampleFormat);
    m_bigTiff = o.bigTiff == BigTiffMode::Always ||
                needsBigTiff(o.width, o.height, m_sampleBytes, o.tileSize,
                             o.layout != TiffLayout::Plain);
    m_tilesAcross = (o.width + o.tileSize - 1) / o.tileSize;
    m_tilesDown = (o.height + o.tileSize - 1) / o.tileSize;
    m_tileWritten.assign(static_cast<std::size_t>(m_tilesAcross * m_tilesDown), false);
    try {
        open();
        if (o.layout != TiffLayout::Plain) {
            try {
                m_overviews.emplace(m_path, m_options, o.resampling, isCog());
            } catch (const TiffError& e) {  // its encoder's scratch TIFF
                fail(e.what());
            }
        }
    } catch (...) {
        // ~Impl will not run; m_file's destructor still removes the temporary file.
        abandonTiff();
        throw;
    }
}

GeoTiffWriter::Impl::~Impl() { abandonTiff(); }

void GeoTiffWriter::Impl::abandonTiff() noexcept {
    m_jobs.cancel();  // waits for the jobs still running: they deliver to this writer
    if (m_tif) {
        // TIFFClose also writes a directory into the doomed temporary file, which m_file's
        // destructor then removes; that costs little and frees everything libtiff holds.
        TIFFClose(std::exchange(m_tif, nullptr));
        clearTiffMessages();
    }
}

void GeoTiffWriter::Impl::open() {
    const auto compression = static_cast<std::size_t>(m_options.compression);
    prepareLibTiff();
    if (!TIFFIsCODECConfigured(tiffCompressionCode(m_options.compression))) {
        fail("the libtiff on this system cannot write " +
             std::string(kCompressionNames[compression]) +
             " compression; choose another compression");
    }

    m_file.emplace(m_path);
    // TIFFClose closes the descriptor it was given; the AtomicFile keeps its own for fsync.
    const int fd = ::dup(m_file->fd());
    if (fd < 0) fail(std::strerror(errno));
    // Little-endian ("l") on every host, so the same map gives the same bytes everywhere.
    clearTiffMessages();
    m_tif = TIFFFdOpen(fd, m_path.c_str(), m_bigTiff ? "w8l" : "wl");
    if (!m_tif) {
        ::close(fd);  // TIFFFdOpen leaves the descriptor open when it fails
        failTiff("TIFFFdOpen", true);
    }
    const bool palette = !m_options.palette.empty();
    try {
        setEncodingTags(m_tif, m_options, static_cast<std::uint32_t>(m_options.width),
                        static_cast<std::uint32_t>(m_options.height), palette);
        if (palette) writeColorMap();
        writeTags();
        if (isCog()) writeCogGhostHeader();
    } catch (const TiffError& e) {
        fail(e.what());
    }
}

void GeoTiffWriter::Impl::writeTags() {
    // No DateTime tag: identical inputs must give identical files.
    const std::string software = std::string("terragrid ") + kVersion;
    setTag(m_tif, TIFFTAG_SOFTWARE, software.c_str());

    const GeoReference& geo = m_options.geo;
    const double pixelScale[3] = {geo.cellSize, geo.cellSize, 0.0};
    setTag(m_tif, kTagModelPixelScale, 3, pixelScale);
    // Raster point (0, 0) (the outer corner of the top-left cell) is world (originX, originY).
    const double tiepoint[6] = {0.0, 0.0, 0.0, geo.originX, geo.originY, 0.0};
    setTag(m_tif, kTagModelTiepoint, 6, tiepoint);

    writeGeoKeys();
    if (m_options.nodata) {
        const std::string nodata = exactDecimal(*m_options.nodata);
        setTag(m_tif, kTagGdalNodata, nodata.c_str());
    }

    if (!m_options.metadata.empty() || !m_options.unit.empty() || hasBandScale(m_options)) {
        const std::string xml = gdalMetadataXml(m_options);
        setTag(m_tif, kTagGdalMetadata, xml.c_str());
    }
}

// The GeoKey directory, by libgeotiff (the GeoTIFF reference implementation): the model type
// and the CRS's EPSG code under the key for its kind, which PROJ decided when the config was
// loaded. PixelIsArea: the tiepoint is a cell's outer corner.
void GeoTiffWriter::Impl::writeGeoKeys() {
    const GeoReference& geo = m_options.geo;
    GTIF* gtif = GTIFNew(m_tif);
    if (gtif == nullptr) fail("libgeotiff could not start its GeoKey directory");
    const auto code = static_cast<unsigned short>(geo.epsg);
    bool ok = GTIFKeySet(gtif, GTModelTypeGeoKey, TYPE_SHORT, 1,
                         geo.geographic ? ModelTypeGeographic : ModelTypeProjected) != 0 &&
              GTIFKeySet(gtif, GTRasterTypeGeoKey, TYPE_SHORT, 1, RasterPixelIsArea) != 0 &&
              GTIFKeySet(gtif, geo.geographic ? GeographicTypeGeoKey : ProjectedCSTypeGeoKey,
                         TYPE_SHORT, 1, code) != 0;
    ok = ok && GTIFWriteKeys(gtif) != 0;
    GTIFFree(gtif);
    if (!ok) failTiff("GTIFWriteKeys");
}

void GeoTiffWriter::Impl::writeColorMap() {
    // A ColorMap has 2^BitsPerSample entries per channel, on 0..65535: value * 257 maps 255 to
    // 65535 exactly, and readers that divide by 257 (GDAL) or shift by 8 get the byte back.
    std::array<std::array<std::uint16_t, 256>, 3> channels{};  // unused entries stay black
    for (std::size_t i = 0; i < m_options.palette.size(); ++i) {
        const Rgb& colour = m_options.palette[i];
        channels[0][i] = static_cast<std::uint16_t>(colour.r * 257);
        channels[1][i] = static_cast<std::uint16_t>(colour.g * 257);
        channels[2][i] = static_cast<std::uint16_t>(colour.b * 257);
    }
    setTag(m_tif, TIFFTAG_COLORMAP, channels[0].data(), channels[1].data(), channels[2].data());
}

void GeoTiffWriter::Impl::writeSamples(std::int64_t col0, std::int64_t row0,
                                       std::int64_t width, std::int64_t height,
                                       const std::byte* data, SampleFormat format) {
    if (m_state != State::Open) {
        throw std::logic_error("GeoTiffWriter::writeBlock on a writer that is not open ('" +
                               m_path + "')");
    }
    if (format != m_options.sampleFormat) {
        throw std::invalid_argument("GeoTiffWriter::writeBlock: cells of the wrong sample "
                                    "format for '" + m_path + "'");
    }
    if (width <= 0 || height <= 0 || col0 < 0 || row0 < 0 || col0 > m_options.width - width ||
        row0 > m_options.height - height || data == nullptr) {
        throw std::invalid_argument(
            "GeoTiffWriter::writeBlock: block (" + std::to_string(col0) + ", " +
            std::to_string(row0) + ") " + std::to_string(width) + "x" + std::to_string(height) +
            " does not fit the " + std::to_string(m_options.width) + "x" +
            std::to_string(m_options.height) + " raster of '" + m_path + "'");
    }

    const std::int64_t t = m_options.tileSize;
    if (writeWholeRawTile(col0, row0, width, height, data)) return;
    const auto bytesOf = [this](std::int64_t cells) {
        return static_cast<std::size_t>(cells) * m_sampleBytes;
    };
    for (std::int64_t ty = row0 / t; ty <= (row0 + height - 1) / t; ++ty) {
        for (std::int64_t tx = col0 / t; tx <= (col0 + width - 1) / t; ++tx) {
            const std::int64_t index = ty * m_tilesAcross + tx;
            if (m_tileWritten[static_cast<std::size_t>(index)]) failOverlap(index);
            auto [it, inserted] = m_pending.try_emplace(index);
            PendingTile& tile = it->second;
            if (inserted) {
                // Zeroed: cells beyond the raster's edge are written as 0.
                tile.bytes = std::move(m_spare);
                tile.bytes.assign(bytesOf(t * t), std::byte{0});
                m_peakPending = std::max(m_peakPending, m_pending.size());
            }
            // Copy the part of the block inside this tile, row by row.
            const std::int64_t c0 = std::max(col0, tx * t);
            const std::int64_t c1 = std::min(col0 + width, (tx + 1) * t);
            const std::int64_t r0 = std::max(row0, ty * t);
            const std::int64_t r1 = std::min(row0 + height, (ty + 1) * t);
            for (std::int64_t r = r0; r < r1; ++r) {
                std::memcpy(tile.bytes.data() + bytesOf((r - ty * t) * t + (c0 - tx * t)),
                            data + bytesOf((r - row0) * width + (c0 - col0)), bytesOf(c1 - c0));
            }
            tile.cellsReceived += (c1 - c0) * (r1 - r0);
            const std::int64_t expected = cellsInTile(tx, ty);
            if (tile.cellsReceived > expected) failOverlap(index);
            if (tile.cellsReceived == expected) {
                // Reduced into the overviews first: encoding spoils the samples.
                if (m_overviews)
                    runJobs([&] { m_overviews->addFullResolutionTile(tx, ty, tile.bytes.data()); });
                encodeTile(index, tile);
                m_spare = std::move(tile.bytes);
                m_pending.erase(it);
            }
        }
    }
}

// An uncompressed file's TIFF tile is its cells as they are in memory (little-endian hosts;
// no predictor without compression): a block that is exactly one whole TIFF tile goes to the
// file as it is, without the copies into a pending tile and into libtiff's buffer. The bytes
// are those TIFFWriteEncodedTile would write. Returns whether it wrote the block.
bool GeoTiffWriter::Impl::writeWholeRawTile(std::int64_t col0, std::int64_t row0,
                                            std::int64_t width, std::int64_t height,
                                            const std::byte* data) {
    const std::int64_t t = m_options.tileSize;
    if (std::endian::native != std::endian::little ||
        m_options.compression != Compression::None || width != t || height != t ||
        col0 % t != 0 || row0 % t != 0) {
        return false;
    }
    const std::int64_t index = (row0 / t) * m_tilesAcross + col0 / t;
    if (m_tileWritten[static_cast<std::size_t>(index)] || m_pending.contains(index)) {
        failOverlap(index);
    }
    if (m_overviews)
        runJobs([&] { m_overviews->addFullResolutionTile(col0 / t, row0 / t, data); });
    deliverEncoded(index, data, static_cast<std::size_t>(t * t) * m_sampleBytes);
    m_tileWritten[static_cast<std::size_t>(index)] = true;
    ++m_tilesWrittenCount;
    return true;
}

void GeoTiffWriter::Impl::encodeTile(std::int64_t index, PendingTile& tile) {
    if (m_jobs.parallel()) {
        runJobs([&] { m_jobs.submit(index, tile.bytes); });
    } else if (m_options.compression == Compression::None &&
               std::endian::native == std::endian::little) {
        deliverEncoded(index, tile.bytes.data(), tile.bytes.size());  // the cells are the bytes
    } else {
        runJobs([&] {
            m_jobs.encodeHere(tile.bytes, m_encoded);
            deliverEncoded(index, m_encoded.data(), m_encoded.size());
        });
    }
    m_tileWritten[static_cast<std::size_t>(index)] = true;
    ++m_tilesWrittenCount;
}

// An encoded tile, in the order tiles completed: into the COG's store, into the file when its
// turn has come, else into the waiting room. TIFF tiles complete in an order that depends on
// the generator's tiles (map.tile_size): a TIFF tile spanning several generator rows completes
// after tiles to its right that do not. The file holds them in index order whatever the order
// they complete in, so the bytes never depend on map.tile_size (design.md principle 6). That
// holds at most about a row of TIFF tiles, the same bound as the tiles waiting for cells.
void GeoTiffWriter::Impl::deliverEncoded(std::int64_t index, const std::byte* bytes,
                                         std::size_t count) {
    if (isCog()) {
        m_overviews->storeFullResolutionTile(index, std::vector<std::byte>(bytes, bytes + count));
    } else if (index == m_nextTile) {
        writeRawTile(index, bytes, count);
        ++m_nextTile;
        writeWaitingTiles();
    } else {
        m_waiting.emplace(index, std::vector<std::byte>(bytes, bytes + count));
        m_waitingBytes += count;
        m_peakWaitingBytes = std::max(m_peakWaitingBytes, m_waitingBytes);
        m_peakWaitingTiles = std::max(m_peakWaitingTiles, m_waiting.size());
    }
}

void GeoTiffWriter::Impl::writeWaitingTiles() {
    while (!m_waiting.empty() && m_waiting.begin()->first == m_nextTile) {
        const std::vector<std::byte>& bytes = m_waiting.begin()->second;
        writeRawTile(m_nextTile, bytes.data(), bytes.size());
        m_waitingBytes -= bytes.size();
        m_waiting.erase(m_waiting.begin());
        ++m_nextTile;
    }
}

void GeoTiffWriter::Impl::writeRawTile(std::int64_t index, const std::byte* bytes,
                                       std::size_t count) {
    clearTiffMessages();
    errno = 0;
    const auto size = static_cast<tmsize_t>(count);
    // TIFFWriteRawTile takes a non-const buffer but only reads it.
    if (TIFFWriteRawTile(m_tif, static_cast<std::uint32_t>(index), const_cast<std::byte*>(bytes),
                         size) != size) {
        failTileWrite("TIFFWriteRawTile", index);
    }
    startWriteback(count);
}

// The file is fsynced before it is renamed into place (AtomicFile::commit); waiting there for
// the whole file to reach the disk added tens of milliseconds to a run (about 35 ms for a
// 64 MB height.tif). Asking the kernel every few MB to start writing back what is already
// written lets the disk work while the tiles are still being generated, so the fsync only
// waits for the tail. A hint: durability still comes from the fsync, and a failure here
// changes nothing.
void GeoTiffWriter::Impl::startWriteback(std::size_t bytesWritten) noexcept {
    constexpr std::size_t kWritebackBytes = 8u << 20;
    m_bytesSinceWriteback += bytesWritten;
    if (m_bytesSinceWriteback < kWritebackBytes) return;
    m_bytesSinceWriteback = 0;
#ifdef __linux__
    (void)::sync_file_range(m_file->fd(), 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
}

// A job's libtiff failure becomes this file's OutputError; any other failure leaves the
// writer failed too.
template <typename Step>
void GeoTiffWriter::Impl::runJobs(Step step) {
    try {
        step();
    } catch (const TiffError& e) {
        fail(e.what());
    } catch (...) {
        m_state = State::Failed;
        throw;
    }
}

std::int64_t GeoTiffWriter::Impl::cellsInTile(std::int64_t tx, std::int64_t ty) const noexcept {
    const std::int64_t t = m_options.tileSize;
    return (std::min(m_options.width, (tx + 1) * t) - tx * t) *
           (std::min(m_options.height, (ty + 1) * t) - ty * t);
}

void GeoTiffWriter::Impl::close() {
    if (m_state == State::Failed) fail("not closed because an earlier write failed");
    if (m_state != State::Open) {
        throw std::logic_error("GeoTiffWriter::close called twice for '" + m_path + "'");
    }
    const std::int64_t tileCount = m_tilesAcross * m_tilesDown;
    if (m_tilesWrittenCount != tileCount) {
        fail("only " + std::to_string(m_tilesWrittenCount) + " of " +
             std::to_string(tileCount) + " TIFF tiles received all their cells");
    }
    runJobs([&] { m_jobs.finish(); });
    if (!isCog() && (m_nextTile != tileCount || !m_waiting.empty())) {
        throw std::logic_error("GeoTiffWriter: " + std::to_string(m_nextTile) + " of " +
                               std::to_string(tileCount) + " TIFF tiles reached '" + m_path + "'");
    }
    if (m_overviews) {
        runJobs([&] { m_overviews->finish(); });
        m_overviews->checkComplete(m_path);
    }
    runJobs([&] {
        if (isCog()) {
            writeCog();
        } else {
            writeOverviews();
        }
    });
    if (m_overviews) {
        // Every level is in the file: the scratch files go now, not with the writer.
        m_peakOverviewBytes = m_overviews->peakPendingBytes();
        m_overviewCpuSeconds = m_overviews->parallelCpuSeconds();
        m_overviews.reset();
    }
    clearTiffMessages();
    errno = 0;
    // TIFFFlush writes the last directory and reports failure; TIFFClose cannot.
    if (TIFFFlush(m_tif) != 1) failTiff("TIFFFlush", true);
    TIFFClose(std::exchange(m_tif, nullptr));
    if (tiffErrorCollected()) failTiff("TIFFClose");
    m_state = State::Closed;
}

// ---------------------------------------------------------------------------------------------
// Layouts (GeoTiffOptions::layout). Overview directories carry the encoding tags and the
// colour map; GDAL takes georeferencing, nodata and metadata from the full resolution's.

void GeoTiffWriter::Impl::setOverviewTags(std::size_t level) {
    const RasterSize size = m_overviews->levelSize(level);
    const bool palette = !m_options.palette.empty();
    setTag(m_tif, TIFFTAG_SUBFILETYPE, static_cast<std::uint32_t>(FILETYPE_REDUCEDIMAGE));
    setEncodingTags(m_tif, m_options, static_cast<std::uint32_t>(size.width),
                    static_cast<std::uint32_t>(size.height), palette);
    if (palette) writeColorMap();
}

// Tiles of `level` from the scratch files into `tif`'s current directory, row-major.
void GeoTiffWriter::Impl::writeLevelTiles(TIFF* tif, std::size_t level) {
    const RasterSize size = m_overviews->levelSize(level);
    const std::int64_t t = m_options.tileSize;
    const std::int64_t tiles = ((size.width + t - 1) / t) * ((size.height + t - 1) / t);
    std::vector<std::byte> bytes;
    for (std::int64_t index = 0; index < tiles; ++index) {
        m_overviews->readTile(level, index, bytes);
        clearTiffMessages();
        errno = 0;
        const auto count = static_cast<tmsize_t>(bytes.size());
        if (TIFFWriteRawTile(tif, static_cast<std::uint32_t>(index), bytes.data(), count) !=
            count) {
            failTileWrite("TIFFWriteRawTile", index);
        }
    }
}

// The full resolution's directory (its tiles are in), then one reduced-resolution subfile per
// level; close() writes the last directory.
void GeoTiffWriter::Impl::writeOverviews() {
    if (!m_overviews) return;
    for (std::size_t level = 1; level <= m_overviews->levelCount(); ++level) {
        clearTiffMessages();
        errno = 0;
        if (TIFFWriteDirectory(m_tif) != 1) failTiff("TIFFWriteDirectory", true);
        setOverviewTags(level);
        writeLevelTiles(m_tif, level);
    }
}

// GDAL's "ghost" header right after the TIFF header, before the first directory: it tells
// readers (and GDAL's validator) that the directories come before the data and that tiles are
// in row-major order. libtiff puts each directory at the end of the file, so the first one
// lands after these bytes.
void GeoTiffWriter::Impl::writeCogGhostHeader() {
    const std::string body =
        "LAYOUT=IFDS_BEFORE_DATA\nBLOCK_ORDER=ROW_MAJOR\nKNOWN_INCOMPATIBLE_EDITION=NO\n";
    char head[64];
    std::snprintf(head, sizeof head, "GDAL_STRUCTURAL_METADATA_SIZE=%06zu bytes\n",
                  body.size());
    const std::string ghost = head + body;
    m_file->writeAt(ghost.data(), ghost.size(), m_bigTiff ? 16 : 8);
}

// A Cloud Optimized GeoTIFF: every directory first (full resolution, then overviews by
// decreasing size) with its tile arrays deferred, as GDAL's COG driver does; then, with the
// file reopened for update, the arrays (still zeros) right after the directories and the tiles
// from the smallest overview to the full resolution. Updating only the arrays, libtiff
// rewrites them in place, so the directories stay at the front.
void GeoTiffWriter::Impl::writeCog() {
    const std::size_t levels = m_overviews->levelCount();
    for (std::size_t level = 0; level <= levels; ++level) {
        if (level > 0) setOverviewTags(level);
        clearTiffMessages();
        errno = 0;
        if (TIFFDeferStrileArrayWriting(m_tif) != 1) failTiff("TIFFDeferStrileArrayWriting");
        if (TIFFWriteCheck(m_tif, 1, "GeoTiffWriter") != 1) failTiff("TIFFWriteCheck");
        if (TIFFWriteDirectory(m_tif) != 1) failTiff("TIFFWriteDirectory", true);
    }
    TIFFClose(std::exchange(m_tif, nullptr));
    if (tiffErrorCollected()) failTiff("TIFFClose");

    if (::lseek(m_file->fd(), 0, SEEK_SET) < 0) fail(std::strerror(errno));
    const int fd = ::dup(m_file->fd());
    if (fd < 0) fail(std::strerror(errno));
    clearTiffMessages();
    m_tif = TIFFFdOpen(fd, m_path.c_str(), "r+");
    if (!m_tif) {
        ::close(fd);
        failTiff("TIFFFdOpen", true);
    }
    for (std::size_t level = 0; level <= levels; ++level) {
        clearTiffMessages();
        if (TIFFSetDirectory(m_tif, static_cast<tdir_t>(level)) != 1)
            failTiff("TIFFSetDirectory");
        if (TIFFForceStrileArrayWriting(m_tif) != 1) failTiff("TIFFForceStrileArrayWriting", true);
    }
    for (std::size_t level = levels + 1; level-- > 0;) {
        clearTiffMessages();
        if (TIFFSetDirectory(m_tif, static_cast<tdir_t>(level)) != 1)
            failTiff("TIFFSetDirectory");
        writeLevelTiles(m_tif, level);
        errno = 0;
        if (TIFFFlush(m_tif) != 1) failTiff("TIFFFlush", true);
    }
}

void GeoTiffWriter::Impl::commit() {
    if (m_state != State::Closed) {
        throw std::logic_error("GeoTiffWriter::commit without a successful close() for '" +
                               m_path + "'");
    }
    try {
        m_file->commit();
    } catch (...) {
        m_state = State::Failed;
        throw;
    }
    m_state = State::Committed;
}

void GeoTiffWriter::Impl::fail(const std::string& cause) {
    m_state = State::Failed;
    throw OutputError("writing '" + m_path + "': " + cause);
}

// Throws with libtiff's words for a call that just failed (its warnings when it gave no
// error; the call's name when it said nothing). `withErrno` adds the system's reason for calls
// that do I/O, because libtiff's words ("Write error at scanline 0") do not say why.
void GeoTiffWriter::Impl::failTiff(const char* call, bool withErrno) {
    const int error = errno;
    fail(tiffFailureText(call, withErrno ? error : 0));
}

// A tile that did not reach the file because the system refused the write (a full disk): the
// system's reason and the tile say it; libtiff's words for it count rows, and for a raw tile
// say "Write error at scanline 4294967295".
void GeoTiffWriter::Impl::failTileWrite(const char* call, std::int64_t index) {
    const int error = errno;
    if (error == 0) failTiff(call);
    clearTiffMessages();
    fail("TIFF tile " + std::to_string(index) + ": " + std::strerror(error));
}

void GeoTiffWriter::Impl::failOverlap(std::int64_t index) {
    m_state = State::Failed;
    throw std::invalid_argument("GeoTiffWriter::writeBlock: blocks overlap in TIFF tile " +
                                std::to_string(index) + " of '" + m_path + "'");
}

// ---------------------------------------------------------------------------------------------

GeoTiffWriter::GeoTiffWriter(std::string path, GeoTiffOptions options)
    : m_impl(std::make_unique<Impl>(std::move(path), std::move(options))) {}

GeoTiffWriter::~GeoTiffWriter() = default;

void GeoTiffWriter::writeBlock(std::int64_t col0, std::int64_t row0, std::int64_t width,
                               std::int64_t height, const float* data) {
    m_impl->writeSamples(col0, row0, width, height, reinterpret_cast<const std::byte*>(data),
                         SampleFormat::Float32);
}

void GeoTiffWriter::writeBlock(std::int64_t col0, std::int64_t row0, std::int64_t width,
                               std::int64_t height, const std::uint8_t* data) {
    m_impl->writeSamples(col0, row0, width, height, reinterpret_cast<const std::byte*>(data),
                         SampleFormat::UInt8);
}

void GeoTiffWriter::writeBlock(std::int64_t col0, std::int64_t row0, std::int64_t width,
                               std::int64_t height, const std::uint16_t* data) {
    m_impl->writeSamples(col0, row0, width, height, reinterpret_cast<const std::byte*>(data),
                         SampleFormat::UInt16);
}

void GeoTiffWriter::close() { m_impl->close(); }

void GeoTiffWriter::commit() { m_impl->commit(); }

const std::string& GeoTiffWriter::path() const noexcept { return m_impl->path(); }

bool GeoTiffWriter::isBigTiff() const noexcept { return m_impl->isBigTiff(); }

std::size_t GeoTiffWriter::peakPendingTiles() const noexcept {
    return m_impl->peakPendingTiles();
}

double GeoTiffWriter::parallelCpuSeconds() const noexcept { return m_impl->parallelCpuSeconds(); }

std::uint64_t GeoTiffWriter::peakWaitingBytes() const noexcept {
    return m_impl->peakWaitingBytes();
}

std::uint64_t GeoTiffWriter::peakOverviewBytes() const noexcept {
    return m_impl->peakOverviewBytes();
}

}  // namespace terragrid

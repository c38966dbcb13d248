#pragma once
// A tiled, single-band GeoTIFF written with plain libtiff, fed block by block.
//
// Cells arrive in blocks of any size and position (the generator's tiles); the writer
// assembles them into TIFF tiles and encodes each TIFF tile as soon as all of its cells are in,
// then frees it (design.md principle 4). When blocks and TIFF tiles coincide nothing beyond the
// tile being copied is held; when they differ, memory grows with the map's width times the tile
// size at worst, never with its area. The file is written into an AtomicFile and appears under
// its name only on commit().
//
// Compressed tiles are encoded on TBB workers of the caller's arena (tiff_tile_encoder.hpp,
// tile_job_queue.hpp) and written with TIFFWriteRawTile in row-major order (a tile that
// completes early waits, encoded, for the ones before it), so the file has the same bytes
// whatever the thread count and whatever the size and order of the blocks; at most tileJobs
// tiles are being encoded at once. Overviews (GeoTiffOptions::layout) are built as the tiles
// complete and kept in scratch files until close() writes them (overview_pyramid.hpp).
//
// This header keeps libtiff out: geotiff_writer.cpp and tiff_tile_encoder.cpp, through
// libtiff_support.hpp, are the only files that include tiffio.h (with geotiff_reader.cpp, which
// reads pieces back for a mosaic); geotiff_writer.cpp alone
// includes libgeotiff, which writes the GeoKeys.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "terragrid/io/tiff_options.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// What one cell is stored as. Each format has one row in the table in geotiff_writer.cpp
/// (bits, TIFF sample format, predictor); adding one means a row there and a writeBlock
/// overload here.
enum class SampleFormat : std::uint8_t { Float32, UInt8, UInt16 };

/// Bytes one sample of `format` takes.
std::size_t bytesPerSample(SampleFormat format) noexcept;

/// Where the raster lies in the world (PixelIsArea: the origin is the outer corner of the
/// top-left cell).
struct GeoReference {
    /// EPSG code of the CRS, written as GeodeticCRSGeoKey (2048) for a geographic CRS and as
    /// ProjectedCRSGeoKey (3072) for a projected one: PROJ said which (CrsInfo), the writer
    /// does not guess.
    int epsg = 0;
    double originX = 0;   ///< world x of the raster's left edge
    double originY = 0;   ///< world y of the raster's top edge
    double cellSize = 1;  ///< world units per cell on both axes (rows go down, i.e. y falls)
    bool geographic = false;  ///< CrsInfo::geographic of the CRS
};

/// Everything about the file except the pixels.
struct GeoTiffOptions {
    std::int64_t width = 0;       ///< cells across, 1..2^32-1
    std::int64_t height = 0;      ///< cells down, 1..2^32-1
    std::int64_t tileSize = 256;  ///< TIFF tile edge in cells: a positive multiple of 16
    SampleFormat sampleFormat = SampleFormat::Float32;
    /// Compression; deflate, lzw and zstd add a predictor: floating point (3) for Float32,
    /// horizontal differencing (2) for integers.
    Compression compression = Compression::Deflate;
    BigTiffMode bigTiff = BigTiffMode::Auto;  ///< Auto: BigTIFF when needsBigTiff() says so
    GeoReference geo;
    /// GDAL dataset metadata items (name, value), written in this order into GDAL_METADATA.
    std::vector<std::pair<std::string, std::string>> metadata;
    /// GDAL's nodata value (the GDAL_NODATA tag): a value no cell of the raster takes, which
    /// readers (gdalwarp, QGIS) treat as "no data here". Empty writes none.
    std::optional<double> nodata;
    /// The band's unit ("metre"), as GDAL's band unit type; empty writes none.
    std::string unit;
    /// GDAL's band scale and offset: a reader's value is offset + stored value * scale (in
    /// `unit`). Written only when they are not 1 and 0.
    double scale = 1.0;
    double offset = 0.0;
    /// Non-empty: a palette image (PhotometricInterpretation Palette with a ColorMap), entry i
    /// the colour of value i; the 256 - palette.size() entries after it are black. UInt8 only,
    /// at most 256 entries. Empty: grey values (MinIsBlack).
    std::vector<Rgb> palette;
    /// How many completed TIFF tiles may be in the hands of TBB workers at once, being
    /// compressed: 1 compresses each in the calling thread as it completes (serial); 0 picks
    /// twice the calling arena's concurrency, or serial when the arena has one thread.
    /// Uncompressed files are always written serially: there is nothing to hand over. Any value
    /// gives the same bytes.
    std::size_t tileJobs = 0;
    /// Plain: the full resolution alone. Overviews: followed by reduced-resolution subfiles,
    /// each half the size of the one before down to one block (overview_pyramid.hpp). Cog: a
    /// Cloud Optimized GeoTIFF with the same overviews, every IFD before the tile data, the
    /// tiles from the smallest overview to the full resolution, row-major in each.
    TiffLayout layout = TiffLayout::Plain;
    /// How the overviews' cells are made from the level below.
    Resampling resampling = Resampling::Average;
};

/// Whether a tiled raster could pass the 4 GiB limit of classic TIFF. Counts every tile at its
/// full padded size, grown by half (LZW's worst case on incompressible data: a 12-bit code per
/// input byte; deflate and zstd grow far less), plus per-tile offsets and a margin for the
/// header and tags. Errs towards BigTIFF, which costs a few bytes and is read by everything
/// current, while a wrong "no" fails the run near its end. `withOverviews` counts the tiles
/// of the overview levels (overview_pyramid.hpp) too. Pure; inputs positive.
bool needsBigTiff(std::int64_t width, std::int64_t height, std::size_t bytesPerSample,
                  std::int64_t tileSize, bool withOverviews = false) noexcept;

/// Registers the GeoTIFF and GDAL tags with libtiff (a tag extender) and installs terragrid's
/// libtiff error and warning handlers, which collect libtiff's messages for OutputError instead
/// of printing them. Idempotent and thread-safe; GeoTiffWriter calls it itself. Other code in
/// the process that opens TIFFs (the tests' readers) calls it first so the tags read back typed.
void prepareLibTiff();

/// Writes one GeoTIFF. Not thread-safe: use it from one thread at a time (which thread may
/// change between calls, but not the TBB arena). Every failure throws
/// OutputError("writing '<path>': <cause>") and leaves the writer failed; an uncommitted
/// writer's destructor waits for its encoding jobs and removes its temporary file.
class GeoTiffWriter {
public:
    /// Creates the temporary file beside `path` and writes the TIFF header and tags.
    /// Throws std::invalid_argument for impossible options (zero size, tile size not a multiple
    /// of 16, EPSG outside 1..32766, a palette on a non-UInt8 raster or with more than 256
    /// entries) and OutputError when the file cannot be created or libtiff
    /// lacks the codec.
    GeoTiffWriter(std::string path, GeoTiffOptions options);
    /// Abandons the file unless committed: the temporary file is removed and an older file at
    /// `path` stays as it was. Never throws.
    ~GeoTiffWriter();

    GeoTiffWriter(const GeoTiffWriter&) = delete;
    GeoTiffWriter& operator=(const GeoTiffWriter&) = delete;

    /// Stores cells [col0, col0 + width) x [row0, row0 + height), `data` row-major with
    /// width x height values. Blocks may come in any order and size but must not overlap and
    /// must lie inside the raster (std::invalid_argument otherwise). Every TIFF tile completed
    /// by this block is compressed and written before returning, or (with parallel encoding)
    /// handed to a worker; a worker's failure is thrown by a later writeBlock or by close().
    /// Float32 rasters only.
    void writeBlock(std::int64_t col0, std::int64_t row0, std::int64_t width,
                    std::int64_t height, const float* data);
    /// The same for UInt8 rasters.
    void writeBlock(std::int64_t col0, std::int64_t row0, std::int64_t width,
                    std::int64_t height, const std::uint8_t* data);
    /// The same for UInt16 rasters; values in host byte order (the file is little-endian
    /// whatever the host).
    void writeBlock(std::int64_t col0, std::int64_t row0, std::int64_t width,
                    std::int64_t height, const std::uint16_t* data);

    /// Checks that every cell arrived, waits for the tiles being encoded and writes them,
    /// writes the TIFF directory and closes the TIFF.
    /// The data is still in the temporary file; commit() publishes it.
    void close();

    /// Renames the closed file onto path(). Call after close().
    void commit();

    /// The file this writer produces.
    const std::string& path() const noexcept;
    /// Whether the file is written as BigTIFF (forced, or chosen by needsBigTiff).
    bool isBigTiff() const noexcept;
    /// The most TIFF tiles that were held at one time: waiting for cells, plus encoded ones
    /// waiting for an earlier tile to be written (memory, for tests).
    std::size_t peakPendingTiles() const noexcept;
    /// CPU seconds spent compressing tiles on TBB workers so far (0 when encoding serially,
    /// which the caller's own time already counts).
    double parallelCpuSeconds() const noexcept;
    /// The most bytes of encoded tiles that waited for earlier tiles at one time, and of
    /// overview tiles that waited for cells (memory, for tests).
    std::uint64_t peakWaitingBytes() const noexcept;
    std::uint64_t peakOverviewBytes() const noexcept;

private:
    class Impl;  // keeps libtiff's types out of this header
    std::unique_ptr<Impl> m_impl;
};

}  // namespace terragrid

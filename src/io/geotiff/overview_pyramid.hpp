#pragma once
// A GeoTIFF's internal overviews, built while its full-resolution tiles stream past
// (design.md principle 4): each completed TIFF tile is reduced 2:1 into its quarter of a tile
// of level 1, each completed tile of level 1 into level 2, and so on; a completed tile of any
// level is encoded at once into a scratch file of its level and freed. Nothing holds a whole
// level: a level holds the tiles still waiting for some of their quarters, a band of tiles at
// most. GeoTiffWriter assembles the file from the scratch files at the end.
//
// The reductions run in the caller's thread (they are cheap); the completed tiles are
// compressed on TBB workers of the caller's arena, like the full resolution's
// (tile_job_queue.hpp, GeoTiffOptions::tileJobs), and stored in the order they completed, so
// the compression of overviews is not serial work of the run.
//
// A level's cells depend only on the level below (the mean or the most frequent of its 2x2
// cells: Resampling in tiff_options.hpp), never on the order or size of the pieces that
// arrived, so the overviews have the same bytes for every thread count and tile size.
//
// The scratch files are AtomicFiles that are never committed: they live in the run's staging
// folder (or beside the output) and are removed with the writer, by a signal's clean-up, or
// by the next run after a crash, like every temporary file of the run.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/transaction/atomic_file.hpp"
#include "io/geotiff/geotiff_writer.hpp"
#include "io/geotiff/tiff_tile_jobs.hpp"

namespace terragrid {

class TiffTileEncoder;

/// A raster's size in cells.
struct RasterSize {
    std::int64_t width = 0;
    std::int64_t height = 0;
    friend bool operator==(const RasterSize&, const RasterSize&) = default;
};

/// The sizes of a width x height raster's overview levels, largest first: each half the one
/// before, rounded up (as GDAL sizes them), until one fits in a single tileSize block. Empty
/// when the raster itself fits in one block. Pure; inputs positive.
std::vector<RasterSize> overviewSizes(std::int64_t width, std::int64_t height,
                                      std::int64_t tileSize);

/// Encoded tiles kept in a scratch file and read back by tile index.
class TileStore {
public:
    /// A scratch file beside (or in the staging folder of) `outputPath`, the file the tiles
    /// belong to and the name errors give. Throws OutputError when it cannot be created.
    TileStore(const std::string& outputPath, std::int64_t tileCount);

    /// Appends tile `index`'s bytes. Throws OutputError naming the output (a full disk).
    void put(std::int64_t index, const std::vector<std::byte>& bytes);
    /// Replaces `out` with tile `index`'s bytes. Throws OutputError when it cannot read them
    /// or the tile never came.
    void get(std::int64_t index, std::vector<std::byte>& out) const;
    /// Bytes stored so far.
    std::uint64_t size() const noexcept { return m_end; }

private:
    struct Place {
        std::uint64_t offset = 0;
        std::uint64_t bytes = 0;
        bool stored = false;
    };
    AtomicFile m_file;  // never committed: removed with the store
    std::uint64_t m_end = 0;
    std::vector<Place> m_places;
};

class OverviewPyramid {
public:
    /// The overviews of the raster `options` describes (size, tile size, sample format,
    /// compression), made with `resampling`; with `keepFullResolution`, a TileStore for the
    /// full-resolution tiles as well (the COG layout writes every tile after every IFD).
    /// Throws OutputError when a scratch file cannot be created or libtiff cannot encode.
    OverviewPyramid(const std::string& outputPath, const GeoTiffOptions& options,
                    Resampling resampling, bool keepFullResolution);
    ~OverviewPyramid();

    OverviewPyramid(const OverviewPyramid&) = delete;
    OverviewPyramid& operator=(const OverviewPyramid&) = delete;

    /// Overview levels (1 = half size); level 0 is the full resolution.
    std::size_t levelCount() const noexcept { return m_levels.size(); }
    /// The size of `level` (0: full resolution, 1..levelCount()).
    RasterSize levelSize(std::size_t level) const noexcept;

    /// Full-resolution TIFF tile (tx, ty) has all its cells: `raw` is its tileSize^2 samples
    /// in host byte order, cells beyond the raster's edge ignored. Reduces it into level 1
    /// and, as tiles complete, further up; completed tiles are encoded into their level's
    /// scratch file. Call once per tile, in any order. Throws OutputError (a full disk).
    void addFullResolutionTile(std::int64_t tx, std::int64_t ty, const std::byte* raw);

    /// Keeps full-resolution tile `index`'s encoded bytes (keepFullResolution only).
    void storeFullResolutionTile(std::int64_t index, const std::vector<std::byte>& encoded);

    /// Waits for the tiles being compressed and stores them. Throws as addFullResolutionTile.
    void finish();

    /// Throws std::logic_error naming `path` unless every tile of every level is stored
    /// (after finish()).
    void checkComplete(const std::string& path) const;

    /// CPU seconds TBB workers spent compressing overview tiles so far.
    double parallelCpuSeconds() const noexcept { return m_jobs.cpuSeconds(); }

    /// Replaces `out` with the encoded bytes of tile `index` of `level` (0 only when kept).
    void readTile(std::size_t level, std::int64_t index, std::vector<std::byte>& out) const;

    /// Bytes in the scratch files.
    std::uint64_t scratchBytes() const noexcept;
    /// The most cells' bytes held in tiles waiting for quarters at one time (for tests).
    std::uint64_t peakPendingBytes() const noexcept { return m_peakPendingBytes; }

private:
    struct Level;

    void addBlock(std::size_t level, std::int64_t tx, std::int64_t ty, std::int64_t blockCols,
                  std::int64_t blockRows, const std::byte* block);
    void completeTile(std::size_t level, std::int64_t tx, std::int64_t ty,
                      std::vector<std::byte>& raw);
    void store(std::size_t level, std::int64_t index, const std::vector<std::byte>& encoded);

    GeoTiffOptions m_options;
    Resampling m_resampling;
    std::size_t m_sampleBytes;
    std::vector<std::unique_ptr<Level>> m_levels;   // [0] is level 1
    std::optional<TileStore> m_fullResolution;
    std::vector<std::byte> m_reduced;               // a reduced tile's quarter
    std::vector<std::vector<std::byte>> m_spare;    // freed tile buffers, reused
    std::uint64_t m_pendingBytes = 0;
    std::uint64_t m_peakPendingBytes = 0;

    // Tile compression, on workers when that pays (decided when the first tile completes: it
    // depends on the arena the tiles come from). Declared last: destroyed first, while the
    // levels the jobs store into exist.
    TiffTileJobs m_jobs;
};

}  // namespace terragrid

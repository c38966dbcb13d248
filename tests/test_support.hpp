#pragma once
// Helpers shared by the tests: scratch directories, running programs, collecting whole maps,
// reading back TIFF and PNG files, and the maps, terrains and configs the output tests write.

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <sys/resource.h>
#include <tiffio.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "build_paths.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid::test {

/// Arrays compared by their bits, not by value: NaN equals the same NaN, -0 differs from 0.
template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Runs `body` in an arena of `threads` threads and returns its result. Lifts TBB's default
/// cap (one worker per core) so 8 threads really are 8 on a 2-core machine.
template <typename Body>
auto inArena(int threads, Body body) {
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    tbb::task_arena arena(threads);
    return arena.execute(body);
}

/// A map of w x h cells in tiles of `tile`, cells of `cell` world units, origin (ox, oy).
inline MapConfig mapOf(std::int64_t w, std::int64_t h, std::int64_t tile, double cell = 30,
                       double ox = 0, double oy = 0) {
    MapConfig m;
    m.width = w;
    m.height = h;
    m.tileSizeCells = tile;
    m.cellSize = cell;
    m.originX = ox;
    m.originY = oy;
    return m;
}

/// A fresh, empty directory under the system temp dir, removed with everything in it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
    std::filesystem::path m_path;
};

/// What a finished command printed and returned.
struct CommandResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Runs `command` through /bin/sh, capturing stdout and stderr.
CommandResult runCommand(const std::string& command);

/// The first file an output.files entry writes with the default classes: the entry itself,
/// but "splat_0.png" for "splat.png" and "weight_lake.png" for "weight.png".
std::string firstFileOf(std::string_view entry);

/// The override that asks for every output file a map without hydrology can have, not only the
/// default ones: `output.files=["height.tif", ...]`, every name of kOutputFileNames in order but
/// the water outputs (flow.tif, ...: they need hydrology.enabled, tests/hydrology_*_test.cpp).
std::string everyFileOverride();

/// everyFileOverride as command-line arguments: ` --set 'output.files=[...]'`.
std::string everyFileOption();

/// Quotes a string for /bin/sh.
std::string shellQuote(const std::string& s);

/// Assembles every tile into one row-major elevation raster and checks the sink contract
/// (tile order, each cell exactly once).
class MapCollector : public TileSink {
public:
    void begin(const TileLayout& layout) override;
    void consume(const Tile& tile) override;
    void finish() override;

    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<float> elevation;
    std::vector<std::uint8_t> classIndex;  ///< empty when the tiles carry no classes
    std::vector<std::uint8_t> walkable;
    std::vector<std::int64_t> tileOrder;
    std::vector<int> coverage;  ///< how often each cell was delivered
    bool begun = false;
    bool finished = false;
};

/// Reads a single-band Float32 tiled or stripped TIFF into a row-major vector. Throws
/// std::runtime_error when the file cannot be opened, is not single-band Float32, or a tile or
/// row does not decode in full.
std::vector<float> readFloatTiff(const std::filesystem::path& path, std::uint32_t* width = nullptr,
                                 std::uint32_t* height = nullptr);

/// Reads a single-band 8-bit unsigned tiled TIFF into a row-major vector. Throws
/// std::runtime_error like readFloatTiff, and also when the file is not tiled.
std::vector<std::uint8_t> readByteTiff(const std::filesystem::path& path,
                                       std::uint32_t* width = nullptr,
                                       std::uint32_t* height = nullptr);

/// An open TIFF whose tags a test reads, closed on scope exit. The GeoTIFF tags are registered
/// first, so they come back typed. `tif` is null when the file cannot be opened.
class TiffReader {
public:
    explicit TiffReader(const std::filesystem::path& file);
    ~TiffReader();
    TiffReader(const TiffReader&) = delete;
    TiffReader& operator=(const TiffReader&) = delete;

    /// A scalar tag; T{} and a test failure when it is missing.
    template <typename T>
    T field(std::uint32_t tag) const {
        T value{};
        EXPECT_EQ(TIFFGetField(tif, tag, &value), 1) << "tag " << tag;
        return value;
    }

    /// An array tag (a count, then the values); empty and a test failure when it is missing.
    template <typename T>
    std::vector<T> arrayField(std::uint32_t tag) const {
        std::vector<T> values;
        if (!readArray(tag, values)) ADD_FAILURE() << "tag " << tag << " missing";
        return values;
    }

    /// An array tag like arrayField, but empty without a failure when it is missing.
    template <typename T>
    std::vector<T> arrayFieldOrEmpty(std::uint32_t tag) const {
        std::vector<T> values;
        readArray(tag, values);
        return values;
    }

    /// An ASCII tag; empty when it is missing.
    std::string stringField(std::uint32_t tag) const;

    /// Every cell of a single-band Float32 image, as readFloatTiff reads it; a test failure
    /// when the file is not tiled.
    std::vector<float> pixels() const;

    /// Checks the ColorMap: entry i is palette[i] times 257, the entries after the palette
    /// black, all 256 of them. Stops at the first wrong entry with a fatal failure, so call it
    /// inside ASSERT_NO_FATAL_FAILURE.
    void expectColorMap(const std::vector<Rgb>& palette) const;

    std::filesystem::path path;
    TIFF* tif = nullptr;

private:
    template <typename T>
    bool readArray(std::uint32_t tag, std::vector<T>& out) const {
        std::uint16_t count = 0;
        T* values = nullptr;
        if (TIFFGetField(tif, tag, &count, &values) != 1) return false;
        out.assign(values, values + count);
        return true;
    }
};

/// Lowers the process's file size limit for its lifetime, so a write fails with EFBIG the way
/// a full disk fails it. SIGXFSZ is left alone: the test process ignores it once, as every
/// program writing outputs must (ignoreWriteSignals, process_setup.cpp).
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes);
    ~FileSizeLimit();
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_old{};
};

/// A PNG as read back with libpng.
struct PngImage {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    int bitDepth = 0;    ///< from IHDR
    int colourType = 0;  ///< from IHDR: 2 is RGB
    std::vector<std::uint8_t> rgb;    ///< width x height pixels, 3 bytes each, row-major
    std::vector<std::uint8_t> rgba;   ///< the same pixels with alpha, 4 bytes each
    std::vector<std::string> chunks;  ///< chunk types in file order ("IHDR", "IDAT", ...)

    /// The pixel at (x, y) as {r, g, b}.
    std::array<std::uint8_t, 3> at(std::uint32_t x, std::uint32_t y) const;
    /// The pixel at (x, y) as {r, g, b, a}.
    std::array<std::uint8_t, 4> rgbaAt(std::uint32_t x, std::uint32_t y) const;
};

/// Decodes `path` with libpng as 8-bit RGB. Throws std::runtime_error when it is not a PNG
/// libpng can read.
PngImage readPng(const std::filesystem::path& path);
/// The same for a PNG's bytes in memory; `name` names them in messages.
PngImage decodePng(const std::string& bytes, const std::string& name);

/// A 16-bit greyscale PNG as read back with libpng's own (non-simplified) reader, which hands
/// the samples over as stored, with no gamma or colour handling.
struct Grey16Png {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    int bitDepth = 0;    ///< from IHDR
    int colourType = 0;  ///< from IHDR: 0 is greyscale
    std::vector<std::uint16_t> values;  ///< width x height samples, row-major
    std::vector<std::string> chunks;    ///< chunk types in file order ("IHDR", "IDAT", ...)
};

/// Decodes `path` as a 16-bit greyscale PNG. Throws std::runtime_error when libpng cannot
/// read it or it is not 16-bit greyscale.
Grey16Png readGrey16Png(const std::filesystem::path& path);

/// Reads a single-band 16-bit unsigned tiled TIFF into a row-major vector. Throws
/// std::runtime_error like readByteTiff.
std::vector<std::uint16_t> readUInt16Tiff(const std::filesystem::path& path,
                                          std::uint32_t* width = nullptr,
                                          std::uint32_t* height = nullptr);

/// A whole map held in memory, for feeding sinks by hand. Vectors are row-major,
/// width x height; classIndex and walkable may be empty.
struct SyntheticMap {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<float> elevation;
    std::vector<std::uint8_t> classIndex;
    std::vector<std::uint8_t> walkable;
};

/// Hands `map` to every sink as the generator would: begin, the tiles of `tileSize` in
/// row-major order, finish.
void feedTiles(const std::vector<TileSink*>& sinks, const SyntheticMap& map,
               std::int64_t tileSize);

/// A value for each cell of a map, from its column and row.
template <typename T>
using CellFunction = std::function<T(std::int64_t col, std::int64_t row)>;

/// A width x height map of elevation alone: `elevation(col, row)` at each cell, no classes and
/// no walkability.
SyntheticMap elevationMap(std::int64_t width, std::int64_t height,
                          const CellFunction<float>& elevation);

/// A width x height map with elevation `elevation(col, row)` and class `classAt(col, row)` at
/// each cell, walkable where `terrain` says that class is, as the generator would give.
SyntheticMap classifiedMap(std::int64_t width, std::int64_t height,
                           const CellFunction<float>& elevation,
                           const CellFunction<std::uint8_t>& classAt, const Terrain& terrain);

/// Hands `sink` the tiles the generator would make for `map` (map.tileSizeCells, row-major,
/// the last column and row cut short), begin to finish, each cell's elevation
/// `elevationAt(col, row)` and no classes. Unlike feedTiles, begin() gets `map`'s own layout.
void feedElevationTiles(TileSink& sink, const MapConfig& map,
                        const CellFunction<float>& elevationAt);

/// The sinks as TileSink pointers for feedTiles, after `before` (the WalkableRegions, say,
/// which must see every tile before the sinks that read its mask).
std::vector<TileSink*> sinkPointers(const std::vector<std::unique_ptr<OutputSink>>& sinks,
                                    std::vector<TileSink*> before = {});

/// Writes `config`'s files: makeSinks with `terrain` and `regions` (either may be null), `map`
/// fed in tiles of `tileSize` to `regions` (when given) and then to every sink, every sink
/// committed. Returns the sinks' path()s in their order.
std::vector<std::string> writeOutputs(const Config& config, const Terrain* terrain,
                                      WalkableRegions* regions, const SyntheticMap& map,
                                      std::int64_t tileSize);

/// The 100 x 70 map the output tests write, neither side a multiple of its 32-cell tiles (and
/// 32-cell GeoTIFF blocks, output.geotiff.block_size): seed
/// 42, cells of 30 m from (600000, 5400000) in EPSG:3857, Deflate, config hash
/// "0123456789abcdef", `files` into `directory`. The elevation range, the preview size and the
/// engine keep Config's defaults; a test that needs them sets them.
Config outputConfig(const std::string& directory, std::vector<OutputFile> files);

/// Three classes that cover every (height, moisture): "lake" (not walkable), "forest" and, as
/// the catch-all, `catchAll` (both walkable).
Terrain testTerrain(const std::string& catchAll = "open ground");

/// Three classes for the Tiled export, covering every (height, moisture): "lake" and
/// "mountain" (not walkable) and, as the catch-all, "tall grass", a name with a space.
Terrain tiledTerrain();

/// The seed of tiledConfig: above 2^53 and 2^32, so a seed written as a JSON or Tiled number
/// would lose digits.
inline constexpr std::uint64_t kTiledSeed = 18446744073709551557ull;

/// The Tiled export (map.tmj, with the blocked layer) alone of a 45 x 37 map, no side a
/// multiple of the tile sizes 7, 16 or 64 the tests feed: tiles of 16 cells of 1 unit, tileset
/// tiles of 16 pixels, chunks of `chunkCells` (0: one map), seed kTiledSeed, config hash
/// "0123456789abcdef", into `directory`.
Config tiledConfig(const std::filesystem::path& directory, std::int64_t chunkCells = 0);

/// The map of `config`'s size for the Tiled tests: classes in stripes and blobs (no two
/// neighbouring rows alike), walkability from `terrain`, elevation 0.
SyntheticMap tiledMap(const Config& config, const Terrain& terrain);

/// The bytes of base64 `text` (standard alphabet, '=' padding; whitespace is skipped, as Tiled's
/// TMX puts the data on lines of its own). Throws std::runtime_error on any other character or
/// a length that is not a whole number of groups.
std::string decodeBase64(std::string_view text);

/// The bytes of one complete zlib or gzip stream (told apart by its header). Throws
/// std::runtime_error when `compressed` is not exactly one complete stream.
std::string inflateZlib(std::string_view compressed);

/// Tiled layer data encoded as in a .tmj or .tmx file: base64 text, compressed with
/// `compression` ("zlib", "gzip" or "" for none), of little-endian uint32 gids. Throws
/// std::runtime_error when it does not decode to a whole number of gids.
std::vector<std::uint32_t> decodeTiledLayerData(std::string_view base64,
                                                std::string_view compression);

/// The whole file as bytes.
std::string readFile(const std::filesystem::path& path);

/// The names of everything in `directory` (files and subdirectories alike), sorted.
std::vector<std::string> listDir(const std::filesystem::path& directory);

/// Every file of `directory` (hidden ones too, so a temporary file left behind shows) with its
/// bytes: to check that a failed or stopped run left older outputs as they were.
std::map<std::string, std::string> snapshotDir(const std::filesystem::path& directory);

/// `files` (a snapshotDir of a run's outputs) with stats.json's timings taken out, the run's
/// and its hydrology's: the only part of the outputs that may differ between runs of a map
/// (and so stats.json's size and hash in manifest.json, also taken out).
std::map<std::string, std::string> withoutTimings(std::map<std::string, std::string> files);

}  // namespace terragrid::test

// The estimates of plan.hpp. Each bound follows the writer it describes (src/io): the sizes
// come from the same options (TIFF tile size, preview geometry, output paths) the writers use.

#include "terragrid/app/plan.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "io/preview.hpp"
#include "io/sinks.hpp"
#include "io/tiled_tileset.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/model/tiling.hpp"

namespace terragrid {
namespace {

using Bytes = std::uint64_t;

constexpr Bytes kKiB = 1024;
constexpr Bytes kMiB = 1024 * kKiB;

Bytes ceilDiv(Bytes a, Bytes b) { return (a + b - 1) / b; }
Bytes cells(std::int64_t width, std::int64_t height) { return Bytes(width) * Bytes(height); }

// One zlib stream of n bytes at worst: deflate falls back to stored blocks (5 bytes each,
// blocks of at least 16 KiB with zlib's default memory level) plus header and trailer.
// n / 1024 is four times zlib's own deflateBound for these parameters.
Bytes deflateBound(Bytes n) { return n + n / 1024 + 64; }

// One compressed TIFF tile of n bytes at worst (n itself when uncompressed).
Bytes tiffTileBound(Bytes n, Compression compression) {
    switch (compression) {
        case Compression::None: return n;
        case Compression::Deflate: return deflateBound(n);
        case Compression::Lzw: return n + n / 2 + n / 1024 + 64;  // a 12-bit code per byte
        case Compression::Zstd: return n + n / 128 + 256;         // above ZSTD_compressBound
    }
    return n + n / 2 + 64;
}

// Text that may be escaped (XML entities, JSON \u escapes) takes at most 6 bytes a character.
Bytes escaped(const std::string& text) { return 6 * Bytes(text.size()); }

Bytes classNamesBytes(const Config& config, Bytes perClass) {
    Bytes total = 0;
    for (const TerrainClass& c : config.terrain.classes) total += perClass + escaped(c.name);
    return total;
}

// A tiled GeoTIFF: every tile at its full, padded size, the tile offset and byte count
// arrays (8 bytes each in BigTIFF), and the header, tags, colour map and GDAL metadata.
// `extra`: metadata a sink adds to mapGeoTiffOptions' own.
Bytes geoTiffBound(const Config& config, SampleFormat format, Bytes extra) {
    const GeoTiffOptions options = mapGeoTiffOptions(config, format);
    const auto t = static_cast<Bytes>(options.tileSize);
    const Bytes tiles = ceilDiv(Bytes(config.map.width), t) * ceilDiv(Bytes(config.map.height), t);
    Bytes metadata = 4 * kKiB + extra;
    for (const auto& [name, value] : options.metadata)
        metadata += 64 + escaped(name) + escaped(value);
    const Bytes tile = t * t * bytesPerSample(format);
    return tiles * (tiffTileBound(tile, config.output.compression) + 16) + 8 * kKiB + metadata;
}

// An 8-bit RGB or 16-bit grey PNG: filter byte and pixels per row, deflated as one stream,
// cut into IDAT chunks of 8 KiB (12 bytes of framing each), signature, IHDR and IEND.
Bytes pngBound(std::int64_t width, std::int64_t height, Bytes bytesPerPixel) {
    const Bytes z = deflateBound(Bytes(height) * (1 + Bytes(width) * bytesPerPixel));
    return z + z / 512 + 128;
}

// One Tiled map file: its JSON and one base64, zlib-compressed layer of 32-bit gids per layer.
Bytes tiledMapBound(std::int64_t width, std::int64_t height, Bytes layers) {
    const Bytes layer = 4 * ceilDiv(deflateBound(4 * cells(width, height)), 3);
    return 4 * kKiB + layers * layer;
}

// A tileset: its JSON (each tile's entry and Wang tile, each class's name twice more as a Wang
// colour) and its RGBA image, laid out as the writer does.
Bytes tilesetBound(std::int64_t tilePixels, std::int64_t tiles, Bytes namesBytes) {
    const Bytes json = 2 * kKiB + Bytes(tiles) * 384 + 3 * namesBytes;
    const TilesetGrid grid = tilesetGrid(tiles);
    return json + pngBound(tilePixels * grid.columns, tilePixels * grid.rows, 4);
}

PlannedOutput planned(const Config& config, OutputFile file, Bytes bytes, bool compressed) {
    return {file, outputPath(config, file), 1, bytes, compressed};
}

Bytes chunkCount(std::int64_t w, std::int64_t h, std::int64_t c) {
    return ceilDiv(Bytes(w), Bytes(c)) * ceilDiv(Bytes(h), Bytes(c));
}

// Chunk maps of c x c cells, narrower or shorter at the right and bottom edges, and map.world
// with an entry per chunk.
Bytes chunkMapsBound(std::int64_t w, std::int64_t h, std::int64_t c, Bytes layers) {
    const std::int64_t across = w / c, down = h / c, restW = w % c, restH = h % c;
    const auto maps = [&](std::int64_t n, std::int64_t cw, std::int64_t m, std::int64_t ch) {
        return n > 0 && m > 0 && cw > 0 && ch > 0 ? Bytes(n * m) * tiledMapBound(cw, ch, layers)
                                                  : Bytes(0);
    };
    return maps(across, c, down, c) + maps(1, restW, down, c) + maps(across, c, 1, restH) +
           maps(1, restW, 1, restH) + kKiB + chunkCount(w, h, c) * 192;
}

// The Tiled export: map.tmj, or chunk maps and map.world; the tilesets beside them.
PlannedOutput tiledOutput(const Config& config) {
    const TiledConfig& tiled = config.output.tiled;
    const std::int64_t w = config.map.width, h = config.map.height, c = tiled.chunkCells;
    const Bytes layers = tiled.walkableLayer ? 2 : 1;
    const auto classes = static_cast<std::int64_t>(config.terrain.classes.size());
    PlannedOutput out = planned(config, OutputFile::TiledMap, 0, true);
    out.bytes = tilesetBound(tiled.tilePixels, terrainTileCount(classes, tiled.tilePixels),
                             classNamesBytes(config, 64));
    out.files = 2;
    if (tiled.walkableLayer) {
        out.bytes += tilesetBound(tiled.tilePixels, 1, 0);
        out.files += 2;
    }
    if (c <= 0 || (w <= c && h <= c)) {  // one map
        out.bytes += tiledMapBound(w, h, layers);
        out.files += 1;
        return out;
    }
    out.bytes += chunkMapsBound(w, h, c, layers);
    out.files += 1 + static_cast<std::int64_t>(chunkCount(w, h, c));
    out.path = std::filesystem::path(out.path).replace_extension(".world").string();
    return out;
}

// splat_N.png (RGBA, a file per four classes) or weight_<class>.png (grey, a file per class),
// each of the map's size; shown under its first file's name.
PlannedOutput weightMapsOutput(const Config& config, OutputFile file) {
    const auto classes = static_cast<std::int64_t>(config.terrain.classes.size());
    const bool splat = file == OutputFile::SplatPng;
    const std::int64_t files = splat ? splatImageCount(classes) : classes;
    PlannedOutput out = planned(
        config, file,
        Bytes(files) * pngBound(config.map.width, config.map.height, splat ? 4 : 1), true);
    out.files = files;
    const std::string first =
        splat ? splatFileNames(classes).front() : weightFileNames(config.terrain.classes).front();
    out.path = (std::filesystem::path(config.output.directory) / first).string();
    return out;
}

PlannedOutput outputOf(const Config& config, OutputFile file) {
    const std::int64_t w = config.map.width, h = config.map.height;
    const bool tiffCompressed = config.output.compression != Compression::None;
    const auto tiff = [&](SampleFormat format, Bytes extraMetadata = 0) {
        return planned(config, file, geoTiffBound(config, format, extraMetadata), tiffCompressed);
    };
    const auto preview = [&] {
        const PreviewGeometry g = previewGeometry(w, h, config.output.previewMaxSize);
        return planned(config, file, pngBound(g.width, g.height, 3), true);
    };
    switch (file) {
        case OutputFile::HeightTif:
            return tiff(SampleFormat::Float32);
        case OutputFile::ClassesTif:  // each name twice: in the list and in its own items
            return tiff(SampleFormat::UInt8, 2 * classNamesBytes(config, 128));
        case OutputFile::WalkableTif:
            return tiff(SampleFormat::UInt8);
        case OutputFile::Height16Tif:  // its unit, offset, scale and mapping
            return tiff(SampleFormat::UInt16, kKiB);
        case OutputFile::PreviewPng:
        case OutputFile::HeightPng:
            return preview();
        case OutputFile::Height16Png:
            return planned(config, file, pngBound(w, h, 2), true);
        case OutputFile::HeightR16: {
            PlannedOutput out = planned(config, file, 2 * cells(w, h) + 4 * kKiB, false);
            out.files = 2;  // and its sidecar, height.r16.json
            return out;
        }
        case OutputFile::HeightExr: {
            // ZIP blocks of 16 rows, each stored raw when deflate does not shrink it (OpenEXR
            // keeps the smaller), with its row number, size and offset-table entry; the header
            // and its attributes; the sidecar height.exr.json.
            const Bytes blocks = ceilDiv(Bytes(h), 16);
            PlannedOutput out =
                planned(config, file, 4 * cells(w, h) + blocks * 16 + 8 * kKiB, true);
            out.files = 2;
            return out;
        }
        case OutputFile::SplatPng:
        case OutputFile::WeightPng:
            return weightMapsOutput(config, file);
        case OutputFile::StatsJson:
            return planned(config, file, 16 * kKiB + classNamesBytes(config, 256), false);
        case OutputFile::TiledMap:
            return tiledOutput(config);
    }
    return planned(config, file, 0, false);
}

// ---------------------------------------------------------------------------------------------
// Memory

// libtiff, libpng and zlib keep about this much per stream being compressed.
constexpr Bytes kCodecState = 512 * kKiB;
// NoiseRows keeps about 2 KiB per column of a tile for each noise layer (src/pipeline/generator.cpp).
constexpr Bytes kRowsPerColumn = 2 * kKiB;

// One GeoTIFF writer: TIFF tiles waiting for cells (one at a time when the generator's tiles
// are the TIFF tiles, else up to a row of TIFF tiles per generator tile row and one more), the
// tiles being compressed on workers with their results (two per thread), and the tile
// offset arrays.
Bytes geoTiffMemory(const Config& config, SampleFormat format, int threads) {
    const GeoTiffOptions options = mapGeoTiffOptions(config, format);
    const auto t = static_cast<Bytes>(options.tileSize);
    const Bytes tile = t * t * bytesPerSample(format);
    const Bytes across = ceilDiv(Bytes(config.map.width), t);
    const Bytes tiles = across * ceilDiv(Bytes(config.map.height), t);
    const auto g = static_cast<Bytes>(std::min(config.map.tileSizeCells, config.map.height));
    const bool aligned = t == Bytes(config.map.tileSizeCells);
    const Bytes pending = aligned ? 2 : across * (ceilDiv(g, t) + 1) + 1;
    const Bytes jobs = 2 * Bytes(threads) * (tile + tiffTileBound(tile, config.output.compression));
    const Bytes encoders = Bytes(threads) * (tile + kCodecState);
    return pending * tile + jobs + encoders + tiles * 16;
}

struct MemoryTally {
    std::vector<MemoryPart> parts;
    void add(std::string what, Bytes bytes) {
        if (bytes > 0) parts.push_back({std::move(what), bytes});
    }
};

bool needsRegions(const Config& config) {
    return config.wants(OutputFile::WalkableTif) || config.wants(OutputFile::StatsJson) ||
           (config.wants(OutputFile::TiledMap) && config.output.tiled.walkableLayer);
}

// Tiles in flight (two per thread, design.md principle 4) and each thread's row scratch.
Bytes tileMemory(const Config& config, int threads) {
    const MapConfig& map = config.map;
    const Bytes tileW = Bytes(std::min(map.tileSizeCells, map.width));
    const Bytes tileH = Bytes(std::min(map.tileSizeCells, map.height));
    const bool classes = config.needsClasses();
    const Bytes perCell = classes ? 6 : 4;  // elevation float, class index and walkable bytes
    const Bytes layers = classes ? 2 : 1;
    return 2 * Bytes(threads) * tileW * tileH * perCell +
           Bytes(threads) * tileW * (layers * kRowsPerColumn + 32);
}

// Each preview holds per pixel a sum and a count (and preview.png a class) while the tiles
// stream; finishing one adds the means, the shade and the RGB bytes, one preview at a time.
Bytes previewMemory(const Config& config) {
    const PreviewGeometry g =
        previewGeometry(config.map.width, config.map.height, config.output.previewMaxSize);
    const Bytes pixels = cells(g.width, g.height);
    Bytes held = 0;
    if (config.wants(OutputFile::PreviewPng)) held += pixels * 17;
    if (config.wants(OutputFile::HeightPng)) held += pixels * 16;
    return held == 0 ? 0 : held + pixels * 19 + kCodecState;
}

// The walkable mask and the "visited" raster of the flood fill, 1 bit per cell each with rows
// padded to 64 bits, and a stack of runs (a few per row on real maps).
Bytes regionMemory(const Config& config) {
    if (!needsRegions(config)) return 0;
    const Bytes rowWords = ceilDiv(Bytes(config.map.width), 64);
    return 2 * rowWords * 8 * Bytes(config.map.height) + 48 * Bytes(config.map.height);
}

Bytes writerMemory(const Config& config, int threads) {
    const std::pair<OutputFile, SampleFormat> tiffs[] = {
        {OutputFile::HeightTif, SampleFormat::Float32},
        {OutputFile::ClassesTif, SampleFormat::UInt8},
        {OutputFile::WalkableTif, SampleFormat::UInt8},
        {OutputFile::Height16Tif, SampleFormat::UInt16}};
    Bytes total = 0;
    for (const auto& [file, format] : tiffs)
        if (config.wants(file)) total += geoTiffMemory(config, format, threads);
    const Bytes w = Bytes(config.map.width);
    const Bytes band = Bytes(std::min(config.map.tileSizeCells, config.map.height));
    if (config.wants(OutputFile::Height16Png)) total += w * band * 2 + 4 * w + kCodecState;
    if (config.wants(OutputFile::HeightR16)) total += 2 * w;
    // height.exr: a band of float rows, and OpenEXR's block of 16 rows before and after ZIP.
    if (config.wants(OutputFile::HeightExr)) total += w * band * 4 + 2 * 16 * 4 * w + kCodecState;
    for (OutputFile file : {OutputFile::SplatPng, OutputFile::WeightPng}) {
        if (!config.wants(file)) continue;
        // A band of class rows, the rows the blending square spans, per class a count per
        // column and a weight per cell of one row, and each file's row and PNG codec.
        const auto classes = static_cast<Bytes>(config.terrain.classes.size());
        const Bytes files = file == OutputFile::SplatPng ? ceilDiv(classes, 4) : classes;
        const Bytes square = 2 * Bytes(config.output.splatBlendCells) + 1;
        total += w * (band + square) + w * classes * 3 + files * (4 * w + kCodecState);
    }
    if (config.wants(OutputFile::TiledMap)) {
        // A band of class rows (up to a chunk row and a tile row), one zlib stream, and the
        // chunk maps' files until commit.
        const TiledConfig& tiled = config.output.tiled;
        const Bytes chunk = tiled.chunkCells > 0 ? Bytes(tiled.chunkCells) : 0;
        const Bytes h = Bytes(config.map.height);
        const Bytes chunks = chunk > 0 ? ceilDiv(w, chunk) * ceilDiv(h, chunk) : 1;
        total += w * (band + chunk) + 4 * w + kCodecState + chunks * 4 * kKiB;
        // The terrain tileset's RGBA image, drawn whole before it is encoded.
        const std::int64_t p = tiled.tilePixels;
        const TilesetGrid grid = tilesetGrid(
            terrainTileCount(static_cast<std::int64_t>(config.terrain.classes.size()), p));
        total += Bytes(grid.columns * p) * Bytes(grid.rows * p) * 4;
    }
    return total;
}

// The coverage sample: height and moisture of up to about kCoverageSampleCells cells of the
// whole map, as doubles, with the copies resolving the thresholds makes.
Bytes coverageMemory(const Config& config, int threads) {
    if (!config.needsClasses() || !config.terrain.usesCoverage()) return 0;
    const Bytes sampled = std::min(cells(config.map.width, config.map.height),
                                   Bytes(2 * kCoverageSampleCells));
    return sampled * 40 + Bytes(threads) * 1024 * 2 * kRowsPerColumn;
}

std::vector<MemoryPart> memoryOf(const Config& config, const Config& generated, int threads) {
    // The program, its libraries and TBB's threads, as measured on small runs.
    constexpr Bytes kProgram = 16 * kMiB;
    MemoryTally m;
    m.add("program", kProgram);
    m.add("tiles in flight", tileMemory(generated, threads));
    m.add("previews", previewMemory(generated));
    m.add("walkable regions", regionMemory(generated));
    m.add("writers", writerMemory(generated, threads));
    m.add("coverage sample", coverageMemory(config, threads));
    return std::move(m.parts);
}

}  // namespace

std::uint64_t RunPlan::diskBytes() const noexcept {
    return std::accumulate(outputs.begin(), outputs.end(), Bytes(0),
                           [](Bytes sum, const PlannedOutput& o) { return sum + o.bytes; });
}

std::uint64_t RunPlan::certainDiskBytes() const noexcept {
    return std::accumulate(outputs.begin(), outputs.end(), Bytes(0),
                           [](Bytes sum, const PlannedOutput& o) {
                               return o.compressed ? sum : sum + o.bytes;
                           });
}

std::uint64_t RunPlan::memoryBytes() const noexcept {
    return std::accumulate(memory.begin(), memory.end(), Bytes(0),
                           [](Bytes sum, const MemoryPart& p) { return sum + p.bytes; });
}

RunPlan planRun(const Config& config, const MapWindow& window, int threads) {
    threads = std::max(threads, 1);
    const Config generated = windowConfig(config, window.cells);
    RunPlan plan;
    plan.mapWidth = config.map.width;
    plan.mapHeight = config.map.height;
    plan.window = window.cells;
    plan.tileSize = config.map.tileSizeCells;
    plan.tiles = TileLayout(generated.map).tileCount();
    plan.threads = threads;
    plan.directory = config.output.directory;
    for (OutputFile file : generated.output.files)
        plan.outputs.push_back(outputOf(generated, file));
    plan.memory = memoryOf(config, generated, threads);
    return plan;
}

}  // namespace terragrid

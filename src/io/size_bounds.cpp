// The bound helpers of size_bounds.hpp. Each bound errs high: --dry-run refuses a run that
// would not fit, so a bound below the truth could let a run fill the disk.

#include "io/size_bounds.hpp"

#include <algorithm>

#include "io/geotiff/overview_pyramid.hpp"
#include "io/sinks.hpp"
#include "terragrid/pipeline/generator.hpp"

namespace terragrid::bounds {

Bytes ceilDiv(Bytes a, Bytes b) { return (a + b - 1) / b; }

Bytes cells(std::int64_t width, std::int64_t height) { return Bytes(width) * Bytes(height); }

// Deflate falls back to stored blocks (5 bytes each, blocks of at least 16 KiB with zlib's
// default memory level) plus header and trailer. n / 1024 is four times zlib's own
// deflateBound for these parameters.
Bytes deflateBound(Bytes n) { return n + n / 1024 + 64; }

Bytes tiffTileBound(Bytes n, Compression compression) {
    switch (compression) {
        case Compression::None: return n;
        case Compression::Deflate: return deflateBound(n);
        case Compression::Lzw: return n + n / 2 + n / 1024 + 64;  // a 12-bit code per byte
        case Compression::Zstd: return n + n / 128 + 256;         // above ZSTD_compressBound
    }
    return n + n / 2 + 64;
}

// XML entities and JSON \u escapes take at most 6 bytes a character.
Bytes escaped(const std::string& text) { return 6 * Bytes(text.size()); }

Bytes classNamesBytes(const Config& config, Bytes perClass) {
    Bytes total = 0;
    // The run's table: with hydrology, lake and river come at its end (withWaterClasses).
    for (const TerrainClass& c : withWaterClasses(config, config.terrain.classes))
        total += perClass + escaped(c.name);
    return total;
}

// Every tile of every level at its full, padded size, the tile offset and byte count arrays
// (8 bytes each in BigTIFF), and the header, tags, colour map and GDAL metadata; an overview
// directory's tags and colour map for each level; and the scratch files the overviews (and a
// COG's full resolution) wait in until the file is assembled, which exist beside it at the end.
Bytes geoTiffBound(const Config& config, SampleFormat format, Bytes extra) {
    const GeoTiffOptions options = mapGeoTiffOptions(config, format);
    const auto t = static_cast<Bytes>(options.tileSize);
    const Bytes fullTiles =
        ceilDiv(Bytes(config.map.width), t) * ceilDiv(Bytes(config.map.height), t);
    Bytes overviewTiles = 0, levels = 0;
    if (config.output.layout != TiffLayout::Plain) {
        for (const RasterSize& level :
             overviewSizes(config.map.width, config.map.height, options.tileSize)) {
            overviewTiles += ceilDiv(Bytes(level.width), t) * ceilDiv(Bytes(level.height), t);
            ++levels;
        }
    }
    const Bytes scratchTiles =
        overviewTiles + (config.output.layout == TiffLayout::Cog ? fullTiles : 0);
    Bytes metadata = 4 * kKiB + extra;
    for (const auto& [name, value] : options.metadata)
        metadata += 64 + escaped(name) + escaped(value);
    const Bytes tile = tiffTileBound(t * t * bytesPerSample(format), config.output.compression);
    return (fullTiles + overviewTiles) * (tile + 16) + scratchTiles * tile + 8 * kKiB +
           levels * 4 * kKiB + metadata;
}

// A filter byte and the pixels per row, deflated as one stream, cut into IDAT chunks of 8 KiB
// (12 bytes of framing each), signature, IHDR and IEND.
Bytes pngBound(std::int64_t width, std::int64_t height, Bytes bytesPerPixel) {
    const Bytes z = deflateBound(Bytes(height) * (1 + Bytes(width) * bytesPerPixel));
    return z + z / 512 + 128;
}

// TIFF tiles waiting for cells (one at a time when the generator's tiles are the TIFF tiles,
// else up to a row of TIFF tiles per generator tile row and one more), the tiles being
// compressed on workers with their results (two per thread), and the tile offset arrays.
Bytes geoTiffMemory(const Config& config, SampleFormat format, int threads) {
    const GeoTiffOptions options = mapGeoTiffOptions(config, format);
    const auto t = static_cast<Bytes>(options.tileSize);
    const Bytes tile = t * t * bytesPerSample(format);
    const Bytes across = ceilDiv(Bytes(config.map.width), t);
    const Bytes tiles = across * ceilDiv(Bytes(config.map.height), t);
    const auto g = static_cast<Bytes>(std::min(config.map.tileSizeCells, config.map.height));
    const bool aligned = t == Bytes(config.map.tileSizeCells);
    const Bytes pending = aligned ? 2 : across * (ceilDiv(g, t) + 1) + 1;
    const Bytes encoded = tiffTileBound(tile, config.output.compression);
    const Bytes jobs = 2 * Bytes(threads) * (tile + encoded);
    const Bytes encoders = Bytes(threads) * (tile + kCodecState);
    // Encoded tiles that completed before the tiles ahead of them in row-major order wait for
    // them (none when the generator's tiles are the TIFF tiles): up to the rows of tiles one
    // generator tile row spans, and one serial encoder for them.
    const Bytes waiting = aligned ? 0 : across * ceilDiv(g, t) * (encoded + 64) + tile + kCodecState;
    return pending * tile + jobs + encoders + tiles * 16 + waiting;
}

Bytes overviewMemory(const Config& config, SampleFormat format, int threads) {
    if (config.output.layout == TiffLayout::Plain) return 0;
    const GeoTiffOptions options = mapGeoTiffOptions(config, format);
    const auto t = static_cast<Bytes>(options.tileSize);
    const Bytes tile = t * t * bytesPerSample(format);
    const auto g = static_cast<Bytes>(std::min(config.map.tileSizeCells, config.map.height));
    const Bytes fullTiles =
        ceilDiv(Bytes(config.map.width), t) * ceilDiv(Bytes(config.map.height), t);
    Bytes total = tile / 4 + tile + tiffTileBound(tile, config.output.compression) +
                  kCodecState + fullTiles * 24;  // a quarter, the encoder, the COG's index
    Bytes scale = 1;
    for (const RasterSize& level :
         overviewSizes(config.map.width, config.map.height, options.tileSize)) {
        scale *= 2;
        const Bytes across = ceilDiv(Bytes(level.width), t);
        const Bytes down = ceilDiv(Bytes(level.height), t);
        // Generator tiles no taller than a block complete the blocks in row-major order, and
        // every level then fills one row of tiles at a time; taller ones complete a band of
        // block rows at a time, which spans this many rows of the level plus the one it began.
        const Bytes rows = std::min(down, g <= t ? 1 : ceilDiv(g, t * scale) + 1);
        total += (across * rows + 1) * tile + across * down * 24 + tile;  // + index, a reduction
    }
    if (threads > 1 && config.output.compression != Compression::None) {
        const Bytes encoded = tiffTileBound(tile, config.output.compression);
        total += 2 * Bytes(threads) * (tile + encoded) + Bytes(threads) * (tile + kCodecState);
    }
    return total;
}

WriterMemory geoTiffWriterMemory(const Config& config, SampleFormat format, int threads) {
    return {MemoryGroup::Writers, geoTiffMemory(config, format, threads), 0,
            overviewMemory(config, format, threads)};
}

PlannedOutput plannedFile(const Config& config, OutputFile file, Bytes bytes, bool compressed) {
    return {file, outputPath(config, file), 1, bytes, compressed};
}

PlannedOutput plannedGeoTiff(const Config& config, OutputFile file, SampleFormat format,
                             Bytes extraMetadata) {
    return plannedFile(config, file, geoTiffBound(config, format, extraMetadata),
                       config.output.compression != Compression::None);
}

}  // namespace terragrid::bounds

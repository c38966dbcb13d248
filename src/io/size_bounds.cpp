// The bound helpers of size_bounds.hpp. Each bound errs high: --dry-run refuses a run that
// would not fit, so a bound below the truth could let a run fill the disk.

#include "io/size_bounds.hpp"

#include <algorithm>

#include "io/sinks.hpp"

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
    for (const TerrainClass& c : config.terrain.classes) total += perClass + escaped(c.name);
    return total;
}

// Every tile at its full, padded size, the tile offset and byte count arrays (8 bytes each in
// BigTIFF), and the header, tags, colour map and GDAL metadata.
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
    const Bytes jobs = 2 * Bytes(threads) * (tile + tiffTileBound(tile, config.output.compression));
    const Bytes encoders = Bytes(threads) * (tile + kCodecState);
    return pending * tile + jobs + encoders + tiles * 16;
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

#pragma once
// The building blocks of the output drivers' bounds (output_drivers.hpp): how large a codec's
// output can grow, how large a GeoTIFF or PNG of the map's rasters can get on disk, and what a
// GeoTIFF writer holds in memory. They follow the writers of src/io: the sizes come from the
// same options (TIFF tile size, output paths) the writers use. Internal to src/io.

#include <cstdint>
#include <string>

#include "io/geotiff/geotiff_writer.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/io/output_drivers.hpp"

namespace terragrid::bounds {

using Bytes = std::uint64_t;

inline constexpr Bytes kKiB = 1024;
inline constexpr Bytes kMiB = 1024 * kKiB;
/// libtiff, libpng and zlib keep about this much per stream being compressed.
inline constexpr Bytes kCodecState = 512 * kKiB;

/// ceil(a / b); b > 0.
Bytes ceilDiv(Bytes a, Bytes b);

/// width x height, as bytes at one byte a cell; both >= 0.
Bytes cells(std::int64_t width, std::int64_t height);

/// The largest zlib stream of `n` input bytes (stored blocks, header and trailer).
Bytes deflateBound(Bytes n);

/// The largest compressed TIFF tile of `n` bytes with `compression` (n when uncompressed).
Bytes tiffTileBound(Bytes n, Compression compression);

/// The most bytes `text` can take once escaped for XML or JSON.
Bytes escaped(const std::string& text);

/// The bytes the config's terrain class names take, escaped, plus `perClass` for each class.
Bytes classNamesBytes(const Config& config, Bytes perClass);

/// The largest tiled GeoTIFF of the map with samples of `format` that mapGeoTiffOptions
/// (sinks.hpp) describes, with `extra` bytes of metadata beyond its own.
Bytes geoTiffBound(const Config& config, SampleFormat format, Bytes extra);

/// The largest PNG of width x height pixels of `bytesPerPixel` (3: 8-bit RGB, 2: 16-bit grey)
/// as png_writer.hpp writes it.
Bytes pngBound(std::int64_t width, std::int64_t height, Bytes bytesPerPixel);

/// What one GeoTIFF writer of the map (mapGeoTiffOptions with `format`) holds with `threads`
/// worker threads compressing its tiles.
Bytes geoTiffMemory(const Config& config, SampleFormat format, int threads);

/// What one GeoTIFF's overview pyramid (overview_pyramid.hpp) holds while the tiles stream:
/// per level, the tiles waiting for quarters (a row of tiles, or a band as tall as the
/// generator's tiles reduced to that level and one row more), its encoder and the scratch
/// files' index; with `threads` > 1, the tiles being compressed on workers (two per thread)
/// and the workers' encoders.
/// 0 with output.layout plain.
Bytes overviewMemory(const Config& config, SampleFormat format, int threads = 1);

/// `format`'s GeoTIFF writer as a WriterMemory row: geoTiffMemory and overviewMemory.
WriterMemory geoTiffWriterMemory(const Config& config, SampleFormat format, int threads);

/// `file` as one file at outputPath (sinks.hpp) of at most `bytes`.
PlannedOutput plannedFile(const Config& config, OutputFile file, Bytes bytes, bool compressed);

/// `file` as one GeoTIFF of the map (geoTiffBound), compressed unless output.compression is
/// none.
PlannedOutput plannedGeoTiff(const Config& config, OutputFile file, SampleFormat format,
                             Bytes extraMetadata = 0);

}  // namespace terragrid::bounds

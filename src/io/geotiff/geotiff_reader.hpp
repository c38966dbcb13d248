#pragma once
// Reads the full-resolution cells of a tiled, single-band GeoTIFF that terragrid wrote, a band
// of rows at a time: how `terragrid mosaic --merge` takes the pieces' cells to write them
// again as one file. Keeps libtiff out of this header (geotiff_reader.cpp includes it).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "io/geotiff/geotiff_writer.hpp"

namespace terragrid {

class GeoTiffReader {
public:
    /// Opens `path` and checks its first directory against what the caller expects: a
    /// `width` x `height` tiled image of single samples of `format`. Throws OutputError
    /// ("reading '<path>': <cause>") when it cannot be opened or is not such an image.
    GeoTiffReader(const std::string& path, std::int64_t width, std::int64_t height,
                  SampleFormat format);
    ~GeoTiffReader();
    GeoTiffReader(const GeoTiffReader&) = delete;
    GeoTiffReader& operator=(const GeoTiffReader&) = delete;

    /// Rows [row0, row0 + rows) of the image into `out` (rows x width samples, row-major, host
    /// byte order). Reading rows in increasing order decodes each TIFF tile once: the last row
    /// of tiles decoded is kept (width x tile height samples). Throws OutputError.
    void readRows(std::int64_t row0, std::int64_t rows, std::byte* out);

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace terragrid

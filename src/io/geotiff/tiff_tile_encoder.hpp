#pragma once
// Compresses TIFF tiles away from the file they belong to, so tiles can be compressed on many
// threads and written in order with TIFFWriteRawTile (design.md, Performance).
//
// Each encoder owns a scratch TIFF in memory with the same encoding tags as the real file
// (setEncodingTags: sample format, tile size, compression, predictor) and runs libtiff's own
// TIFFWriteEncodedTile on it, catching the bytes libtiff writes. Reusing libtiff's codecs and
// predictors, rather than calling zlib or zstd and reimplementing the predictors, makes the
// bytes exactly those TIFFWriteEncodedTile would put in the real file, for every compression
// libtiff offers, including LZW, which has no library of its own. The scratch TIFF stores
// nothing: the encoder holds one tile's output, libtiff its own codec state. The predictor is
// the one step done here instead (tiff_predictor.hpp: libtiff's copies made it 8 % of the
// default run): the scratch TIFF then has none, and its codec sees the same bytes.

#include <cstddef>
#include <memory>
#include <vector>

#include "io/geotiff/geotiff_writer.hpp"

namespace terragrid {

class TiffTileEncoder {
public:
    /// An encoder for the tiles of rasters with `options`' tile size, sample format and
    /// compression (the rest is not read). Throws TiffError (libtiff_support.hpp) with
    /// libtiff's words when the scratch TIFF cannot be set up.
    explicit TiffTileEncoder(const GeoTiffOptions& options);
    ~TiffTileEncoder();

    TiffTileEncoder(const TiffTileEncoder&) = delete;
    TiffTileEncoder& operator=(const TiffTileEncoder&) = delete;

    /// Replaces `out` with the encoded form of one whole tile: `tile` holds tileSize x tileSize
    /// samples in host byte order (its `size` bytes); libtiff may apply the predictor in place,
    /// so its contents are spoiled. Throws TiffError with libtiff's words when encoding fails.
    /// Not thread-safe: one encoder per thread.
    void encode(std::byte* tile, std::size_t size, std::vector<std::byte>& out);

private:
    struct Scratch;  // the in-memory file behind the scratch TIFF
    std::unique_ptr<Scratch> m_scratch;
    SampleFormat m_format;
    std::size_t m_tileSize;
    bool m_predicts = false;          // applies the file's predictor before libtiff's codec
    std::vector<std::byte> m_planes;  // the floating-point predictor's row of byte planes
};

}  // namespace terragrid

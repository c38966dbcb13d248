#include "io/geotiff/tiff_tile_encoder.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "io/geotiff/libtiff_support.hpp"
#include "io/geotiff/tiff_predictor.hpp"

namespace terragrid {

// A file that exists only as a size and a position: libtiff writes the header, tiles and, at
// the end, a directory into it, and only the bytes of the tile being encoded are kept.
struct TiffTileEncoder::Scratch {
    TIFF* tif = nullptr;
    std::uint64_t position = 0;
    std::uint64_t size = 0;
    std::vector<std::byte>* capture = nullptr;  // while a tile is encoded
    std::uint64_t captureStart = 0;
    bool scattered = false;  // the tile's bytes did not go out as one run

    static Scratch& of(thandle_t handle) { return *static_cast<Scratch*>(handle); }

    static tmsize_t read(thandle_t, void*, tmsize_t) { return 0; }  // nothing to read back

    static tmsize_t write(thandle_t handle, void* data, tmsize_t count) {
        Scratch& s = of(handle);
        if (s.capture != nullptr) {
            if (s.capture->empty()) {
                s.captureStart = s.position;
            } else if (s.position != s.captureStart + s.capture->size()) {
                s.scattered = true;
            }
            const auto* bytes = static_cast<const std::byte*>(data);
            s.capture->insert(s.capture->end(), bytes, bytes + count);
        }
        s.position += static_cast<std::uint64_t>(count);
        s.size = std::max(s.size, s.position);
        return count;
    }

    static toff_t seek(thandle_t handle, toff_t offset, int whence) {
        Scratch& s = of(handle);
        switch (whence) {
            case SEEK_SET: s.position = offset; break;
            case SEEK_CUR: s.position += offset; break;
            case SEEK_END: s.position = s.size + offset; break;
            default: return static_cast<toff_t>(-1);
        }
        return s.position;
    }

    static int close(thandle_t) { return 0; }
    static toff_t sizeOf(thandle_t handle) { return of(handle).size; }
    static int map(thandle_t, void**, toff_t*) { return 0; }
    static void unmap(thandle_t, void*, toff_t) {}
};

TiffTileEncoder::TiffTileEncoder(const GeoTiffOptions& options)
    : m_scratch(std::make_unique<Scratch>()),
      m_format(options.sampleFormat),
      m_tileSize(static_cast<std::size_t>(options.tileSize)),
      m_predicts(options.compression != Compression::None && tiffPredictorApplies()) {
    clearTiffMessages();
    // BigTIFF ("8"), so the scratch file's offsets never overflow however many tiles pass
    // through it (a rewritten tile that grew goes to the end); little-endian ("l") like the
    // real file, so byte order and predictors give the same bytes.
    m_scratch->tif = TIFFClientOpen("tile encoder", "w8l", m_scratch.get(), Scratch::read,
                                    Scratch::write, Scratch::seek, Scratch::close,
                                    Scratch::sizeOf, Scratch::map, Scratch::unmap);
    if (m_scratch->tif == nullptr) throw TiffError(tiffFailureText("TIFFClientOpen"));
    try {
        // One tile's image: the codec and predictor work on a tile's rows, whatever the image.
        const auto side = static_cast<std::uint32_t>(options.tileSize);
        setEncodingTags(m_scratch->tif, options, side, side, false, !m_predicts);
    } catch (...) {
        TIFFClose(std::exchange(m_scratch->tif, nullptr));
        clearTiffMessages();
        throw;
    }
}

TiffTileEncoder::~TiffTileEncoder() {
    // Writes a directory into the scratch file, which stores nothing: cheap, and frees
    // everything libtiff holds.
    if (m_scratch->tif != nullptr) TIFFClose(m_scratch->tif);
    clearTiffMessages();
}

void TiffTileEncoder::encode(std::byte* tile, std::size_t size, std::vector<std::byte>& out) {
    out.clear();
    if (m_predicts) {
        if (size != m_tileSize * m_tileSize * bytesPerSample(m_format))
            throw TiffError("a tile of " + std::to_string(size) + " bytes is not a whole tile");
        applyTiffPredictor(m_format, tile, m_tileSize, m_planes);
    }
    // Only now, with nothing left that throws before it is reset: a capture left pointing at
    // `out` would take the bytes libtiff writes later (the directory TIFFClose writes in the
    // destructor) into a vector that may be gone.
    m_scratch->capture = &out;
    m_scratch->scattered = false;
    clearTiffMessages();
    const auto length = static_cast<tmsize_t>(size);
    const tmsize_t written = TIFFWriteEncodedTile(m_scratch->tif, 0, tile, length);
    m_scratch->capture = nullptr;
    if (written != length) throw TiffError(tiffFailureText("TIFFWriteEncodedTile"));
    // libtiff appends a tile's bytes in one run; anything else would mean the bytes caught are
    // not the tile, so refuse rather than write a broken file.
    if (m_scratch->scattered || out.empty()) {
        throw TiffError("libtiff did not write the encoded tile as one run of bytes");
    }
}

}  // namespace terragrid

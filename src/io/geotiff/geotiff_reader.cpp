#include "io/geotiff/geotiff_reader.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "io/geotiff/libtiff_support.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {

class GeoTiffReader::Impl {
public:
    Impl(const std::string& path, std::int64_t width, std::int64_t height, SampleFormat format)
        : m_path(path), m_width(width), m_height(height), m_sampleBytes(bytesPerSample(format)) {
        prepareLibTiff();
        clearTiffMessages();
        m_tif = TIFFOpen(path.c_str(), "r");
        if (!m_tif) fail(tiffFailureText("TIFFOpen"));
        std::uint32_t w = 0, h = 0, tw = 0, th = 0;
        std::uint16_t bits = 0, samples = 1, sampleFormat = SAMPLEFORMAT_UINT;
        TIFFGetField(m_tif, TIFFTAG_IMAGEWIDTH, &w);
        TIFFGetField(m_tif, TIFFTAG_IMAGELENGTH, &h);
        TIFFGetFieldDefaulted(m_tif, TIFFTAG_BITSPERSAMPLE, &bits);
        TIFFGetFieldDefaulted(m_tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
        TIFFGetFieldDefaulted(m_tif, TIFFTAG_SAMPLEFORMAT, &sampleFormat);
        const SampleFormatInfo& want = sampleFormatInfo(format);
        if (w != width || h != height)
            fail("it is " + std::to_string(w) + " x " + std::to_string(h) + " cells, not " +
                 std::to_string(width) + " x " + std::to_string(height) + " as its manifest says");
        if (!TIFFIsTiled(m_tif) || !TIFFGetField(m_tif, TIFFTAG_TILEWIDTH, &tw) ||
            !TIFFGetField(m_tif, TIFFTAG_TILELENGTH, &th))
            fail("it is not a tiled image");
        if (bits != want.bitsPerSample || samples != 1 || sampleFormat != want.tiffSampleFormat)
            fail("its samples are not those of the raster terragrid writes under its name");
        m_tileWidth = tw;
        m_tileHeight = th;
        m_tilesAcross = (width + tw - 1) / tw;
        m_tileBytes = static_cast<std::size_t>(TIFFTileSize(m_tif));
        m_band.resize(static_cast<std::size_t>(width * th) * m_sampleBytes);
        m_tile.resize(m_tileBytes);
    }
    ~Impl() {
        if (m_tif) TIFFClose(m_tif);
    }

    void readRows(std::int64_t row0, std::int64_t rows, std::byte* out) {
        if (row0 < 0 || rows < 0 || row0 + rows > m_height)
            fail("rows " + std::to_string(row0) + ".." + std::to_string(row0 + rows) +
                 " lie outside the image");
        const std::size_t rowBytes = static_cast<std::size_t>(m_width) * m_sampleBytes;
        for (std::int64_t row = row0; row < row0 + rows; ++row) {
            const std::int64_t tileRow = row / m_tileHeight;
            if (tileRow != m_bandTileRow) decodeTileRow(tileRow);
            const std::int64_t inBand = row - tileRow * m_tileHeight;
            std::memcpy(out + static_cast<std::size_t>(row - row0) * rowBytes,
                        m_band.data() + static_cast<std::size_t>(inBand) * rowBytes, rowBytes);
        }
    }

private:
    // Every tile of tile row `tileRow`, decoded (predictor undone, host byte order) into
    // m_band, row-major over the image's width.
    void decodeTileRow(std::int64_t tileRow) {
        const std::int64_t rows = std::min(m_tileHeight, m_height - tileRow * m_tileHeight);
        for (std::int64_t tx = 0; tx < m_tilesAcross; ++tx) {
            clearTiffMessages();
            const auto index = static_cast<std::uint32_t>(tileRow * m_tilesAcross + tx);
            if (TIFFReadEncodedTile(m_tif, index, m_tile.data(),
                                    static_cast<tmsize_t>(m_tileBytes)) < 0)
                fail(tiffFailureText("TIFFReadEncodedTile"));
            const std::int64_t cols = std::min(m_tileWidth, m_width - tx * m_tileWidth);
            for (std::int64_t r = 0; r < rows; ++r)
                std::memcpy(m_band.data() + (static_cast<std::size_t>(r * m_width +
                                                                      tx * m_tileWidth)) *
                                                m_sampleBytes,
                            m_tile.data() + static_cast<std::size_t>(r * m_tileWidth) *
                                                m_sampleBytes,
                            static_cast<std::size_t>(cols) * m_sampleBytes);
        }
        m_bandTileRow = tileRow;
    }

    [[noreturn]] void fail(const std::string& cause) const {
        throw OutputError("reading '" + m_path + "': " + cause);
    }

    std::string m_path;
    std::int64_t m_width, m_height;
    std::size_t m_sampleBytes;
    TIFF* m_tif = nullptr;
    std::int64_t m_tileWidth = 0, m_tileHeight = 0, m_tilesAcross = 0;
    std::size_t m_tileBytes = 0;
    std::vector<std::byte> m_band;  // the tile row m_bandTileRow, decoded
    std::vector<std::byte> m_tile;
    std::int64_t m_bandTileRow = -1;
};

GeoTiffReader::GeoTiffReader(const std::string& path, std::int64_t width, std::int64_t height,
                             SampleFormat format)
    : m_impl(std::make_unique<Impl>(path, width, height, format)) {}

GeoTiffReader::~GeoTiffReader() = default;

void GeoTiffReader::readRows(std::int64_t row0, std::int64_t rows, std::byte* out) {
    m_impl->readRows(row0, rows, out);
}

}  // namespace terragrid

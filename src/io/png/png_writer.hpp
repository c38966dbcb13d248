#pragma once
// A PNG written with libpng into an AtomicFile (design.md principle 7): 8-bit RGB pictures
// (previews) and 16-bit greyscale heightmaps, either whole or row band by row band, so a
// heightmap never has to be held whole (design.md principle 4).
//
// The file holds IHDR, IDAT and IEND only: no time stamp, gamma, colour space or text chunks,
// so identical pixels give identical bytes, and 16-bit grey values are plain linear numbers.
// Rows are filtered and compressed in pieces of fixed size on TBB workers of the caller's
// arena, joined in order into one zlib stream: the bytes do not depend on the thread count.
// This header keeps libpng out: png_writer.cpp is the only file that includes png.h.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/transaction/atomic_file.hpp"

namespace terragrid {

/// What a PNG's pixels are.
enum class PngFormat : std::uint8_t {
    Rgb8,    ///< 3 bytes per pixel: red, green, blue
    Grey16,  ///< one 16-bit grey sample per pixel (stored big-endian, as PNG requires)
    Rgba8,   ///< 4 bytes per pixel: red, green, blue, alpha (not premultiplied)
    Grey8,   ///< one 8-bit grey sample per pixel
};

/// Bytes per pixel of an 8-bit format as writeRows takes it (Grey16: 2, in host order).
std::size_t pngBytesPerPixel(PngFormat format) noexcept;

/// A PNG of these pixels (`size` bytes: width x height pixels of `format`, 8-bit, row-major),
/// encoded in memory on the calling thread: the explorer's tiles. PngWriter's chunks and
/// Paeth-filtered rows, but its image data one zlib stream made by libdeflate (twice as fast as
/// the batch writer's zlib pieces, the same size): the same pixels, not the same bytes. Made for
/// pictures a tile's size: the filtered picture and its stream are held whole, in buffers the
/// calling thread keeps for its next call (PngWriter streams larger pictures).
/// Throws std::invalid_argument for Grey16, a size outside 1..2^31-1 or `size` of the wrong
/// length; std::runtime_error with libpng's words when encoding fails. Thread-safe.
std::vector<std::uint8_t> encodePng(std::uint32_t width, std::uint32_t height,
                                    const std::uint8_t* pixels, std::size_t size,
                                    PngFormat format);

/// One colour of an indexed picture: red, green, blue and alpha (255 opaque).
struct PngColour {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

/// encodePng of an indexed picture (PNG colour type 3, 8 bits): `indices` holds width x height
/// bytes, each an entry of `palette` (1 to 256 colours; their alphas below 255 go into a tRNS
/// chunk), its rows unfiltered. For pictures of few colours: a byte per pixel to deflate
/// instead of three or four (a class tile of the default map: 3 KB).
/// Throws std::invalid_argument for a size outside 1..2^31-1, `size` of the wrong length, an
/// empty palette, more than 256 colours or an index beyond them; std::runtime_error as
/// encodePng. Thread-safe.
std::vector<std::uint8_t> encodePalettePng(std::uint32_t width, std::uint32_t height,
                                           const std::uint8_t* indices, std::size_t size,
                                           const std::vector<PngColour>& palette);

/// A picture of at most 256 colours as indices into them.
struct IndexedPicture {
    std::vector<std::uint8_t> indices;  ///< a pixel's entry of the palette
    std::vector<PngColour> palette;     ///< the colours in the order the pixels first show them
};

/// `pixels` RGBA pixels (4 bytes each) as an IndexedPicture of the same colours, or nothing
/// when they have more than 256.
std::optional<IndexedPicture> indexColours(const std::uint8_t* rgba, std::size_t pixels);

/// Writes one PNG. Not thread-safe: use it from one thread at a time. Every failure throws
/// OutputError("writing '<path>': <cause>"); an uncommitted writer's destructor removes its
/// temporary file, leaving any older file at `path` as it was.
///
/// Either write() the whole picture, or start(), writeRows() until every row is in, close().
class PngWriter {
public:
    /// Creates the temporary file beside `path`. Throws OutputError when it cannot.
    explicit PngWriter(std::string path);
    ~PngWriter();

    PngWriter(const PngWriter&) = delete;
    PngWriter& operator=(const PngWriter&) = delete;

    /// Encodes a whole 8-bit picture into the temporary file: `pixels` holds width x height
    /// pixels of `format` (Rgb8 by default: 3 bytes, red, green, blue), row-major. Call once
    /// instead of start/writeRows/close. Throws std::invalid_argument for Grey16, a size
    /// outside 1..2^31-1 or `pixels` of the wrong length, OutputError with libpng's words (or
    /// the system's) when encoding or writing fails.
    void write(std::uint32_t width, std::uint32_t height, const std::vector<std::uint8_t>& pixels,
               PngFormat format = PngFormat::Rgb8);

    /// Writes the PNG header for a width x height picture of `format`; rows follow through
    /// writeRows. Call once. Throws std::invalid_argument for a size outside 1..2^31-1,
    /// OutputError when encoding or writing fails.
    void start(std::uint32_t width, std::uint32_t height, PngFormat format);

    /// Encodes the next `rows` rows of an 8-bit (Rgb8, Rgba8, Grey8) picture: width x rows
    /// pixels of pngBytesPerPixel bytes each. Throws std::logic_error before start(), for
    /// Grey16 or for more rows than the picture has; OutputError when encoding or writing fails.
    void writeRows(const std::uint8_t* pixels, std::uint32_t rows);
    /// The same for a Grey16 picture: width x rows samples in host byte order.
    void writeRows(const std::uint16_t* grey, std::uint32_t rows);

    /// Finishes the PNG after its last row and flushes it into the temporary file; commit()
    /// publishes it. Throws std::logic_error when rows are missing, OutputError when writing
    /// fails.
    void close();

    /// Renames the written file onto path(). Call after write() or close().
    void commit();

    /// The file this writer produces.
    const std::string& path() const noexcept { return m_file.targetPath(); }
    /// CPU seconds TBB workers spent filtering and compressing this picture (valid after
    /// close()), for the run's timings.
    double parallelCpuSeconds() const noexcept { return m_parallelCpuSeconds; }

private:
    enum class State : std::uint8_t { Open, Started, Written, Committed, Failed };
    class Encoder;  // libpng's state and the pieces in flight, kept out of this header

    void checkRows(bool sixteenBit, std::uint32_t rows) const;
    void startPiece(bool first);
    void rowAdded();
    void submitPiece(std::vector<std::byte> piece);
    template <typename Step>
    void runPieces(Step step);
    [[noreturn]] void fail(const std::string& cause);
    [[noreturn]] void failEncoder();

    AtomicFile m_file;
    std::unique_ptr<Encoder> m_encoder;
    State m_state = State::Open;
    double m_parallelCpuSeconds = 0;
};

}  // namespace terragrid

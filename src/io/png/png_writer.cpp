#include "io/png/png_writer.hpp"

#include <libdeflate.h>
#include <png.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "io/geotiff/tile_job_queue.hpp"
#include "io/png/png_filter_kernels.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

// With Z_RLE the level only has to be above 0 (0 stores); 6 is zlib's default.
constexpr int kPngZlibLevel = 6;

// encodePng's libdeflate level: 1, its fastest that still searches for matches, gives the
// size zlib's Z_RLE gives the batch pictures (a tile of the default map: 71 KB either way).
constexpr int kTileDeflateLevel = 1;

// The picture's zlib stream is made of pieces of about this many bytes of filtered rows, each
// compressed on its own (a fresh deflate state, so pieces can be compressed on TBB workers in
// parallel) and ended with a sync flush, so the pieces joined give one valid stream; their
// Adler-32 sums are combined with adler32_combine. The rows in a piece depend on the picture's
// width and format alone, never on threads or tiles, so the bytes are the same for any thread
// count. Z_RLE only looks one byte back, so restarting the state costs next to nothing in size.
constexpr std::size_t kPieceBytes = 256 * 1024;

// A piece's raw buffer as the job gets it: one flag byte, the row above the piece (zeros above
// the first row: Paeth then reads 0 for "up"), then the piece's rows.
constexpr std::byte kFirstPiece{1};
constexpr std::byte kLastPiece{2};

// A piece's result: its Adler-32 and raw length (big-endian, 4 bytes each) for the serial
// side to combine, then its deflate bytes (an IDAT chunk's data).
constexpr std::size_t kPieceHeader = 8;

/// PNG's Paeth filter (type 4) on `rows` rows of `rowBytes` bytes below `above`, each output
/// row led by its filter-type byte. `bpp`: bytes per pixel, the distance to the left neighbour.
void paethFilter(const std::uint8_t* above, const std::uint8_t* rows, std::size_t count,
                 std::size_t rowBytes, std::size_t bpp, std::uint8_t* out) {
    for (std::size_t y = 0; y < count; ++y) {
        const std::uint8_t* up = y == 0 ? above : rows + (y - 1) * rowBytes;
        std::uint8_t* filtered = out + y * (rowBytes + 1);
        filtered[0] = 4;
        png_filter::paethRow(rows + y * rowBytes, up, rowBytes, bpp, filtered + 1);
    }
}

void putBigEndian(std::uint32_t v, std::byte* out) noexcept {
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(v >> (24 - 8 * i));
}

std::uint32_t getBigEndian(const std::byte* in) noexcept {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | std::to_integer<std::uint32_t>(in[i]);
    return v;
}

}  // namespace

// Not in the anonymous namespace: PngWriter::Encoder, a type with a name outside this file,
// holds these two (GCC's -Wsubobject-linkage).
namespace png_writing {

/// One thread's deflate state, reset for every piece (allocating it costs more than a piece).
class PieceDeflater {
public:
    PieceDeflater() {
        // Raw deflate (negative window bits): the zlib header and Adler-32 trailer are written
        // once for the whole picture.
        if (deflateInit2(&m_z, kPngZlibLevel, Z_DEFLATED, -15, 8, Z_RLE) != Z_OK)
            throw std::runtime_error("zlib could not start a deflate stream");
    }
    ~PieceDeflater() { deflateEnd(&m_z); }
    PieceDeflater(const PieceDeflater&) = delete;
    PieceDeflater& operator=(const PieceDeflater&) = delete;

    /// Appends `filtered` deflated to `out`: ended by a sync flush (byte-aligned, not final)
    /// or, for the last piece, as the stream's final block.
    void deflatePiece(std::vector<std::uint8_t>& filtered, bool last, std::vector<std::byte>& out) {
        if (deflateReset(&m_z) != Z_OK) throw std::runtime_error("zlib could not reset");
        const std::size_t at = out.size();
        // deflateBound covers Z_FINISH; a sync flush adds an empty stored block (5 bytes).
        out.resize(at + deflateBound(&m_z, static_cast<uLong>(filtered.size())) + 16);
        m_z.next_in = filtered.data();
        m_z.avail_in = static_cast<uInt>(filtered.size());
        m_z.next_out = reinterpret_cast<Bytef*>(out.data() + at);
        m_z.avail_out = static_cast<uInt>(out.size() - at);
        const int result = deflate(&m_z, last ? Z_FINISH : Z_SYNC_FLUSH);
        if (result != (last ? Z_STREAM_END : Z_OK) || m_z.avail_in != 0)
            throw std::runtime_error("zlib could not compress a piece of the picture");
        out.resize(out.size() - m_z.avail_out);
    }

private:
    z_stream m_z{};
};

// What the libpng callbacks share with the encoder. Trivially destructible on purpose:
// libpng reports errors by longjmp, which skips destructors, so nothing that needs one may
// live in the frames it jumps over.
struct PngContext {
    int fd = -1;
    std::vector<std::uint8_t>* memory = nullptr;  ///< encodePng: the bytes go here, not to fd
    char error[512] = {};
    char warning[512] = {};
    // The encoded bytes are gathered here so the file gets a few large writes instead of
    // three small ones per chunk.
    std::size_t buffered = 0;
    unsigned char buffer[64 * 1024] = {};
};

}  // namespace png_writing

namespace {

using png_writing::PieceDeflater;
using png_writing::PngContext;

/// Appends to the context's memory, or writes to its file.
bool emit(PngContext& context, const void* data, std::size_t size) {
    if (context.memory == nullptr) return writeFully(context.fd, data, size);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    context.memory->insert(context.memory->end(), bytes, bytes + size);
    return true;
}

bool flushBuffer(PngContext& context) {
    const bool ok = emit(context, context.buffer, context.buffered);
    context.buffered = 0;
    return ok;
}

void onPngError(png_structp png, png_const_charp message) {
    auto* context = static_cast<PngContext*>(png_get_error_ptr(png));
    std::snprintf(context->error, sizeof context->error, "%s", message);
    png_longjmp(png, 1);
}

// libpng's warnings are not failures, but some errors come after a warning that says what
// was wrong ("Invalid IHDR data" after "Image width exceeds user limit in IHDR"): the first
// is kept to go with the error.
void onPngWarning(png_structp png, png_const_charp message) {
    auto* context = static_cast<PngContext*>(png_get_error_ptr(png));
    if (context->warning[0] == '\0') {
        std::snprintf(context->warning, sizeof context->warning, "%s", message);
    }
}

void onPngWrite(png_structp png, png_bytep data, std::size_t size) {
    auto* context = static_cast<PngContext*>(png_get_io_ptr(png));
    if (context->buffered + size > sizeof context->buffer && !flushBuffer(*context)) {
        png_error(png, std::strerror(errno));
    }
    if (size > sizeof context->buffer) {
        if (!emit(*context, data, size)) png_error(png, std::strerror(errno));
        return;
    }
    std::memcpy(context->buffer + context->buffered, data, size);
    context->buffered += size;
}

void onPngFlush(png_structp) {}  // the file is flushed once, by AtomicFile::commit

// The steps of encoding that call libpng, each behind its own setjmp: libpng reports errors by longjmp to
// the most recent setjmp, so every call into libpng needs one in a frame that is still active.
// They return false after a libpng error, whose words are then in the context's error. None
// holds an object with a destructor (see PngContext), and nothing they change after setjmp is
// read after the jump.

// Creates libpng's structs (into `png` and `info`, which the caller frees whatever happens)
// and writes the signature and IHDR.
int pngColourType(PngFormat format) noexcept {
    switch (format) {
        case PngFormat::Rgb8: return PNG_COLOR_TYPE_RGB;
        case PngFormat::Rgba8: return PNG_COLOR_TYPE_RGB_ALPHA;
        case PngFormat::Grey8:
        case PngFormat::Grey16: break;
    }
    return PNG_COLOR_TYPE_GRAY;
}

// `palette`: an indexed picture's colours (PLTE, and tRNS up to its last colour that is not
// opaque), `format` then ignored; null for the other formats.
bool startPng(PngContext& context, png_structp& png, png_infop& info, std::uint32_t width,
              std::uint32_t height, PngFormat format, const std::vector<PngColour>* palette = nullptr) {
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, onPngError, onPngWarning);
    if (png != nullptr) info = png_create_info_struct(png);
    if (png == nullptr || info == nullptr) {
        std::snprintf(context.error, sizeof context.error, "libpng could not start");
        return false;
    }
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_write_fn(png, &context, onPngWrite, onPngFlush);
    png_set_IHDR(png, info, width, height, format == PngFormat::Grey16 ? 16 : 8,
                 palette ? PNG_COLOR_TYPE_PALETTE : pngColourType(format), PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette) {
        std::vector<png_color> colours;
        std::vector<png_byte> alphas;
        for (const PngColour& c : *palette) {
            colours.push_back({c.r, c.g, c.b});
            alphas.push_back(c.a);
        }
        png_set_PLTE(png, info, colours.data(), static_cast<int>(colours.size()));
        while (!alphas.empty() && alphas.back() == 255) alphas.pop_back();
        if (!alphas.empty())
            png_set_tRNS(png, info, alphas.data(), static_cast<int>(alphas.size()), nullptr);
    }
    // libpng writes the signature and IHDR (and checks them: its size limits and words stay
    // the errors users see); the rows are filtered and compressed here, in pieces that TBB
    // workers compress in parallel (kPieceBytes), and reach libpng as ready IDAT chunks.
    // The filter and zlib settings were chosen for speed (design.md, Performance): libpng's
    // default tries all five filters on every row and then runs zlib's lazy matcher, about
    // 2-4 s of CPU for a 4096 x 4096 16-bit heightmap or a 2048 x 2048 preview. Paeth alone is
    // the filter the adaptive choice picks on nearly every row of these pictures, and
    // run-length matching (distance 1 only) is what deflate finds in their filtered rows
    // anyway: height16.png comes out the same size, the previews 3-8 % larger, each 5-8 times
    // faster (measured in the commit that chose this). The pixels are the same whatever the
    // choice.
    png_write_info(png, info);
    return true;
}

// One chunk (length, name, data, CRC) through libpng's writer: IDAT pieces and IEND.
bool writeChunk(png_structp png, const char* name, const std::byte* data, std::size_t size) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_write_chunk(png, reinterpret_cast<png_const_bytep>(name),
                    reinterpret_cast<png_const_bytep>(data), size);
    return true;
}

/// Filters and deflates one piece (see kFirstPiece, kPieceHeader): `raw` is its flag byte,
/// the row above it and its rows of `rowBytes` bytes of `bpp`-byte pixels.
void encodePiece(const std::vector<std::byte>& raw, std::size_t rowBytes, std::size_t bpp,
                 PieceDeflater& deflater, std::vector<std::byte>& out) {
    const std::byte flags = raw[0];
    const auto* above = reinterpret_cast<const std::uint8_t*>(raw.data() + 1);
    const std::size_t rows = (raw.size() - 1) / rowBytes - 1;
    std::vector<std::uint8_t> filtered((rowBytes + 1) * rows);
    paethFilter(above, above + rowBytes, rows, rowBytes, bpp, filtered.data());
    out.assign(kPieceHeader, std::byte{0});
    putBigEndian(static_cast<std::uint32_t>(
                     adler32(1, filtered.data(), static_cast<uInt>(filtered.size()))),
                 out.data());
    putBigEndian(static_cast<std::uint32_t>(filtered.size()), out.data() + 4);
    // The zlib header (deflate, 32 KiB window, no dictionary, "fastest" level flag, as zlib
    // writes it for Z_RLE) leads the first piece.
    if ((flags & kFirstPiece) != std::byte{0})
        out.insert(out.end(), {std::byte{0x78}, std::byte{0x01}});
    deflater.deflatePiece(filtered, (flags & kLastPiece) != std::byte{0}, out);
}

/// One encoded piece as an IDAT chunk, its Adler-32 combined into `adler`. False when libpng
/// failed (its words are in the context).
bool writePiece(png_structp png, const std::vector<std::byte>& bytes, uLong& adler) {
    const std::uint32_t pieceAdler = getBigEndian(bytes.data());
    const std::uint32_t length = getBigEndian(bytes.data() + 4);
    adler = adler32_combine(adler, pieceAdler, static_cast<z_off_t>(length));
    return writeChunk(png, "IDAT", bytes.data() + kPieceHeader, bytes.size() - kPieceHeader);
}

/// The stream's Adler-32 in an IDAT of its own, then IEND.
bool writeTrailer(png_structp png, uLong adler) {
    std::byte trailer[4];
    putBigEndian(static_cast<std::uint32_t>(adler), trailer);
    return writeChunk(png, "IDAT", trailer, sizeof trailer) && writeChunk(png, "IEND", nullptr, 0);
}

/// Rows per piece of a picture with rows of `rowBytes` bytes (kPieceBytes).
std::uint32_t rowsPerPiece(std::size_t rowBytes, std::uint32_t height) {
    return static_cast<std::uint32_t>(
        std::clamp<std::size_t>(kPieceBytes / (rowBytes + 1), 1, height));
}

/// Whether `width`, `height` and `bytes` describe an 8-bit picture of `format` PNG can hold.
bool validPicture(std::uint32_t width, std::uint32_t height, std::size_t bytes,
                  PngFormat format) {
    constexpr std::uint32_t kLargest = 0x7fffffff;  // PNG's limit on either side
    return format != PngFormat::Grey16 && width != 0 && height != 0 && width <= kLargest &&
           height <= kLargest && bytes == std::size_t{width} * height * pngBytesPerPixel(format);
}

}  // namespace

// libpng's state for one picture, alive from start() to close(), and the pieces of its zlib
// stream being compressed.
class PngWriter::Encoder {
public:
    Encoder(std::uint32_t width, std::uint32_t height, PngFormat format)
        : width(width),
          height(height),
          format(format),
          bpp(format == PngFormat::Grey16 ? 2 : pngBytesPerPixel(format)),
          rowBytes(std::size_t{width} * bpp),
          rowsPerPiece(terragrid::rowsPerPiece(rowBytes, height)) {}
    ~Encoder() {
        pieces.reset();  // waits for the jobs: they use this encoder's deflaters
        if (png != nullptr) png_destroy_write_struct(&png, info != nullptr ? &info : nullptr);
    }
    Encoder(const Encoder&) = delete;
    Encoder& operator=(const Encoder&) = delete;

    PngContext context;
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::uint32_t width;
    std::uint32_t height;
    PngFormat format;
    std::size_t bpp;       // bytes per pixel as stored
    std::size_t rowBytes;  // one row as stored (Grey16 big-endian)
    std::uint32_t rowsPerPiece;
    std::uint32_t rowsWritten = 0;
    std::vector<std::byte> piece;  // flag byte, the row above, the rows so far
    std::uint32_t pieceRows = 0;
    uLong adler = 1;  // Adler-32 of the filtered rows written so far (adler32's start)
    bool chunkFailed = false;
    tbb::enumerable_thread_specific<std::unique_ptr<PieceDeflater>> deflaters;
    std::optional<TileJobQueue> pieces;

    /// A worker's job: filters and deflates one piece (see kFirstPiece, kPieceHeader).
    void encodePiece(std::vector<std::byte>& raw, std::vector<std::byte>& out) {
        std::unique_ptr<PieceDeflater>& deflater = deflaters.local();
        if (!deflater) deflater = std::make_unique<PieceDeflater>();
        terragrid::encodePiece(raw, rowBytes, bpp, *deflater, out);
    }

    /// In order, on the writer's thread: one IDAT chunk per piece.
    void writePiece(const std::vector<std::byte>& bytes) {
        if (!terragrid::writePiece(png, bytes, adler)) {
            chunkFailed = true;
            throw std::runtime_error("libpng failed");  // the caller reads the context's words
        }
    }
};

std::size_t pngBytesPerPixel(PngFormat format) noexcept {
    switch (format) {
        case PngFormat::Rgb8: return 3;
        case PngFormat::Rgba8: return 4;
        case PngFormat::Grey8: return 1;
        case PngFormat::Grey16: break;
    }
    return 2;
}

PngWriter::PngWriter(std::string path) : m_file(std::move(path)) {}

PngWriter::~PngWriter() = default;

void PngWriter::write(std::uint32_t width, std::uint32_t height,
                      const std::vector<std::uint8_t>& pixels, PngFormat format) {
    if (m_state != State::Open) {
        throw std::logic_error("PngWriter::write called twice for '" + path() + "'");
    }
    if (!validPicture(width, height, pixels.size(), format)) {
        throw std::invalid_argument("PngWriter::write: " + std::to_string(pixels.size()) +
                                    " bytes for a " + std::to_string(width) + "x" +
                                    std::to_string(height) + " " +
                                    std::to_string(pngBytesPerPixel(format)) +
                                    "-byte-per-pixel picture in '" + path() + "'");
    }
    start(width, height, format);
    writeRows(pixels.data(), height);
    close();
}

void PngWriter::start(std::uint32_t width, std::uint32_t height, PngFormat format) {
    if (m_state != State::Open) {
        throw std::logic_error("PngWriter::start called twice for '" + path() + "'");
    }
    constexpr std::uint32_t kLargest = 0x7fffffff;  // PNG's limit on either side
    if (width == 0 || height == 0 || width > kLargest || height > kLargest) {
        throw std::invalid_argument("PngWriter::start: a " + std::to_string(width) + "x" +
                                    std::to_string(height) + " picture in '" + path() +
                                    "' needs sides of 1..2^31-1 pixels");
    }
    // On the heap: the context's output buffer is large.
    m_encoder = std::make_unique<Encoder>(width, height, format);
    m_encoder->context.fd = m_file.fd();
    m_state = State::Started;
    if (!startPng(m_encoder->context, m_encoder->png, m_encoder->info, width, height, format)) {
        failEncoder();
    }
    // Twice the arena's threads in flight keeps every worker busy while the caller adds rows;
    // memory: that many pieces of kPieceBytes.
    const auto inFlight = static_cast<std::size_t>(2 * tbb::this_task_arena::max_concurrency());
    Encoder* encoder = m_encoder.get();
    m_encoder->pieces.emplace(
        std::max<std::size_t>(inFlight, 2),
        [encoder](std::vector<std::byte>& raw, std::vector<std::byte>& out) {
            encoder->encodePiece(raw, out);
        },
        [encoder](std::int64_t, const std::vector<std::byte>& bytes) {
            encoder->writePiece(bytes);
        });
    startPiece(true);
}

void PngWriter::checkRows(bool sixteenBit, std::uint32_t rows) const {
    if (m_state != State::Started) {
        throw std::logic_error("PngWriter::writeRows for '" + path() +
                               "' outside start() .. close() or after a failure");
    }
    if ((m_encoder->format == PngFormat::Grey16) != sixteenBit) {
        throw std::logic_error("PngWriter::writeRows: rows of the wrong format for '" + path() +
                               "'");
    }
    if (rows > m_encoder->height - m_encoder->rowsWritten) {
        throw std::logic_error("PngWriter::writeRows: " + std::to_string(rows) +
                               " rows more than the " +
                               std::to_string(m_encoder->height - m_encoder->rowsWritten) +
                               " left in '" + path() + "'");
    }
}

void PngWriter::writeRows(const std::uint8_t* pixels, std::uint32_t rows) {
    checkRows(false, rows);
    const std::size_t rowBytes = m_encoder->rowBytes;
    for (std::uint32_t y = 0; y < rows; ++y) {
        std::vector<std::byte>& piece = m_encoder->piece;
        const auto* row = reinterpret_cast<const std::byte*>(pixels + y * rowBytes);
        piece.insert(piece.end(), row, row + rowBytes);
        rowAdded();
    }
}

void PngWriter::writeRows(const std::uint16_t* grey, std::uint32_t rows) {
    checkRows(true, rows);
    const std::size_t width = m_encoder->width;
    for (std::uint32_t y = 0; y < rows; ++y) {
        std::vector<std::byte>& piece = m_encoder->piece;
        const std::size_t at = piece.size();
        piece.resize(at + m_encoder->rowBytes);
        // Byte by byte (big-endian, as PNG stores it): the same bytes on every host.
        const std::uint16_t* row = grey + y * width;
        std::byte* out = piece.data() + at;
        for (std::size_t x = 0; x < width; ++x) {
            out[2 * x] = static_cast<std::byte>(row[x] >> 8);
            out[2 * x + 1] = static_cast<std::byte>(row[x] & 0xff);
        }
        rowAdded();
    }
}

// A new piece's buffer: its flags and the row above it (zeros above the picture).
void PngWriter::startPiece(bool first) {
    Encoder& e = *m_encoder;
    std::vector<std::byte> previous = std::move(e.piece);
    e.piece = e.pieces->takeBuffer();
    e.piece.assign(1, first ? kFirstPiece : std::byte{0});
    if (first)
        e.piece.resize(1 + e.rowBytes, std::byte{0});
    else
        e.piece.insert(e.piece.end(), previous.end() - static_cast<std::ptrdiff_t>(e.rowBytes),
                       previous.end());
    e.pieceRows = 0;
    if (!first) submitPiece(std::move(previous));
}

void PngWriter::rowAdded() {
    Encoder& e = *m_encoder;
    ++e.rowsWritten;
    ++e.pieceRows;
    if (e.rowsWritten == e.height) {
        e.piece[0] |= kLastPiece;
        submitPiece(std::move(e.piece));
        e.piece.clear();
    } else if (e.pieceRows == e.rowsPerPiece) {
        startPiece(false);
    }
}

void PngWriter::submitPiece(std::vector<std::byte> piece) {
    runPieces([&] { m_encoder->pieces->submit(0, std::move(piece)); });
}

// A piece's failure (zlib, or libpng writing its chunk) becomes this file's OutputError.
template <typename Step>
void PngWriter::runPieces(Step step) {
    try {
        step();
    } catch (const std::runtime_error& e) {
        if (m_encoder->chunkFailed) failEncoder();
        fail(e.what());
    }
}

void PngWriter::close() {
    if (m_state != State::Started) {
        throw std::logic_error("PngWriter::close for '" + path() +
                               "' without start() or after a failure");
    }
    if (m_encoder->rowsWritten != m_encoder->height) {
        throw std::logic_error("PngWriter::close: only " +
                               std::to_string(m_encoder->rowsWritten) + " of " +
                               std::to_string(m_encoder->height) + " rows written to '" +
                               path() + "'");
    }
    runPieces([&] { m_encoder->pieces->finish(); });
    m_parallelCpuSeconds = m_encoder->pieces->jobCpuSeconds();
    if (!writeTrailer(m_encoder->png, m_encoder->adler)) failEncoder();
    if (!flushBuffer(m_encoder->context)) fail(std::strerror(errno));
    m_encoder.reset();
    m_state = State::Written;
}

void PngWriter::commit() {
    if (m_state != State::Written) {
        throw std::logic_error("PngWriter::commit without a successful write() for '" +
                               path() + "'");
    }
    m_state = State::Failed;  // until the rename succeeded
    m_file.commit();
    m_state = State::Committed;
}

void PngWriter::failEncoder() {
    const PngContext& context = m_encoder->context;
    std::string cause =
        context.error[0] != '\0' ? context.error : "libpng failed without saying why";
    if (context.warning[0] != '\0') cause += std::string(" (") + context.warning + ")";
    fail(cause);
}

void PngWriter::fail(const std::string& cause) {
    m_state = State::Failed;
    throw OutputError("writing '" + path() + "': " + cause);
}

namespace {

/// A picture's PNG in memory: libpng's signature and header (startPng), one IDAT of the rows
/// `filter` writes (each led by its filter-type byte: (width x bpp + 1) x height bytes)
/// deflated whole by libdeflate at level 1, IEND. A picture this size needs no pieces: one
/// thread makes it, twice as fast as the batch writer's zlib Z_RLE pieces to the same size
/// (the explorer's tile was a quarter deflate; docs/performance.md). The buffers stay with the
/// thread, so a picture allocates only its output.
template <class Filter>
std::vector<std::uint8_t> pngInMemory(std::uint32_t width, std::uint32_t height, PngFormat format,
                                      const std::vector<PngColour>* palette, std::size_t bpp,
                                      Filter&& filter) {
    std::vector<std::uint8_t> out;
    // On the heap: the context's output buffer is large. Freed with libpng's structs
    // whatever happens.
    struct State {
        PngContext context;
        png_structp png = nullptr;
        png_infop info = nullptr;
        ~State() {
            if (png != nullptr) png_destroy_write_struct(&png, info != nullptr ? &info : nullptr);
        }
    };
    const auto state = std::make_unique<State>();
    state->context.memory = &out;
    const auto failed = [&]() -> std::runtime_error {
        return std::runtime_error(std::string("encodePng: ") +
                                  (state->context.error[0] != '\0' ? state->context.error
                                                                   : "libpng failed"));
    };
    if (!startPng(state->context, state->png, state->info, width, height, format, palette))
        throw failed();
    thread_local std::vector<std::uint8_t> filtered;
    thread_local std::vector<std::byte> stream;
    thread_local const std::unique_ptr<libdeflate_compressor, void (*)(libdeflate_compressor*)>
        compressor(libdeflate_alloc_compressor(kTileDeflateLevel), libdeflate_free_compressor);
    if (!compressor) throw std::runtime_error("encodePng: libdeflate could not start");
    filtered.resize((std::size_t{width} * bpp + 1) * height);
    filter(filtered.data());
    stream.resize(libdeflate_zlib_compress_bound(compressor.get(), filtered.size()));
    const std::size_t length = libdeflate_zlib_compress(compressor.get(), filtered.data(),
                                                        filtered.size(), stream.data(), stream.size());
    if (length == 0) throw std::runtime_error("encodePng: libdeflate could not compress the picture");
    if (!writeChunk(state->png, "IDAT", stream.data(), length) ||
        !writeChunk(state->png, "IEND", nullptr, 0))
        throw failed();
    flushBuffer(state->context);
    return out;
}

}  // namespace

std::vector<std::uint8_t> encodePng(std::uint32_t width, std::uint32_t height,
                                    const std::uint8_t* pixels, std::size_t size,
                                    PngFormat format) {
    if (!validPicture(width, height, size, format)) {
        throw std::invalid_argument("encodePng: " + std::to_string(size) + " bytes for a " +
                                    std::to_string(width) + "x" + std::to_string(height) + " " +
                                    std::to_string(pngBytesPerPixel(format)) +
                                    "-byte-per-pixel picture");
    }
    // The batch writer's Paeth rows.
    const std::size_t bpp = pngBytesPerPixel(format);
    const std::size_t rowBytes = std::size_t{width} * bpp;
    return pngInMemory(width, height, format, nullptr, bpp, [&](std::uint8_t* filtered) {
        thread_local std::vector<std::uint8_t> zeros;
        zeros.assign(rowBytes, 0);  // above the first row: Paeth reads 0 for "up"
        paethFilter(zeros.data(), pixels, height, rowBytes, bpp, filtered);
    });
}

std::vector<std::uint8_t> encodePalettePng(std::uint32_t width, std::uint32_t height,
                                           const std::uint8_t* indices, std::size_t size,
                                           const std::vector<PngColour>& palette) {
    if (!validPicture(width, height, size, PngFormat::Grey8) || palette.empty() ||
        palette.size() > 256) {
        throw std::invalid_argument("encodePalettePng: " + std::to_string(size) + " bytes for a " +
                                    std::to_string(width) + "x" + std::to_string(height) +
                                    " picture of " + std::to_string(palette.size()) + " colours");
    }
    const std::uint8_t largest = *std::max_element(indices, indices + size);
    if (largest >= palette.size())
        throw std::invalid_argument("encodePalettePng: index " + std::to_string(largest) +
                                    " beyond a palette of " + std::to_string(palette.size()));
    // Unfiltered rows (type 0): the filters predict a sample from its neighbours' values, which
    // for indices mean nothing; the PNG specification recommends none for indexed pictures.
    return pngInMemory(width, height, PngFormat::Grey8, &palette, 1, [&](std::uint8_t* filtered) {
        for (std::uint32_t y = 0; y < height; ++y) {
            std::uint8_t* row = filtered + std::size_t{y} * (width + 1);
            row[0] = 0;
            std::memcpy(row + 1, indices + std::size_t{y} * width, width);
        }
    });
}

std::optional<IndexedPicture> indexColours(const std::uint8_t* rgba, std::size_t pixels) {
    IndexedPicture picture;
    picture.indices.resize(pixels);
    std::vector<std::uint32_t> seen;  // the palette's colours as the pixels' 4 bytes
    std::uint32_t last = 0;
    std::uint8_t lastIndex = 0;
    for (std::size_t i = 0; i < pixels; ++i) {
        std::uint32_t colour;
        std::memcpy(&colour, rgba + 4 * i, 4);
        // Runs of one colour are the rule in such pictures: the last one is checked first.
        if (seen.empty() || colour != last) {
            const auto index = std::size_t(std::find(seen.begin(), seen.end(), colour) - seen.begin());
            if (index == seen.size()) {
                if (seen.size() == 256) return std::nullopt;
                seen.push_back(colour);
            }
            last = colour;
            lastIndex = static_cast<std::uint8_t>(index);
        }
        picture.indices[i] = lastIndex;
    }
    for (const std::uint32_t colour : seen) {
        std::uint8_t c[4];
        std::memcpy(c, &colour, 4);
        picture.palette.push_back({c[0], c[1], c[2], c[3]});
    }
    return picture;
}

}  // namespace terragrid

#include "io/png_writer.hpp"

#include <png.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

// With Z_RLE the level only has to be above 0 (0 stores); 6 is zlib's default.
constexpr int kPngZlibLevel = 6;

// What the libpng callbacks share with the encoder. Trivially destructible on purpose:
// libpng reports errors by longjmp, which skips destructors, so nothing that needs one may
// live in the frames it jumps over.
struct PngContext {
    int fd = -1;
    char error[512] = {};
    char warning[512] = {};
    // The encoded bytes are gathered here so the file gets a few large writes instead of
    // three small ones per chunk.
    std::size_t buffered = 0;
    unsigned char buffer[64 * 1024] = {};
};

bool flushBuffer(PngContext& context) {
    const bool ok = writeFully(context.fd, context.buffer, context.buffered);
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
        if (!writeFully(context->fd, data, size)) png_error(png, std::strerror(errno));
        return;
    }
    std::memcpy(context->buffer + context->buffered, data, size);
    context->buffered += size;
}

void onPngFlush(png_structp) {}  // the file is flushed once, by AtomicFile::commit

// The three steps of encoding, each behind its own setjmp: libpng reports errors by longjmp to
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

bool startPng(PngContext& context, png_structp& png, png_infop& info, std::uint32_t width,
              std::uint32_t height, PngFormat format) {
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, onPngError, onPngWarning);
    if (png != nullptr) info = png_create_info_struct(png);
    if (png == nullptr || info == nullptr) {
        std::snprintf(context.error, sizeof context.error, "libpng could not start");
        return false;
    }
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_write_fn(png, &context, onPngWrite, onPngFlush);
    png_set_IHDR(png, info, width, height, format == PngFormat::Grey16 ? 16 : 8,
                 pngColourType(format), PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    // Named rather than left to the library's defaults, which may change between versions,
    // and chosen for speed (design.md, Performance): libpng's default tries all five filters
    // on every row and then runs zlib's lazy matcher, about 2-4 s of CPU for a 4096 x 4096
    // 16-bit heightmap or a 2048 x 2048 preview. Paeth alone is the filter the adaptive choice
    // picks on nearly every row of these pictures, and run-length matching (distance 1 only)
    // is what deflate finds in their filtered rows anyway: height16.png comes out the same
    // size, the previews 3-8 % larger, each 5-8 times faster (measured in the commit that
    // chose this). The pixels are the same whatever the choice.
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
    png_set_compression_level(png, kPngZlibLevel);
    png_set_compression_strategy(png, Z_RLE);
    png_write_info(png, info);
    return true;
}

bool writePngRow(png_structp png, const std::uint8_t* row) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_write_row(png, row);
    return true;
}

bool endPng(png_structp png, png_infop info) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_write_end(png, info);
    return true;
}

}  // namespace

// libpng's state for one picture, alive from start() to close().
class PngWriter::Encoder {
public:
    Encoder(std::uint32_t width, std::uint32_t height, PngFormat format)
        : width(width), height(height), format(format) {}
    ~Encoder() {
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
    std::uint32_t rowsWritten = 0;
    std::vector<std::uint8_t> bigEndianRow;  // Grey16: one row as PNG stores it
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
    constexpr std::uint32_t kLargest = 0x7fffffff;  // PNG's limit on either side
    if (format == PngFormat::Grey16 || width == 0 || height == 0 || width > kLargest ||
        height > kLargest ||
        pixels.size() != std::size_t{width} * height * pngBytesPerPixel(format)) {
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
    if (format == PngFormat::Grey16) m_encoder->bigEndianRow.resize(std::size_t{width} * 2);
    m_state = State::Started;
    if (!startPng(m_encoder->context, m_encoder->png, m_encoder->info, width, height, format)) {
        failEncoder();
    }
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
    const std::size_t rowBytes = std::size_t{m_encoder->width} * pngBytesPerPixel(m_encoder->format);
    for (std::uint32_t y = 0; y < rows; ++y) encodeRow(pixels + y * rowBytes);
}

void PngWriter::writeRows(const std::uint16_t* grey, std::uint32_t rows) {
    checkRows(true, rows);
    const std::size_t width = m_encoder->width;
    std::uint8_t* out = m_encoder->bigEndianRow.data();
    for (std::uint32_t y = 0; y < rows; ++y) {
        // Byte by byte rather than png_set_swap: the same bytes on every host.
        const std::uint16_t* row = grey + y * width;
        for (std::size_t x = 0; x < width; ++x) {
            out[2 * x] = static_cast<std::uint8_t>(row[x] >> 8);
            out[2 * x + 1] = static_cast<std::uint8_t>(row[x] & 0xff);
        }
        encodeRow(out);
    }
}

void PngWriter::encodeRow(const std::uint8_t* bytes) {
    if (!writePngRow(m_encoder->png, bytes)) failEncoder();
    ++m_encoder->rowsWritten;
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
    if (!endPng(m_encoder->png, m_encoder->info)) failEncoder();
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

}  // namespace terragrid

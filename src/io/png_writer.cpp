#include "io/png_writer.hpp"

#include <png.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

#include "terragrid/outputs.hpp"

namespace terragrid {
namespace {

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

// Writes all of `data`; false with errno set when the system refuses.
bool writeAll(int fd, const unsigned char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool flushBuffer(PngContext& context) {
    const bool ok = writeAll(context.fd, context.buffer, context.buffered);
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
        if (!writeAll(context->fd, data, size)) png_error(png, std::strerror(errno));
        return;
    }
    std::memcpy(context->buffer + context->buffered, data, size);
    context->buffered += size;
}

void onPngFlush(png_structp) {}  // the file is flushed once, by AtomicFile::commit

// Encodes the picture through `context`. Returns false after a libpng error, whose words are
// then in context.error. Holds no object with a destructor (see PngContext), and nothing it
// changes after setjmp is read after the jump but `png` and `info`, which it does not change.
bool encodePng(PngContext& context, std::uint32_t width, std::uint32_t height,
               const std::uint8_t* rgb) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, onPngError,
                                              onPngWarning);
    if (png == nullptr) {
        std::snprintf(context.error, sizeof context.error, "libpng could not start");
        return false;
    }
    png_infop info = png_create_info_struct(png);
    if (info == nullptr) {
        png_destroy_write_struct(&png, nullptr);
        std::snprintf(context.error, sizeof context.error, "libpng could not start");
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, &context, onPngWrite, onPngFlush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // Named rather than left to the library's default, which may change between versions.
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    const std::size_t rowBytes = std::size_t{width} * 3;
    for (std::uint32_t y = 0; y < height; ++y) png_write_row(png, rgb + y * rowBytes);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return true;
}

}  // namespace

PngWriter::PngWriter(std::string path) : m_file(std::move(path)) {}

void PngWriter::write(std::uint32_t width, std::uint32_t height,
                      const std::vector<std::uint8_t>& rgb) {
    if (m_state != State::Open) {
        throw std::logic_error("PngWriter::write called twice for '" + path() + "'");
    }
    constexpr std::uint32_t kLargest = 0x7fffffff;  // PNG's limit on either side
    if (width == 0 || height == 0 || width > kLargest || height > kLargest ||
        rgb.size() != std::size_t{width} * height * 3) {
        throw std::invalid_argument("PngWriter::write: " + std::to_string(rgb.size()) +
                                    " bytes for a " + std::to_string(width) + "x" +
                                    std::to_string(height) + " RGB picture in '" + path() + "'");
    }
    const auto context = std::make_unique<PngContext>();
    context->fd = m_file.fd();
    if (!encodePng(*context, width, height, rgb.data())) {
        std::string cause = context->error[0] != '\0' ? context->error
                                                      : "libpng failed without saying why";
        if (context->warning[0] != '\0') cause += std::string(" (") + context->warning + ")";
        fail(cause);
    }
    if (!flushBuffer(*context)) fail(std::strerror(errno));
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

void PngWriter::fail(const std::string& cause) {
    m_state = State::Failed;
    throw OutputError("writing '" + path() + "': " + cause);
}

}  // namespace terragrid

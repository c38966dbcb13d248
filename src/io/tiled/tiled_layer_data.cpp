#include "io/tiled/tiled_layer_data.hpp"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <utility>

#include "io/transaction/atomic_file.hpp"

namespace terragrid {
namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Large enough that a wide row goes to the system in a few writes, small enough not to count.
constexpr std::size_t kBufferBytes = std::size_t{1} << 16;

}  // namespace

LayerDataEncoder::LayerDataEncoder(int fd, std::string path)
    : m_fd(fd), m_path(std::move(path)), m_zlib(std::make_unique<z_stream_s>()) {
    // windowBits 15 and memLevel 8 are zlib's defaults, named for the same reason as the level.
    const int status = deflateInit2(m_zlib.get(), kTiledZlibLevel, Z_DEFLATED, 15, 8,
                                    Z_DEFAULT_STRATEGY);
    if (status == Z_MEM_ERROR) {
        m_zlib.reset();
        throw std::bad_alloc();
    }
    if (status != Z_OK) {
        m_zlib.reset();
        throw std::logic_error("zlib refused to start a stream for '" + m_path +
                               "' (deflateInit2 returned " + std::to_string(status) + ")");
    }
    m_compressed.resize(kBufferBytes);
    m_text.reserve(kBufferBytes + 4);
}

LayerDataEncoder::~LayerDataEncoder() {
    if (m_zlib) deflateEnd(m_zlib.get());
}

void LayerDataEncoder::add(std::span<const std::uint32_t> gids) {
    if (m_finished) {
        throw std::logic_error("LayerDataEncoder::add after finish for '" + m_path + "'");
    }
    m_raw.resize(gids.size() * 4);
    char* out = m_raw.data();
    for (const std::uint32_t gid : gids) {
        *out++ = static_cast<char>(gid & 0xff);
        *out++ = static_cast<char>((gid >> 8) & 0xff);
        *out++ = static_cast<char>((gid >> 16) & 0xff);
        *out++ = static_cast<char>(gid >> 24);
    }
    m_zlib->next_in = reinterpret_cast<Bytef*>(m_raw.data());
    m_zlib->avail_in = static_cast<uInt>(m_raw.size());
    if (m_raw.size() != m_zlib->avail_in) {
        throw std::invalid_argument("LayerDataEncoder::add: a row of " +
                                    std::to_string(gids.size()) + " gids is too long for zlib");
    }
    deflateInput(Z_NO_FLUSH);
}

void LayerDataEncoder::finish() {
    if (m_finished) {
        throw std::logic_error("LayerDataEncoder::finish called twice for '" + m_path + "'");
    }
    m_finished = true;
    m_zlib->next_in = nullptr;
    m_zlib->avail_in = 0;
    deflateInput(Z_FINISH);
    if (m_carried > 0) {
        // The last group: 1 byte gives 2 characters and "==", 2 bytes give 3 and "=".
        const unsigned b0 = m_carry[0];
        const unsigned b1 = m_carried == 2 ? m_carry[1] : 0;
        m_text += kBase64Alphabet[b0 >> 2];
        m_text += kBase64Alphabet[((b0 & 0x3) << 4) | (b1 >> 4)];
        m_text += m_carried == 2 ? kBase64Alphabet[(b1 & 0xf) << 2] : '=';
        m_text += '=';
        m_carried = 0;
    }
    flushText();
}

void LayerDataEncoder::deflateInput(int flush) {
    // Run deflate until it has taken all input (and, for Z_FINISH, written the stream's end):
    // a full output buffer means there may be more to come.
    for (;;) {
        m_zlib->next_out = reinterpret_cast<Bytef*>(m_compressed.data());
        m_zlib->avail_out = static_cast<uInt>(m_compressed.size());
        const int status = deflate(m_zlib.get(), flush);
        if (status == Z_STREAM_ERROR) {
            throw std::logic_error("zlib stream of '" + m_path + "' is in an invalid state");
        }
        const std::size_t produced = m_compressed.size() - m_zlib->avail_out;
        encodeBase64(reinterpret_cast<const unsigned char*>(m_compressed.data()), produced);
        if (flush == Z_FINISH ? status == Z_STREAM_END
                              : m_zlib->avail_in == 0 && m_zlib->avail_out != 0) {
            return;
        }
    }
}

void LayerDataEncoder::encodeBase64(const unsigned char* data, std::size_t size) {
    // Complete a group begun by earlier output first: groups of 3 bytes run across zlib's
    // output buffers, and padding belongs only at the very end.
    if (m_carried > 0) {
        while (m_carried < 3 && size > 0) {
            m_carry[m_carried++] = *data++;
            --size;
        }
        if (m_carried < 3) return;
        appendGroup(m_carry);
        m_carried = 0;
    }
    std::size_t i = 0;
    for (; i + 3 <= size; i += 3) {
        appendGroup(data + i);
        if (m_text.size() >= kBufferBytes) flushText();
    }
    m_carried = size - i;  // 0, 1 or 2
    std::copy(data + i, data + size, m_carry);
}

void LayerDataEncoder::appendGroup(const unsigned char* group) {
    const unsigned v = unsigned{group[0]} << 16 | unsigned{group[1]} << 8 | group[2];
    m_text += kBase64Alphabet[v >> 18];
    m_text += kBase64Alphabet[(v >> 12) & 0x3f];
    m_text += kBase64Alphabet[(v >> 6) & 0x3f];
    m_text += kBase64Alphabet[v & 0x3f];
}

void LayerDataEncoder::flushText() {
    writeOrThrow(m_fd, m_text, m_path);
    m_text.clear();
}

}  // namespace terragrid

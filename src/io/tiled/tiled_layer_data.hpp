#pragma once
// The data of one Tiled tile layer as it streams out: gids as little-endian uint32, row-major
// from the top, compressed as one zlib stream and base64-encoded ("encoding": "base64",
// "compression": "zlib" in the map's JSON).
//
// Compressed because a map is mostly long runs of a few gids, which zlib shrinks many times
// over, where a JSON array would spend up to 4 characters and a comma on every cell; zlib
// because every Tiled version and most engine loaders read it (zstd is newer and rarer). The
// encoder holds one zlib state and two small buffers, never the layer.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

struct z_stream_s;  // zlib.h stays in the .cpp

namespace terragrid {

/// The fixed zlib level of the layer data: the same gids give the same bytes on every run
/// (with the same zlib); named, not left to Z_DEFAULT_COMPRESSION, so a changed default cannot
/// change the files. 1, zlib's fastest matcher, because a layer is 4 bytes a cell (64 MiB for
/// 4096 x 4096 cells) of long runs that any level shrinks 50-100 times: on the default
/// 4096 x 4096 map level 6 took 0.67 s a layer for 0.68 MB, level 1 0.26 s for 1.27 MB.
inline constexpr int kTiledZlibLevel = 1;

/// Encodes one layer's gids into base64 text of a zlib stream, written to a descriptor as it
/// is produced. Not thread-safe; one per layer.
class LayerDataEncoder {
public:
    /// Starts an empty stream writing to `fd`, which must stay open until finish() and is not
    /// owned. `path` is the output the text belongs to, named in errors.
    LayerDataEncoder(int fd, std::string path);
    ~LayerDataEncoder();

    LayerDataEncoder(const LayerDataEncoder&) = delete;
    LayerDataEncoder& operator=(const LayerDataEncoder&) = delete;

    /// Appends `gids` to the layer. The output depends only on the sequence of gids and of the
    /// calls' lengths, so callers feed whole rows to make maps cut into tiles differently
    /// come out byte for byte the same. Throws OutputError when writing fails.
    void add(std::span<const std::uint32_t> gids);

    /// Ends the zlib stream and writes the last base64 characters with their padding. Call
    /// once; nothing may be added after. Throws OutputError when writing fails.
    void finish();

private:
    void deflateInput(int flush);
    void encodeBase64(const unsigned char* data, std::size_t size);
    void appendGroup(const unsigned char* group);  // 3 bytes -> 4 characters
    void flushText();

    int m_fd;
    std::string m_path;
    std::unique_ptr<z_stream_s> m_zlib;
    std::string m_raw;         // the little-endian bytes of the gids of one add()
    std::string m_compressed;  // zlib's output buffer
    unsigned char m_carry[3] = {};  // bytes waiting for a group of 3 (4 base64 characters)
    std::size_t m_carried = 0;
    std::string m_text;  // base64 waiting to be written
    bool m_finished = false;
};

}  // namespace terragrid

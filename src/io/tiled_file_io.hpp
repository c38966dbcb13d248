#pragma once
// Plain descriptor I/O for the Tiled export (tiled_sink.cpp): writing all of a buffer, and a
// scratch file for a layer's encoded data while another layer of the same map is being written.

#include <cstddef>
#include <string>
#include <string_view>

namespace terragrid {

/// Writes all of `bytes` to `fd` (retrying short writes and EINTR). Throws
/// OutputError("writing '<path>': <strerror>") when the system refuses; `path` is the output
/// file the bytes belong to, which need not be the file behind `fd`.
void writeAllOrThrow(int fd, std::string_view bytes, const std::string& path);

/// A temporary file with no name, in the directory of the output it serves (so a big map's
/// scratch data goes to the disk that has room for the map, not to a small /tmp). The name is
/// removed as soon as the file is open, so nothing is left behind even after a crash.
class ScratchFile {
public:
    /// Creates the file beside `targetPath`. Throws OutputError naming `targetPath`.
    explicit ScratchFile(std::string targetPath);
    ~ScratchFile();

    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    /// The descriptor to write to; owned by this object.
    int fd() const noexcept { return m_fd; }

    /// Appends everything written so far to `fd`. Throws OutputError naming the target.
    void copyTo(int fd) const;

private:
    std::string m_targetPath;
    int m_fd = -1;
};

}  // namespace terragrid

#include "io/tiled_file_io.hpp"

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "terragrid/outputs.hpp"

namespace terragrid {
namespace {

[[noreturn]] void failWriting(const std::string& path, int error) {
    throw OutputError("writing '" + path + "': " + std::strerror(error));
}

}  // namespace

void writeAllOrThrow(int fd, std::string_view bytes, const std::string& path) {
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            failWriting(path, errno);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
}

ScratchFile::ScratchFile(std::string targetPath) : m_targetPath(std::move(targetPath)) {
    const std::filesystem::path target(m_targetPath);
    const std::filesystem::path dir =
        target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
    // Built with += rather than "." + name: GCC 12 at -O3 warns about the latter with a false
    // -Wrestrict.
    std::string leaf = ".";
    leaf += target.filename().string();
    leaf += ".scratch-XXXXXX";
    const std::string pattern = (dir / leaf).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    m_fd = ::mkstemp(name.data());
    if (m_fd < 0) failWriting(m_targetPath, errno);
    if (::unlink(name.data()) != 0) {
        const int error = errno;
        ::close(std::exchange(m_fd, -1));
        failWriting(m_targetPath, error);
    }
}

ScratchFile::~ScratchFile() {
    if (m_fd >= 0) ::close(m_fd);
}

void ScratchFile::copyTo(int fd) const {
    // pread leaves the scratch file's own offset alone, so writing could even go on after.
    std::vector<char> buffer(std::size_t{1} << 16);
    off_t offset = 0;
    for (;;) {
        const ssize_t n = ::pread(m_fd, buffer.data(), buffer.size(), offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            failWriting(m_targetPath, errno);
        }
        if (n == 0) return;
        writeAllOrThrow(fd, std::string_view(buffer.data(), static_cast<std::size_t>(n)),
                        m_targetPath);
        offset += n;
    }
}

}  // namespace terragrid

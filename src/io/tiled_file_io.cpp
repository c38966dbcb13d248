#include "io/tiled_file_io.hpp"

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "terragrid/outputs.hpp"

namespace terragrid {

void writeAllOrThrow(int fd, std::string_view bytes, const std::string& path) {
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw OutputError("writing '" + path + "': " + std::strerror(errno));
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
}

}  // namespace terragrid

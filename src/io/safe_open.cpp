#include "io/safe_open.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace terragrid {
namespace {

// The file system of anonymous pipes (linux/magic.h): what /dev/fd/63 of `<(jq ...)` or
// /dev/stdin fed by `|` opens. A named FIFO lives on an ordinary file system instead.
constexpr long kPipeFsMagic = 0x50495045;

bool isAnonymousPipe(int fd) {
    struct statfs fs {};
    return ::fstatfs(fd, &fs) == 0 && static_cast<long>(fs.f_type) == kPipeFsMagic;
}

std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "it is a directory";
    if (S_ISFIFO(mode)) return "it is a FIFO (named pipe), not a regular file";
    return "it is " + fileTypeName(mode) + ", not a regular file";
}

}  // namespace

std::string fileTypeName(mode_t mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "a file of an unknown type";
}

FileHandle openForReading(const std::string& path, Pipes pipes, std::string& reason) {
    // O_NOCTTY: a terminal named by mistake must not become the controlling terminal.
    FileHandle file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!file) {
        reason = std::generic_category().message(errno);
        return {};
    }
    struct stat st {};
    if (::fstat(file.get(), &st) != 0) {
        reason = std::generic_category().message(errno);
        return {};
    }
    const bool pipe = S_ISFIFO(st.st_mode) && isAnonymousPipe(file.get());
    if (!S_ISREG(st.st_mode) && !(pipe && pipes == Pipes::Accept)) {
        reason = pipe ? "it is a pipe, and it must be a file that can be read more than once"
                      : kindOf(st.st_mode);
        return {};
    }
    // Reads then wait for a pipe's writer as they should; a regular file never blocks anyway.
    const int flags = ::fcntl(file.get(), F_GETFL);
    if (flags < 0 || ::fcntl(file.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
        reason = std::generic_category().message(errno);
        return {};
    }
    return file;
}

}  // namespace terragrid

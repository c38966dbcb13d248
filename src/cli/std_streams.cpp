#include "cli/std_streams.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "io/transaction/atomic_file.hpp"

namespace terragrid::cli {
namespace {

/// An unbuffered stream buffer on descriptor 1 that tells the stream every write succeeded,
/// so the command runs to its end, and keeps the first failure for stdoutFailure().
class CheckedStdout final : public std::streambuf {
public:
    int error = 0;

protected:
    std::streamsize xsputn(const char* data, std::streamsize size) override {
        // After a failure nothing more is written: a reader that has gone stays gone.
        if (error == 0 && !writeFully(STDOUT_FILENO, data, static_cast<std::size_t>(size)))
            error = errno;
        return size;
    }
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        const char ch = traits_type::to_char_type(c);
        xsputn(&ch, 1);
        return c;
    }
};

// Never destroyed: std::cout may be written to until the process ends.
CheckedStdout& checkedStdout() {
    static CheckedStdout& buffer = *new CheckedStdout;
    return buffer;
}

}  // namespace

bool openClosedStandardStreams() noexcept {
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        // open() returns the lowest free descriptor: this one, as the lower ones are open.
        const int opened = ::open("/dev/null", O_RDWR);
        if (opened < 0) return false;
        if (opened != fd) {  // cannot happen with 0..fd-1 open; never leave a stray descriptor
            ::close(opened);
            errno = EBADF;
            return false;
        }
    }
    return true;
}

void checkStdoutWrites() { std::cout.rdbuf(&checkedStdout()); }

std::string stdoutFailure() {
    const int error = checkedStdout().error;
    if (error == 0 || error == EPIPE) return {};
    return std::string("writing standard output: ") + std::strerror(error);
}

}  // namespace terragrid::cli

#pragma once
// A file descriptor with one owner, closed when the owner goes: for code that opens several
// descriptors and may throw between them.

#include <unistd.h>

#include <utility>

namespace terragrid {

class FileHandle {
public:
    FileHandle() = default;
    /// Takes `fd` (which may be -1: empty).
    explicit FileHandle(int fd) noexcept : m_fd(fd) {}
    ~FileHandle() { reset(); }
    FileHandle(FileHandle&& other) noexcept : m_fd(other.release()) {}
    FileHandle& operator=(FileHandle&& other) noexcept {
        if (this != &other) reset(other.release());
        return *this;
    }
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;

    int get() const noexcept { return m_fd; }
    explicit operator bool() const noexcept { return m_fd >= 0; }
    /// Gives the descriptor up without closing it.
    int release() noexcept { return std::exchange(m_fd, -1); }
    /// Closes the descriptor held, if any, and takes `fd`.
    void reset(int fd = -1) noexcept {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = fd;
    }

private:
    int m_fd = -1;
};

}  // namespace terragrid

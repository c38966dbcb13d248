#include "io/manifest/sha256.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <memory>
#include <system_error>
#include <vector>

namespace terragrid {
namespace {

struct DigestContext {
    DigestContext() : context(EVP_MD_CTX_new()) {
        if (!context || EVP_DigestInit_ex(context, EVP_sha256(), nullptr) != 1)
            throw std::runtime_error("SHA-256: OpenSSL could not start a digest");
    }
    ~DigestContext() { EVP_MD_CTX_free(context); }
    DigestContext(const DigestContext&) = delete;
    DigestContext& operator=(const DigestContext&) = delete;

    void update(const void* data, std::size_t size) {
        if (EVP_DigestUpdate(context, data, size) != 1)
            throw std::runtime_error("SHA-256: OpenSSL refused the data");
    }
    std::string hex() {
        std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
        unsigned int length = 0;
        if (EVP_DigestFinal_ex(context, digest.data(), &length) != 1)
            throw std::runtime_error("SHA-256: OpenSSL could not finish the digest");
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string text;
        for (unsigned int i = 0; i < length; ++i) {
            text += kDigits[digest[i] >> 4];
            text += kDigits[digest[i] & 15];
        }
        return text;
    }

    EVP_MD_CTX* context;
};

[[noreturn]] void failOn(const std::string& path, int error, const char* what) {
    throw std::system_error(error, std::generic_category(), "cannot " + std::string(what) + " '" +
                                                                path + "'");
}

}  // namespace

FileDigest digestFile(const std::string& path) { return digestFile(AT_FDCWD, path, path); }

FileDigest digestFile(int directoryFd, const std::string& name, const std::string& path) {
    const int fd =
        ::openat(directoryFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) failOn(path, errno, "open");
    const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
        ::close(*f);
        delete f;
    });
    struct stat st {};
    if (::fstat(fd, &st) != 0) failOn(path, errno, "read");
    // A FIFO or device planted under an output's name would block or never end.
    if (!S_ISREG(st.st_mode)) failOn(path, EINVAL, "hash (not a regular file)");
    DigestContext context;
    std::vector<unsigned char> buffer(std::size_t{1} << 20);
    FileDigest digest;
    for (;;) {
        const ssize_t got = ::read(fd, buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) failOn(path, errno, "read");
        if (got == 0) break;
        context.update(buffer.data(), static_cast<std::size_t>(got));
        digest.bytes += static_cast<std::uint64_t>(got);
    }
    digest.sha256 = context.hex();
    return digest;
}

std::string fileProblem(const std::string& path, const FileDigest& listed) {
    FileDigest found;
    try {
        found = digestFile(path);
    } catch (const std::system_error& e) {
        if (e.code() == std::errc::no_such_file_or_directory) return "'" + path + "' is missing";
        if (e.code() == std::errc::too_many_symbolic_link_levels)
            return "'" + path + "' is a symbolic link, not the file the run wrote";
        return std::string(e.what());
    }
    if (found.bytes != listed.bytes)
        return "'" + path + "' has " + std::to_string(found.bytes) + " bytes, the manifest says " +
               std::to_string(listed.bytes);
    if (found.sha256 != listed.sha256)
        return "'" + path + "' differs from the manifest (SHA-256 " + found.sha256 +
               ", the manifest says " + listed.sha256 + ")";
    return {};
}

std::string sha256Hex(const std::string& bytes) {
    DigestContext context;
    context.update(bytes.data(), bytes.size());
    return context.hex();
}

}  // namespace terragrid

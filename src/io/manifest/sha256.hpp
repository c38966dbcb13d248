#pragma once
// SHA-256 of a file's bytes (OpenSSL's libcrypto: its SHA-NI and AVX2 code hash about 2 GB/s
// on one core here, so a manifest costs a fraction of the run that wrote the files).

#include <string>

#include "terragrid/io/manifest.hpp"

namespace terragrid {

/// The size and SHA-256 of the regular file `name` in the directory open as `directoryFd`
/// (AT_FDCWD: `name` is a path), opened with O_NOFOLLOW (a symlink planted under the name is
/// refused, not followed). Throws std::system_error naming `shownAs` when it cannot be opened
/// or read, or is not a regular file. Thread-safe.
FileDigest digestFile(int directoryFd, const std::string& name, const std::string& shownAs);
/// digestFile of the file at `path`.
FileDigest digestFile(const std::string& path);

/// Why the file at `path` is not the one `listed` describes, as a sentence naming it ("... is
/// missing", "... has N bytes, the manifest says M", "... differs from the manifest (SHA-256
/// ..., the manifest says ...)"); empty when it is that file. Thread-safe.
std::string fileProblem(const std::string& path, const FileDigest& listed);

/// The SHA-256 of `bytes` as 64 lower-case hex digits. Pure.
std::string sha256Hex(const std::string& bytes);

}  // namespace terragrid

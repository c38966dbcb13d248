#pragma once
// Opening a file the user named for reading, safely: a FIFO without a writer, a terminal or a
// device never makes the program block in open(), and only the kinds of file the caller can
// read are kept. One place for it, for every input a user names (--config, --hydrology-stage).

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "io/file_handle.hpp"

namespace terragrid {

/// Whether openForReading keeps an anonymous pipe: `--config <(jq ...)` and `cat x | terragrid
/// --config /dev/stdin` read one; a file read with pread or mapped (a stage file) cannot.
enum class Pipes : std::uint8_t { Refuse, Accept };

/// Opens `path` read-only with O_NONBLOCK (so a named FIFO without a writer, a terminal or a
/// device node returns at once instead of blocking in open()), then keeps it only when fstat
/// says it is a regular file, or an anonymous pipe when `pipes` is Pipes::Accept; the kept
/// descriptor is switched back to blocking reads. Anything else (a named FIFO, a device, a
/// socket, a directory) is closed unread. Returns an empty handle and sets `reason` to a
/// phrase for a message, "it is a FIFO (named pipe), not a regular file" or the system's
/// "No such file or directory", when it does not open one. Thread-safe.
FileHandle openForReading(const std::string& path, Pipes pipes, std::string& reason);

/// "a regular file", "a directory", "a FIFO", "a character device", "a symbolic link", ... for
/// st_mode `mode`, in messages about what lies under a name.
std::string fileTypeName(mode_t mode);

}  // namespace terragrid

#pragma once
// Plain descriptor I/O for the Tiled export (tiled_sink.cpp, tiled_map_file.cpp,
// tiled_layer_data.cpp): writing all of a buffer.

#include <string>
#include <string_view>

namespace terragrid {

/// Writes all of `bytes` to `fd` (retrying short writes and EINTR). Throws
/// OutputError("writing '<path>': <strerror>") when the system refuses; `path` is the output
/// file the bytes belong to, which need not be the file behind `fd`.
void writeAllOrThrow(int fd, std::string_view bytes, const std::string& path);

}  // namespace terragrid

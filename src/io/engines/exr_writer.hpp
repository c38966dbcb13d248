#pragma once
// A single-channel 32-bit float OpenEXR image, written row band by row band into an AtomicFile:
// height.exr for Godot's terrain plugins, which load EXR through Image.load.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "terragrid/io/config.hpp"

namespace terragrid {

/// The channel name: "Y", OpenEXR's name for a luminance-only image, which readers show as
/// grey. (Godot's loader takes the one channel of a one-channel file whatever its name.)
inline constexpr const char* kExrChannel = "Y";

/// The rows in one of an EXR's compressed blocks (OpenEXR's scanlines per line buffer).
inline constexpr std::int64_t exrRowsPerBlock(ExrCompression compression) noexcept {
    switch (compression) {
    case ExrCompression::Zip: return 16;
    case ExrCompression::Piz: return 32;
    case ExrCompression::None: return 1;
    }
    return 1;
}

/// Writes one EXR: scanlines compressed with ZIP (blocks of 16 rows), PIZ (32 rows) or not
/// at all, top row first. Not thread-safe. Failures throw OutputError("writing '<path>': <cause>"); an uncommitted writer
/// removes its temporary file, leaving any older file at `path` as it was.
class ExrWriter {
public:
    /// Creates the temporary file and writes the header: width x height pixels, `compression`
    /// and `text` attributes (name, value) stored as EXR string attributes. Throws OutputError.
    ExrWriter(std::string path, std::int64_t width, std::int64_t height,
              ExrCompression compression,
              const std::vector<std::pair<std::string, std::string>>& text);
    ~ExrWriter();

    ExrWriter(const ExrWriter&) = delete;
    ExrWriter& operator=(const ExrWriter&) = delete;

    /// Encodes the next `rows` full rows: width x rows floats, row-major. Throws
    /// std::logic_error for more rows than are left, OutputError when writing fails.
    void writeRows(const float* values, std::int64_t rows);

    /// Completes the file (its table of block offsets) after the last row. Throws
    /// std::logic_error when rows are missing, OutputError when writing fails.
    void close();

    /// Renames the written file onto path().
    void commit();

    const std::string& path() const noexcept;

private:
    struct State;  // OpenEXR's objects, kept out of this header
    std::unique_ptr<State> m_state;
};

}  // namespace terragrid

#pragma once
// An 8-bit RGB PNG written with libpng into an AtomicFile (design.md principle 7).
//
// The file holds IHDR, IDAT and IEND only: no time stamp, gamma or text chunks, so identical
// pixels give identical bytes. This header keeps libpng out: png_writer.cpp is the only file
// that includes png.h.

#include <cstdint>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"

namespace terragrid {

/// Writes one PNG. Not thread-safe: use it from one thread at a time. Every failure throws
/// OutputError("writing '<path>': <cause>"); an uncommitted writer's destructor removes its
/// temporary file, leaving any older file at `path` as it was.
class PngWriter {
public:
    /// Creates the temporary file beside `path`. Throws OutputError when it cannot.
    explicit PngWriter(std::string path);

    PngWriter(const PngWriter&) = delete;
    PngWriter& operator=(const PngWriter&) = delete;

    /// Encodes the whole picture into the temporary file: `rgb` holds width x height pixels,
    /// row-major, 3 bytes (red, green, blue) each. Call once. Throws std::invalid_argument for
    /// a size outside 1..2^31-1 or an `rgb` of the wrong length, OutputError with libpng's
    /// words (or the system's) when encoding or writing fails.
    void write(std::uint32_t width, std::uint32_t height, const std::vector<std::uint8_t>& rgb);

    /// Renames the written file onto path(). Call after write().
    void commit();

    /// The file this writer produces.
    const std::string& path() const noexcept { return m_file.targetPath(); }

private:
    enum class State : std::uint8_t { Open, Written, Committed, Failed };

    [[noreturn]] void fail(const std::string& cause);

    AtomicFile m_file;
    State m_state = State::Open;
};

}  // namespace terragrid

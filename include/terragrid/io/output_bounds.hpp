#pragma once
// What one output costs, known before the run: its files with an upper bound on their size on
// disk, and what its writer holds in memory. Each output's driver (output_drivers.hpp) computes
// them next to the writer they describe, so a bound changes with its writer; the run plan
// (app/plan.hpp) adds them up.

#include <cstdint>
#include <string>

#include "terragrid/io/config.hpp"

namespace terragrid {

/// One requested output: a file, or the files written together under one output.files name
/// (height.r16 with its sidecar, the Tiled export).
struct PlannedOutput {
    OutputFile file = OutputFile::HeightTif;
    std::string path;          ///< its main file (map.world for a chunked Tiled map)
    std::int64_t files = 1;    ///< how many files it writes
    std::uint64_t bytes = 0;   ///< upper bound on their total size
    bool compressed = false;   ///< bytes bounds compressed data by its uncompressed size
};

/// The line of the memory estimate an output's writer is counted on.
enum class MemoryGroup : std::uint8_t {
    Writers,  ///< "writers": file encoders and their buffers
    Previews  ///< "previews": pictures accumulated while the tiles stream
};

/// What one output's writer holds at most. Sinks finish one after the other
/// (generator.hpp), so a group needs the sum of its writers' `streaming` memory plus the
/// largest `finishing` among them.
struct WriterMemory {
    MemoryGroup group = MemoryGroup::Writers;
    std::uint64_t streaming = 0;  ///< held from begin() until the sink is destroyed
    std::uint64_t finishing = 0;  ///< held besides, only while its finish() runs
};

}  // namespace terragrid

#pragma once
// One Tiled map file (.tmj) written row by row: the JSON around the data goes straight into
// the file, the terrain layer's data is encoded straight after it, and the blocked layer's data
// (which comes later in the file but arrives at the same time) waits in a scratch file beside
// the output until the terrain layer is complete.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/tiled_file_io.hpp"
#include "io/tiled_layer_data.hpp"
#include "io/tiled_map_json.hpp"

namespace terragrid {

/// Writes the map described by `info` into `file`, which must outlive this object and is
/// committed by its owner. Not thread-safe.
class TiledMapFile {
public:
    /// Writes the JSON before the terrain layer's data. `classWalkable[i]` is whether class i
    /// can be walked on (used for the blocked layer). Throws OutputError naming the file.
    TiledMapFile(AtomicFile& file, const TiledMapInfo& info,
                 const std::vector<bool>& classWalkable);

    /// Adds the next row (top to bottom) of info.width cells' class indices, each below
    /// info.classCount: terrain gid = class + 1; blocked gid where the class is not walkable,
    /// gid 0 (no tile) elsewhere.
    void addRow(const std::uint8_t* classes);

    /// Ends both layers and writes the rest of the file. Call once, after info.height rows.
    void finish();

private:
    AtomicFile& m_file;
    std::int64_t m_width;
    std::int64_t m_height;
    std::int64_t m_rows = 0;
    std::array<std::uint32_t, 256> m_blockedGidOf{};  // by class index
    std::vector<std::string> m_pieces;
    LayerDataEncoder m_terrain;
    std::unique_ptr<ScratchFile> m_blockedScratch;  // null without a blocked layer
    std::unique_ptr<LayerDataEncoder> m_blocked;
    std::vector<std::uint32_t> m_gids;  // one row, reused
};

}  // namespace terragrid

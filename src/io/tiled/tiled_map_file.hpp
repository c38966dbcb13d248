#pragma once
// One Tiled map file (.tmj) written in two passes: the JSON around the data goes straight into
// the file and the terrain layer's data is encoded straight after it as the rows come; the
// blocked layer, which comes later in the file, is encoded once the walkable mask is final
// (after the run's connectivity rule, which needs the whole map), straight after the terrain
// layer. Nothing waits beside the file.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/transaction/atomic_file.hpp"
#include "io/tiled/tiled_layer_data.hpp"
#include "io/tiled/tiled_map_json.hpp"
#include "io/tiled/tiled_lakes.hpp"
#include "io/tiled/tiled_rivers.hpp"
#include "terragrid/pipeline/regions.hpp"

namespace terragrid {

/// Writes the map described by `info` into `file`, which must outlive this object and is
/// committed by its owner. Not thread-safe.
class TiledMapFile {
public:
    /// Writes the JSON before the terrain layer's data. Throws OutputError naming the file.
    TiledMapFile(AtomicFile& file, const TiledMapInfo& info);

    /// Adds the next row (top to bottom) of info.width cells' class indices to the terrain
    /// layer: gid = class + 1.
    void addRow(const std::uint8_t* classes);

    /// Ends the terrain layer, after info.height rows, and frees its zlib state: a map that
    /// waits for its blocked layer (a chunk, until the mask is final) holds only the JSON
    /// still to come. Called by finish() when not called before.
    void finishTerrain();

    /// Writes the blocked layer, the water layers and the rest of the file. `walkable` is the
    /// whole map's mask (this map's cells start at info.chunk's cell, or at 0, 0); the blocked
    /// gid marks its cells that are not set, gid 0 (no tile) the others. Required with
    /// info.blockedLayer, not read without. `lakes`, `rivers`: the export's water, of which
    /// the lake and river layers show this map's part; required with info.waterLayers, not
    /// read without. Call once.
    void finish(const BitRaster* walkable, const TiledLakes* lakes = nullptr,
                const TiledRivers* rivers = nullptr);

private:
    void writeBlockedLayer(const BitRaster& walkable);

    AtomicFile& m_file;
    std::int64_t m_width;
    std::int64_t m_height;
    std::int64_t m_col0;  // this map's top-left cell in the whole map
    std::int64_t m_row0;
    std::uint32_t m_blockedGid;
    bool m_blockedLayer;
    bool m_waterLayers;
    std::int64_t m_lakeLayerId;
    std::int64_t m_tilePixels;
    Rgb m_lakeColour;
    Rgb m_riverColour;
    std::int64_t m_rows = 0;
    std::vector<std::string> m_pieces;            // each emptied once written
    std::unique_ptr<LayerDataEncoder> m_terrain;  // null once the terrain layer is done
    std::vector<std::uint32_t> m_gids;            // one row while a layer is encoded
    bool m_finished = false;
};

}  // namespace terragrid

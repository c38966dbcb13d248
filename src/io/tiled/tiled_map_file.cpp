#include "io/tiled/tiled_map_file.hpp"

#include <stdexcept>
#include <utility>

#include "io/transaction/atomic_file.hpp"

namespace terragrid {

TiledMapFile::TiledMapFile(AtomicFile& file, const TiledMapInfo& info)
    : m_file(file),
      m_width(info.width),
      m_height(info.height),
      m_col0(info.chunk ? info.chunk->col0 : 0),
      m_row0(info.chunk ? info.chunk->row0 : 0),
      m_blockedGid(tiledBlockedGid(info.terrainTileCount)),
      m_blockedLayer(info.blockedLayer),
      m_waterLayers(info.waterLayers),
      m_lakeLayerId(tiledLakeLayerId(info)),
      m_tilePixels(info.tilePixels),
      m_lakeColour(info.lakeColour),
      m_riverColour(info.riverColour),
      m_pieces(tiledMapPieces(info)),
      m_terrain(std::make_unique<LayerDataEncoder>(file.fd(), file.targetPath())),
      m_gids(static_cast<std::size_t>(info.width)) {
    writeOrThrow(m_file.fd(), m_pieces.front(), m_file.targetPath());
    std::string().swap(m_pieces.front());
}

void TiledMapFile::addRow(const std::uint8_t* classes) {
    if (!m_terrain || m_rows == m_height) {
        throw std::logic_error("TiledMapFile: more than " + std::to_string(m_height) +
                               " rows for '" + m_file.targetPath() + "'");
    }
    ++m_rows;
    for (std::size_t i = 0; i < m_gids.size(); ++i) m_gids[i] = std::uint32_t{classes[i]} + 1;
    m_terrain->add(m_gids);
}

void TiledMapFile::finishTerrain() {
    if (!m_terrain) return;
    if (m_rows != m_height) {
        throw std::logic_error("TiledMapFile: " + std::to_string(m_rows) + " of " +
                               std::to_string(m_height) + " rows for '" + m_file.targetPath() +
                               "'");
    }
    m_terrain->finish();
    m_terrain.reset();
    std::vector<std::uint32_t>().swap(m_gids);
    // Between the layers, or without a blocked layer the end of the file.
    writeOrThrow(m_file.fd(), m_pieces[1], m_file.targetPath());
    std::string().swap(m_pieces[1]);
}

void TiledMapFile::finish(const BitRaster* walkable, const TiledLakes* lakes,
                          const TiledRivers* rivers) {
    if (m_finished) {
        throw std::logic_error("TiledMapFile::finish called twice for '" + m_file.targetPath() +
                               "'");
    }
    finishTerrain();
    if (m_blockedLayer) {
        if (walkable == nullptr || walkable->width() < m_col0 + m_width ||
            walkable->height() < m_row0 + m_height) {
            throw std::logic_error("TiledMapFile: the blocked layer of '" + m_file.targetPath() +
                                   "' needs a walkable mask that covers its cells");
        }
        writeBlockedLayer(*walkable);
        writeOrThrow(m_file.fd(), m_pieces[2], m_file.targetPath());
    }
    if (m_waterLayers) {
        if (lakes == nullptr || rivers == nullptr) {
            throw std::logic_error("TiledMapFile: the water layers of '" + m_file.targetPath() +
                                   "' need the lakes and the rivers");
        }
        const auto write = [&](const std::string& text) {
            writeOrThrow(m_file.fd(), text, m_file.targetPath());
        };
        // Object ids run on from the lakes to the rivers: unique in the map, as Tiled wants.
        std::int64_t objects = lakes->writeLayer(m_lakeLayerId, 1, m_col0, m_row0, m_width,
                                                 m_height, m_tilePixels, m_lakeColour, write);
        write(",");
        objects += rivers->writeLayer(m_lakeLayerId + 1, objects + 1, m_col0, m_row0, m_width,
                                      m_height, m_tilePixels, m_riverColour, write);
        write(tiledNextObjectId(std::move(m_pieces.back()), objects));
    }
    m_pieces.clear();
    m_finished = true;
}

void TiledMapFile::writeBlockedLayer(const BitRaster& walkable) {
    LayerDataEncoder blocked(m_file.fd(), m_file.targetPath());
    m_gids.resize(static_cast<std::size_t>(m_width));
    for (std::int64_t row = m_row0; row < m_row0 + m_height; ++row) {
        // Bit c of word k is column 64k + c (regions.hpp): read the words, not cell by cell.
        const std::uint64_t* words = walkable.rowWords(row);
        for (std::size_t i = 0; i < m_gids.size(); ++i) {
            const auto col = static_cast<std::uint64_t>(m_col0) + i;
            const bool open = (words[col >> 6] >> (col & 63)) & 1;
            m_gids[i] = open ? 0 : m_blockedGid;
        }
        blocked.add(m_gids);  // whole rows, as the encoder asks
    }
    blocked.finish();
    std::vector<std::uint32_t>().swap(m_gids);
}

}  // namespace terragrid

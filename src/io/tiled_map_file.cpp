#include "io/tiled_map_file.hpp"

#include <stdexcept>

namespace terragrid {

TiledMapFile::TiledMapFile(AtomicFile& file, const TiledMapInfo& info,
                           const std::vector<bool>& classWalkable)
    : m_file(file),
      m_width(info.width),
      m_height(info.height),
      m_pieces(tiledMapPieces(info)),
      m_terrain(file.fd(), file.targetPath()),
      m_gids(static_cast<std::size_t>(info.width)) {
    for (std::size_t i = 0; i < classWalkable.size() && i < m_blockedGidOf.size(); ++i) {
        m_blockedGidOf[i] = classWalkable[i] ? 0 : tiledBlockedGid(info.classCount);
    }
    if (info.blockedLayer) {
        m_blockedScratch = std::make_unique<ScratchFile>(file.targetPath());
        m_blocked =
            std::make_unique<LayerDataEncoder>(m_blockedScratch->fd(), file.targetPath());
    }
    writeAllOrThrow(m_file.fd(), m_pieces.front(), m_file.targetPath());
}

void TiledMapFile::addRow(const std::uint8_t* classes) {
    if (m_rows == m_height) {
        throw std::logic_error("TiledMapFile: more than " + std::to_string(m_height) +
                               " rows for '" + m_file.targetPath() + "'");
    }
    ++m_rows;
    for (std::size_t i = 0; i < m_gids.size(); ++i) m_gids[i] = std::uint32_t{classes[i]} + 1;
    m_terrain.add(m_gids);
    if (m_blocked) {
        for (std::size_t i = 0; i < m_gids.size(); ++i) m_gids[i] = m_blockedGidOf[classes[i]];
        m_blocked->add(m_gids);
    }
}

void TiledMapFile::finish() {
    if (m_rows != m_height) {
        throw std::logic_error("TiledMapFile: " + std::to_string(m_rows) + " of " +
                               std::to_string(m_height) + " rows for '" + m_file.targetPath() +
                               "'");
    }
    m_terrain.finish();
    writeAllOrThrow(m_file.fd(), m_pieces[1], m_file.targetPath());
    if (m_blocked) {
        m_blocked->finish();
        m_blockedScratch->copyTo(m_file.fd());
        writeAllOrThrow(m_file.fd(), m_pieces[2], m_file.targetPath());
        m_blocked.reset();
        m_blockedScratch.reset();  // its space is freed now, not at commit
    }
}

}  // namespace terragrid

// The Tiled export: a map for the Tiled level editor (mapeditor.org) with one tile per cell,
// its class as the tile, and the tilesets that say what each tile means.
//
// Tiled's layer data is row-major over the whole map, while the tiles arrive one at a time in
// tile order. The sink keeps a band of full-width rows of class bytes until the rows it needs
// are complete, and hands them to the map file, which compresses the terrain layer as they
// come (tiled_map_file.hpp). The blocked layer must show exactly the cells walkable.tif shows
// as not walkable, and with `terrain.connectivity: largest` that is known only once the whole
// map is in: so it is encoded in finish() from the finished WalkableRegions' mask (one bit a
// cell, held by the regions anyway), row by row, like walkable.tif. Memory is the band plus
// one zlib state, never a byte per cell of the map (design.md principle 4):
// - one map (map.tmj): the band is one row of tiles (tileSize x width bytes); it is emptied
//   each time a row of tiles completes.
// - chunk maps (map_<cx>_<cy>.tmj placed by map.world), when a side is above chunkCells: a row
//   of chunks completes every chunkCells rows, so the band holds at most chunkCells rows plus
//   the part of a row of tiles beyond them; each chunk of the row then gets its terrain layer
//   in turn, and waits, holding only the JSON still to come, for its blocked layer in
//   finish().

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/transaction/atomic_file.hpp"
#include "io/png/png_writer.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "io/tiled/tiled_map_file.hpp"
#include "io/tiled/tiled_map_json.hpp"
#include "io/tiled/tiled_lakes.hpp"
#include "io/tiled/tiled_rivers.hpp"
#include "io/tiled/tiled_tileset.hpp"
#include "terragrid/version.hpp"
#include "model/ceil_div.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

// Descriptors left for everything else a run has open (the other sinks, TBB, the standard
// streams) when checking that every chunk map can stay open until commit.
constexpr std::int64_t kDescriptorsForOthers = 64;

/// One tileset: its image and its .tsj, written in finish() and committed together.
struct TilesetFiles {
    TilesetFiles(const std::string& directory, TiledTileset set, std::string_view tsjName)
        : tileset(std::move(set)),
          image((fs::path(directory) / tileset.imageFile).string()),
          json((fs::path(directory) / tsjName).string()) {}

    void write() {
        const TilesetGrid grid = tilesetGrid(std::ssize(tileset.tiles));
        image.write(static_cast<std::uint32_t>(tileset.tilePixels * grid.columns),
                    static_cast<std::uint32_t>(tileset.tilePixels * grid.rows),
                    tilesetImageRgba(tileset), PngFormat::Rgba8);
        writeOrThrow(json.fd(), tilesetJson(tileset), json.targetPath());
    }

    void commit() {
        image.commit();
        json.commit();
    }

    TiledTileset tileset;
    PngWriter image;
    AtomicFile json;
};

class TiledSink final : public OutputSink {
public:
    TiledSink(const Config& config, const Terrain& terrain, const WalkableRegions* regions,
              const HydrologyStage* hydrology)
        : m_directory(config.output.directory),
          m_width(config.map.width),
          m_height(config.map.height),
          m_tilePixels(config.output.tiled.tilePixels),
          m_classCount(static_cast<std::int64_t>(terrain.classes().size())),
          m_blockedLayer(config.output.tiled.walkableLayer),
          m_chunked(config.output.tiled.chunkCells > 0 &&
                    (m_width > config.output.tiled.chunkCells ||
                     m_height > config.output.tiled.chunkCells)),
          m_chunkCells(m_chunked ? config.output.tiled.chunkCells : 0),
          m_seed(std::to_string(config.seed)),
          m_configHash(config.hash),
          m_noiseVersion(versionNumber(config.noiseVersion)),
          m_riverColour(config.hydrology.riverColour),
          m_regions(regions) {
        if (m_blockedLayer && m_regions == nullptr) {
            throw std::invalid_argument(
                "makeTiledSink: 'output.tiled.walkable_layer' needs the WalkableRegions");
        }
        if (config.hydrology.enabled) {
            if (hydrology == nullptr)
                throw std::invalid_argument("makeTiledSink: 'hydrology.enabled' needs the stage");
            const double cell = config.map.groundCell();
            m_rivers = std::make_unique<TiledRivers>(*hydrology, config.map.fullCol0,
                                                     config.map.fullRow0, cell * cell);
            m_lakes = std::make_unique<TiledLakes>(*hydrology, config.map.fullCol0,
                                                   config.map.fullRow0);
            for (const TerrainClass& c : terrain.classes())
                if (c.name == kLakeClassName) m_lakeColour = c.colour;
        }
        const std::string mapPath = outputPath(config, OutputFile::TiledMap);
        // path() is map.tmj for one map and map.world for a chunked one: the file to open.
        const std::string mainPath =
            m_chunked ? fs::path(mapPath).replace_extension(".world").string() : mapPath;
        checkSizes(config, mainPath);
        m_terrainTiles = std::make_unique<TilesetFiles>(
            m_directory, terrainTileset(terrain, m_tilePixels), kTerrainTilesetFile);
        if (m_blockedLayer) {
            m_blockedTiles = std::make_unique<TilesetFiles>(
                m_directory, blockedTileset(m_tilePixels), kBlockedTilesetFile);
        }
        m_mainFile = std::make_unique<AtomicFile>(mainPath);
        if (!m_chunked) {
            m_single = std::make_unique<TiledMapFile>(*m_mainFile, mapInfo(m_width, m_height));
        }
    }

    const std::string& path() const override { return m_mainFile->targetPath(); }
    std::vector<std::string> files() const override {
        std::vector<std::string> all{path()};
        for (const auto& chunk : m_chunkFiles) all.push_back(chunk->targetPath());
        for (const TilesetFiles* set : {m_terrainTiles.get(), m_blockedTiles.get()})
            if (set) all.insert(all.end(), {set->json.targetPath(), set->image.path()});
        return all;
    }

    void begin(const TileLayout& layout) override {
        if (layout.mapWidth() != m_width || layout.mapHeight() != m_height) {
            throw std::logic_error("Tiled sink for '" + path() +
                                   "' was made for another map size");
        }
    }

    void consume(const Tile& tile) override {
        const TileRect& r = tile.rect;
        const auto cells = static_cast<std::size_t>(r.cellCount());
        if (tile.classIndex.size() != cells) {
            throw std::logic_error("Tiled sink for '" + path() + "': tile " +
                                   std::to_string(r.index) + " lacks classes for some cells");
        }
        if (r.row0 < m_rowsReady) {  // a row of tiles that was already complete
            throw std::logic_error("Tiled sink for '" + path() + "': tile " +
                                   std::to_string(r.index) + " arrived out of order");
        }
        const auto highest = *std::max_element(tile.classIndex.begin(), tile.classIndex.end());
        if (highest >= m_classCount) {
            throw std::logic_error("Tiled sink for '" + path() + "': class " +
                                   std::to_string(highest) + " in tile " +
                                   std::to_string(r.index) + " is not in the tileset of " +
                                   std::to_string(m_classCount) + " classes");
        }
        const std::int64_t rowsNeeded = r.row0 + r.height - m_bandRow0;
        if (rowsNeeded > m_bandRows) {
            m_bandRows = rowsNeeded;
            m_bandClasses.resize(static_cast<std::size_t>(m_bandRows * m_width));
        }
        for (std::int64_t y = 0; y < r.height; ++y) {
            const auto from = static_cast<std::size_t>(y * r.width);
            const auto to = static_cast<std::size_t>((r.row0 + y - m_bandRow0) * m_width + r.col0);
            std::copy_n(tile.classIndex.begin() + static_cast<std::ptrdiff_t>(from), r.width,
                        m_bandClasses.begin() + static_cast<std::ptrdiff_t>(to));
        }
        if (r.col0 + r.width == m_width) {  // the last tile of its row of tiles
            m_rowsReady = r.row0 + r.height;
            drain();
        }
    }

    void finish() override {
        if (m_bandRow0 != m_height) {
            throw std::logic_error("Tiled sink for '" + path() + "': finish() after " +
                                   std::to_string(m_bandRow0) + " of " +
                                   std::to_string(m_height) + " rows");
        }
        const BitRaster* walkable = m_blockedLayer ? &finishedMask() : nullptr;
        if (m_single) {
            m_single->finish(walkable, m_lakes.get(), m_rivers.get());
        } else {
            // One zlib state at a time, chunk after chunk.
            for (auto& chunk : m_chunkMaps) chunk->finish(walkable, m_lakes.get(), m_rivers.get());
            m_chunkMaps.clear();
            writeOrThrow(m_mainFile->fd(), tiledWorldJson(worldMaps()), path());
        }
        m_terrainTiles->write();
        if (m_blockedTiles) m_blockedTiles->write();
    }

    void commit() override {
        // Everything a map refers to first, the file to open last: whoever watches for
        // map.tmj or map.world finds the rest already in place.
        m_terrainTiles->commit();
        if (m_blockedTiles) m_blockedTiles->commit();
        for (auto& chunk : m_chunkFiles) chunk->commit();
        m_mainFile->commit();
    }

private:
    // The mask after connectivity: the regions come before this sink in the generator's list,
    // so their finish() has run.
    const BitRaster& finishedMask() const {
        const BitRaster& mask = m_regions->mask();
        if (mask.width() != m_width || mask.height() != m_height) {
            throw std::logic_error("Tiled sink for '" + path() +
                                   "': the walkable regions are not finished (or are for "
                                   "another map); they must come before this sink");
        }
        return mask;
    }

    // Tiled keeps pixel sizes and positions in 32-bit ints, and keeps every chunk map's file
    // open until commit (AtomicFile); both are checked before any work is done.
    void checkSizes(const Config& config, const std::string& mainPath) const {
        if (m_tilePixels < 1 || config.output.tiled.chunkCells < 0 || m_width < 1 ||
            m_height < 1) {
            throw std::invalid_argument(
                "makeTiledSink: a map of " + std::to_string(m_width) + " x " +
                std::to_string(m_height) + " cells, 'output.tiled.tile_pixels' " +
                std::to_string(m_tilePixels) + " and 'output.tiled.chunk_cells' " +
                std::to_string(config.output.tiled.chunkCells) +
                " (sizes must be positive, chunk_cells 0 or more)");
        }
        const std::int64_t longest = std::max({m_width, m_height, m_classCount});
        if (longest > std::numeric_limits<std::int32_t>::max() / m_tilePixels) {
            throw OutputError("writing '" + mainPath + "': " + std::to_string(longest) +
                              " tiles of " + std::to_string(m_tilePixels) +
                              " pixels are more pixels than Tiled can address (2^31 - 1); "
                              "lower 'output.tiled.tile_pixels'");
        }
        if (!m_chunked) return;
        const std::int64_t chunks =
            ceilDiv(m_width, m_chunkCells) * ceilDiv(m_height, m_chunkCells);
        rlimit limit{};
        if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
            static_cast<rlim_t>(chunks + kDescriptorsForOthers) > limit.rlim_cur) {
            throw OutputError(
                "writing '" + mainPath + "': " + std::to_string(chunks) +
                " chunk maps stay open until the run commits them, more than the " +
                std::to_string(limit.rlim_cur) +
                " files this process may open; raise 'output.tiled.chunk_cells' (now " +
                std::to_string(m_chunkCells) + ") or the limit (ulimit -n)");
        }
    }

    TiledMapInfo mapInfo(std::int64_t width, std::int64_t height) const {
        TiledMapInfo info;
        info.width = width;
        info.height = height;
        info.tilePixels = m_tilePixels;
        info.terrainTileCount = terrainTileCount(m_classCount, m_tilePixels);
        info.blockedLayer = m_blockedLayer;
        info.waterLayers = m_rivers != nullptr;
        info.lakeColour = m_lakeColour;
        info.riverColour = m_riverColour;
        info.seed = m_seed;
        info.configHash = m_configHash;
        info.version = kVersion;
        info.noiseVersion = m_noiseVersion;
        return info;
    }

    // Hands every complete row the maps can take to them and drops those rows from the band.
    void drain() {
        std::int64_t done = 0;
        if (m_single) {
            for (std::int64_t row = m_bandRow0; row < m_rowsReady; ++row) {
                m_single->addRow(bandClasses(row, 0));
            }
            done = m_rowsReady - m_bandRow0;
        } else {
            while (m_bandRow0 + done < m_height) {
                const std::int64_t row0 = m_bandRow0 + done;
                const std::int64_t rows = std::min(m_chunkCells, m_height - row0);
                if (row0 + rows > m_rowsReady) break;
                writeChunkRow(row0, rows);
                done += rows;
            }
        }
        dropRows(done);
    }

    void writeChunkRow(std::int64_t row0, std::int64_t rows) {
        const std::int64_t chunkY = row0 / m_chunkCells;
        for (std::int64_t col0 = 0; col0 < m_width; col0 += m_chunkCells) {
            const std::int64_t chunkX = col0 / m_chunkCells;
            TiledMapInfo info = mapInfo(std::min(m_chunkCells, m_width - col0), rows);
            info.chunk = TiledChunkPlace{chunkX, chunkY, col0, row0};
            m_chunkFiles.push_back(std::make_unique<AtomicFile>(
                (fs::path(m_directory) / chunkFileName(chunkX, chunkY)).string()));
            auto map = std::make_unique<TiledMapFile>(*m_chunkFiles.back(), info);
            for (std::int64_t row = row0; row < row0 + rows; ++row) {
                map->addRow(bandClasses(row, col0));
            }
            map->finishTerrain();
            m_chunkMaps.push_back(std::move(map));
        }
    }

    static std::string chunkFileName(std::int64_t chunkX, std::int64_t chunkY) {
        return "map_" + std::to_string(chunkX) + "_" + std::to_string(chunkY) + ".tmj";
    }

    std::vector<TiledWorldMap> worldMaps() const {
        std::vector<TiledWorldMap> maps;
        for (std::int64_t row0 = 0; row0 < m_height; row0 += m_chunkCells) {
            for (std::int64_t col0 = 0; col0 < m_width; col0 += m_chunkCells) {
                maps.push_back({chunkFileName(col0 / m_chunkCells, row0 / m_chunkCells),
                                col0 * m_tilePixels, row0 * m_tilePixels,
                                std::min(m_chunkCells, m_width - col0) * m_tilePixels,
                                std::min(m_chunkCells, m_height - row0) * m_tilePixels});
            }
        }
        return maps;
    }

    const std::uint8_t* bandClasses(std::int64_t row, std::int64_t col) const {
        return m_bandClasses.data() + (row - m_bandRow0) * m_width + col;
    }

    // Moves the rows after the first `rows` to the top of the band.
    void dropRows(std::int64_t rows) {
        if (rows == 0) return;
        const auto from = static_cast<std::ptrdiff_t>(rows * m_width);
        const auto to = static_cast<std::ptrdiff_t>((m_rowsReady - m_bandRow0) * m_width);
        std::copy(m_bandClasses.begin() + from, m_bandClasses.begin() + to, m_bandClasses.begin());
        m_bandRow0 += rows;
    }

    std::string m_directory;
    std::int64_t m_width;
    std::int64_t m_height;
    std::int64_t m_tilePixels;
    std::int64_t m_classCount;
    bool m_blockedLayer;
    bool m_chunked;
    std::int64_t m_chunkCells;  // 0 for one map
    std::string m_seed;
    std::string m_configHash;
    int m_noiseVersion;
    Rgb m_riverColour;
    Rgb m_lakeColour;
    const WalkableRegions* m_regions;  // read only with the blocked layer
    std::unique_ptr<TiledRivers> m_rivers;  // with hydrology: the river layer's lines
    std::unique_ptr<TiledLakes> m_lakes;    // and the lake layer's shores

    std::unique_ptr<TilesetFiles> m_terrainTiles;
    std::unique_ptr<TilesetFiles> m_blockedTiles;  // null without the blocked layer
    std::unique_ptr<AtomicFile> m_mainFile;         // map.tmj, or map.world for chunks
    std::unique_ptr<TiledMapFile> m_single;         // one map: written as the rows come
    std::vector<std::unique_ptr<AtomicFile>> m_chunkFiles;
    std::vector<std::unique_ptr<TiledMapFile>> m_chunkMaps;  // terrain done, until finish()

    // Rows m_bandRow0 .. m_bandRow0 + m_bandRows of the map, full width; those before
    // m_rowsReady are complete.
    std::vector<std::uint8_t> m_bandClasses;
    std::int64_t m_bandRow0 = 0;
    std::int64_t m_bandRows = 0;
    std::int64_t m_rowsReady = 0;
};

}  // namespace

std::unique_ptr<OutputSink> makeTiledSink(const Config& config, const Terrain& terrain,
                                          const WalkableRegions* regions,
                                          const HydrologyStage* hydrology) {
    return std::make_unique<TiledSink>(config, terrain, regions, hydrology);
}

namespace {
// The export's bounds: the files the sink above writes, as it writes them.
namespace tiled_bounds {

using bounds::Bytes;
using bounds::cells;
using bounds::deflateBound;
using bounds::kKiB;

// One Tiled map file: its JSON and one base64, zlib-compressed layer of 32-bit gids per layer.
Bytes mapFileBound(std::int64_t width, std::int64_t height, Bytes layers) {
    const Bytes layer = 4 * bounds::ceilDiv(deflateBound(4 * cells(width, height)), 3);
    return 4 * kKiB + layers * layer;
}

// A .tsj (each tile's entry and Wang tile, each class's name twice more as a Wang colour) and
// its RGBA image, laid out as the writer does.
Bytes tilesetBound(std::int64_t tilePixels, std::int64_t tiles, Bytes namesBytes) {
    const Bytes json = 2 * kKiB + Bytes(tiles) * 384 + 3 * namesBytes;
    const TilesetGrid grid = tilesetGrid(tiles);
    return json + bounds::pngBound(tilePixels * grid.columns, tilePixels * grid.rows, 4);
}

Bytes chunkCount(std::int64_t w, std::int64_t h, std::int64_t c) {
    return bounds::ceilDiv(Bytes(w), Bytes(c)) * bounds::ceilDiv(Bytes(h), Bytes(c));
}

// Chunk maps of c x c cells, narrower or shorter at the right and bottom edges, and map.world
// with an entry per chunk.
Bytes chunkMapsBound(std::int64_t w, std::int64_t h, std::int64_t c, Bytes layers) {
    const std::int64_t across = w / c, down = h / c, restW = w % c, restH = h % c;
    const auto maps = [&](std::int64_t n, std::int64_t cw, std::int64_t m, std::int64_t ch) {
        return n > 0 && m > 0 && cw > 0 && ch > 0 ? Bytes(n * m) * mapFileBound(cw, ch, layers)
                                                  : Bytes(0);
    };
    return maps(across, c, down, c) + maps(1, restW, down, c) + maps(across, c, 1, restH) +
           maps(1, restW, 1, restH) + kKiB + chunkCount(w, h, c) * 192;
}

// The river layer's lines (io/tiled_rivers), from the whole map's hydrology grid: every river
// cell is one point of one reach, and each reach adds at most one more (where it flows into
// a lake, the sea or the edge, or a one-cell river's second point). A reach starts at a source
// or a confluence; sources drain disjoint areas of more rain than the river threshold, so
// there are at most (the map's rain) / (the threshold) of them, and fewer confluences.
// The lake layer's shores (io/tiled_lakes) run along hydrology cell corners, each corner in
// at most two rings (where parts meet diagonally); lake parts are at most half the cells.
struct RiverFigures {
    Bytes gridCells = 0;
    Bytes gridCorners = 0;
    Bytes reaches = 0;
    Bytes points() const { return gridCells + reaches; }
};

RiverFigures riverFigures(const Config& config) {
    if (!config.hydrology.enabled) return {};
    const std::int64_t f = hydrologyFactor(config);
    RiverFigures r;
    const Bytes gw = bounds::ceilDiv(Bytes(config.map.wholeWidth()), Bytes(f));
    const Bytes gh = bounds::ceilDiv(Bytes(config.map.wholeHeight()), Bytes(f));
    r.gridCells = gw * gh;
    r.gridCorners = (gw + 1) * (gh + 1);
    const double threshold = config.hydrology.riverThresholdSquareMeters /
                             (config.map.groundCell() * config.map.groundCell());
    const double rain = double(r.gridCells) * double(f) * double(f);
    const double sources = std::floor(rain / std::max(threshold, 1e-30));
    r.reaches = std::min(r.gridCells, Bytes(std::min(2 * sources + 1, double(r.gridCells))));
    return r;
}

// In a map file, each segment of a line that reaches it writes at most two points (64 bytes
// each at most) and starts at most one object (400 bytes); with chunks, a segment (at most
// factor + 1 cells long) reaches at most `spread` maps.
Bytes riverLayersBound(const Config& config, Bytes files) {
    const RiverFigures r = riverFigures(config);
    if (r.gridCells == 0) return 0;
    const std::int64_t c = config.output.tiled.chunkCells;
    Bytes spread = 1;
    if (files > 1) {
        const Bytes across = bounds::ceilDiv(Bytes(hydrologyFactor(config) + 1), Bytes(c)) + 1;
        spread = across * across;
    }
    const Bytes rivers = spread * r.points() * (2 * 64 + 400) + files * 256;
    // Lakes: a file's polygons are the parts with area in it, at most the parts (half the
    // cells) plus those straddling its border (a hydrology cell each on it, 4 (side + 2) at
    // most); their points the corners inside it (a corner lies in at most four files), two
    // crossings per border cell and the four corners of each clipped part.
    const Bytes side = Bytes(files > 1 ? c : std::max(config.map.width, config.map.height));
    const Bytes parts = r.gridCells / 2 + 1 + files * 4 * (side + 2);
    const Bytes points = 4 * 2 * r.gridCorners + files * 8 * (side + 1) + 4 * parts;
    return rivers + 64 * points + 400 * parts + files * 256;
}

// map.tmj, or chunk maps and map.world; the tilesets beside them.
PlannedOutput disk(const Config& config) {
    const TiledConfig& tiled = config.output.tiled;
    const std::int64_t w = config.map.width, h = config.map.height, c = tiled.chunkCells;
    const Bytes layers = tiled.walkableLayer ? 2 : 1;
    // The run's table: with hydrology, lake and river come at its end.
    const auto classes =
        static_cast<std::int64_t>(withWaterClasses(config, config.terrain.classes).size());
    PlannedOutput out = bounds::plannedFile(config, OutputFile::TiledMap, 0, true);
    out.bytes = tilesetBound(tiled.tilePixels, terrainTileCount(classes, tiled.tilePixels),
                             bounds::classNamesBytes(config, 64));
    out.files = 2;
    if (tiled.walkableLayer) {
        out.bytes += tilesetBound(tiled.tilePixels, 1, 0);
        out.files += 2;
    }
    if (c <= 0 || (w <= c && h <= c)) {  // one map
        out.bytes += mapFileBound(w, h, layers) + riverLayersBound(config, 1);
        out.files += 1;
        return out;
    }
    out.bytes += chunkMapsBound(w, h, c, layers) +
                 riverLayersBound(config, static_cast<Bytes>(chunkCount(w, h, c)));
    out.files += 1 + static_cast<std::int64_t>(chunkCount(w, h, c));
    out.path = fs::path(out.path).replace_extension(".world").string();
    return out;
}

// A band of class rows (up to a chunk row and a tile row), one zlib stream, the chunk maps'
// files until commit, and the terrain tileset's RGBA image, drawn whole before it is encoded.
WriterMemory memory(const Config& config, int) {
    const TiledConfig& tiled = config.output.tiled;
    const Bytes w = Bytes(config.map.width), h = Bytes(config.map.height);
    const Bytes band = Bytes(std::min(config.map.tileSizeCells, config.map.height));
    const Bytes chunk = tiled.chunkCells > 0 ? Bytes(tiled.chunkCells) : 0;
    const Bytes chunks = chunk > 0 ? bounds::ceilDiv(w, chunk) * bounds::ceilDiv(h, chunk) : 1;
    const std::int64_t p = tiled.tilePixels;
    const TilesetGrid grid = tilesetGrid(
        terrainTileCount(static_cast<std::int64_t>(
                             withWaterClasses(config, config.terrain.classes).size()),
                         p));
    const Bytes image = Bytes(grid.columns * p) * Bytes(grid.rows * p) * 4;
    // With hydrology, the river lines (16 bytes a point, under 80 a reach) and, while they are
    // made, the stage's reaches as cell indices, a river mask and a copy of the receivers
    // (9 bytes a cell, 48 a reach); the lakes' outer rings (8 bytes a corner, 64 a part) and,
    // while they are made, every ring (as much again); the layers are written through a
    // 1 MiB buffer.
    const RiverFigures r = riverFigures(config);
    const Bytes rivers = r.gridCells == 0
                             ? 0
                             : 16 * r.points() + 80 * r.reaches + 9 * r.gridCells +
                                   48 * r.reaches + 2 * (8 * 2 * r.gridCorners) +
                                   2 * 64 * (r.gridCells / 2 + 1) + 2 * 1024 * kKiB;
    return {MemoryGroup::Writers,
            w * (band + chunk) + 4 * w + bounds::kCodecState + chunks * 4 * kKiB + image +
                rivers,
            0};
}

}  // namespace tiled_bounds
}  // namespace

// The blocked layer shows the cells walkable.tif shows as 0: the regions' mask.
constexpr OutputDriver kTiledMapDriver{
    .file = OutputFile::TiledMap,
    .name = "map.tmj",
    .needsClasses = alwaysNeeded,
    .needsRegions = [](const Config& config) { return config.output.tiled.walkableLayer; },
    .readsHydrology = true,  // the river layer
    .makeSink = [](const Config& config, const SinkInputs& in) {
        // One check after the other (argument order is unspecified), so a call with neither
        // names the Terrain first.
        const Terrain& classes = requiredInput(in.terrain, OutputFile::TiledMap, "a Terrain");
        const WalkableRegions* blocked =
            config.output.tiled.walkableLayer
                ? &requiredInput(in.regions, OutputFile::TiledMap,
                                 "the WalkableRegions for 'output.tiled.walkable_layer'")
                : nullptr;
        const HydrologyStage* hydrology =
            config.hydrology.enabled
                ? &requiredInput(in.hydrology, OutputFile::TiledMap, "the hydrology stage")
                : nullptr;
        return makeTiledSink(config, classes, blocked, hydrology);
    },
    .diskBound = tiled_bounds::disk,
    .memoryBound = tiled_bounds::memory,
};
static_assert(namedAsInTable(kTiledMapDriver));
const DriverRegistration kTiledMapRegistered{kTiledMapDriver};

}  // namespace terragrid

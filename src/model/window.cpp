#include "terragrid/model/window.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <vector>

#include "terragrid/model/tiling.hpp"

namespace terragrid {

namespace {

constexpr std::size_t kShownChars = 40;

/// The user's text as a message quotes it: in quotes, long text cut short.
std::string quoted(std::string_view text) {
    if (text.size() > kShownChars) return "'" + std::string(text.substr(0, kShownChars)) + "...'";
    return "'" + std::string(text) + "'";
}

/// A whole number of digits alone (no sign, no spaces) that fits in int64.
std::optional<std::int64_t> parseCount(std::string_view text) {
    std::int64_t value = 0;
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t at = text.find(separator, start);
        parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
        if (at == std::string_view::npos) return parts;
        start = at + 1;
    }
}

std::string str(std::int64_t v) { return std::to_string(v); }

std::string regionText(const CellWindow& w) {
    return str(w.col0) + "," + str(w.row0) + "," + str(w.width) + "," + str(w.height);
}

std::string windowText(const MapWindow& window) {
    if (window.shard) return str(window.shard->index) + "/" + str(window.shard->count);
    return regionText(window.cells);
}

/// "'--shard' 1/4": how messages name the window. (Appended piece by piece: GCC 12 warns
/// falsely, -Wrestrict, about `"'" + std::string(...)` here.)
std::string optionAndValue(const MapWindow& window) {
    std::string text = "'";
    text += window.optionName();
    text += "' ";
    text += windowText(window);
    return text;
}

void checkInsideMap(const MapConfig& map, const MapWindow& window) {
    const CellWindow& w = window.cells;
    const std::string what = optionAndValue(window);
    if (w.width < 1 || w.height < 1)
        throw WindowError(what + ": WIDTH and HEIGHT must be at least 1 cell (got " +
                          str(w.width) + " x " + str(w.height) + ")");
    if (w.col0 < 0 || w.row0 < 0)
        throw WindowError(what + ": X and Y must be at least 0 (got " + str(w.col0) + ", " +
                          str(w.row0) + ")");
    // Compared as differences, so huge values cannot overflow a sum.
    if (w.col0 >= map.width || w.width > map.width - w.col0)
        throw WindowError(what + " reaches past the map's right edge: X + WIDTH must be at most "
                          "map.width " + str(map.width) + " (got " + str(w.col0) + " + " +
                          str(w.width) + ")");
    if (w.row0 >= map.height || w.height > map.height - w.row0)
        throw WindowError(what + " reaches past the map's bottom edge: Y + HEIGHT must be at "
                          "most map.height " + str(map.height) + " (got " + str(w.row0) + " + " +
                          str(w.height) + ")");
}

/// Whole-map analyses cannot be split: a piece would keep its own largest region.
void checkNeedsNoWholeMap(const World& config, const MapWindow& window) {
    if (config.terrain.connectivity != Connectivity::Largest ||
        window.cells == wholeMap(config.map))
        return;
    throw WindowError(optionAndValue(window) + " cannot be used with 'terrain.connectivity' \"largest\": keeping only the "
                      "largest walkable region needs the whole map, and each piece would keep "
                      "its own (use \"report\", or generate the whole map)");
}

}  // namespace

CellWindow wholeMap(const MapConfig& map) noexcept { return {0, 0, map.width, map.height}; }

CellWindow parseRegion(std::string_view text) {
    const auto parts = split(text, ',');
    std::array<std::int64_t, 4> v{};
    bool ok = parts.size() == v.size();
    for (std::size_t i = 0; ok && i < v.size(); ++i) {
        const auto value = parseCount(parts[i]);
        ok = value.has_value();
        if (ok) v[i] = *value;
    }
    if (!ok)
        throw WindowError("'--region' must be X,Y,WIDTH,HEIGHT in cells: four whole numbers "
                          "separated by commas (got " + quoted(text) + ")");
    const CellWindow w{v[0], v[1], v[2], v[3]};
    if (w.width < 1 || w.height < 1)
        throw WindowError("'--region' " + regionText(w) +
                          ": WIDTH and HEIGHT must be at least 1 cell (got " + str(w.width) +
                          " x " + str(w.height) + ")");
    return w;
}

Shard parseShard(std::string_view text) {
    const auto parts = split(text, '/');
    const auto index = parts.size() == 2 ? parseCount(parts[0]) : std::nullopt;
    const auto count = parts.size() == 2 ? parseCount(parts[1]) : std::nullopt;
    if (!index || !count)
        throw WindowError("'--shard' must be K/N: shard K of N, two whole numbers, K counted "
                          "from 0 (got " + quoted(text) + ")");
    if (*count < 1 || *count > kMaxShards)
        throw WindowError("'--shard' " + quoted(text) + ": N must be between 1 and " +
                          str(kMaxShards) + " (got " + str(*count) + ")");
    if (*index >= *count)
        throw WindowError("'--shard' " + quoted(text) + ": K must be between 0 and N-1 = " +
                          str(*count - 1) + ", shards are numbered from 0 (got " + str(*index) +
                          ")");
    return {*index, *count};
}

CellWindow shardWindow(const MapConfig& map, const Shard& shard) noexcept {
    const TileLayout layout(map);
    const std::int64_t rows = layout.tilesDown();
    // rows and count are at most 2^20, so the products fit easily.
    const std::int64_t first = shard.index * rows / shard.count;
    const std::int64_t last = (shard.index + 1) * rows / shard.count;
    const std::int64_t row0 = std::min(first * map.tileSizeCells, map.height);
    const std::int64_t row1 = std::min(last * map.tileSizeCells, map.height);
    return {0, row0, map.width, row1 - row0};
}

MapWindow regionWindow(const World& config, const CellWindow& region) {
    MapWindow window{region, std::nullopt};
    checkWindow(config, window);
    return window;
}

MapWindow shardMapWindow(const World& config, const Shard& shard) {
    const std::int64_t rows = TileLayout(config.map).tilesDown();
    if (shard.count > rows)
        throw WindowError("'--shard' " + str(shard.index) + "/" + str(shard.count) + " asks for " +
                          str(shard.count) + " shards, but the map has only " + str(rows) +
                          " rows of tiles (map.height " + str(config.map.height) +
                          ", map.tile_size " + str(config.map.tileSizeCells) +
                          "): use at most " + str(rows) + " shards, or a smaller tile size");
    MapWindow window{shardWindow(config.map, shard), shard};
    checkWindow(config, window);
    return window;
}

void checkWindow(const World& config, const MapWindow& window) {
    checkInsideMap(config.map, window);
    checkNeedsNoWholeMap(config, window);
}

MapConfig windowMap(const MapConfig& whole, const CellWindow& window) {
    MapConfig map = whole;
    map.width = window.width;
    map.height = window.height;
    // What the surface needs to place the window's cells in the full map (wrapping, planet,
    // falloff), and the grid (TileLayout: from the full map's origin, never the window's).
    map.fullCol0 = whole.fullCol0 + window.col0;
    map.fullRow0 = whole.fullRow0 + window.row0;
    map.fullWidth = whole.wholeWidth();
    map.fullHeight = whole.wholeHeight();
    map.fullOriginX = whole.wholeOriginX();
    map.fullOriginY = whole.wholeOriginY();
    // The same expression GDAL evaluates for the full map's pixel corner (origin + index *
    // size), and x + 0 * size == x, so a window at the map's corner keeps its origin exactly.
    map.originX = whole.originX + static_cast<double>(window.col0) * whole.cellSize;
    map.originY = whole.originY - static_cast<double>(window.row0) * whole.cellSize;
    return map;
}

}  // namespace terragrid

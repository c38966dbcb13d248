#include "terragrid/pipeline/window_arrays.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace terragrid {

namespace {

/// The tile's cells of one layer, or null when the tile does not carry it.
const void* tileLayer(const Tile& tile, Layer layer) {
    switch (layer) {
        case Layer::Height: return tile.elevationMeters.data();
        case Layer::Classes: return tile.classIndex.data();
        case Layer::Walkable: return tile.walkable.data();
        case Layer::Moisture: return tile.moisture.data();
        case Layer::Water: return tile.water.data();
        case Layer::WaterDepth: return tile.waterDepth.data();
        case Layer::Flow: return tile.flow.data();
        case Layer::RiverOrder: return tile.riverOrder.data();
    }
    return nullptr;
}

/// Copies the tile's rows of every wanted layer into the window's arrays.
void place(const Tile& tile, const CellWindow& window, const WindowArrays& out) {
    const TileRect& rect = tile.rect;
    for (std::size_t i = 0; i < kLayerCount; ++i) {
        auto* dst = static_cast<unsigned char*>(out.layers[i]);
        if (!dst) continue;
        const auto* src = static_cast<const unsigned char*>(tileLayer(tile, Layer(i)));
        const std::size_t bytes = kLayers[i].cellBytes;
        const std::size_t rowBytes = static_cast<std::size_t>(rect.width) * bytes;
        for (std::int64_t r = 0; r < rect.height; ++r) {
            const std::int64_t at = (rect.row0 - window.row0 + r) * window.width +
                                    (rect.col0 - window.col0);
            std::memcpy(dst + static_cast<std::size_t>(at) * bytes,
                        src + static_cast<std::size_t>(r) * rowBytes, rowBytes);
        }
    }
}

}  // namespace

void generateWindow(const MapFields& fields, const CellWindow& window, const WindowArrays& out) {
    if (window.width <= 0 || window.height <= 0) return;
    // Tiles of the map's own tile size, counted from the window's corner: any cut gives the
    // same cells (principle 1), and this one keeps the tile memory the run plans for.
    const std::int64_t size = std::max<std::int64_t>(1, fields.config.map.tileSizeCells);
    const std::int64_t across = (window.width + size - 1) / size;
    const std::int64_t down = (window.height + size - 1) / size;
    tbb::enumerable_thread_specific<Tile> scratch;
    tbb::parallel_for(std::int64_t{0}, across * down, [&](std::int64_t index) {
        const std::int64_t tx = index % across, ty = index / across;
        TileRect rect;
        rect.index = index;
        rect.col0 = window.col0 + tx * size;
        rect.row0 = window.row0 + ty * size;
        rect.width = std::min(size, window.col0 + window.width - rect.col0);
        rect.height = std::min(size, window.row0 + window.height - rect.row0);
        Tile& tile = scratch.local();
        generateTile(fields, rect, tile);
        place(tile, window, out);
    });
}

}  // namespace terragrid

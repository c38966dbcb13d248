#pragma once
// A window of a map generated into the caller's arrays: the library's door (the Python module,
// the C API) to the batch run's pixels. It cuts the window into tiles of map.tile_size, has
// generateTile make each one in parallel (the same call the batch run makes, design.md
// principle 9) and copies each layer's cells into place, so every array holds exactly the
// bits the run's rasters hold for the same cells.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "terragrid/model/window.hpp"
#include "terragrid/pipeline/generator.hpp"

namespace terragrid {

/// The per-cell layers a window can hold. Height and moisture need no terrain; classes and
/// walkable need MapFields::terrain; the last four need MapFields::hydrology.
enum class Layer : std::uint8_t {
    Height,      ///< float, metres (height.tif)
    Classes,     ///< uint8, index into Terrain::classes() (classes.tif)
    Walkable,    ///< uint8, 1 walkable, 0 not, before terrain.connectivity (walkable.tif with
                 ///< "report" or "none")
    Moisture,    ///< float, 0..1: the moisture layer the classes read (no output file)
    Water,       ///< uint8, Water: 0 land, 1 lake or sea, 2 river (water.tif)
    WaterDepth,  ///< float, metres of standing water (water_depth.tif)
    Flow,        ///< float, flow accumulation in map cells' worth (flow.tif)
    RiverOrder,  ///< uint8, Strahler order of river cells, 0 elsewhere
    Last = RiverOrder
};
inline constexpr std::size_t kLayerCount = std::size_t(Layer::Last) + 1;

/// Each layer's name (the Python module's dictionary keys) and its bytes per cell.
struct LayerInfo {
    std::string_view name;
    std::size_t cellBytes;
    bool needsTerrain;
    bool needsHydrology;
};
inline constexpr std::array<LayerInfo, kLayerCount> kLayers{{
    {"height", 4, false, false},
    {"classes", 1, true, false},
    {"walkable", 1, true, false},
    {"moisture", 4, false, false},
    {"water", 1, false, true},
    {"depth", 4, false, true},
    {"flow", 4, false, true},
    {"order", 1, false, true},
}};
static_assert(kLayers.size() == kLayerCount);

/// Where each layer goes: a row-major array of window.width x window.height cells, tightly
/// packed (unit stride, row pitch = width), of the layer's type (float or uint8_t); null for
/// a layer not wanted.
struct WindowArrays {
    std::array<void*, kLayerCount> layers{};

    void*& operator[](Layer layer) noexcept { return layers[std::size_t(layer)]; }
    void* operator[](Layer layer) const noexcept { return layers[std::size_t(layer)]; }
};

/// Fills every non-null array of `out` with the cells of `window` of fields.config's map
/// (fields of the whole configured map, not of a windowConfig), generating tiles of
/// map.tile_size in parallel in the calling thread's TBB arena. Each cell equals the batch
/// run's cell at the same map index, bit for bit, whatever the window, tile size or threads.
/// Preconditions: the window lies inside the map; classes and walkable only with
/// fields.terrain, moisture only with fields.keepMoisture, the water layers only with
/// fields.hydrology. Thread-safe (fields are read only); never throws but std::bad_alloc.
void generateWindow(const MapFields& fields, const CellWindow& window, const WindowArrays& out);

}  // namespace terragrid

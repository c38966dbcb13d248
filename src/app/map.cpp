#include "terragrid/app/map.hpp"

#include <mutex>
#include <optional>

#include "terragrid/config/terrain_messages.hpp"
#include "terragrid/pipeline/regions.hpp"

namespace terragrid {

/// The whole-map results windows share, each made once (std::call_once: a first call that
/// throws leaves it to be tried again).
struct Map::Stages {
    std::once_flag terrainOnce;
    std::optional<Terrain> terrain;
    std::once_flag hydrologyOnce;
    std::optional<HydrologyStage> hydrology;
};

Map::Map(LoadedConfig config) : m_config(std::move(config)), m_stages(std::make_unique<Stages>()) {}

Map::~Map() = default;

std::string layerName(Layer layer) {
    return "'" + std::string(kLayers[std::size_t(layer)].name) + "'";
}

bool Map::hasLayer(Layer layer) const noexcept {
    return !kLayers[std::size_t(layer)].needsHydrology || m_config.hydrology.enabled;
}

const Terrain& Map::terrain() const {
    std::call_once(m_stages->terrainOnce, [&] {
        try {
            m_stages->terrain.emplace(makeTerrain(m_config));
        } catch (const TerrainError& e) {
            throw configErrorFrom(e);
        }
    });
    return *m_stages->terrain;
}

const HydrologyStage* Map::hydrology() const {
    if (!m_config.hydrology.enabled) return nullptr;
    std::call_once(m_stages->hydrologyOnce,
                   [&] { m_stages->hydrology.emplace(computeHydrology(m_config)); });
    return &*m_stages->hydrology;
}

namespace {

/// walkable.tif's rule for terrain.connectivity "largest": only the largest 4-connected
/// region stays walkable (WalkableRegions::finish, on the same functions).
void keepLargestRegion(std::uint8_t* walkable, const CellWindow& window) {
    BitRaster mask(window.width, window.height);
    for (std::int64_t r = 0; r < window.height; ++r)
        for (std::int64_t c = 0; c < window.width; ++c)
            mask.set(c, r, walkable[r * window.width + c] != 0);
    keepOnlyRegion(mask, analyseRegions(mask).largestAnchor);
    for (std::int64_t r = 0; r < window.height; ++r)
        for (std::int64_t c = 0; c < window.width; ++c)
            walkable[r * window.width + c] = mask.get(c, r) ? 1 : 0;
}

}  // namespace

void Map::generate(const CellWindow& window, const WindowArrays& out) const {
    checkWindow(m_config, MapWindow{window, std::nullopt, "window"});
    bool classes = false;
    for (std::size_t i = 0; i < kLayerCount; ++i) {
        if (!out.layers[i]) continue;
        if (!hasLayer(Layer(i)))
            throw LayerError("layer " + layerName(Layer(i)) +
                             " needs hydrology.enabled true (got false)");
        classes = classes || kLayers[i].needsTerrain;
    }
    MapFields fields(m_config, classes ? &terrain() : nullptr, hydrology());
    fields.keepMoisture = out[Layer::Moisture] != nullptr;
    generateWindow(fields, window, out);
    if (out[Layer::Walkable] && m_config.terrain.connectivity == Connectivity::Largest)
        keepLargestRegion(static_cast<std::uint8_t*>(out[Layer::Walkable]), window);
}

}  // namespace terragrid

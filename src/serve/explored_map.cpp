#include "serve/explored_map.hpp"

#include <algorithm>
#include <cmath>

#include "io/geotiff/raster_styles.hpp"
#include "terragrid/config/terrain_messages.hpp"
#include "terragrid/io/crs.hpp"

namespace terragrid::serve {
namespace {

Terrain terrainOf(const Config& config) {
    try {
        return makeTerrain(config);
    } catch (const TerrainError& e) {
        throw configErrorFrom(e);
    }
}

std::uint8_t highestOrder(const HydrologyStage& stage) {
    std::uint8_t order = 0;
    for (const std::uint8_t o : stage.strahler) order = std::max(order, o);
    return order;
}

}  // namespace

std::string_view nameOf(HydrologyStatus::State state) noexcept {
    switch (state) {
        case HydrologyStatus::State::None: return "none";
        case HydrologyStatus::State::Running: return "running";
        case HydrologyStatus::State::Done: return "done";
        case HydrologyStatus::State::Failed: return "failed";
        case HydrologyStatus::State::Cancelled: return "cancelled";
    }
    return "none";
}

MapWater::MapWater(std::unique_ptr<HydrologyStage> computed, const Config& config,
                   const Terrain& terrain, int pyramidLevels,
                   const std::function<bool()>& stopRequested)
    : stage(std::move(computed)),
      fields(config, &terrain, stage.get()),
      rivers(*stage, fields, pyramidLevels, stopRequested),
      maxOrder(highestOrder(*stage)),
      heightPainter(config, nullptr, heightRamp(config, &terrain, stage.get())),
      // The bound preview.png rounds with (PreviewSink), at one cell per pixel.
      quantum(mapHeightRange(config, stage.get()).magnitudeMeters(), 1) {}

ExploredMap::ExploredMap(LoadedConfig config)
    : m_config(std::move(config)),
      m_terrain(terrainOf(m_config)),
      m_pyramid(m_config.map.width, m_config.map.height),
      m_preview(m_config, &m_terrain, HeightRamp{}),
      // Until the stage is done the tiles show the noise heights, uneroded: over their range
      // (an eroded map's range needs the stage; MapWater has it).
      m_height(m_config, nullptr,
               heightRamp(m_config, &m_terrain, noiseHeightRange(m_config))),
      // The bound preview.png rounds with (PreviewSink), at one cell per pixel.
      m_quantum(noiseHeightRange(m_config).magnitudeMeters(), 1),
      m_cellMeters(cellMetres(m_config.map, m_config.output.crs).square()),
      m_dry(m_config, &m_terrain) {}

std::shared_ptr<const MapWater> ExploredMap::water() const {
    const std::lock_guard lock(m_mutex);
    return m_water;
}

void ExploredMap::setWater(std::shared_ptr<const MapWater> water) {
    const std::lock_guard lock(m_mutex);
    m_water = std::move(water);
}

HydrologyStatus ExploredMap::hydrologyStatus() const {
    const std::lock_guard lock(m_mutex);
    return m_status;
}

std::uint64_t ExploredMap::startHydrologyJob() {
    const std::lock_guard lock(m_mutex);
    m_status = {HydrologyStatus::State::Running, "starting", 0.0, {}};
    return ++m_job;
}

bool ExploredMap::hydrologyWanted(std::uint64_t job) const {
    const std::lock_guard lock(m_mutex);
    return job == m_job;
}

void ExploredMap::setHydrologyStatus(std::uint64_t job, const HydrologyStatus& status) {
    const std::lock_guard lock(m_mutex);
    if (job == m_job) m_status = status;
}

void ExploredMap::cancelHydrology() {
    const std::lock_guard lock(m_mutex);
    ++m_job;
    if (m_status.state == HydrologyStatus::State::Running)
        m_status = {HydrologyStatus::State::Cancelled, "cancelled", 0.0, {}};
}

std::shared_ptr<const std::string> ExploredMap::cachedStats(bool wet) const {
    const std::lock_guard lock(m_mutex);
    return m_stats[wet ? 1 : 0];
}

void ExploredMap::cacheStats(bool wet, std::shared_ptr<const std::string> json) const {
    const std::lock_guard lock(m_mutex);
    m_stats[wet ? 1 : 0] = std::move(json);
}

}  // namespace terragrid::serve

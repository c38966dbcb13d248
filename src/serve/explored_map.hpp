#pragma once
// One config as the explorer serves it: the loaded config, its terrain, the colour tables of
// the batch pictures, the tile pyramid, and the whole-map water once the hydrology stage is
// done. Immutable but for the water, which the hydrology job sets once. Shared read-only by
// every request for the config's hash. Private to src/serve.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "io/png/preview.hpp"
#include "io/png/preview_painter.hpp"
#include "serve/river_pyramid.hpp"
#include "serve/tile_address.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid::serve {

/// The hydrology stage of a map and what tiles read of it.
struct MapWater {
    MapWater(std::unique_ptr<HydrologyStage> stage, const Config& config, const Terrain& terrain,
             int pyramidLevels, const std::function<bool()>& stopRequested);

    std::unique_ptr<const HydrologyStage> stage;
    MapFields fields;        ///< the map's fields with this stage
    RiverPyramid rivers;     ///< river orders at every zoom below the highest
    std::uint8_t maxOrder;   ///< the stage's highest Strahler order (margins of river disks)
    /// height.png's colours and the heights' rounding with this stage: with erosion the
    /// eroded heights' range (mapHeightRange), as the batch run colours and rounds them.
    PreviewPainter heightPainter;
    HeightQuantum quantum;
};

/// Where the background hydrology stage of a map stands.
struct HydrologyStatus {
    enum class State : std::uint8_t { None, Running, Done, Failed, Cancelled };
    State state = State::None;
    std::string phase;
    double progress = 0;  ///< 0..1
    std::string error;
};
std::string_view nameOf(HydrologyStatus::State state) noexcept;

class ExploredMap {
public:
    /// Resolves the terrain (coverage thresholds sample the map): throws ConfigError when a
    /// coverage target cannot be reached, as a run would.
    explicit ExploredMap(LoadedConfig config);
    ExploredMap(const ExploredMap&) = delete;
    ExploredMap& operator=(const ExploredMap&) = delete;

    const LoadedConfig& config() const noexcept { return m_config; }
    const std::string& hash() const noexcept { return m_config.hash; }
    const Terrain& terrain() const noexcept { return m_terrain; }
    const TilePyramid& pyramid() const noexcept { return m_pyramid; }
    const PreviewPainter& previewPainter() const noexcept { return m_preview; }
    /// height.png's colours and the heights' rounding without the stage: over the noise
    /// heights' range (noiseHeightRange). With hydrology, the water's own (MapWater) once the
    /// stage is done: with erosion the heights' range is the eroded one.
    const PreviewPainter& heightPainter() const noexcept { return m_height; }
    /// Cells as the batch pictures at one pixel per cell round their elevations (without the
    /// stage; see heightPainter).
    const HeightQuantum& quantum() const noexcept { return m_quantum; }
    /// Ground metres of one cell (hill shading).
    double cellMeters() const noexcept { return m_cellMeters; }
    bool hydrologyEnabled() const noexcept { return m_config.hydrology.enabled; }
    /// The fields without water: every layer before the stage is done (no lakes or rivers
    /// yet, the noise heights uneroded), and every layer of a map without hydrology.
    const MapFields& dryFields() const noexcept { return m_dry; }

    /// The water, once the stage is done; null before (and always without hydrology).
    std::shared_ptr<const MapWater> water() const;
    void setWater(std::shared_ptr<const MapWater> water);

    HydrologyStatus hydrologyStatus() const;
    /// A new stage job: its number, now the only one whose status counts and that is wanted.
    /// The status turns to Running.
    std::uint64_t startHydrologyJob();
    /// Whether job `job` is still wanted (no newer job started, no cancel since).
    bool hydrologyWanted(std::uint64_t job) const;
    /// Job `job`'s progress; ignored unless it is still wanted.
    void setHydrologyStatus(std::uint64_t job, const HydrologyStatus& status);
    /// Stops wanting the running job (it stops at its next phase or erosion step); the status
    /// turns to Cancelled at once.
    void cancelHydrology();

    /// The statistics (/api/stats) of this map, made once per state of the water and kept.
    std::shared_ptr<const std::string> cachedStats(bool wet) const;
    void cacheStats(bool wet, std::shared_ptr<const std::string> json) const;

private:
    LoadedConfig m_config;
    Terrain m_terrain;
    TilePyramid m_pyramid;
    PreviewPainter m_preview;
    PreviewPainter m_height;
    HeightQuantum m_quantum;
    double m_cellMeters;
    MapFields m_dry;

    mutable std::mutex m_mutex;
    std::shared_ptr<const MapWater> m_water;
    HydrologyStatus m_status;
    std::uint64_t m_job = 0;  ///< the wanted stage job; 0: none
    mutable std::shared_ptr<const std::string> m_stats[2];  ///< [wet]
};

}  // namespace terragrid::serve

#pragma once
// A map opened by a library: a validated config whose windows are generated on demand into
// the caller's arrays, cell for cell the batch run's (design.md principle 9). The Python module
// (python/) and the C API (include/terragrid/terragrid.h) are thin doors onto this class.
//
// What a window needs from the whole map is made once, on first use, and shared by every
// later window: the terrain classes (coverage thresholds are estimated on the whole map, as a
// run does) and, with hydrology, the whole-map stage.

#include <memory>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/model/window.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "terragrid/pipeline/window_arrays.hpp"

namespace terragrid {

/// A layer asked of a map that cannot make it (a water layer without hydrology), or an
/// argument the library cannot take. what() names the layer or argument, the rule and the
/// value.
class LayerError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Map {
public:
    explicit Map(LoadedConfig config);
    ~Map();
    Map(const Map&) = delete;
    Map& operator=(const Map&) = delete;

    const LoadedConfig& config() const noexcept { return m_config; }

    /// Whether this config can make `layer`: the water layers need hydrology.enabled.
    bool hasLayer(Layer layer) const noexcept;

    /// The classes Layer::Classes indexes (makeTerrain of the whole map), made on first use.
    /// Throws ConfigError when a coverage target cannot be reached. Thread-safe.
    const Terrain& terrain() const;

    /// The whole map's hydrology stage, computed on first use; null without hydrology.
    /// Thread-safe; runs in the calling thread's TBB arena.
    const HydrologyStage* hydrology() const;

    /// Fills the non-null arrays of `out` with `window` of the map (WindowArrays: tightly
    /// packed, row-major), in the calling thread's TBB arena. Throws, before writing a cell,
    /// WindowError (the window does not lie inside the map, or the config needs the whole map:
    /// terrain.connectivity "largest"), LayerError (a layer this config cannot make), or
    /// ConfigError (terrain()). With terrain.connectivity "largest" the whole map's walkable
    /// layer keeps only the largest region, as walkable.tif does. Thread-safe: several
    /// threads may generate windows of one Map at once.
    void generate(const CellWindow& window, const WindowArrays& out) const;

private:
    struct Stages;
    LoadedConfig m_config;
    std::unique_ptr<Stages> m_stages;
};

/// "'classes'" or "'order'": a layer as messages name it.
std::string layerName(Layer layer);

}  // namespace terragrid

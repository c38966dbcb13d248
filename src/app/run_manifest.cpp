#include "app/run_manifest.hpp"

#include "terragrid/pipeline/hydrology_stage.hpp"
#include "terragrid/version.hpp"

namespace terragrid {

Manifest runManifest(const Config& config, const MapWindow* window) {
    Manifest m;
    m.terragridVersion = kVersion;
    m.configHash = config.hash;
    m.noiseVersion = versionNumber(config.noiseVersion);
    m.hydrologyVersion = config.hydrology.enabled ? kHydrologyAlgorithmVersion : 0;
    m.mapWidth = config.map.width;
    m.mapHeight = config.map.height;
    m.window = window ? window->cells : wholeMap(config.map);
    if (window) m.shard = window->shard;
    m.configJson = config.hashedJson;
    return m;
}

}  // namespace terragrid

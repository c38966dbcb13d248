#pragma once
// The whole-map hydrology stage of an explored map, computed in the background once its config
// is loaded: progress in the map's HydrologyStatus, cancelled when the map is replaced (its
// next phase or erosion step stops it), the water set on the map when done. Tiles that do not
// wait for it are served meanwhile. Private to src/serve.

#include <memory>

#include "serve/explored_map.hpp"

namespace terragrid::serve {

/// Starts the stage of `map` (hydrology enabled) on a thread of its own, in a TBB arena of
/// `threads`. The thread keeps `map` alive until it ends; ExploredMap::cancelHydrology stops
/// it early.
void startHydrologyJob(const std::shared_ptr<ExploredMap>& map, int threads);

}  // namespace terragrid::serve

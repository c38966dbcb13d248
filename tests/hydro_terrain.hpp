#pragma once
// Test and benchmark terrains for the hydrology: the default config's height noise on a square
// map, as metres (elevation.min..max) and as the noise itself in [0, 1].

#include <cstdint>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/hydro/erosion.hpp"
#include "terragrid/hydro/grid.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "terragrid/model/layer_stack.hpp"
#include "terragrid/model/surface.hpp"

namespace terragrid::test {

/// The erosion parameters of the built-in default config (hydrology.erosion).
inline hydro::ErosionParams defaultErosion() {
    return erosionParams(defaultConfig().hydrology.erosion);
}

struct NoiseTerrain {
    hydro::Grid metres;             ///< elevation.min + noise (elevation.max - elevation.min)
    std::vector<float> unit;        ///< the noise, in [0, 1]
};

/// The default map's height noise on size x size cells (cell size and seed from the default
/// config unless overridden, e.g. "seed=3").
inline NoiseTerrain noiseTerrain(std::int32_t size, std::vector<std::string> overrides = {}) {
    overrides.push_back("map.width=" + std::to_string(size));
    overrides.push_back("map.height=" + std::to_string(size));
    const LoadedConfig config = defaultConfig(overrides);
    const Surface surface(config.map);
    const LayerStack stack(config.height, surface, config.seed);
    std::vector<std::int64_t> cols(static_cast<std::size_t>(size));
    for (std::int32_t c = 0; c < size; ++c) cols[std::size_t(c)] = c;
    LayerStackRows rows(stack, cols.data(), cols.size());
    NoiseTerrain t;
    t.metres.width = t.metres.height = size;
    t.metres.cellSize = config.map.cellSize;
    const double lo = config.elevation.minMeters, hi = config.elevation.maxMeters;
    std::vector<double> row(cols.size());
    for (std::int32_t r = 0; r < size; ++r) {
        rows.row(r, row.data());
        for (const double v : row) {
            t.unit.push_back(float(v));
            t.metres.z.push_back(float(lo + v * (hi - lo)));
        }
    }
    return t;
}

}  // namespace terragrid::test

#include "io/height_range.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace terragrid {

bool heightRangeNeedsStage(const World& world) noexcept {
    return world.hydrology.enabled && world.hydrology.erosion.enabled;
}

double HeightRange::magnitudeMeters() const noexcept {
    return std::max(std::abs(minMeters), std::abs(maxMeters));
}

HeightRange noiseHeightRange(const World& world) noexcept {
    return {world.elevation.minMeters, world.elevation.maxMeters, false};
}

HeightRange mapHeightRange(const World& world, const HydrologyStage* stage) {
    const double low = world.elevation.minMeters, high = world.elevation.maxMeters;
    if (!heightRangeNeedsStage(world)) return noiseHeightRange(world);
    if (stage == nullptr || stage->erodedHeight.empty() ||
        stage->erodedHeight.size() != stage->erosionDelta.size())
        throw std::invalid_argument(
            "mapHeightRange: an eroded map's height range needs its hydrology stage");
    HeightRange range{0, 0, true};
    if (stage->factor == 1) {
        const auto [lo, hi] =
            std::minmax_element(stage->erodedHeight.begin(), stage->erodedHeight.end());
        range.minMeters = *lo;
        range.maxMeters = *hi;
    } else {
        // The tiles add the interpolated change to the noise height in float
        // (hydrologyCells). The noise height is the generator's float(low + span * v) with v
        // on 0..1, monotone in v, so it lies between its values at 0 and 1; the blend lies
        // between the least and the greatest change; float addition is monotone: these sums
        // bound every cell.
        const double span = high - low;
        const auto noiseAt = [&](double v) { return static_cast<float>(low + span * v); };
        const auto [lo, hi] =
            std::minmax_element(stage->erosionDelta.begin(), stage->erosionDelta.end());
        range.minMeters = noiseAt(0.0) + *lo;
        range.maxMeters = noiseAt(1.0) + *hi;
    }
    if (!(range.maxMeters > range.minMeters)) range.maxMeters = range.minMeters + 1.0;
    return range;
}

}  // namespace terragrid

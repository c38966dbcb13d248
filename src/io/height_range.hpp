#pragma once
// The elevations a map's cells take, as every output that puts heights on a fixed scale needs
// them before the first tile: the 16-bit exports (height.r16, height16.png, height16.tif) and
// their sidecars, the engine sidecars, and the colour ramps of height.png and height.qml. One
// function, so they all agree; derived from the config and the whole map's hydrology stage,
// never from a window's cells, so every shard and window of a map maps heights the same way.
// Internal to src/io.

#include "terragrid/model/world.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

struct HeightRange {
    double minMeters = 0;
    double maxMeters = 1;  ///< > minMeters
    /// The eroded heights' range from the hydrology stage, not elevation.min..max.
    bool eroded = false;

    /// The greatest absolute height: the bound the pictures round heights with
    /// (HeightQuantum), the batch preview's and the explorer's tiles alike.
    double magnitudeMeters() const noexcept;
};

/// The range of `world`'s heights. Without erosion, elevation.min..max: the noise is normalised
/// into it from its parameters (design.md, principle 3), so no cell lies outside. With erosion
/// the eroded ground can rise above elevation.max and sink below elevation.min, and the range
/// comes from `stage` (the whole map's, required then: std::invalid_argument when null):
/// at hydrology resolution 1 the least and greatest eroded height (the map's cells exactly);
/// at coarser resolutions a bound, elevation.min plus the least erosion change to
/// elevation.max plus the greatest (a map cell is its noise height plus a bilinear blend of the
/// changes at the sample points around it, hydrologyCells). A range of a single height is
/// widened to one metre above it. Pure, thread-safe.
HeightRange mapHeightRange(const World& world, const HydrologyStage* stage);

/// The range of `world`'s heights before erosion, elevation.min..max: the whole range of a
/// map without erosion, and of an eroded map's noise heights (what the explorer shows until
/// its hydrology stage is done). Pure.
HeightRange noiseHeightRange(const World& world) noexcept;

/// Whether mapHeightRange needs the hydrology stage for `world` (erosion is on).
bool heightRangeNeedsStage(const World& world) noexcept;

}  // namespace terragrid

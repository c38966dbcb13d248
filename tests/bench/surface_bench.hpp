#pragma once
// Planets (3D noise on a sphere) and tileable maps (4D noise on a torus) through the
// generator's rows (LayerStackRows), next to the flat map's, and their summary lines.

#include <ostream>

#include "summary.hpp"

namespace terragrid::bench {

/// How many times the flat 2D Perlin cost per sample a planet or tileable layer may take.
inline constexpr double kTargetSurfaceOverFlat = 3.0;

/// "surface/planet/perlin/fbm8/threads:1" and the like, for a plane, a planet and a wrap map.
void registerSurfaceBenchmarks();

/// ns per sample of each surface layer on one thread, its ratio to the flat Perlin fBm layer
/// measured the same way, and "within 3x flat Perlin: PASS" or MISS per planet / wrap layer.
void printSurfaceSummary(const SummaryReporter& results, std::ostream& out);

}  // namespace terragrid::bench

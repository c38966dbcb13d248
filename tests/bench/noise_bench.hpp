#pragma once
// Registration of the noise benchmarks and the names the summary looks them up by.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "terragrid/noise/noise.hpp"

namespace terragrid::bench {

inline constexpr NoiseKind kNoiseKinds[] = {NoiseKind::Value, NoiseKind::Perlin,
                                            NoiseKind::Simplex, NoiseKind::GenericLattice,
                                            NoiseKind::Cellular};
inline constexpr FractalKind kFractals[] = {FractalKind::None, FractalKind::Fbm};
/// Edge of the corner the scalar reference samples: a sixteenth of the grid keeps it quick.
inline constexpr std::int64_t kScalarCornerCells = 1024;
/// Rows of the grid (every column) libnoise samples: its cost per sample does not depend on
/// where it samples, and the whole grid would take it 6 s on an idle 2 GHz core.
inline constexpr std::int64_t kLibnoiseRows = 1024;
inline constexpr const char* kLibnoiseName = "libnoise/perlin/fbm8/threads:1";

/// "rows/perlin/fbm8/threads:2": NoiseRows over the whole grid with `threads` TBB threads.
std::string rowsName(NoiseKind noise, FractalKind fractal, int threads);
/// "sample/perlin/fbm8/threads:1": NoiseField::sample over the corner, one thread.
std::string scalarName(NoiseKind noise, FractalKind fractal);

/// "rows/perlin-warped/fbm8/threads:1": a warped layer's rows (Perlin or simplex fBm warped by
/// the default warp), one thread. The summary's warped line is Perlin's (issue 30's target).
std::string warpedRowsName(NoiseKind noise = NoiseKind::Perlin);

/// 1, 2 and every core (each once, none above what TBB offers on this machine).
std::vector<int> benchThreadCounts();

/// Reports ns per sample and samples per second. Benchmarks time real time (the work runs on
/// TBB threads) and the whole process's CPU time (so the CPU column counts every thread).
void setSampleCounters(benchmark::State& state, std::int64_t samplesPerIteration);

/// Registers the noise benchmarks; the context line "simd" names the best Highway target they
/// run (bench_main's --max-target can lower it).
void registerNoiseBenchmarks(const std::vector<int>& threadCounts);
void registerLibnoiseBenchmark();

/// "fastnoise2/perlin/fbm8/threads:1": FastNoise2's fBm of its Perlin or simplex over the whole
/// grid, one GenUniformGrid2D call, one thread (fastnoise2_bench.cpp).
std::string fastNoise2Name(NoiseKind noise);
/// Whether this bench was built with FastNoise2 (scripts/bench.sh's TERRAGRID_FASTNOISE2_DIR).
bool haveFastNoise2();
/// Registers FastNoise2's Perlin and simplex fBm at the feature set matching the best Highway
/// target the rows may use (--max-target=AVX2 limits FastNoise2 to its FeatureSet::AVX2);
/// nothing without FastNoise2.
void registerFastNoise2Benchmarks();

}  // namespace terragrid::bench

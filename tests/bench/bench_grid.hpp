#pragma once
// The grid the noise benchmarks walk: the default map's geometry and layer parameters on a
// 4096 x 4096 map, cut into 256 x 256 tiles the way the generator cuts it.

#include <cstdint>
#include <string>

#include "terragrid/noise/noise.hpp"
#include "terragrid/model/tiling.hpp"

namespace terragrid::bench {

inline constexpr std::int64_t kGridCells = 4096;  ///< edge of the benchmark map, cells
inline constexpr std::int64_t kTileCells = 256;   ///< edge of one tile, cells
inline constexpr std::int64_t kGridSamples = kGridCells * kGridCells;
inline constexpr int kFbmOctaves = 8;

/// The built-in default config's height layer (frequency, lacunarity, persistence, fade, hash,
/// offsets, noise version) with `noise` and `fractal` swapped in; fBm gets kFbmOctaves octaves.
NoiseParams benchLayer(NoiseKind noise, FractalKind fractal);

/// Makes benchLayer use noise_version `version` (1, 2, ...) instead of the default's; false if
/// there is no such version. (bench_main's --noise-version.)
bool setBenchNoiseVersion(int version);
/// The noise_version benchLayer uses.
int benchNoiseVersion();
/// Whether that is the default config's noise_version (no --noise-version, or the same one).
bool benchesDefaultNoiseVersion();

/// The built-in default config's seed.
std::uint64_t benchSeed();

/// The default map's cell grid (30 world units per cell, origin 0): x = (col + 0.5) * 30.
GridGeometry benchGrid();

/// "perlin/fbm8", "value/single": how benchmark names and the summary spell a layer.
std::string layerName(NoiseKind noise, FractalKind fractal);

/// Every cell of the kGridCells^2 grid through NoiseRows, one NoiseRows per tile, tiles in
/// parallel in the calling thread's TBB arena (like the generator). Returns a checksum so
/// the work cannot be optimised away.
double evaluateGridRows(const NoiseField& field, const GridGeometry& grid);

/// The top-left `cells` x `cells` corner of the grid through NoiseField::sample, one cell at a
/// time in the calling thread: the scalar reference. Returns a checksum.
double evaluateCornerScalar(const NoiseField& field, const GridGeometry& grid, std::int64_t cells);

}  // namespace terragrid::bench

#include "bench_grid.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <functional>
#include <vector>

#include "terragrid/config/loader.hpp"

namespace terragrid::bench {

namespace {

constexpr std::int64_t kTilesAcross = kGridCells / kTileCells;
static_assert(kGridCells % kTileCells == 0, "the grid must be whole tiles");

/// One tile's rows, as the generator evaluates them: column x once, then row by row.
double evaluateTile(const NoiseField& field, const GridGeometry& grid, std::int64_t tile) {
    const std::int64_t col0 = (tile % kTilesAcross) * kTileCells;
    const std::int64_t row0 = (tile / kTilesAcross) * kTileCells;
    std::vector<double> xs(kTileCells);
    for (std::int64_t c = 0; c < kTileCells; ++c) xs[c] = grid.cellX(col0 + c);
    NoiseRows rows(field, xs.data(), xs.size());
    std::vector<double> out(kTileCells);
    double sum = 0;
    for (std::int64_t r = 0; r < kTileCells; ++r) {
        rows.row(grid.cellY(row0 + r), out.data());
        // One value per row keeps the checksum cheap next to the noise itself.
        sum += out[static_cast<std::size_t>(r)];
    }
    return sum;
}

}  // namespace

namespace {
int g_version = 0;  // 0: the default config's (read late: defaultConfig() is not for static init)
}

bool setBenchNoiseVersion(int version) {
    if (version < 1 || version > versionNumber(NoiseVersion::Last)) return false;
    g_version = version;
    return true;
}

int benchNoiseVersion() {
    return g_version != 0 ? g_version : versionNumber(defaultConfig().noiseVersion);
}

bool benchesDefaultNoiseVersion() {
    return benchNoiseVersion() == versionNumber(defaultConfig().noiseVersion);
}

NoiseParams benchLayer(NoiseKind noise, FractalKind fractal) {
    NoiseParams p = defaultConfig().height.base;
    p.version = static_cast<NoiseVersion>(benchNoiseVersion() - 1);
    p.noise = noise;
    p.fractal = fractal;
    if (fractal != FractalKind::None) p.octaves = kFbmOctaves;
    return p;
}

std::uint64_t benchSeed() {
    return defaultConfig().seed;
}

GridGeometry benchGrid() {
    GridGeometry g;
    g.cellSize = defaultConfig().map.cellSize;
    return g;
}

std::string layerName(NoiseKind noise, FractalKind fractal) {
    const std::string kind(kNoiseKindNames[static_cast<std::size_t>(noise)]);
    if (fractal == FractalKind::None) return kind + "/single";
    return kind + "/" + std::string(kFractalKindNames[static_cast<std::size_t>(fractal)]) +
           std::to_string(kFbmOctaves);
}

double evaluateGridRows(const NoiseField& field, const GridGeometry& grid) {
    const tbb::blocked_range<std::int64_t> tiles(0, kTilesAcross * kTilesAcross, 1);
    return tbb::parallel_reduce(
        tiles, 0.0,
        [&](const tbb::blocked_range<std::int64_t>& r, double sum) {
            for (std::int64_t t = r.begin(); t != r.end(); ++t) sum += evaluateTile(field, grid, t);
            return sum;
        },
        std::plus<double>());
}

double evaluateCornerScalar(const NoiseField& field, const GridGeometry& grid, std::int64_t cells) {
    double sum = 0;
    for (std::int64_t r = 0; r < cells; ++r) {
        const double y = grid.cellY(r);
        for (std::int64_t c = 0; c < cells; ++c) sum += field.sample(grid.cellX(c), y);
    }
    return sum;
}

}  // namespace terragrid::bench

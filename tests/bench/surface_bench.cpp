// Planets and tileable maps through LayerStackRows (CurvedRows per layer; NoiseRows for the
// layers versions 5 and 6 tile by their lattice), and a flat map the same way as the yardstick: one layer of the default height settings, 8-octave fBm, on a
// 4096-cell-wide map in 256 x 256 tiles, one LayerStackRows per tile as the generator does.

#include "surface_bench.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_grid.hpp"
#include "noise_bench.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/model/layer_stack.hpp"

namespace terragrid::bench {

namespace {

enum class Shape { Plane, Planet, Wrap };
constexpr const char* kShapeNames[] = {"plane", "planet", "wrap"};

struct Case {
    Shape shape;
    NoiseKind noise;
};
constexpr Case kCases[] = {{Shape::Plane, NoiseKind::Perlin},   {Shape::Plane, NoiseKind::Simplex},
                           {Shape::Planet, NoiseKind::Perlin},  {Shape::Planet, NoiseKind::Simplex},
                           {Shape::Planet, NoiseKind::Value},   {Shape::Wrap, NoiseKind::Perlin},
                           {Shape::Wrap, NoiseKind::Simplex},   {Shape::Wrap, NoiseKind::Value}};

/// Whether the bench's noise version has the case: value noise on a wrapping map needs
/// version 5, which tiles it by its lattice (it has no 4D form).
bool measured(const Case& c) {
    return c.shape != Shape::Wrap || c.noise != NoiseKind::Value || benchNoiseVersion() >= 5;
}
constexpr int kThreadCounts[] = {1, 2};

std::string caseName(const Case& c, int threads) {
    return std::string("surface/") + kShapeNames[static_cast<int>(c.shape)] + "/" +
           layerName(c.noise, FractalKind::Fbm) + "/threads:" + std::to_string(threads);
}

/// The default map, kGridCells wide: a planet half as tall (its equator is as long as the flat
/// map is wide, 30 units a cell), the others square.
MapConfig mapOf(Shape shape) {
    MapConfig map = defaultConfig().map;
    map.width = kGridCells;
    map.height = shape == Shape::Planet ? kGridCells / 2 : kGridCells;
    map.tileSizeCells = kTileCells;
    map.groundCellSize = map.cellSize;
    if (shape == Shape::Planet) {
        map.projection = Projection::Equirectangular;
        map.cellSize = 360.0 / static_cast<double>(kGridCells);  // degrees
    }
    map.wrap = shape == Shape::Wrap;
    return map;
}

double evaluateTile(const LayerStack& stack, const MapConfig& map, std::int64_t tile) {
    const std::int64_t across = map.width / kTileCells;
    const std::int64_t col0 = (tile % across) * kTileCells;
    const std::int64_t row0 = (tile / across) * kTileCells;
    std::vector<std::int64_t> cols(kTileCells);
    for (std::int64_t c = 0; c < kTileCells; ++c) cols[c] = col0 + c;
    LayerStackRows rows(stack, cols.data(), cols.size());
    std::vector<double> out(kTileCells);
    double sum = 0;
    for (std::int64_t r = 0; r < kTileCells; ++r) {
        rows.row(row0 + r, out.data());
        sum += out[static_cast<std::size_t>(r)];
    }
    return sum;
}

void surfaceBenchmark(benchmark::State& state, Case c, int threads) {
    const MapConfig map = mapOf(c.shape);
    LayerStackParams params = defaultConfig().height;
    params.base = benchLayer(c.noise, FractalKind::Fbm);
    params.layers.clear();
    const Surface surface(map);
    const LayerStack stack(params, surface, benchSeed());
    const std::int64_t tiles = (map.width / kTileCells) * (map.height / kTileCells);
    tbb::task_arena arena(threads);
    for (auto _ : state) {
        double sum = 0;
        arena.execute([&] {
            sum = tbb::parallel_reduce(
                tbb::blocked_range<std::int64_t>(0, tiles, 1), 0.0,
                [&](const tbb::blocked_range<std::int64_t>& r, double s) {
                    for (std::int64_t t = r.begin(); t != r.end(); ++t)
                        s += evaluateTile(stack, map, t);
                    return s;
                },
                std::plus<double>());
        });
        benchmark::DoNotOptimize(sum);
    }
    setSampleCounters(state, map.width * map.height);
}

}  // namespace

void registerSurfaceBenchmarks() {
    for (const Case& c : kCases)
        for (int threads : kThreadCounts)
            if (measured(c))
            benchmark::RegisterBenchmark(caseName(c, threads).c_str(), surfaceBenchmark, c, threads)
                ->UseRealTime()
                ->MeasureProcessCPUTime()
                ->Unit(benchmark::kMillisecond);
}

void printSurfaceSummary(const SummaryReporter& results, std::ostream& out) {
    const Case flat{Shape::Plane, NoiseKind::Perlin};
    const double flatRate = results.samplesPerSecond(caseName(flat, 1));
    bool any = false;
    for (const Case& c : kCases) any = any || results.samplesPerSecond(caseName(c, 1)) > 0;
    if (!any) return;
    out << "== planets (3D) and wrapping maps (4D; value and Perlin on their 2D lattice with noise_version 5, "
           "simplex with 6): one " << kFbmOctaves
        << "-octave fBm layer through LayerStackRows, " << kGridCells << " cells wide ==\n";
    for (const Case& c : kCases) {
        if (!measured(c)) continue;
        const double rate = results.samplesPerSecond(caseName(c, 1));
        const double two = results.samplesPerSecond(caseName(c, 2));
        // "-" for a case the filter left out (the AVX2 pass of scripts/bench.sh runs 1 thread).
        const auto nsPerSample = [](double samplesPerSecond) {
            char cell[32];
            if (samplesPerSecond > 0)
                std::snprintf(cell, sizeof cell, "%7.1f ns/sample", 1e9 / samplesPerSecond);
            else
                std::snprintf(cell, sizeof cell, "%7s ns/sample", "-");
            return std::string(cell);
        };
        char line[256];
        std::snprintf(line, sizeof line, "%-22s %s   2 threads %s",
                      (std::string(kShapeNames[static_cast<int>(c.shape)]) + " " +
                       layerName(c.noise, FractalKind::Fbm))
                          .c_str(),
                      nsPerSample(rate).c_str(), nsPerSample(two).c_str());
        out << line;
        if (c.shape != Shape::Plane && rate > 0 && flatRate > 0) {
            const double times = flatRate / rate;
            std::snprintf(line, sizeof line, "   %5.2fx flat Perlin   within %gx flat Perlin: %s",
                          times, kTargetSurfaceOverFlat,
                          times <= kTargetSurfaceOverFlat ? "PASS" : "MISS");
            out << line;
        }
        out << "\n";
    }
}

}  // namespace terragrid::bench

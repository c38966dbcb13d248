// NoiseRows over the grid (the generator's hot path) and NoiseField::sample (the reference).

#include "noise_bench.hpp"

#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <hwy/targets.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "bench_grid.hpp"

namespace terragrid::bench {

namespace {

void rowsBenchmark(benchmark::State& state, NoiseKind noise, FractalKind fractal, int threads) {
    const NoiseField field(benchLayer(noise, fractal), benchSeed());
    const GridGeometry grid = benchGrid();
    tbb::task_arena arena(threads);
    for (auto _ : state) {
        double sum = 0;
        arena.execute([&] { sum = evaluateGridRows(field, grid); });
        benchmark::DoNotOptimize(sum);
    }
    setSampleCounters(state, kGridSamples);
}

/// The benchmark layer warped by the default warp with a visible amplitude (the islands
/// preset's order of magnitude).
void warpedRowsBenchmark(benchmark::State& state, NoiseKind noise) {
    NoiseParams p = benchLayer(noise, FractalKind::Fbm);
    p.warp.amplitude = 600.0;
    const NoiseField field(p, benchSeed());
    const GridGeometry grid = benchGrid();
    tbb::task_arena arena(1);
    for (auto _ : state) {
        double sum = 0;
        arena.execute([&] { sum = evaluateGridRows(field, grid); });
        benchmark::DoNotOptimize(sum);
    }
    setSampleCounters(state, kGridSamples);
}

void scalarBenchmark(benchmark::State& state, NoiseKind noise, FractalKind fractal) {
    const NoiseField field(benchLayer(noise, fractal), benchSeed());
    const GridGeometry grid = benchGrid();
    for (auto _ : state)
        benchmark::DoNotOptimize(evaluateCornerScalar(field, grid, kScalarCornerCells));
    setSampleCounters(state, kScalarCornerCells * kScalarCornerCells);
}

}  // namespace

std::string rowsName(NoiseKind noise, FractalKind fractal, int threads) {
    return "rows/" + layerName(noise, fractal) + "/threads:" + std::to_string(threads);
}

std::string scalarName(NoiseKind noise, FractalKind fractal) {
    return "sample/" + layerName(noise, fractal) + "/threads:1";
}

std::string warpedRowsName(NoiseKind noise) {
    return "rows/" + std::string(kNoiseKindNames[static_cast<std::size_t>(noise)]) + "-warped/fbm" +
           std::to_string(kFbmOctaves) + "/threads:1";
}

std::vector<int> benchThreadCounts() {
    const int cores = tbb::info::default_concurrency();
    std::vector<int> counts{1};
    if (cores >= 2) counts.push_back(2);
    if (cores > 2) counts.push_back(cores);
    return counts;
}

void setSampleCounters(benchmark::State& state, std::int64_t samplesPerIteration) {
    const auto samples = static_cast<double>(samplesPerIteration);
    state.SetItemsProcessed(state.iterations() * samplesPerIteration);
    // Inverted rate: seconds / (iterations * samples), which the table shows as e.g. "3.6ns".
    state.counters["time/sample"] = benchmark::Counter(
        samples, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void registerNoiseBenchmarks(const std::vector<int>& threadCounts) {
    // The best target left after --max-target (bench_main.cpp): the kernels that ran.
    benchmark::AddCustomContext("simd", hwy::TargetName(hwy::SupportedTargets() & -hwy::SupportedTargets()));
    for (NoiseKind noise : kNoiseKinds)
        for (FractalKind fractal : kFractals) {
            for (int threads : threadCounts)
                benchmark::RegisterBenchmark(rowsName(noise, fractal, threads).c_str(),
                                             rowsBenchmark, noise, fractal, threads)
                    ->UseRealTime()
                    ->MeasureProcessCPUTime()
                    ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(scalarName(noise, fractal).c_str(), scalarBenchmark, noise,
                                         fractal)
                ->UseRealTime()
                ->MeasureProcessCPUTime()
                ->Unit(benchmark::kMillisecond);
        }
    for (NoiseKind noise : {NoiseKind::Perlin, NoiseKind::Simplex})
        benchmark::RegisterBenchmark(warpedRowsName(noise).c_str(), warpedRowsBenchmark, noise)
            ->UseRealTime()
            ->MeasureProcessCPUTime()
            ->Unit(benchmark::kMillisecond);
}

}  // namespace terragrid::bench

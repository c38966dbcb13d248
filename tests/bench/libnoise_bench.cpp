// libnoise's Perlin module on the same grid: the yardstick design.md asks the noise to beat.

#include <libnoise/noise.h>

#include "bench_grid.hpp"
#include "noise_bench.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::bench {

namespace {

/// libnoise's fBm ("Perlin" module, 3D gradient noise, its standard cubic quality) with our
/// default layer's octaves, lacunarity and persistence.
noise::module::Perlin libnoisePerlin() {
    const NoiseParams ours = benchLayer(NoiseKind::Perlin, FractalKind::Fbm);
    noise::module::Perlin perlin;
    perlin.SetOctaveCount(ours.octaves);
    perlin.SetLacunarity(ours.lacunarity);
    perlin.SetPersistence(ours.persistence);
    // Its lattice then advances frequency * cellSize (1e-4 * 30) per cell, as ours does.
    perlin.SetFrequency(ours.frequency * benchGrid().cellSize);
    perlin.SetSeed(static_cast<int>(benchSeed()));
    return perlin;
}

void libnoiseBenchmark(benchmark::State& state) {
    const noise::module::Perlin perlin = libnoisePerlin();
    for (auto _ : state) {
        double sum = 0;
        for (std::int64_t r = 0; r < kLibnoiseRows; ++r)
            for (std::int64_t c = 0; c < kGridCells; ++c)
                sum += perlin.GetValue(double(c) + 0.5, double(r) + 0.5, 0.0);
        benchmark::DoNotOptimize(sum);
    }
    setSampleCounters(state, kLibnoiseRows * kGridCells);
}

}  // namespace

void registerLibnoiseBenchmark() {
    // A pass over the rows takes seconds: one iteration measures it well enough.
    benchmark::RegisterBenchmark(kLibnoiseName, libnoiseBenchmark)
        ->UseRealTime()
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
}

}  // namespace terragrid::bench

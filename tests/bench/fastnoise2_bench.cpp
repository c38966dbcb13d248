// FastNoise2's fBm on the grid the noise rows cover, in the same process and run: the yardstick
// of issue 30. Built only when scripts/bench.sh was given a local FastNoise2 checkout
// (TERRAGRID_FASTNOISE2_DIR; tests/bench/CMakeLists.txt builds it beside the benchmarks with
// clang, -O3, its own runtime dispatch); otherwise the summary says n/a.

#include "noise_bench.hpp"

#include <hwy/targets.h>

#include <string>
#include <vector>

#include "bench_grid.hpp"

#ifdef TERRAGRID_HAVE_FASTNOISE2
#include <FastNoise/FastNoise.h>
#endif

namespace terragrid::bench {

std::string fastNoise2Name(NoiseKind noise) {
    return "fastnoise2/" + layerName(noise, FractalKind::Fbm) + "/threads:1";
}

#ifdef TERRAGRID_HAVE_FASTNOISE2

namespace {

/// FastNoise2's feature set for the best Highway target the rows may dispatch to
/// (bench_main's --max-target lowers both alike): AVX-512 for Highway's AVX3 family, AVX2,
/// SSE4.1 (Highway's SSE4 also needs SSE4.2), SSSE3, SSE2.
FastSIMD::FeatureSet featureSetLikeRows() {
    const std::int64_t targets = hwy::SupportedTargets();
    const std::int64_t best = targets & -targets;
    if (best <= HWY_AVX3) return FastSIMD::FeatureSet::AVX512;
    if (best == HWY_AVX2) return FastSIMD::FeatureSet::AVX2;
    if (best == HWY_SSE4) return FastSIMD::FeatureSet::SSE42;
    if (best == HWY_SSSE3) return FastSIMD::FeatureSet::SSSE3;
    return FastSIMD::FeatureSet::SSE2;
}

/// 8-octave fBm of FastNoise2's Perlin or simplex with the bench layer's lacunarity and
/// persistence (its "gain"), sampled over the whole kGridCells^2 grid with one
/// GenUniformGrid2D call. The lattice step per cell is the rows' own (frequency x cell size,
/// 0.003 for the default layer): both walk the same number of lattice cells.
void fastNoise2Benchmark(benchmark::State& state, NoiseKind noise) {
    const NoiseParams ours = benchLayer(noise, FractalKind::Fbm);
    const FastSIMD::FeatureSet features = featureSetLikeRows();
    FastNoise::SmartNode<> source;
    if (noise == NoiseKind::Perlin)
        source = FastNoise::New<FastNoise::Perlin>(features);
    else
        source = FastNoise::New<FastNoise::Simplex>(features);
    auto fbm = FastNoise::New<FastNoise::FractalFBm>(features);
    fbm->SetSource(source);
    fbm->SetOctaveCount(ours.octaves);
    fbm->SetLacunarity(static_cast<float>(ours.lacunarity));
    fbm->SetGain(static_cast<float>(ours.persistence));
    const auto step = static_cast<float>(ours.frequency * benchGrid().cellSize);
    std::vector<float> out(static_cast<std::size_t>(kGridSamples));
    for (auto _ : state) {
        fbm->GenUniformGrid2D(out.data(), 0.5f * step, 0.5f * step, kGridCells, kGridCells, step,
                              step, static_cast<int>(benchSeed()));
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    setSampleCounters(state, kGridSamples);
    state.SetLabel(FastSIMD::GetFeatureSetString(fbm->GetActiveFeatureSet()));
}

}  // namespace

bool haveFastNoise2() { return true; }

void registerFastNoise2Benchmarks() {
    for (NoiseKind noise : {NoiseKind::Perlin, NoiseKind::Simplex})
        benchmark::RegisterBenchmark(fastNoise2Name(noise).c_str(), fastNoise2Benchmark, noise)
            ->UseRealTime()
            ->MeasureProcessCPUTime()
            ->Unit(benchmark::kMillisecond);
}

#else

bool haveFastNoise2() { return false; }
void registerFastNoise2Benchmarks() {}

#endif

}  // namespace terragrid::bench

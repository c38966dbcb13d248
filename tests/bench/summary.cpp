#include "summary.hpp"

#include <unistd.h>

#include <hwy/targets.h>

#include <algorithm>
#include <cstdio>

#include "bench_grid.hpp"
#include "noise_bench.hpp"

namespace terragrid::bench {

namespace {

constexpr std::size_t kLayerWidth = 24;
constexpr std::size_t kCellWidth = 24;
constexpr double kBusyCpuShare = 0.9;  ///< below this CPU / real time, the machine was busy

std::string format(const char* pattern, double a, double b = 0) {
    char text[256];
    std::snprintf(text, sizeof text, pattern, a, b);
    return text;
}

std::string padRight(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

/// "  12.3 ns   81.30 M/s  ", or "-" when the benchmark did not run (filtered out).
std::string rateCell(double samplesPerSecond) {
    if (samplesPerSecond <= 0) return padRight("      -", kCellWidth);
    return padRight(format("%7.1f ns %7.2f M/s", 1e9 / samplesPerSecond, samplesPerSecond / 1e6),
                    kCellWidth);
}

std::string verdict(double ratio, double target) {
    if (ratio <= 0) return "n/a (not measured)";
    return format("%6.2fx   target >= %gx   ", ratio, target) + (ratio >= target ? "PASS" : "MISS");
}

/// A ratio without a verdict.
std::string figure(double ratio) {
    return ratio <= 0 ? "n/a (not measured)" : format("%6.2fx   ", ratio);
}

/// For a cost ratio, where lower is better.
std::string verdictAtMost(double ratio, double limit) {
    if (ratio <= 0) return "n/a (not measured)";
    return format("%6.2fx   target <= %gx   ", ratio, limit) + (ratio <= limit ? "PASS" : "MISS");
}

void printLayerTable(const SummaryReporter& results, const std::vector<int>& threadCounts,
                     std::ostream& out) {
    out << padRight("layer", kLayerWidth);
    for (int t : threadCounts)
        out << padRight("NoiseRows, " + std::to_string(t) + (t == 1 ? " thread" : " threads"),
                        kCellWidth);
    out << "sample(), 1 thread\n";
    for (NoiseKind noise : kNoiseKinds)
        for (FractalKind fractal : kFractals) {
            // A layer the filter left out entirely (the AVX2 pass of scripts/bench.sh) is no row.
            bool measured = results.samplesPerSecond(scalarName(noise, fractal)) > 0;
            for (int t : threadCounts)
                measured = measured || results.samplesPerSecond(rowsName(noise, fractal, t)) > 0;
            if (!measured) continue;
            out << padRight(layerName(noise, fractal), kLayerWidth);
            for (int t : threadCounts)
                out << rateCell(results.samplesPerSecond(rowsName(noise, fractal, t)));
            out << rateCell(results.samplesPerSecond(scalarName(noise, fractal))) << "\n";
        }
}

/// A / B, or 0 when either is missing.
double ratio(double a, double b) {
    return a > 0 && b > 0 ? a / b : 0;
}

/// FastNoise2's fBm next to the rows, and ours / FastNoise2 against the target (PASS or MISS),
/// or why there is no figure.
void printFastNoise2(const SummaryReporter& results, std::ostream& out) {
    for (NoiseKind noise : {NoiseKind::Perlin, NoiseKind::Simplex}) {
        const std::string name(kNoiseKindNames[static_cast<std::size_t>(noise)]);
        const double theirs = results.samplesPerSecond(fastNoise2Name(noise));
        const double ours = results.samplesPerSecond(rowsName(noise, FractalKind::Fbm, 1));
        out << padRight("FastNoise2 " + name + " fbm8, 1 thread:", 42) << rateCell(theirs);
        if (!haveFastNoise2())
            out << "n/a (no FastNoise2: set TERRAGRID_FASTNOISE2_DIR to a local checkout)\n";
        else
            out << "(" << results.label(fastNoise2Name(noise)) << ")\n";
        out << padRight("ours / FastNoise2 (" + name + " fbm8, 1 thread):", 42)
            << (haveFastNoise2() ? verdict(ratio(ours, theirs), kTargetOverFastNoise2)
                                 : std::string("n/a"))
            << "\n";
    }
}

/// Warns when the one-thread runs the ratios rest on did not get a whole core: then absolute
/// figures are slow and the thread scaling cannot show, though the ratio to libnoise (measured
/// under the same load) still roughly holds.
void printLoadWarning(const SummaryReporter& results, std::ostream& out) {
    const double ours = results.cpuPerReal(rowsName(NoiseKind::Perlin, FractalKind::Fbm, 1));
    const double libnoise = results.cpuPerReal(kLibnoiseName);
    const double share = std::min(ours > 0 ? ours : 1.0, libnoise > 0 ? libnoise : 1.0);
    if (share >= kBusyCpuShare) return;
    out << format(
        "note: the machine was busy: a 1-thread run got only %.0f %% of a core "
        "(process CPU / real time),\n      so these figures are pessimistic and the "
        "2-thread speedup cannot show; rerun on an idle machine.\n",
        100.0 * share);
}

}  // namespace

SummaryReporter::SummaryReporter()
    : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular) {}

void SummaryReporter::ReportRuns(const std::vector<Run>& runs) {
    for (const Run& run : runs) {
        if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
        const auto rate = run.counters.find("items_per_second");
        if (rate == run.counters.end() || run.real_accumulated_time <= 0) continue;
        // With --benchmark_repetitions the fastest repetition counts (as issue 30 measures:
        // fastest of N); the last one, which counted before, swung verdicts by 1.4x under load.
        const auto kept = m_runs.find(run.run_name.function_name);
        if (kept != m_runs.end() && kept->second.samplesPerSecond >= rate->second.value) continue;
        m_runs[run.run_name.function_name] = {rate->second.value,
                                              run.cpu_accumulated_time / run.real_accumulated_time,
                                              run.report_label};
    }
    ConsoleReporter::ReportRuns(runs);
}

double SummaryReporter::samplesPerSecond(const std::string& name) const {
    const auto it = m_runs.find(name);
    return it == m_runs.end() ? 0 : it->second.samplesPerSecond;
}

std::string SummaryReporter::label(const std::string& name) const {
    const auto it = m_runs.find(name);
    return it == m_runs.end() ? std::string() : it->second.label;
}

double SummaryReporter::cpuPerReal(const std::string& name) const {
    const auto it = m_runs.find(name);
    return it == m_runs.end() ? 0 : it->second.cpuPerReal;
}

void printSummary(const SummaryReporter& results, const std::vector<int>& threadCounts,
                  std::ostream& out) {
    // The best target left after --max-target: the one the rows dispatched to.
    const std::int64_t targets = hwy::SupportedTargets();
    out << "== noise: " << kGridCells << " x " << kGridCells << " cells in " << kTileCells << " x "
        << kTileCells << " tiles, default layer parameters (sample(): top-left "
        << kScalarCornerCells << " x " << kScalarCornerCells << "), noise_version "
        << benchNoiseVersion() << ", SIMD target " << hwy::TargetName(targets & -targets)
        << " ==\n";
    printLayerTable(results, threadCounts, out);

    const double libnoise = results.samplesPerSecond(kLibnoiseName);
    out << "libnoise Perlin, " << kFbmOctaves << " octaves, 1 thread: " << rateCell(libnoise)
        << "(top " << kLibnoiseRows << " rows)\n";
    printFastNoise2(results, out);
    const double warped = results.samplesPerSecond(warpedRowsName());
    out << "warped perlin fbm8 rows, 1 thread:        " << rateCell(warped) << "\n";
    if (const double warpedSimplex = results.samplesPerSecond(warpedRowsName(NoiseKind::Simplex)); warpedSimplex > 0)
        out << "warped simplex fbm8 rows, 1 thread:       " << rateCell(warpedSimplex) << "\n";
    for (NoiseKind noise : {NoiseKind::Perlin, NoiseKind::Simplex}) {
        const std::string name(kNoiseKindNames[static_cast<std::size_t>(noise)]);
        const double one = results.samplesPerSecond(rowsName(noise, FractalKind::Fbm, 1));
        const double two = results.samplesPerSecond(rowsName(noise, FractalKind::Fbm, 2));
        out << padRight("ours / libnoise (" + name + " fbm8, 1 thread):", 42)
            << verdict(ratio(one, libnoise), kTargetOverLibnoise) << "\n";
        out << padRight("2 threads / 1 thread (" + name + " fbm8):", 42)
            << verdict(ratio(two, one), kTargetTwoThreads) << "\n";
    }
    const double perlin = results.samplesPerSecond(rowsName(NoiseKind::Perlin, FractalKind::Fbm, 1));
    const double simplex =
        results.samplesPerSecond(rowsName(NoiseKind::Simplex, FractalKind::Fbm, 1));
    // Time per sample is the inverse of the rate: simplex time / Perlin time = perlin / simplex.
    // Issue 16 set its limit for the default noise_version; another version's Perlin and simplex
    // kernels differ in kind (version 4's Perlin is float, its simplex version 3's), so there the
    // ratio is a figure without a verdict.
    out << padRight("simplex / perlin time (fbm8, 1 thread):", 42);
    if (benchesDefaultNoiseVersion())
        out << verdictAtMost(ratio(perlin, simplex), kTargetSimplexOverPerlin) << "\n";
    else
        out << figure(ratio(perlin, simplex)) << "(the target is the default noise_version's)\n";
    out << padRight("warped / flat perlin time (fbm8, 1 thr.):", 42)
        << verdictAtMost(ratio(perlin, warped), kTargetWarpedOverPerlin) << "\n";
    printLoadWarning(results, out);
}

}  // namespace terragrid::bench

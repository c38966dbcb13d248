// terragrid_noise_bench [--summary-file=FILE] [--max-target=NAME] [--noise-version=N]
//                       [Google Benchmark flags]
// Runs the noise benchmarks, prints Google Benchmark's table, then the summary block (also
// appended to FILE, so scripts/bench.sh can print every summary together at the end).
// --max-target=AVX2 (a Highway target name) dispatches no better target than that one, so a
// machine with AVX-512 can also measure what an AVX2 machine runs. --noise-version=N measures
// the layers with noise_version N instead of the default's.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include <hwy/targets.h>

#include "bench_grid.hpp"
#include "noise_bench.hpp"
#include "summary.hpp"
#include "surface_bench.hpp"

namespace {

constexpr std::string_view kSummaryFlag = "--summary-file=";
constexpr std::string_view kMaxTargetFlag = "--max-target=";
constexpr std::string_view kNoiseVersionFlag = "--noise-version=";

/// Takes --NAME=VALUE out of argv (Google Benchmark refuses flags it does not know).
std::string takeFlag(int& argc, char** argv, std::string_view flag) {
    std::string value;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.starts_with(flag))
            value = arg.substr(flag.size());
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    argv[argc] = nullptr;
    return value;
}

/// Restricts Highway's dispatch to `name` and the targets below it (Highway's target bits
/// grow from the best target to the worst); false if no supported target has that name.
bool limitTargets(const std::string& name) {
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        if (name != hwy::TargetName(target)) continue;
        hwy::SetSupportedTargetsForTest(hwy::SupportedTargets() & ~(target - 1));
        return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace terragrid::bench;
    const std::string summaryFile = takeFlag(argc, argv, kSummaryFlag);
    const std::string maxTarget = takeFlag(argc, argv, kMaxTargetFlag);
    if (!maxTarget.empty() && !limitTargets(maxTarget)) {
        std::cerr << "terragrid_noise_bench: no supported Highway target named '" << maxTarget
                  << "'\n";
        return 2;
    }
    const std::string version = takeFlag(argc, argv, kNoiseVersionFlag);
    if (!version.empty() && !setBenchNoiseVersion(std::atoi(version.c_str()))) {
        std::cerr << "terragrid_noise_bench: no noise_version '" << version << "'\n";
        return 2;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    const std::vector<int> threadCounts = benchThreadCounts();
    registerNoiseBenchmarks(threadCounts);
    registerLibnoiseBenchmark();
    registerFastNoise2Benchmarks();
    registerSurfaceBenchmarks();
    SummaryReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    std::cout << "\n";
    printSummary(reporter, threadCounts, std::cout);
    printSurfaceSummary(reporter, std::cout);
    if (!summaryFile.empty()) {
        std::ofstream out(summaryFile, std::ios::app);
        printSummary(reporter, threadCounts, out);
        printSurfaceSummary(reporter, out);
        if (!out) {
            std::cerr << "terragrid_noise_bench: cannot write '" << summaryFile << "'\n";
            return 1;
        }
    }
    return 0;
}

// terragrid_noise_bench [--summary-file=FILE] [Google Benchmark flags]
// Runs the noise benchmarks, prints Google Benchmark's table, then the summary block (also
// appended to FILE, so scripts/bench.sh can print every summary together at the end).

#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "noise_bench.hpp"
#include "summary.hpp"
#include "surface_bench.hpp"

namespace {

constexpr std::string_view kSummaryFlag = "--summary-file=";

/// Takes --summary-file=FILE out of argv (Google Benchmark refuses flags it does not know).
std::string takeSummaryFile(int& argc, char** argv) {
    std::string file;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.starts_with(kSummaryFlag))
            file = arg.substr(kSummaryFlag.size());
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    argv[argc] = nullptr;
    return file;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace terragrid::bench;
    const std::string summaryFile = takeSummaryFile(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    const std::vector<int> threadCounts = benchThreadCounts();
    registerNoiseBenchmarks(threadCounts);
    registerLibnoiseBenchmark();
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

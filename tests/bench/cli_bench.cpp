// terragrid_cli_bench [--size=N] [--repeat=N] [--each] [--cli=PATH] [--summary-file=FILE]
// The real CLI on an N x N default map (4096 unless told), every core: the run's wall time
// and its own stage breakdown (stats.json's timing_seconds), first with stats.json as the only
// output (generation and classification), then with every default output, optionally (--each)
// with stats.json plus one output at a time. Prints what the outputs add to generation against
// the target; the block also goes to FILE so scripts/bench.sh can repeat it at the end.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli_runs.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::bench {
namespace {

constexpr double kTargetOutputsPercent = 25.0;  ///< all outputs vs stats.json only, wall

struct Options {
    std::string cli = TERRAGRID_CLI_PATH;
    std::int64_t size = 4096;
    /// Runs of each headline configuration (stats.json only, every output); the fastest counts,
    /// since a busy machine only ever makes a run slower. --each runs once per output: it is a
    /// breakdown, not a target, and 4096^2 runs are slow.
    int repeat = 1;
    bool each = false;
    std::string summaryFile;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const auto value = [&](std::string_view flag) {
            return std::string(a.substr(flag.size()));
        };
        if (a.starts_with("--size="))
            o.size = std::stoll(value("--size="));
        else if (a.starts_with("--repeat="))
            o.repeat = std::stoi(value("--repeat="));
        else if (a == "--each")
            o.each = true;
        else if (a.starts_with("--cli="))
            o.cli = value("--cli=");
        else if (a.starts_with("--summary-file="))
            o.summaryFile = value("--summary-file=");
        else
            throw std::invalid_argument("unknown option '" + std::string(a) + "'");
    }
    if (o.size < 1 || o.repeat < 1) throw std::invalid_argument("--size and --repeat must be >= 1");
    return o;
}

/// `output.files=["a","b"]`.
std::string filesOverride(const std::vector<std::string>& files) {
    std::string list;
    for (const std::string& f : files) list += (list.empty() ? "\"" : ",\"") + f + "\"";
    return "output.files=[" + list + "]";
}

/// The fastest of `repeat` runs writing `files` (empty: the default outputs) into a directory
/// that is removed again at once (4096^2 outputs are hundreds of MB).
CliRun fastestRun(const Options& o, const TempDir& tmp, const std::vector<std::string>& files,
                  int repeat) {
    const std::filesystem::path dir = tmp.path() / "out";
    std::vector<std::string> args{
        "--width",   std::to_string(o.size), "--height", std::to_string(o.size),
        "--out-dir", dir.string(),           "--quiet"};
    if (!files.empty()) args.insert(args.end(), {"--set", filesOverride(files)});
    CliRun best;
    for (int i = 0; i < repeat; ++i) {
        CliRun run;
        run.wallSeconds = runTimed(o.cli, args);
        run.stages = readStageTimes(dir / "stats.json");
        std::filesystem::remove_all(dir);
        if (i == 0 || run.wallSeconds < best.wallSeconds) best = run;
    }
    return best;
}

std::string format(const char* pattern, double a = 0, double b = 0, double c = 0) {
    char text[160];
    std::snprintf(text, sizeof text, pattern, a, b, c);
    return text;
}

std::string header(const Options& o) {
    return "== end to end: terragrid --width " + std::to_string(o.size) + " --height " +
           std::to_string(o.size) + " (default config, every core; first two rows: fastest of " +
           std::to_string(o.repeat) + ") ==\n" +
           "run (output.files)          wall s | terrain  gen cpu  streaming  finish  regions  "
           "gen wall | adds to stats.json only\n";
}

/// One table row; `baseline` the stats.json-only wall time (0: this is the baseline).
std::string row(const std::string& name, const CliRun& r, double baseline) {
    const StageTimes& s = r.stages;
    std::string line = name;
    line.resize(26, ' ');
    line += format("%7.2f  | %7.2f  %7.2f", r.wallSeconds, s.terrain, s.generateCpu);
    line += format("  %9.2f  %6.2f  %7.2f", s.outputsStreaming, s.outputsFinish, s.regions);
    line += format("  %8.2f |", s.generationWall);
    if (baseline > 0)
        line += format(" %+6.2f s  %+6.1f %%", r.wallSeconds - baseline,
                       100.0 * (r.wallSeconds - baseline) / baseline);
    return line + "\n";
}

std::string verdict(double allWall, double statsWall) {
    const double percent = 100.0 * (allWall - statsWall) / statsWall;
    return format("outputs add %.1f %% to generation (%.2f s with every output vs %.2f s ", percent,
                  allWall, statsWall) +
           format("with stats.json only)   target <= %g %%   ", kTargetOutputsPercent) +
           (percent <= kTargetOutputsPercent ? "PASS" : "MISS") + "\n";
}

/// Prints each row as soon as it is measured (a run takes seconds) and returns the block.
std::string measure(const Options& o) {
    const TempDir tmp;
    std::string block = header(o);
    std::cout << block << std::flush;
    const auto add = [&](const std::string& line) {
        block += line;
        std::cout << line << std::flush;
    };

    const CliRun statsOnly = fastestRun(o, tmp, {"stats.json"}, o.repeat);
    add(row("stats.json only", statsOnly, 0));
    const CliRun all = fastestRun(o, tmp, {}, o.repeat);
    add(row("every default output", all, statsOnly.wallSeconds));
    if (o.each)
        for (std::string_view name : kOutputFileNames)
            if (name != "stats.json")
                add(row("stats.json + " + std::string(name),
                        fastestRun(o, tmp, {"stats.json", std::string(name)}, 1),
                        statsOnly.wallSeconds));
    add(verdict(all.wallSeconds, statsOnly.wallSeconds));
    return block;
}

}  // namespace
}  // namespace terragrid::bench

int main(int argc, char** argv) {
    using namespace terragrid::bench;
    try {
        const Options options = parseOptions(argc, argv);
        const std::string block = measure(options);
        if (!options.summaryFile.empty()) {
            std::ofstream out(options.summaryFile, std::ios::app);
            out << block;
            if (!out) throw std::runtime_error("cannot write '" + options.summaryFile + "'");
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "terragrid_cli_bench: " << e.what() << "\n";
        return 1;
    }
}

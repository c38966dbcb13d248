// terragrid: command-line front end. Parses options, loads and validates the config, generates
// the map into the output sinks and commits the files. Exit codes: 0 success, 1 runtime or
// output failure, 2 usage or config error.

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include "terragrid/config.hpp"
#include "terragrid/run.hpp"
#include "terragrid/version.hpp"

namespace po = boost::program_options;
using namespace terragrid;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

/// Thrown for bad command-line usage (exit code 2).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CliOptions {
    std::optional<std::string> configPath;
    bool printConfig = false;
    std::vector<std::string> overrides;  // "key.path=value", applied in order
    int threads = 0;                     // 0: every core
    bool quiet = false;
};

po::options_description describeOptions() {
    po::options_description d("Options");
    d.add_options()
        ("help,h", "print this help and exit")
        ("version", "print the version and exit")
        ("config,c", po::value<std::string>()->value_name("FILE"),
         "JSON config (comments allowed), merged over the built-in default")
        ("out-dir,o", po::value<std::string>()->value_name("DIR"),
         "output directory (output.directory), created if missing")
        ("seed", po::value<std::string>()->value_name("N"), "map seed (seed)")
        ("width", po::value<std::string>()->value_name("N"), "map width in cells (map.width)")
        ("height", po::value<std::string>()->value_name("N"), "map height in cells (map.height)")
        ("tile-size", po::value<std::string>()->value_name("N"),
         "tile size in cells (map.tile_size)")
        ("threads,j", po::value<int>()->value_name("N"),
         "worker threads (default: every core); the output does not depend on it")
        ("set,s", po::value<std::vector<std::string>>()->composing()->value_name("KEY=VALUE"),
         "override any config key, e.g. --set height.octaves=8 (VALUE is JSON or a bare string); "
         "repeatable")
        ("quiet,q", "print nothing on success")
        ("print-config", "print the resolved config (every default filled in) and exit")
        ("config-reference", "print the table of every config key (Markdown) and exit");
    return d;
}

void printHelp(const po::options_description& d) {
    std::cout << "terragrid " << kVersion
              << ": generate a tiled terrain heightmap from a JSON config.\n\n"
                 "Usage: terragrid [--config FILE] [--out-dir DIR] [--seed N] [--width N] "
                 "[--height N]\n"
                 "                 [--tile-size N] [--threads N] [--set key.path=value ...] "
                 "[--quiet]\n\n"
              << d
              << "\nWith no options terragrid runs the built-in default config and writes "
                 "out/height.tif.\nExit codes: 0 success, 1 runtime or output failure, 2 usage "
                 "or config error.\n";
}

/// Options that name a config key become overrides, so they pass the same validation as
/// `--set` and the config file (a seed of -1 gets the same message everywhere).
std::vector<std::string> keyOverrides(const po::variables_map& vm) {
    const std::pair<const char*, const char*> numeric[] = {
        {"seed", "seed"}, {"width", "map.width"}, {"height", "map.height"},
        {"tile-size", "map.tile_size"}};
    std::vector<std::string> out;
    for (const auto& [option, key] : numeric)
        if (vm.count(option)) out.push_back(std::string(key) + "=" + vm[option].as<std::string>());
    if (vm.count("out-dir"))
        out.push_back("output.directory=" + nlohmann::json(vm["out-dir"].as<std::string>()).dump());
    if (vm.count("set"))
        for (const auto& s : vm["set"].as<std::vector<std::string>>()) out.push_back(s);
    return out;
}

/// Returns nullopt when --help or --version was handled.
std::optional<CliOptions> parseArgs(int argc, char** argv) {
    const auto description = describeOptions();
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(description).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    if (vm.count("help")) {
        printHelp(description);
        return std::nullopt;
    }
    if (vm.count("version")) {
        std::cout << "terragrid " << kVersion << "\n";
        return std::nullopt;
    }
    if (vm.count("config-reference")) {
        std::cout << optionReferenceMarkdown();
        return std::nullopt;
    }
    CliOptions o;
    if (vm.count("config")) o.configPath = vm["config"].as<std::string>();
    o.overrides = keyOverrides(vm);
    o.quiet = vm.count("quiet") > 0;
    o.printConfig = vm.count("print-config") > 0;
    if (vm.count("threads")) {
        o.threads = vm["threads"].as<int>();
        if (o.threads < 1)
            throw UsageError("'--threads' must be at least 1 (got " + std::to_string(o.threads) +
                             ")");
    }
    return o;
}

std::string formatSummary(const Config& config, const RunReport& report) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "terragrid: %lld x %lld cells, %lld tiles of %lld, elevation %.1f .. %.1f m, "
                  "%.2f s ->",
                  static_cast<long long>(config.map.width),
                  static_cast<long long>(config.map.height), static_cast<long long>(report.tiles),
                  static_cast<long long>(config.map.tileSizeCells), double(report.elevationMin),
                  double(report.elevationMax), report.seconds);
    std::string line = buf;
    for (const auto& file : report.files) line += " " + file;
    return line;
}

int run(const CliOptions& options) {
    const Config config = options.configPath ? loadConfig(*options.configPath, options.overrides)
                                             : defaultConfig(options.overrides);
    if (options.printConfig) {
        std::cout << config.resolvedJson << "\n";
        return kExitOk;
    }
    const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    const RunReport report = runMap(config);
    if (!options.quiet) std::cout << formatSummary(config, report) << "\n";
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const auto options = parseArgs(argc, argv);
        if (!options) return kExitOk;
        return run(*options);
    } catch (const UsageError& e) {
        std::cerr << "terragrid: " << e.what() << "\nTry 'terragrid --help'.\n";
        return kExitUsage;
    } catch (const ConfigError& e) {
        std::cerr << e.what() << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "terragrid: error: " << e.what() << "\n";
        return kExitRuntime;
    }
}

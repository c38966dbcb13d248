// terragrid: command-line front end. Parses options, loads and validates the config, generates
// the map (or one window of it: --region, --shard) into the output sinks, with progress on
// stderr, and commits the files. Before anything is created, the run's plan (plan.hpp) is
// checked against free disk and memory; --dry-run prints it instead of running. Three commands
// do less: `validate` only loads and checks a config, `schema` prints the config's JSON Schema,
// `hydrology-stage` writes the whole-map hydrology stage to a file that runs read
// (--hydrology-stage) instead of computing it, the first step of a job array of shards;
// `mosaic` makes the pieces of a map (shards) into the map again, and `verify` checks an
// output directory against its manifest.json; `serve` runs the map explorer (src/serve)
// until a signal stops it.
// Exit codes: 0 success, 1 runtime or output failure, 2 usage or config error or a run that
// cannot fit, 128 + N stopped by signal N (stop_signals.hpp).

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <unistd.h>

#include "app/process_limits.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/app/hydrology_stage_job.hpp"
#include "terragrid/app/mosaic.hpp"
#include "terragrid/app/verify.hpp"
#include "terragrid/io/manifest.hpp"
#include "terragrid/app/plan.hpp"
#include "terragrid/app/process_start.hpp"
#include "terragrid/app/progress.hpp"
#include "terragrid/app/run.hpp"
#include "terragrid/app/stop_signals.hpp"
#include "terragrid/io/foreign_entry_error.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/serve/serve.hpp"
#include "terragrid/version.hpp"
#include "terragrid/model/window.hpp"
#include "cli/commands.hpp"
#include "cli/completion.hpp"
#include "cli/man_page.hpp"
#include "cli/serve_command.hpp"
#include "cli/std_streams.hpp"

namespace po = boost::program_options;
using namespace terragrid;
using namespace terragrid::cli;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

/// Thrown for bad command-line usage (exit code 2).
struct UsageError : std::runtime_error {
    /// `commandName` is the command whose usage was wrong ("validate"), empty for a run.
    explicit UsageError(const std::string& message, std::string_view commandName = {})
        : std::runtime_error(message),
          helpCommand("terragrid " +
                      (commandName.empty() ? std::string() : std::string(commandName) + " ") +
                      "--help") {}
    std::string helpCommand;  ///< what to run for help: "terragrid validate --help"
};


/// --progress: auto draws a bar when stderr is a terminal and the run is not --quiet.
enum class ProgressMode { Auto, Bar, Json, None };
struct ProgressModeInfo {
    ProgressMode mode;
    std::string_view name;
};
constexpr ProgressModeInfo kProgressModes[] = {{ProgressMode::Auto, "auto"},
                                               {ProgressMode::Bar, "bar"},
                                               {ProgressMode::Json, "json"},
                                               {ProgressMode::None, "none"}};

/// --dry-run: print the plan as text or JSON instead of running.
enum class DryRun { No, Text, Json };

struct CliOptions {
    Command command = Command::Run;
    std::optional<std::string> configPath;
    bool printConfig = false;
    std::vector<std::string> overrides;  // "key.path=value", applied in order
    int threads = 0;                     // 0: every core
    bool quiet = false;
    ProgressMode progress = ProgressMode::Auto;
    std::optional<CellWindow> region;  // --region, checked against the map once it is loaded
    std::optional<Shard> shard;        // --shard
    DryRun dryRun = DryRun::No;
    /// --hydrology-stage: the stage file a run reads instead of computing the stage.
    std::optional<std::string> stageFile;
    /// hydrology-stage's --out: the stage file it writes.
    std::optional<std::string> stageOut;
    /// completion's SHELL.
    std::string shell;
    /// mosaic's pieces, its --out-dir and --merge; verify's directory.
    std::vector<std::string> pieces;
    std::string mosaicOut;
    bool merge = false;
    std::string verifyDir;
    /// serve's options.
    std::optional<ServeOptions> serve;
    /// Bad values of the flags above, reported together with the config's problems.
    std::vector<std::string> flagProblems;
};


/// "       terragrid validate [FILE] [OPTION...]\n" for every command, below the run's usage.
std::string otherUsages() {
    std::string text;
    for (const CommandInfo& c : kCommands) text += "       " + commandSynopsis(c) + "\n";
    return text;
}

void printHelp(Command command, const po::options_description& d) {
    std::cout << "terragrid " << kVersion;
    switch (command) {
        case Command::Run:
            std::cout << ": generate a tiled terrain heightmap from a JSON config.\n\n"
                      << usageLines("terragrid", d)
                      << otherUsages() << "\n"
                      << commandsHelp() << "\n"
                      << d
                      << "\nWith no options terragrid runs the built-in default config and "
                         "writes its files into out/.\n"
                      << kNotesHelp << kExitCodesHelp;
            break;
        case Command::Validate:
            std::cout << ": check a config without generating anything.\n\n"
                      << usageLines("terragrid validate [FILE]", d)
                      << "\nLoads FILE (or --config FILE; without either, the built-in default), "
                         "applies the\noverrides and checks everything a run would. Prints "
                         "every problem on stderr and exits\n2, or prints 'ok' and exits 0. "
                         "Writes no file and creates no directory.\n\n"
                      << d << "\n"
                      << kNotesHelp << kExitCodesHelp;
            break;
        case Command::Schema:
            std::cout << ": print the config's JSON Schema (draft 2020-12).\n\n"
                      << usageLines("terragrid schema", d)
                      << "\nconfigs/schema.json is this output: terragrid schema > "
                         "configs/schema.json\n\n"
                      << d;
            break;
        case Command::Serve:
            std::cout << ": explore a map in the browser and tune its config live.\n\n"
                      << usageLines("terragrid serve", d) << cli::kServeHelp << "\n"
                      << d << "\n"
                      << kNotesHelp
                      << "Exit codes: 2 usage or config error, or the address cannot be "
                         "listened on; 128 + N\nstopped by signal N (130 SIGINT, 143 "
                         "SIGTERM).\n";
            break;
        case Command::HydrologyStage:
            std::cout << ": compute the hydrology stage of a map once, for its shards.\n\n"
                      << usageLines("terragrid hydrology-stage", d)
                      << "\nComputes the whole-map hydrology stage (lakes, rivers, erosion) of "
                         "the config the\noptions describe and writes it to --out FILE. Runs "
                         "and shards of the same config\nthen read it with '--hydrology-stage "
                         "FILE' instead of each computing it, and\nwrite the same bytes. A job "
                         "array runs this first (docs/shards.md: Running shards as a\njob array).\n\n"
                      << d << "\n"
                      << kNotesHelp << kExitCodesHelp;
            break;
        case Command::ManPage:
            std::cout << ": print the manual page.\n\n"
                      << usageLines("terragrid man-page", d)
                      << "\nPrints terragrid.1 (roff), made from the same option table as --help "
                         "and\n--config-reference: terragrid man-page > terragrid.1; man "
                         "./terragrid.1\n\n"
                      << d;
            break;
        case Command::Completion:
            std::cout << ": print the bash completion script.\n\n"
                      << usageLines("terragrid completion bash", d)
                      << "\nPrints a bash script that completes terragrid's commands, options "
                         "and their\nvalues, and the config keys of --set KEY=VALUE. Try it "
                         "with\n  source <(terragrid completion bash)\n`cmake --install` puts "
                         "it where bash-completion finds it.\n\n"
                      << d;
            break;
        case Command::Mosaic:
            std::cout << ": make the pieces of a map into the map again.\n\n"
                      << usageLines("terragrid mosaic PIECE_DIR...", d)
                      << "\nEach PIECE_DIR is the output directory of a run with --shard or "
                         "--region, with its\nmanifest.json. Checks that the pieces are of one "
                         "map and cover it exactly once, and\nthat their files are as their "
                         "manifests say, before anything is created (exit 2\nnaming the piece, "
                         "or the rows missing or doubled). Then writes into --out-dir, as\none "
                         "transaction: a VRT per raster (NAME.vrt, referencing the pieces in "
                         "place, with\ntheir nodata, colours, class names, units, scale and "
                         "metadata), with --merge one COG\nper raster too, the files every "
                         "piece has alike (rivers, lakes, styles) once,\nstats.json combined, "
                         "and its own manifest.json (docs/shards.md).\n\n"
                      << d << "\n" << kExitCodesHelp;
            break;
        case Command::Verify:
            std::cout << ": check an output directory against its manifest.json.\n\n"
                      << usageLines("terragrid verify DIR", d)
                      << "\nEvery file the manifest lists must be there, a regular file, with "
                         "its size and SHA-256.\nExit codes: 0 every file intact; 1 a file "
                         "differs, is missing or the manifest is\ndamaged (each named on "
                         "stderr); 2 usage error, or DIR has no manifest.json.\n\n"
                      << d;
            break;
    }
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

/// The command named by the first argument, if it is not an option. Throws UsageError for a
/// word that names no command.
Command commandOf(int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return Command::Run;
    const std::string_view word = argv[1];
    for (const CommandInfo& c : kCommands)
        if (word == c.name) return c.command;
    throw UsageError("unknown command '" + std::string(word) + "' (commands: " + commandNames() +
                     "; a config file goes after --config)");
}

ProgressMode progressModeOf(const std::string& text) {
    for (const auto& [mode, name] : kProgressModes)
        if (text == name) return mode;
    throw UsageError("'--progress' must be one of auto, bar, json, none (got '" + text + "')");
}

void parseDryRunAndWindow(const po::variables_map& vm, CliOptions& o);

/// Runs `check`, keeping the message of its UsageError in `problems` instead: every bad flag
/// is reported at once, together with the config's problems (design.md, Errors).
template <typename Check>
void collectProblem(std::vector<std::string>& problems, Check check) {
    try {
        check();
    } catch (const UsageError& e) {
        problems.push_back(e.what());
    }
}

/// --progress, --region and --shard as given; whether the window fits the map is checked once
/// the config is loaded.
void parseProgressAndWindow(const po::variables_map& vm, CliOptions& o) {
    collectProblem(o.flagProblems, [&] {
        if (vm.count("progress")) o.progress = progressModeOf(vm["progress"].as<std::string>());
    });
    collectProblem(o.flagProblems, [&] { parseDryRunAndWindow(vm, o); });
}

void parseDryRunAndWindow(const po::variables_map& vm, CliOptions& o) {
    if (vm.count("dry-run")) {
        const std::string format = vm["dry-run"].as<std::string>();
        if (format != "text" && format != "json")
            throw UsageError("'--dry-run' takes text or json (got '" + format + "')");
        o.dryRun = format == "json" ? DryRun::Json : DryRun::Text;
    }
    if (vm.count("region") && vm.count("shard"))
        throw UsageError("give '--region' or '--shard', not both (got '--region " +
                         vm["region"].as<std::string>() + "' and '--shard " +
                         vm["shard"].as<std::string>() + "')");
    try {
        if (vm.count("region")) o.region = parseRegion(vm["region"].as<std::string>());
        if (vm.count("shard")) o.shard = parseShard(vm["shard"].as<std::string>());
    } catch (const WindowError& e) {
        throw UsageError(e.what());
    }
}

/// mosaic's and verify's options, which take no config.
CliOptions commandOptions(const po::variables_map& vm, CliOptions o, std::string_view name) {
    o.quiet = vm.count("quiet") > 0;
    if (o.command == Command::Verify) {
        if (!vm.count("dir")) throw UsageError("'terragrid verify' needs DIR, the directory to check", name);
        o.verifyDir = vm["dir"].as<std::string>();
        return o;
    }
    if (vm.count("piece")) o.pieces = vm["piece"].as<std::vector<std::string>>();
    if (o.pieces.empty())
        throw UsageError("'terragrid mosaic' needs the pieces' directories (PIECE_DIR...)", name);
    if (!vm.count("out-dir"))
        throw UsageError("'terragrid mosaic' needs '--out-dir DIR', where the mosaic goes", name);
    o.mosaicOut = vm["out-dir"].as<std::string>();
    o.merge = vm.count("merge") > 0;
    if (vm.count("threads")) {
        o.threads = vm["threads"].as<int>();
        if (o.threads < 1)
            throw UsageError("'--threads' must be at least 1 (got " + std::to_string(o.threads) +
                                 ")",
                             name);
    }
    return o;
}

/// Returns nullopt when --help, --version or --config-reference was handled.
std::optional<CliOptions> parseArgs(int argc, char** argv) {
    const Command command = commandOf(argc, argv);
    const auto description = describeOptions(command);
    po::options_description all = description;
    po::positional_options_description positional;
    if (command == Command::Validate) {
        all.add_options()("file", po::value<std::string>());
        positional.add("file", 1);
    }
    if (command == Command::Completion) {
        all.add_options()("shell", po::value<std::string>());
        positional.add("shell", 1);
    }
    if (command == Command::Mosaic) {
        all.add_options()("piece", po::value<std::vector<std::string>>());
        positional.add("piece", -1);
    }
    if (command == Command::Verify) {
        all.add_options()("dir", po::value<std::string>());
        positional.add("dir", 1);
    }
    // A command's own name is not one of its arguments.
    const int skipped = command == Command::Run ? 0 : 1;
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc - skipped, argv + skipped)
                      .options(all)
                      .positional(positional)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what(), skipped > 0 ? std::string_view(argv[1]) : std::string_view());
    }
    if (vm.count("help")) {
        printHelp(command, description);
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
    o.command = command;
    if (command == Command::Mosaic || command == Command::Verify)
        return commandOptions(vm, o, argv[1]);
    if (vm.count("config")) o.configPath = vm["config"].as<std::string>();
    if (vm.count("file")) {
        if (o.configPath)
            throw UsageError("give the config file once: as FILE or with --config, not both",
                             argv[1]);
        o.configPath = vm["file"].as<std::string>();
    }
    o.overrides = keyOverrides(vm);
    o.quiet = vm.count("quiet") > 0;
    o.printConfig = vm.count("print-config") > 0;
    if (command == Command::Completion) {
        o.shell = vm.count("shell") ? vm["shell"].as<std::string>() : "";
        if (o.shell != "bash")
            throw UsageError("'terragrid completion' needs the shell: bash (got '" + o.shell + "')",
                             argv[1]);
    }
    if (vm.count("hydrology-stage")) o.stageFile = vm["hydrology-stage"].as<std::string>();
    if (vm.count("out")) o.stageOut = vm["out"].as<std::string>();
    if (command == Command::HydrologyStage && !o.stageOut)
        throw UsageError("'terragrid hydrology-stage' needs '--out FILE', the stage file to write",
                         argv[1]);
    parseProgressAndWindow(vm, o);
    if (vm.count("threads")) {
        o.threads = vm["threads"].as<int>();
        if (o.threads < 1)
            o.flagProblems.push_back("'--threads' must be at least 1 (got " +
                                     std::to_string(o.threads) + ")");
    }
    if (command == Command::Serve)
        o.serve = cli::serveOptionsFrom(
            vm, o.threads > 0 ? o.threads : tbb::info::default_concurrency(), o.flagProblems);
    return o;
}

/// " (window 0,38,200,38 of 200 x 150, shard 1/4)" for a window run, else "".
std::string windowSummary(const Config& config, const std::optional<MapWindow>& window) {
    if (!window) return {};
    const CellWindow& w = window->cells;
    std::string text = " (window " + std::to_string(w.col0) + "," + std::to_string(w.row0) + "," +
                       std::to_string(w.width) + "," + std::to_string(w.height) + " of " +
                       std::to_string(config.map.width) + " x " +
                       std::to_string(config.map.height);
    if (window->shard)
        text += ", shard " + std::to_string(window->shard->index) + "/" +
                std::to_string(window->shard->count);
    return text + ")";
}

/// `map` is the map generated: config.map, or the window's.
std::string formatSummary(const Config& config, const std::optional<MapWindow>& window,
                          const MapConfig& map, const RunReport& report) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "terragrid: %lld x %lld cells%s, %lld tiles of %lld, elevation %.1f .. %.1f m, "
                  "%.2f s ->",
                  static_cast<long long>(map.width), static_cast<long long>(map.height),
                  windowSummary(config, window).c_str(), static_cast<long long>(report.tiles),
                  static_cast<long long>(config.map.tileSizeCells), double(report.elevationMin),
                  double(report.elevationMax), report.seconds);
    std::string line = buf;
    // Every file, but a set of many (a chunked Tiled map, the weight maps of a long class
    // table) as its first and last with their count.
    constexpr std::size_t kListed = 6;
    for (const std::vector<std::string>& files : report.outputFiles) {
        if (files.size() <= kListed) {
            for (const std::string& file : files) line += " " + file;
        } else {
            line += " " + files.front() + " .. " + files.back() + " (" +
                    std::to_string(files.size()) + " files)";
        }
    }
    return line;
}

/// "problem\nterragrid: problem\n...": the flag problems as one UsageError's message.
std::string joinProblems(const std::vector<std::string>& problems) {
    std::string text;
    for (const std::string& problem : problems)
        text += (text.empty() ? "" : "\nterragrid: ") + problem;
    return text;
}

/// The config the options name. Throws UsageError holding every flag problem and every
/// config problem when there is any flag problem; else ConfigError as loading does.
LoadedConfig loadChecked(const CliOptions& options) {
    try {
        LoadedConfig config = options.configPath ? loadConfig(*options.configPath, options.overrides)
                                           : defaultConfig(options.overrides);
        if (!options.flagProblems.empty()) throw UsageError(joinProblems(options.flagProblems));
        return config;
    } catch (const ConfigError& e) {
        if (options.flagProblems.empty()) throw;
        throw UsageError(joinProblems(options.flagProblems) + "\n" + e.what());
    }
}

/// Loads the config the options name and tells its notes (unless quiet). Throws ConfigError,
/// or UsageError with the flag problems (loadChecked).
LoadedConfig loadFrom(const CliOptions& options) {
    LoadedConfig config = loadChecked(options);
    if (!options.quiet)
        for (const auto& note : config.notes) std::cerr << "terragrid: note: " << note << "\n";
    return config;
}

/// The window --region or --shard asks for, checked against the loaded config.
std::optional<MapWindow> windowOf(const CliOptions& options, const Config& config) {
    try {
        if (options.region) return regionWindow(config, *options.region);
        if (options.shard) return shardMapWindow(config, *options.shard);
    } catch (const WindowError& e) {
        throw UsageError(e.what());
    }
    return std::nullopt;
}

/// The reporter --progress asks for on stderr, or none.
std::unique_ptr<ProgressReporter> progressReporter(const CliOptions& options,
                                                   const TileLayout& layout) {
    ProgressMode mode = options.progress;
    if (mode == ProgressMode::Auto)
        mode = !options.quiet && ::isatty(STDERR_FILENO) ? ProgressMode::Bar : ProgressMode::None;
    // -q prints nothing on success, so it silences even a bar asked for by name; JSON events
    // are data for a program, not chatter, and stay.
    if (mode == ProgressMode::Bar && options.quiet) mode = ProgressMode::None;
    if (mode == ProgressMode::None) return nullptr;
    return std::make_unique<ProgressReporter>(
        mode == ProgressMode::Json ? ProgressStyle::Json : ProgressStyle::Bar, std::cerr, layout);
}

void printShortfalls(const std::vector<std::string>& shortfalls) {
    for (const std::string& line : shortfalls) std::cerr << "terragrid: error: " << line << "\n";
}

void printWarnings(const std::vector<std::string>& warnings) {
    for (const std::string& line : warnings) std::cerr << "terragrid: warning: " << line << "\n";
}

/// Plans the run and checks it against the machine: prints the plan for --dry-run and returns
/// its exit code; throws PlanError when the run cannot fit. nullopt: go ahead.
std::optional<int> checkPlan(const CliOptions& options, const Config& config,
                             const std::optional<MapWindow>& window, int threads) {
    const RunPlan plan =
        planRun(config, window ? *window : MapWindow{wholeMap(config.map), std::nullopt}, threads,
                options.stageFile.has_value());
    const Resources resources = probeResources(config.output.directory, plan.threadStackBytes);
    const std::vector<std::string> shortfalls = planShortfalls(plan, resources);
    if (options.dryRun == DryRun::No) {
        if (!shortfalls.empty()) throw PlanError(shortfalls);
        printWarnings(planWarnings(plan, resources));
        return std::nullopt;
    }
    std::cout << (options.dryRun == DryRun::Json ? planJson(plan, resources)
                                                 : planText(plan, resources));
    // The exit code the run would have: a script can ask whether a run would start.
    printShortfalls(shortfalls);
    printWarnings(planWarnings(plan, resources));
    return shortfalls.empty() ? kExitOk : kExitUsage;
}

/// "1024 x 1024 cells" of a stage, with its grid when it is coarser.
std::string stageSummary(const Config& config, const StageReport& report) {
    const HydrologyFacts& f = report.facts;
    std::string text = std::to_string(config.map.width) + " x " +
                       std::to_string(config.map.height) + " cells";
    if (f.factor > 1)
        text += " (a " + std::to_string(f.gridWidth) + " x " + std::to_string(f.gridHeight) +
                " grid, " + std::to_string(f.factor) + " cells a side each)";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", report.seconds);
    return text + ", " + std::to_string(f.lakes) + " lakes, " + std::to_string(f.riverCells) +
           " river cells, " + seconds;
}

/// `terragrid hydrology-stage`: the stage of the config's whole map into --out.
int writeStage(const CliOptions& options, const Config& config, int threads) {
    if (!config.hydrology.enabled)
        throw UsageError("'terragrid hydrology-stage' needs hydrology.enabled true (got false): "
                         "without hydrology there is no stage to compute",
                         "hydrology-stage");
    if (options.dryRun != DryRun::No) {
        const StagePlan plan = planStage(config, *options.stageOut, threads);
        const Resources resources = probeStageResources(plan);
        std::cout << (options.dryRun == DryRun::Json ? stagePlanJson(plan, resources)
                                                     : stagePlanText(plan, resources));
        const auto shortfalls = stageShortfalls(plan, resources);
        printShortfalls(shortfalls);
        return shortfalls.empty() ? kExitOk : kExitUsage;
    }
    const StageReport report = writeStageFile(config, *options.stageOut, threads);
    if (!options.quiet)
        std::cout << "terragrid: hydrology stage of " << stageSummary(config, report) << " -> "
                  << *options.stageOut << " (" << formatBytes(report.bytes) << ")\n";
    return kExitOk;
}

/// The stage file --hydrology-stage names, its header checked against the config (the run
/// reads the rest and checks its data); empty without the option.
std::string stageFileOf(const CliOptions& options, const Config& config) {
    if (!options.stageFile) return {};
    if (!config.hydrology.enabled)
        throw UsageError("'--hydrology-stage' needs hydrology.enabled true (got false): a map "
                         "without hydrology has no stage to read");
    checkHydrologyStageFile(config, *options.stageFile);
    return *options.stageFile;
}

/// `terragrid verify DIR`.
int verify(const CliOptions& options) {
    VerifyReport report;
    try {
        report = verifyDirectory(options.verifyDir);
    } catch (const ManifestError& e) {
        std::cerr << "terragrid: error: " << e.what() << "\n";
        return e.missing() ? kExitUsage : kExitRuntime;
    }
    for (const std::string& problem : report.problems)
        std::cerr << "terragrid: error: " << problem << "\n";
    if (!report.problems.empty()) {
        std::cerr << "terragrid: " << report.problems.size() << " of " << report.files
                  << " files in '" << options.verifyDir << "' differ from its manifest.json\n";
        return kExitRuntime;
    }
    if (!options.quiet)
        std::cout << "terragrid: " << options.verifyDir << ": " << report.files << " files ("
                  << formatBytes(report.bytes) << ") as manifest.json lists them\n";
    return kExitOk;
}

/// `terragrid mosaic PIECE_DIR... --out-dir DIR`.
int mosaic(const CliOptions& options) {
    const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    const MosaicReport report =
        mosaicPieces({options.pieces, options.mosaicOut, options.merge});
    if (options.quiet) return kExitOk;
    for (const std::string& note : report.notes) std::cerr << "terragrid: note: " << note << "\n";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", report.seconds);
    std::cout << "terragrid: mosaic of " << options.pieces.size() << " pieces, "
              << report.width << " x " << report.height << " cells, " << seconds << " ->";
    for (const std::string& file : report.files) std::cout << " " << file;
    std::cout << "\n";
    return kExitOk;
}

/// `terragrid serve`: the explorer, until a signal stops the process.
int runServe(const CliOptions& options, const LoadedConfig& config) {
    const ServeOptions& serve = *options.serve;
    const bool loopback = serve.host.starts_with("127.") || serve.host == "::1";
    if (!loopback)
        std::cerr << "terragrid: warning: serving on " << serve.host
                  << ", reachable from other machines: anyone who can reach it can change "
                     "the config and "
                  << (serve.outDir ? "export into " + *serve.outDir : "read the map") << "\n";
    serveExplorer(config, serve, [&](const std::string& url) {
        std::cout << (options.quiet ? url : "terragrid: serving the explorer at " + url)
                  << std::endl;
    });
    return kExitOk;
}

int run(const CliOptions& options) {
    if (options.command == Command::Schema) {
        std::cout << configSchemaJson();
        return kExitOk;
    }
    if (options.command == Command::ManPage) {
        std::cout << manPage();
        return kExitOk;
    }
    if (options.command == Command::Completion) {
        std::cout << bashCompletion();
        return kExitOk;
    }
    if (options.command == Command::Verify) return verify(options);
    if (options.command == Command::Mosaic) return mosaic(options);
    const LoadedConfig config = loadFrom(options);
    if (options.command == Command::Validate) {
        if (!options.quiet) std::cout << "ok\n";
        return kExitOk;
    }
    if (options.printConfig) {
        std::cout << config.resolvedJson << "\n";
        return kExitOk;
    }
    const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    if (options.command == Command::HydrologyStage) return writeStage(options, config, threads);
    if (options.command == Command::Serve) return runServe(options, config);
    const std::optional<MapWindow> window = windowOf(options, config);
    const MapConfig generated = window ? windowConfig(config, window->cells).map : config.map;
    // The stage file's header before the plan, so a wrong file is told by --dry-run too.
    const std::string stageFile = stageFileOf(options, config);
    if (const auto dryRunExit = checkPlan(options, config, window, threads)) return *dryRunExit;
    const auto progress = progressReporter(options, TileLayout(generated));
    const ProgressFn onTile = progress ? progress->callback() : ProgressFn();
    const FileWrittenFn onFile = progress ? progress->fileCallback() : FileWrittenFn();
    const RunReport report = window ? runMap(config, *window, onTile, onFile, stageFile)
                                    : runMap(config, onTile, onFile, stageFile);
    if (progress) progress->finish();
    if (!options.quiet)
        std::cout << formatSummary(config, window, generated, report) << "\n";
    return kExitOk;
}

}  // namespace

namespace {

int runCommandLine(int argc, char** argv) {
    try {
        const auto options = parseArgs(argc, argv);
        if (!options) return kExitOk;
        return run(*options);
    } catch (const UsageError& e) {
        std::cerr << "terragrid: " << e.what() << "\nTry '" << e.helpCommand << "'.\n";
        return kExitUsage;
    } catch (const ConfigError& e) {
        std::cerr << e.what() << "\n";
        return kExitUsage;
    } catch (const PlanError& e) {
        printShortfalls(e.shortfalls());
        return kExitUsage;
    } catch (const MosaicError& e) {
        std::cerr << "terragrid: error: " << e.what() << "\n";
        return kExitUsage;
    } catch (const ServeError& e) {
        std::cerr << "terragrid: error: " << e.what() << "\n";
        return kExitUsage;
    } catch (const HydrologyStageFileError& e) {
        std::cerr << "terragrid: error: '--hydrology-stage': " << e.what() << "\n";
        return kExitUsage;
    } catch (const ForeignEntryError& e) {
        // Something in the output directory the run will not use: the user must act, as for
        // a bad config, and nothing was touched.
        std::cerr << "terragrid: error: " << e.what() << "\n";
        return kExitUsage;
    } catch (const std::bad_alloc&) {
        // Anywhere in the run, after the plan let it start: a runtime failure (exit 1), as a
        // disk that fills after the disk check is. The stack is unwound, so the message has
        // memory to be made in; the output transaction left the older files as they were.
        std::cerr << "terragrid: error: "
                  << outOfMemoryMessage(argc > 1 && std::string_view(argv[1]) == "hydrology-stage"
                                            ? "a coarser hydrology.resolution would"
                                            : "fewer threads, a smaller "
                                              "output.preview_max_size, fewer outputs or "
                                              "--shard would")
                  << "\n";
        return kExitRuntime;
    } catch (const std::exception& e) {
        std::cerr << "terragrid: error: " << e.what() << "\n";
        return kExitRuntime;
    }
}

}  // namespace

int main(int argc, char** argv) {
    markProcessStart();  // stats.json's timers count the start-up from here
    // Before any thread starts and takes an arena of its own (process_limits.hpp).
    limitMallocArenas();
    // Before anything opens a file, so no output file can become descriptor 0, 1 or 2; with
    // no /dev/null there is nowhere to say so.
    if (!cli::openClosedStandardStreams()) return kExitRuntime;
    stopOnSignals();  // before any thread starts
    cli::checkStdoutWrites();
    const int code = runCommandLine(argc, argv);
    const std::string failure = cli::stdoutFailure();
    if (failure.empty()) return code;
    std::cerr << "terragrid: error: " << failure << "\n";
    return code == kExitOk ? kExitRuntime : code;
}

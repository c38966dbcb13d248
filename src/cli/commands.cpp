// The command line's commands and options (commands.hpp).

#include "cli/commands.hpp"

#include "cli/serve_command.hpp"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace terragrid::cli {

namespace {

void addHelpOption(po::options_description& d) {
    d.add_options()("help,h", "print this help and exit");
}

/// The options that choose and change the config; a run and `validate` take them.
void addConfigOptions(po::options_description& d,
                      const char* outDirHelp = "output directory (output.directory), created if "
                                               "missing") {
    d.add_options()
        ("config,c", po::value<std::string>()->value_name("FILE"),
         "JSON config (comments allowed), merged over the built-in default")
        ("out-dir,o", po::value<std::string>()->value_name("DIR"), outDirHelp)
        ("seed", po::value<std::string>()->value_name("N"), "map seed (seed)")
        ("width", po::value<std::string>()->value_name("N"), "map width in cells (map.width)")
        ("height", po::value<std::string>()->value_name("N"), "map height in cells (map.height)")
        ("tile-size", po::value<std::string>()->value_name("N"),
         "tile size in cells (map.tile_size)")
        ("set,s", po::value<std::vector<std::string>>()->composing()->value_name("KEY=VALUE"),
         "override any config key, e.g. --set height.octaves=8 (VALUE is JSON or a bare string); "
         "repeatable");
}

void addQuietOption(po::options_description& d, const char* what) {
    d.add_options()("quiet,q", what);
}

void addThreadsOption(po::options_description& d) {
    d.add_options()("threads,j", po::value<int>()->value_name("N"),
                    "worker threads (default: every core); the output does not depend on it");
}

}  // namespace

/// The options of `command`, as --help shows them.
po::options_description describeOptions(Command command) {
    po::options_description d("Options");
    addHelpOption(d);
    switch (command) {
        case Command::Run:
            d.add_options()("version", "print the version and exit");
            addConfigOptions(d);
            addThreadsOption(d);
            addQuietOption(d, "print nothing on success (not even notes or the progress bar)");
            d.add_options()
                ("progress", po::value<std::string>()->value_name("MODE"),
                 "auto (default): a progress bar on stderr for runs over a second when stderr "
                 "is a terminal; bar: the bar even when it is not (--quiet silences it); "
                 "json: one JSON object per line on stderr (tiles, cells, elapsed, rate, ETA; "
                 "a last line with \"event\":\"done\"), also with --quiet; none")
                ("region", po::value<std::string>()->value_name("X,Y,W,H"),
                 "generate only the W x H cells from column X, row Y (0-based) of the "
                 "configured map, georeferenced where they lie in it")
                ("shard", po::value<std::string>()->value_name("K/N"),
                 "generate only shard K of N (K from 0 to N-1): the K-th of N equal bands of "
                 "tile rows; give each shard its own --out-dir")
                ("hydrology-stage", po::value<std::string>()->value_name("FILE"),
                 "read the whole-map hydrology stage from FILE (made by 'terragrid "
                 "hydrology-stage' with the same config) instead of computing it")
                ("dry-run", po::value<std::string>()->implicit_value("text")->value_name("FORMAT"),
                 "print the plan (size, tiles, threads, each output with an upper bound on its "
                 "size, disk and memory estimates against what is free) and exit without "
                 "writing anything; --dry-run=json prints it as JSON")
                ("print-config", "print the resolved config (every default filled in) and exit")
                ("config-reference", "print the table of every config key (Markdown) and exit");
            break;
        case Command::Validate:
            addConfigOptions(d);
            addQuietOption(d, "print nothing when the config is valid (not even notes)");
            break;
        case Command::Schema:
        case Command::ManPage:
        case Command::Completion:
            break;
        case Command::HydrologyStage:
            d.add_options()("out", po::value<std::string>()->value_name("FILE"),
                            "the stage file to write (required); replaced only when complete");
            addConfigOptions(d);
            addThreadsOption(d);
            addQuietOption(d, "print nothing on success (not even notes)");
            d.add_options()(
                "dry-run", po::value<std::string>()->implicit_value("text")->value_name("FORMAT"),
                "print the plan (the grid, an upper bound on the file's size, the memory, "
                "against what is free) and exit without writing anything; --dry-run=json "
                "prints it as JSON");
            break;
        case Command::Mosaic:
            d.add_options()("out-dir,o", po::value<std::string>()->value_name("DIR"),
                            "the directory to write the mosaic into (required), created if "
                            "missing")
                ("merge", "also write one Cloud Optimized GeoTIFF per raster (the single run's "
                          "bytes with output.layout \"cog\"), not only VRTs of the pieces");
            addThreadsOption(d);
            addQuietOption(d, "print nothing on success (not even what was left out)");
            break;
        case Command::Verify:
            addQuietOption(d, "print nothing when every file is intact");
            break;
        case Command::Serve:
            addConfigOptions(d, "the export directory: the page's Export button writes the "
                                "current config's files into it (created if missing); without "
                                "it, export is off");
            addThreadsOption(d);
            addServeOptions(d);
            addQuietOption(d, "print nothing but the URL (not even notes)");
            break;
    }
    return d;
}

/// One option as a usage line shows it: "[--seed N]", "[--set KEY=VALUE ...]",
/// "[--dry-run[=FORMAT]]", "[--quiet]". Made from the option's description, so the usage line
/// cannot drift from the options the parser takes.
std::string usageItem(const po::option_description& o) {
    std::string parameter = o.format_parameter();  // "N", "[=FORMAT(=text)]" or ""
    // Boost adds an implicit or default value in parentheses; the option's help gives it.
    if (const auto at = parameter.find("(="); at != std::string::npos)
        parameter.erase(at, parameter.find(')', at) + 1 - at);
    const std::string name = "--" + o.long_name();
    if (parameter.empty()) return "[" + name + "]";
    if (parameter.starts_with("[")) return "[" + name + parameter + "]";
    const bool repeatable = o.semantic()->is_composing();
    return "[" + name + " " + parameter + (repeatable ? " ..." : "") + "]";
}

/// "Usage: terragrid validate [FILE] [--help] ..." for `head` ("terragrid validate [FILE]")
/// and every option of `d`, wrapped below 80 columns under the first option.
std::string usageLines(std::string_view head, const po::options_description& d) {
    constexpr std::size_t kWidth = 79;
    const std::string lead = "Usage: " + std::string(head);
    const std::string indent(lead.size(), ' ');
    std::string text = lead;
    std::size_t column = lead.size();
    for (const auto& option : d.options()) {
        const std::string item = usageItem(*option);
        if (column + 1 + item.size() > kWidth && column > indent.size()) {
            text += "\n" + indent;
            column = indent.size();
        }
        text += " " + item;
        column += 1 + item.size();
    }
    return text + "\n";
}

std::string commandSynopsis(const CommandInfo& command) {
    std::string text = "terragrid " + std::string(command.name);
    if (!command.arguments.empty()) text += " " + std::string(command.arguments);
    if (describeOptions(command.command).options().size() > 1) text += " [OPTION...]";
    return text;
}

std::string commandNames() {
    std::string names;
    for (const CommandInfo& c : kCommands) names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

std::string commandsHelp() {
    constexpr std::size_t kWidth = 79, kIndent = 20;
    std::string text = "Commands:\n";
    for (const CommandInfo& c : kCommands) {
        std::string head = "  " + std::string(c.name);
        if (!c.arguments.empty()) head += " " + std::string(c.arguments);
        std::size_t column = head.size();
        text += head;
        if (column + 2 > kIndent) {
            text += "\n";
            column = 0;
        }
        text += std::string(kIndent - column, ' ');
        column = kIndent;
        std::string_view rest = c.summary;
        while (!rest.empty()) {
            const auto space = rest.find(' ');
            const std::string_view word = rest.substr(0, space);
            if (column > kIndent && column + 1 + word.size() > kWidth) {
                text += "\n" + std::string(kIndent, ' ');
                column = kIndent;
            } else if (column > kIndent) {
                text += ' ';
                ++column;
            }
            text += word;
            column += word.size();
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        }
        text += "\n";
    }
    return text + "  (terragrid COMMAND --help describes each)\n";
}

}  // namespace terragrid::cli

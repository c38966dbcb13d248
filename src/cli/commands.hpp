#pragma once
// The command line's commands and options, declared once: --help, the usage lines, the man
// page (man_page.hpp) and the bash completion (completion.hpp) are all made from these.

#include <string>
#include <string_view>

#include <boost/program_options/options_description.hpp>

namespace terragrid::cli {

/// What the command line asks for: generate a map (no command), or one of the commands.
enum class Command { Run, Validate, Schema, HydrologyStage, Mosaic, Verify, Serve, ManPage, Completion };

struct CommandInfo {
    Command command;
    std::string_view name;
    std::string_view arguments;  ///< after the name in usage lines: "[FILE]", "--out FILE"
    std::string_view summary;    ///< one sentence, for --help's and the man page's lists
};
inline constexpr CommandInfo kCommands[] = {
    {Command::Validate, "validate", "[FILE]",
     "check a config (FILE, or the built-in default) with the options given and print every "
     "problem, or 'ok'; writes nothing"},
    {Command::Schema, "schema", "", "print the config's JSON Schema (configs/schema.json)"},
    {Command::HydrologyStage, "hydrology-stage", "--out FILE",
     "compute the whole-map hydrology stage once into a file that runs and shards read with "
     "--hydrology-stage"},
    {Command::Mosaic, "mosaic", "PIECE_DIR... --out-dir DIR",
     "make the pieces of a map (--shard, --region runs) into the map: VRTs, with --merge COGs, "
     "stats.json combined"},
    {Command::Verify, "verify", "DIR", "check DIR's files against its manifest.json"},
    {Command::Serve, "serve", "",
     "run the map explorer: a local web server with the map's tiles, a live config and a cell "
     "inspector, until a signal stops it"},
    {Command::ManPage, "man-page", "", "print the manual page, terragrid.1 (roff)"},
    {Command::Completion, "completion", "bash",
     "print the bash completion of commands, options and config keys"},
};

/// "terragrid validate [FILE] [OPTION...]": the command, its arguments, and [OPTION...] when it
/// takes options besides --help.
std::string commandSynopsis(const CommandInfo& command);

/// "validate, schema, ...": every command's name, for messages.
std::string commandNames();

/// The options of `command`, as --help shows them.
boost::program_options::options_description describeOptions(Command command);

/// --help's "Commands:" list: each command with its arguments and summary, wrapped below 80
/// columns.
std::string commandsHelp();

/// "Usage: terragrid validate [FILE] [--help] ..." for `head` ("terragrid validate [FILE]")
/// and every option of `d`, wrapped below 80 columns under the first option.
std::string usageLines(std::string_view head, const boost::program_options::options_description& d);

/// One option as a usage line shows it: "[--seed N]", "[--set KEY=VALUE ...]",
/// "[--dry-run[=FORMAT]]", "[--quiet]".
std::string usageItem(const boost::program_options::option_description& o);

inline constexpr const char* kNotesHelp =
    "Notes on what loading decided for you (a map size snapped for output.engine) go to stderr "
    "as\n'terragrid: note: ...'; --quiet silences them.\n";
inline constexpr const char* kExitCodesHelp =
    "Exit codes: 0 success; 1 runtime or output failure; 2 usage or config error, or a run that\n"
    "needs more disk or memory than there is (nothing is created); 128 + N stopped by signal N\n"
    "(130 SIGINT, 143 SIGTERM), temporary files removed.\n";

}  // namespace terragrid::cli

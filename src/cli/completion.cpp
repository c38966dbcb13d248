// The bash completion script (completion.hpp).

#include "cli/completion.hpp"

#include <map>
#include <set>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/commands.hpp"
#include "terragrid/config/loader.hpp"

namespace po = boost::program_options;

namespace terragrid::cli {

namespace {

/// The values of the options whose parameter is a word from a list. The parser checks these
/// words in main.cpp (progressModeOf, parseDryRunAndWindow); CliCompletionTest runs the CLI with
/// each of them, so a word the parser no longer takes fails there.
struct OptionWords {
    std::string_view option;
    std::string_view words;
};
constexpr OptionWords kOptionWords[] = {{"progress", "auto bar json none"},
                                        {"dry-run", "text json"}};

std::string optionWords(const std::string& longName) {
    for (const auto& [option, words] : kOptionWords)
        if (option == longName) return std::string(words);
    return {};
}

std::string parameterOf(const po::option_description& o) {
    std::string parameter = o.format_parameter();
    if (const auto at = parameter.find("(="); at != std::string::npos)
        parameter.erase(at, parameter.find(')', at) + 1 - at);
    return parameter;
}

/// "--config -c --out-dir -o ...": the words that name `d`'s options.
std::string optionNames(const po::options_description& d) {
    std::string names;
    for (const auto& option : d.options()) {
        const std::string format = option->format_name();  // "-c [ --config ]" or "--seed"
        if (!names.empty()) names += ' ';
        names += "--" + option->long_name();
        if (!format.starts_with("--")) names += " " + format.substr(0, 2);
    }
    return names;
}

/// "--config|-c": the case pattern of an option's names.
std::string casePattern(const po::option_description& o) {
    const std::string format = o.format_name();  // "-c [ --config ]" or "--seed"
    return "--" + o.long_name() + (format.starts_with("--") ? "" : "|" + format.substr(0, 2));
}

std::string joined(const std::set<std::string>& patterns) {
    std::string text;
    for (const std::string& p : patterns) text += (text.empty() ? "" : "|") + p;
    return text;
}

/// The case arms that complete an option's value, by its parameter: files (FILE),
/// directories (DIR), a word from kOptionWords, or nothing to offer (N, KEY=VALUE, ...).
std::string valueArms() {
    std::set<std::string> files, dirs, none;
    std::map<std::string, std::string> words;
    std::vector<po::options_description> all{describeOptions(Command::Run)};
    for (const CommandInfo& c : kCommands) all.push_back(describeOptions(c.command));
    for (const auto& d : all)
        for (const auto& option : d.options()) {
            const std::string parameter = parameterOf(*option);
            // A flag; --dry-run[=FORMAT], whose value is in the same word; --set's keys.
            if (parameter.empty() || parameter.starts_with("[=") || option->long_name() == "set")
                continue;
            const std::string pattern = casePattern(*option);
            if (const std::string listed = optionWords(option->long_name()); !listed.empty())
                words[pattern] = listed;
            else if (parameter == "FILE") files.insert(pattern);
            else if (parameter == "DIR") dirs.insert(pattern);
            else none.insert(pattern);
        }
    std::string arms;
    if (!files.empty()) arms += "        " + joined(files) + ") _terragrid_files \"$cur\"; return ;;\n";
    if (!dirs.empty()) arms += "        " + joined(dirs) + ") _terragrid_files \"$cur\" -d; return ;;\n";
    for (const auto& [pattern, listed] : words)
        arms += "        " + pattern + ") candidates=\"" + listed + "\" ;;\n";
    if (!none.empty()) arms += "        " + joined(none) + ") return ;;\n";
    return arms;
}

/// `_terragrid_key_values KEY`'s case arms: the words a choice or boolean key takes.
std::string keyValueArms() {
    std::string arms;
    for (const OptionInfo& o : optionReference()) {
        std::string values;
        if (o.type == "boolean") values = "true false";
        else if (o.range.starts_with("one of: ")) {
            values = o.range.substr(8);
            std::string spaced;
            for (const char c : values)
                if (c != ',') spaced += c;
            values = spaced;
        }
        if (!values.empty()) arms += "        " + o.path + ") echo \"" + values + "\" ;;\n";
    }
    return arms;
}

}  // namespace

std::string bashCompletion() {
    std::string keys;
    for (const OptionInfo& o : optionReference()) keys += (keys.empty() ? "" : " ") + o.path;
    std::string commands, commandOptions;
    for (const CommandInfo& c : kCommands) {
        commands += (commands.empty() ? "" : " ") + std::string(c.name);
        commandOptions += "        " + std::string(c.name) + ") options=\"" +
                          optionNames(describeOptions(c.command)) + "\" ;;\n";
    }
    return R"(# bash completion for terragrid: commands, options and their values, and the config keys
# of --set KEY=VALUE (with the values of keys that take a choice).
# Generated by `terragrid completion bash` from terragrid's option tables; do not edit.
# Use: source <(terragrid completion bash), or install it as
# share/bash-completion/completions/terragrid (cmake --install does).

_terragrid_keys=")" + keys + R"("

_terragrid_key_values() {
    case $1 in
)" + keyValueArms() + R"(    esac
}

# Completes file names (or with -d, directories) for the word $1.
_terragrid_files() {
    local IFS=$'\n'
    if [ "${2:-}" = -d ]; then
        COMPREPLY=($(compgen -d -- "$1"))
    else
        COMPREPLY=($(compgen -f -- "$1"))
    fi
    compopt -o filenames 2>/dev/null
}

_terragrid() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    # The line up to the cursor, split at blanks only: bash also splits KEY=VALUE and
    # --option=VALUE at '=' (COMP_WORDBREAKS), and the key or option is needed whole.
    local line=${COMP_LINE:0:COMP_POINT}
    local -a words
    read -r -a words <<<"$line"
    local word=""
    if [[ $line =~ [[:space:]]$ ]]; then
        words+=("")
    else
        word=${words[${#words[@]}-1]}
    fi
    local at=$((${#words[@]} - 1))
    local prev=""
    [ "$at" -ge 1 ] && prev=${words[$at-1]}
    # What bash replaces is $cur, the end of $word after its last word break.
    local keep=${word%"$cur"}
    local candidates="" options=""

    local command=""
    if [ "$at" -ge 2 ]; then
        case ${words[1]} in
            )" + [&] {
               std::string alternatives;
               for (const CommandInfo& c : kCommands)
                   alternatives += (alternatives.empty() ? "" : "|") + std::string(c.name);
               return alternatives;
           }() + R"() command=${words[1]} ;;
        esac
    fi
    case $command in
        "") options=")" + optionNames(describeOptions(Command::Run)) + R"(" ;;
)" + commandOptions + R"(    esac

    case $prev in
        --set|-s)
            if [[ $word == *=* ]]; then
                local key=${word%%=*}
                local value
                for value in $(_terragrid_key_values "$key"); do
                    candidates+="$key=$value "
                done
            else
                local key
                for key in $_terragrid_keys; do candidates+="$key= "; done
                compopt -o nospace 2>/dev/null
            fi
            ;;
)" + valueArms() + R"(        *)
            if [ "$at" -eq 1 ]; then
                candidates=")" + commands + R"( $options"
            elif [ "$command" = completion ] && [ "$at" -eq 2 ] && [[ $word != -* ]]; then
                candidates="bash"
            elif [[ ($command == validate || $command == mosaic || $command == verify) && $word != -* ]]; then
                _terragrid_files "$cur"
                return
            else
                candidates=$options
            fi
            if [[ $word == --dry-run=* ]]; then
                candidates="--dry-run=text --dry-run=json"
            fi
            ;;
    esac
    local candidate
    COMPREPLY=()
    for candidate in $candidates; do
        [[ $candidate == "$word"* ]] && COMPREPLY+=("${candidate#"$keep"}")
    done
}

complete -F _terragrid terragrid
)";
}

}  // namespace terragrid::cli

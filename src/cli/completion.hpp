#pragma once
// The bash completion of terragrid, made from the same tables as --help (commands.hpp) and
// --config-reference (the option table): commands, each command's options, option values
// (files, directories, modes) and the config keys of --set KEY=VALUE with the values of keys
// that take a choice. `terragrid completion bash` prints it; the build writes it and
// `cmake --install` installs it where bash-completion looks (share/bash-completion/completions).

#include <string>

namespace terragrid::cli {

/// The completion script for bash: defines _terragrid and registers it for `terragrid`.
std::string bashCompletion();

}  // namespace terragrid::cli

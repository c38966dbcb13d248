#pragma once
// terragrid.1, the manual page, made from the tables --help and --config-reference print:
// the commands (commands.hpp), each command's options (describeOptions) and every config key
// (optionReference), so the page cannot drift from the program. `terragrid man-page` prints it;
// the build writes it (CMakeLists.txt) and `cmake --install` installs it.

#include <string>
#include <string_view>

namespace terragrid::cli {

/// The whole page in roff (man macros); renders without a groff warning.
std::string manPage();

/// `text` safe in a roff line: backslashes and hyphens escaped, a leading '.' or '\'' guarded.
std::string roffEscape(std::string_view text);

}  // namespace terragrid::cli

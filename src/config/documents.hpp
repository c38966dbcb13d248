#pragma once
// Config documents (private to src/): config text parsed and merged into a document, with
// every parse failure reported as a problem, and the built-in default document.

#include <string>
#include <string_view>

#include "config/json.hpp"
#include "config/text.hpp"

namespace terragrid::config_detail {

/// nlohmann refuses numbers that overflow a double (1e309) while parsing; that is a problem
/// with the value at `path` ("map.width"), not with the JSON.
void reportOverflow(const std::string& path, const std::string& number, Problems& out);

/// Parses `text` (JSON with comments) and merges it over `document`, and over `written` (what
/// the user wrote) when given. `sourceName` names the text in problems. On a problem,
/// `document` is left as it was, so overrides are still checked against the rest.
void mergeText(Json& document, std::string_view text, std::string_view sourceName, Problems& out,
               Json* written = nullptr);

/// The built-in default document (configs/default.json as compiled in), parsed once
/// (thread-safe static initialisation). Throws ConfigError should it not parse.
const Json& builtinDocument();

}  // namespace terragrid::config_detail

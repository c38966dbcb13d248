#pragma once
// How a config is loaded: JSON text merged over the built-in default, checked against the
// option table, and turned into the plain Config (terragrid/io/config.hpp).
//
// Defaults live in one place: configs/default.json, compiled into the binary. A user's config
// is merged over it key by key, `--set` overrides over that, and the merged document is checked
// against the option table in src/config/options.cpp (type, range, meaning of every key). Every
// problem is collected and reported at once in a ConfigError.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/io/config.hpp"

namespace terragrid {

/// A bad config file, bad JSON, or bad values. what() holds every problem, one per line, each
/// starting with "config: ".
class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(std::vector<std::string> problems);
    const std::vector<std::string>& problems() const noexcept { return m_problems; }

private:
    std::vector<std::string> m_problems;
};

/// A loaded config: the plain Config and what loading found out beside it.
struct LoadedConfig : Config {
    /// The fully resolved config as JSON text (keys sorted, every default filled in).
    std::string resolvedJson;
    /// What loading decided for the user that they should be told, one sentence each (e.g.
    /// "map snapped from 1024 x 1024 to 1025 x 1025 cells for unity").
    std::vector<std::string> notes;
};

/// The built-in default config (configs/default.json as compiled in), as text.
std::string_view builtinConfigText();

/// Parses and validates config text (JSON with // and /* */ comments) merged over the built-in
/// defaults, then applies `overrides` ("key.path=value"; value is JSON, or a bare string).
/// `sourceName` names the text in messages (a file name, or "built-in default").
/// Throws ConfigError listing every problem.
LoadedConfig parseConfig(std::string_view text, std::string_view sourceName,
                   const std::vector<std::string>& overrides = {});

/// The text of the config file `path`, as loadConfig reads it (a directory, an unreadable
/// file or one over 256 MiB is a ConfigError naming the path).
std::string readConfigFile(const std::string& path);

/// Reads `path` and calls parseConfig. An unreadable file is a ConfigError naming the path.
LoadedConfig loadConfig(const std::string& path, const std::vector<std::string>& overrides = {});

/// The built-in default with `overrides` applied.
LoadedConfig defaultConfig(const std::vector<std::string>& overrides = {});

/// One documented option, for the README reference (and later the JSON Schema).
struct OptionInfo {
    std::string path;         ///< "height.octaves"
    std::string type;         ///< "integer", "number", "string", "boolean", "[number, number]", ...
    std::string defaultJson;  ///< the default from the built-in config, as JSON
    std::string range;        ///< "1..16", "one of: none, fbm, ...", "" when unrestricted
    std::string meaning;
};

/// Every option the parser accepts, in documentation order.
std::vector<OptionInfo> optionReference();

/// optionReference() as the Markdown table the README carries.
std::string optionReferenceMarkdown();

/// A JSON Schema (draft 2020-12) of the config: every key with its type, default, range and
/// description, unknown keys refused. configs/schema.json is this text.
std::string configSchemaJson();

}  // namespace terragrid

// Config loading and validation (design.md principles 5 and 7): overrides and the public
// entry points. Documents are parsed in documents.cpp, the option table is in options.cpp, the
// checks of its values in values.cpp, layers.cpp and terrain_rules.cpp, and the rules across
// fields in validation.cpp and shapes.cpp. A document is checked in full before anything is thrown, so the user
// sees every problem at once, one per line.

#include "terragrid/config/loader.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "config/documents.hpp"
#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "config/validation.hpp"
#include "config/json_duplicate_keys.hpp"
#include "io/safe_open.hpp"

namespace terragrid {

using namespace config_detail;

namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// ---------------------------------------------------------------------------------------------
// Overrides

bool isKeyPath(std::string_view path) {
    const auto keys = splitPath(path);
    return !path.empty() &&
           std::none_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); });
}

/// Merges `value` in at `path`. Missing sections are created, so an unknown key is reported by
/// checkKeys like any other.
void setAt(Json& document, std::string_view path, const Json& value, std::string_view override,
           Problems& out) {
    Json* node = &document;
    std::string walked;
    for (const auto& key : splitPath(path)) {
        if (!node->is_object()) {
            return report(out, "override " + quote(override) + " cannot set a key inside " +
                                   quote(walked) + ", which is not an object" + got(*node));
        }
        walked = joinPath(walked, key);
        if (!node->contains(key) && walked != path) (*node)[key] = Json::object();
        node = &(*node)[key];
    }
    mergeJson(*node, value);
}

/// `value` nested in objects along `path`: "a.b" and 1 give {"a": {"b": 1}}.
Json nestedAt(std::string_view path, Json value) {
    const auto keys = splitPath(path);
    for (auto key = keys.rbegin(); key != keys.rend(); ++key) {
        Json object = Json::object();
        object[*key] = std::move(value);
        value = std::move(object);
    }
    return value;
}

/// Applies "key.path=value" to `document`, and records it in `written` (what the user wrote).
/// The value is JSON when it parses as JSON (12, true, [0, 30], "quoted"), otherwise the bare
/// text (out-dir); spaces around key and value are ignored.
void applyOverride(Json& document, Json& written, std::string_view text, Problems& out) {
    const auto equals = text.find('=');
    const std::string_view path =
        equals == std::string_view::npos ? "" : trim(text.substr(0, equals));
    if (!isKeyPath(path))
        return report(out, "override " + quote(text) + " must look like key.path=value");
    const std::string_view valueText = trim(text.substr(equals + 1));
    JsonParseResult parsed = parseJson(valueText, false);
    if (!parsed.ok && !parsed.failure.overflowingNumber.empty())
        return reportOverflow(joinPath(path, parsed.failure.keyPath),
                              parsed.failure.overflowingNumber, out);
    if (const auto duplicate = parsed.ok ? findDuplicateKey(valueText, false) : std::nullopt)
        return report(out, "override " + quote(text) + " sets " +
                               quote(joinPath(path, duplicate->path)) + " twice; give each key "
                               "once");
    const Json value = parsed.ok ? parsed.value : Json(std::string(valueText));
    setAt(document, path, value, text, out);
    mergeJson(written, nestedAt(path, value));
}

/// The keys added after the hashes were first defined (issue 29: climate, biomes, erosion
/// boundaries) are left out of the hashed document while their value gives the map terragrid
/// made before they existed (the value, or the choices around it, make them change nothing), so
/// such a config keeps the hashes its files carried, as it keeps its bytes
/// (tests/map_hashes_test.cpp). A value that changes the map stays in, so the hash tells the
/// maps apart: an eroded map with the new defaults (open edges, classes on the eroded range)
/// has a new hash, as it has new cells.
bool givesTheEarlierMap(const Json& document, std::string_view path) {
    const Json& hydrology = document.at("hydrology");
    const bool eroded = hydrology.at("enabled").get<bool>() &&
                        hydrology.at("erosion").at("enabled").get<bool>();
    const Json& value = sectionOf(document, path)->at(lastKey(path));
    if (path == "climate") return !value.at("enabled").get<bool>();
    if (path == "terrain.model") return value == "noise";
    // The biome table's alone: with the noise model it changes nothing.
    if (path == "terrain.rock_slope") return document.at("terrain").value("model", "noise") == "noise";
    // Without erosion the noise range is the relief's, and open edges are the edges' water.
    if (path == "terrain.eroded_heights") return value == "elevation_range" || !eroded;
    if (path == "hydrology.outlets") return value == "edges" || (value == "open" && !eroded);
    return false;
}

constexpr std::array<std::string_view, 5> kKeysSinceFirstHash{
    "climate", "terrain.model", "terrain.rock_slope", "terrain.eroded_heights",
    "hydrology.outlets"};

void dropKeysThatGiveTheEarlierMap(Json& document) {
    std::vector<std::string_view> drop;
    // Decided on the whole document first: terrain.rock_slope reads terrain.model.
    for (const std::string_view path : kKeysSinceFirstHash) {
        const Json* section = sectionOf(document, path);
        if (section != nullptr && section->contains(lastKey(path)) &&
            givesTheEarlierMap(document, path))
            drop.push_back(path);
    }
    for (const std::string_view path : drop) sectionOf(document, path)->erase(lastKey(path));
}

/// The resolved document without output.directory: where a map is written does not change
/// which map it is. Nor does output.manifest, which adds a file and changes no other (and came
/// after maps whose hashes must stay as they were). Its FNV-1a is the config hash.
std::string hashedDocument(Json document) {
    dropKeysThatGiveTheEarlierMap(document);
    document["output"].erase("directory");
    document["output"].erase("manifest");
    // An execution parameter, like the thread count: it changes no byte of any output, so
    // neither may the hash that every output carries.
    document["map"].erase("tile_size");
    return dumpJson(document);
}

/// Hash of what the hydrology stage is a function of: the resolved document without the
/// outputs and the terrain classes (read by the tiles only) and map.tile_size. A stage file
/// (io/hydrology_stage_file.hpp) carries it, so shards writing other files, into other
/// directories, still read the stage of their map, and never the stage of another.
std::string hydrologyHash(Json document) {
    dropKeysThatGiveTheEarlierMap(document);
    document.erase("output");
    document.erase("terrain");
    document["map"].erase("tile_size");
    return fnv1a64Hex(dumpJson(document));
}

ConfigError cannotRead(const std::string& path, const std::string& reason) {
    return ConfigError({"config: cannot read " + quote(path) + ": " + oneLine(reason)});
}

/// Far above any config (a few KB) and above the 100 MB the hostile-input table feeds in, but a
/// bound: a pipe that never ends (`--config <(yes)`) or a disk image would otherwise be read
/// until memory runs out.
constexpr std::size_t kMaxConfigBytes = std::size_t{256} << 20;

/// The bytes of the config file `path`: a regular file, or a pipe (--config <(jq ...), a pipe
/// into --config /dev/stdin). A named FIFO, a device or a directory is refused unread, and
/// without blocking: a FIFO nobody writes to would otherwise hang the program in open().
std::string readFile(const std::string& path) {
    std::string reason;
    const FileHandle file = openForReading(path, Pipes::Accept, reason);
    if (!file) throw cannotRead(path, reason);
    std::string text;
    std::vector<char> chunk(std::size_t{1} << 20);
    for (;;) {
        const ssize_t n = ::read(file.get(), chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw cannotRead(path, std::generic_category().message(errno));
        if (n == 0) return text;
        if (text.size() + std::size_t(n) > kMaxConfigBytes)
            throw cannotRead(path, "it holds more than " + std::to_string(kMaxConfigBytes >> 20) +
                                       " MiB, and a config is a few KB");
        text.append(chunk.data(), std::size_t(n));
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public interface

ConfigError::ConfigError(std::vector<std::string> problems)
    : std::runtime_error([&] {
          std::string text;
          for (const auto& problem : problems) text += (text.empty() ? "" : "\n") + problem;
          return text;
      }()),
      m_problems(std::move(problems)) {}

LoadedConfig parseConfig(std::string_view text, std::string_view sourceName,
                   const std::vector<std::string>& overrides) {
    Problems problems;
    Json document = builtinDocument();
    Json written = Json::object();
    mergeText(document, text, sourceName, problems, &written);
    for (const auto& override : overrides) applyOverride(document, written, override, problems);
    Validation v = validate(document, written, problems);
    if (!problems.empty()) throw ConfigError(std::move(problems));
    v.config.resolvedJson = dumpJson(document, 2);
    v.config.hydrologyHash = hydrologyHash(document);
    v.config.hashedJson = hashedDocument(std::move(document));
    v.config.hash = fnv1a64Hex(v.config.hashedJson);
    return std::move(v.config);
}

std::string readConfigFile(const std::string& path) { return readFile(path); }

LoadedConfig loadConfig(const std::string& path, const std::vector<std::string>& overrides) {
    return parseConfig(readFile(path), path, overrides);
}

LoadedConfig defaultConfig(const std::vector<std::string>& overrides) {
    // Nothing merged over the built-in default: only the overrides are the user's (which
    // matters for "has no effect" problems).
    return parseConfig("{}", "built-in default", overrides);
}

}  // namespace terragrid

#pragma once
// Text shared by the config files (private to src/): problems, one line each, and the dotted
// key paths ("map.width") that name options in documents and messages.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/json.hpp"

namespace terragrid::config_detail {

using Problems = std::vector<std::string>;

/// Problems are one line each; a key or file name could carry a line break.
std::string oneLine(std::string text);

void report(Problems& out, const std::string& text);

/// Longest key, file name, value or parser complaint a problem shows in full.
inline constexpr std::size_t kMaxShownBytes = 256;

/// `text`, or when it is longer than kMaxShownBytes its start and end around the number of
/// bytes left out, cut between UTF-8 characters: a 100 MB value must not make a 100 MB message.
std::string abbreviate(std::string_view text);

/// `name` in single quotes, abbreviated.
std::string quote(std::string_view name);

/// " (got VALUE)", the value abbreviated.
std::string got(const Json& value);

std::string joinNames(std::span<const std::string_view> names, std::string_view separator);

/// "map" + "width" -> "map.width"; an empty side adds nothing.
std::string joinPath(std::string_view section, std::string_view key);

std::vector<std::string> splitPath(std::string_view path);

/// The object holding the last key of `path`, or nullptr when a section on the way is missing
/// or not an object (checkKeys reports the latter; the built-in default has every section).
template <typename J>
J* sectionOf(J& document, std::string_view path) {
    J* node = &document;
    const auto keys = splitPath(path);
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        if (!node->is_object() || !node->contains(keys[i])) return nullptr;
        node = &(*node)[keys[i]];
    }
    return node->is_object() ? node : nullptr;
}

std::string lastKey(std::string_view path);

}  // namespace terragrid::config_detail

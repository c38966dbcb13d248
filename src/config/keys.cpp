// Unknown keys and what they were meant to be (keys.hpp).

#include "config/keys.hpp"

#include <optional>

#include "config/options.hpp"

namespace terragrid::config_detail {
namespace {

/// Levenshtein distance: the fewest single-character insertions, deletions and substitutions
/// that turn `a` into `b`.
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
        }
    }
    return row[b.size()];
}

/// The known name `key` was most likely meant to be: at most 2 edits away and no more edits than
/// half its length (so "min" does not suggest "max"), or a name that `key` begins (3 characters
/// or more: "tile" suggests "tile_size"). The closest wins; ties go to the earlier name.
std::optional<std::string_view> nearestName(std::string_view key,
                                            std::span<const std::string_view> names) {
    std::optional<std::string_view> best;
    std::size_t bestRank = 0;
    for (const auto name : names) {
        const std::size_t distance = editDistance(key, name);
        const bool prefix = key.size() >= 3 && name.starts_with(key);
        const bool close = distance <= 2 && distance * 2 <= std::max(key.size(), name.size());
        if (!close && !prefix) continue;
        const std::size_t rank = prefix ? 0 : distance;
        if (!best || rank < bestRank) {
            best = name;
            bestRank = rank;
        }
    }
    return best;
}

bool isOption(std::string_view path) { return optionIndex(path) < options().size(); }

bool isSection(std::string_view path) {
    const std::string prefix = std::string(path) + ".";
    return std::any_of(options().begin(), options().end(),
                       [&](const Option& o) { return o.path.starts_with(prefix); });
}

/// The keys one level below `section` ("" for the top level), in table order.
std::vector<std::string_view> childKeys(std::string_view section) {
    std::vector<std::string_view> keys;
    for (const auto& option : options()) {
        std::string_view rest = option.path;
        if (!section.empty()) {
            if (!rest.starts_with(section) || !rest.substr(section.size()).starts_with('.'))
                continue;
            rest.remove_prefix(section.size() + 1);
        }
        const auto key = rest.substr(0, rest.find('.'));
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
    return keys;
}

/// Reports `key` inside `section`, which knows `names`. Returns the name suggested, if any.
std::optional<std::string_view> reportUnknownKey(std::string_view section, const std::string& key,
                                                 std::span<const std::string_view> names,
                                                 Problems& out) {
    // Spelled out rather than joinPath, which would drop an empty key.
    std::string text =
        "unknown key " + quote(section.empty() ? key : std::string(section) + "." + key);
    std::optional<std::string_view> near;
    if (key.find('.') != std::string::npos) {
        text += " (write nested objects: dots separate keys only in overrides)";
    } else if ((near = nearestName(key, names))) {
        text += " (did you mean '" + std::string(*near) + "'?)";
    }
    report(out, text);
    return near;
}

}  // namespace

UnknownKeys reportUnknownMembers(const Json& object, std::string_view path,
                                 std::span<const std::string_view> names, Problems& out) {
    UnknownKeys unknown;
    for (const auto& [key, value] : object.items()) {
        if (std::find(names.begin(), names.end(), key) != names.end()) continue;
        ++unknown.count;
        if (const auto near = reportUnknownKey(path, key, names, out))
            unknown.suggested.push_back(*near);
    }
    return unknown;
}

void checkKeys(const Json& object, const std::string& section, Problems& out) {
    for (const auto& [key, value] : object.items()) {
        const bool plain = !key.empty() && key.find('.') == std::string::npos;
        const std::string path = joinPath(section, key);
        if (plain && isOption(path)) continue;  // its rule checks it
        if (!plain || !isSection(path)) {
            reportUnknownKey(section, key, childKeys(section), out);
        } else if (value.is_object()) {
            checkKeys(value, path, out);
        } else {
            report(out, quote(path) + " must be an object" + got(value));
        }
    }
}

}  // namespace terragrid::config_detail

#pragma once
// Validating a whole document (private to src/): every option against its rule, then the
// rules across fields.

#include <algorithm>
#include <cassert>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::config_detail {

// Rules across fields. They only look at options that passed their own rule, so one bad value
// gives one problem.

/// A checked document and the config filled from it.
struct Validation {
    Json& document;
    /// What the user wrote (file and overrides, unchecked), to tell their keys from defaults.
    const Json& written;
    LoadedConfig config{};
    std::vector<bool> passed = std::vector<bool>(options().size());

    bool passedAll(std::initializer_list<std::string_view> paths) const {
        return std::all_of(paths.begin(), paths.end(), [&](std::string_view path) {
            assert(optionIndex(path) < options().size());
            return passed[optionIndex(path)];
        });
    }
    /// Whether the user set `path` themselves (to any value).
    bool userSet(std::string_view path) const {
        const Json* section = sectionOf(written, path);
        return section != nullptr && section->contains(lastKey(path));
    }
    /// How a checked value shows in a message: "'elevation.min' (500)".
    std::string named(std::string_view path) const {
        return quote(path) + " (" + showJson((*sectionOf(document, path))[lastKey(path)]) + ")";
    }
};

/// Checks `document` against the table and the cross-field rules; canonicalises its values in
/// place and fills the config. `written` is what the user wrote, before merging over defaults.
Validation validate(Json& document, const Json& written, Problems& out);

}  // namespace terragrid::config_detail

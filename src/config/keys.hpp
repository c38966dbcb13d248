#pragma once
// Unknown keys (private to src/): every key the option table does not know is reported, with
// the name it was probably meant to be.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/json.hpp"
#include "config/text.hpp"

namespace terragrid::config_detail {

/// The unknown keys of an object-valued option or entry, after they were reported.
struct UnknownKeys {
    std::size_t count = 0;
    std::vector<std::string_view> suggested;  ///< the names they were probably meant to be

    /// Whether a problem with `name` (say, that it is missing) is already told by a
    /// suggestion.
    bool suggest(std::string_view name) const {
        return std::find(suggested.begin(), suggested.end(), name) != suggested.end();
    }
};

/// Reports every key of `object` (the value at `path`) that is not one of `names`.
UnknownKeys reportUnknownMembers(const Json& object, std::string_view path,
                                 std::span<const std::string_view> names, Problems& out);

/// Reports every key of `object` (at `section`) that the table does not know, and every
/// section that is not an object; recurses into sections.
void checkKeys(const Json& object, const std::string& section, Problems& out);

}  // namespace terragrid::config_detail

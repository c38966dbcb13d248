#pragma once
// Checking one option's value against its rule (private to src/).

#include <optional>
#include <string>
#include <string_view>

#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::config_detail {

// Values. Each check returns the value in canonical form (integers as integers, numbers as
// floats, so 256 and 256.0 resolve and hash alike), or nullopt after reporting the problem.

using Checked = std::optional<Json>;

Checked failAt(Problems& out, std::string_view path, const std::string& rule, const Json& value);

Checked fail(Problems& out, const Option& option, const std::string& rule, const Json& value);

/// A number on 0..1 (a threshold or a coverage share).
bool isUnitNumber(const Json& value);

Checked checkBooleanAt(const std::string& path, const Json& value, Problems& out);

/// "#rrggbb" with hex digits in either case; canonical in lower case.
Checked checkColourAt(const std::string& path, const Json& value, Problems& out);

using MemberCheck = Checked (*)(const std::string& path, const Json& value, Problems& out);

/// Checks `value` against the option's rule; the path in messages is the option's.
Checked checkValue(const Option& option, const Json& value, Problems& out);

/// Checks one option in `document`, replaces its value by the canonical form and stores it in
/// `config`. Returns whether it passed.
bool checkOption(const Option& option, Json& document, Config& config, Problems& out);

}  // namespace terragrid::config_detail

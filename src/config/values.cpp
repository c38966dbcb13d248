// Value checks, one per rule kind (values.hpp); the terrain kinds are in terrain_rules.cpp,
// layer lists in layers.cpp.

#include "config/values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>

#include "config/keys.hpp"
#include "config/layers.hpp"
#include "config/terrain_rules.hpp"

namespace terragrid::config_detail {

Checked failAt(Problems& out, std::string_view path, const std::string& rule, const Json& value) {
    report(out, quote(path) + " must " + rule + got(value));
    return std::nullopt;
}

Checked fail(Problems& out, const Option& option, const std::string& rule, const Json& value) {
    return failAt(out, option.path, rule, value);
}

namespace {

/// "between 1 and 16", "greater than 0 and at most 1e7".
std::string rangeWords(const Rule& rule) {
    if (rule.kind == Kind::Integer)
        return "between " + std::to_string(rule.intMin) + " and " + std::to_string(rule.intMax);
    return (rule.minExclusive ? "greater than " : "between ") + formatNumber(rule.min) +
           (rule.minExclusive ? " and at most " : " and ") + formatNumber(rule.max);
}

/// A JSON number as an unsigned integer, if it is whole, not negative and below 2^64.
std::optional<std::uint64_t> wholeUnsigned(const Json& value) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer()) {
        const auto n = value.get<std::int64_t>();
        return n < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(n));
    }
    const double d = value.get<double>();
    if (d < 0 || d >= 0x1p64) return std::nullopt;
    return static_cast<std::uint64_t>(d);
}

/// Integers may be written as whole floats (3.0, 1e3): JSON writers in other languages emit
/// those for integers. 3.5 is not an integer.
Checked checkInteger(const Option& o, const Json& value, Problems& out) {
    const bool whole =
        value.is_number() &&
        (!value.is_number_float() || std::trunc(value.get<double>()) == value.get<double>());
    if (!whole) return fail(out, o, "be an integer", value);
    const auto n = wholeUnsigned(value);
    if (!n || *n < o.rule.intMin || *n > o.rule.intMax)
        return fail(out, o, "be " + rangeWords(o.rule), value);
    return Json(*n);
}

bool inRange(const Rule& rule, double value) {
    return (rule.minExclusive ? value > rule.min : value >= rule.min) && value <= rule.max;
}

// JSON cannot hold a non-finite number, and the parser reports 1e309 (which overflows a
// double) as "must be a finite number" itself, so numbers here are always finite.
Checked checkNumber(const Option& o, const Json& value, Problems& out) {
    if (!value.is_number()) return fail(out, o, "be a number", value);
    if (!inRange(o.rule, value.get<double>()))
        return fail(out, o, "be " + rangeWords(o.rule), value);
    return Json(value.get<double>());
}

Checked checkNumberPair(const Option& o, const Json& value, Problems& out) {
    if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number())
        return fail(out, o, "be an array of 2 numbers", value);
    const double x = value[0].get<double>();
    const double y = value[1].get<double>();
    if (!inRange(o.rule, x) || !inRange(o.rule, y)) {
        report(out, quote(o.path) + " values must be " + rangeWords(o.rule) + got(value));
        return std::nullopt;
    }
    return Json::array({x, y});
}

Checked checkString(const Option& o, const Json& value, Problems& out) {
    if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return fail(out, o, "be a non-empty string", value);
    // The C library ends a path at a NUL byte: "a\u0000b" would name the directory 'a'.
    if (value.get_ref<const std::string&>().find('\0') != std::string::npos)
        return fail(out, o, "not contain a NUL byte", value);
    return value;
}

bool isChoice(const Rule& rule, const Json& value) {
    return value.is_string() &&
           std::find(rule.choices.begin(), rule.choices.end(),
                     value.get_ref<const std::string&>()) != rule.choices.end();
}

Checked checkChoice(const Option& o, const Json& value, Problems& out) {
    if (!isChoice(o.rule, value))
        return fail(out, o, "be one of " + joinNames(o.rule.choices, ", "), value);
    return value;
}

bool hasDuplicate(const Json& array) {
    for (auto it = array.begin(); it != array.end(); ++it)
        if (std::find(std::next(it), array.end(), *it) != array.end()) return true;
    return false;
}

Checked checkFileList(const Option& o, const Json& value, Problems& out) {
    const bool shaped =
        value.is_array() && !value.empty() &&
        std::all_of(value.begin(), value.end(), [](const Json& e) { return e.is_string(); });
    if (!shaped) return fail(out, o, "be a non-empty array of file names", value);
    bool ok = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const bool reported = std::find(value.begin(), it, *it) != it;
        if (isChoice(o.rule, *it) || reported) continue;
        report(out, quote(o.path) + " entries must be one of " + joinNames(o.rule.choices, ", ") +
                        got(*it));
        ok = false;
    }
    if (hasDuplicate(value)) {
        fail(out, o, "not list a file twice", value);
        ok = false;
    }
    return ok ? Checked(value) : std::nullopt;
}

}  // namespace

bool isUnitNumber(const Json& value) {
    return value.is_number() && value.get<double>() >= 0 && value.get<double>() <= 1;
}

Checked checkBooleanAt(const std::string& path, const Json& value, Problems& out) {
    if (!value.is_boolean()) return failAt(out, path, "be a boolean", value);
    return value;
}

Checked checkColourAt(const std::string& path, const Json& value, Problems& out) {
    // Not std::isxdigit, which depends on the locale.
    constexpr std::string_view kHexDigits = "0123456789abcdefABCDEF";
    const auto isHex = [&](char c) { return kHexDigits.find(c) != std::string_view::npos; };
    const std::string text = value.is_string() ? value.get<std::string>() : "";
    if (text.size() != 7 || text[0] != '#' || !std::all_of(text.begin() + 1, text.end(), isHex))
        return failAt(out, path, R"(be a colour "#rrggbb")", value);
    std::string colour = text;
    for (char& c : colour) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    }
    return Json(colour);
}

namespace {

/// An object with one member per name in the rule's choices, each checked by `checkMember`.
Checked checkPerClass(const Option& o, const Json& value, const std::string& shape,
                      MemberCheck checkMember, Problems& out) {
    if (!value.is_object()) return fail(out, o, "be " + shape, value);
    const UnknownKeys unknown = reportUnknownMembers(value, o.path, o.rule.choices, out);
    bool ok = unknown.count == 0;
    Json canonical = Json::object();
    for (const auto name : o.rule.choices) {
        const std::string key(name);
        const std::string path = joinPath(o.path, key);
        const auto member = value.find(key);
        if (member == value.end()) {
            if (!unknown.suggest(name)) report(out, quote(path) + " is missing");
            ok = false;
        } else if (Checked checked = checkMember(path, *member, out)) {
            canonical[key] = std::move(*checked);
        } else {
            ok = false;
        }
    }
    return ok ? Checked(std::move(canonical)) : std::nullopt;
}

}  // namespace

Checked checkValue(const Option& o, const Json& value, Problems& out) {
    switch (o.rule.kind) {
        case Kind::Integer:
            return checkInteger(o, value, out);
        case Kind::Number:
            return checkNumber(o, value, out);
        case Kind::NumberPair:
            return checkNumberPair(o, value, out);
        case Kind::Boolean:
            return checkBooleanAt(o.path, value, out);
        case Kind::String:
            return checkString(o, value, out);
        case Kind::Choice:
            return checkChoice(o, value, out);
        case Kind::FileList:
            return checkFileList(o, value, out);
        case Kind::Threshold:
            return checkThreshold(o, value, out);
        case Kind::FlagPerClass:
            return checkPerClass(o, value, "an object of booleans", checkBooleanAt, out);
        case Kind::ColourPerClass:
            return checkPerClass(o, value, "an object of colours", checkColourAt, out);
        case Kind::Colour:
            return checkColourAt(o.path, value, out);
        case Kind::ClassTable:
            return checkClassTable(o, value, out);
        case Kind::LayerList:
            return checkLayerList(o, value, out);
    }
    return std::nullopt;
}

bool checkOption(const Option& option, Json& document, Config& config, Problems& out) {
    Json* section = sectionOf(document, option.path);
    if (section == nullptr) return false;
    const auto it = section->find(lastKey(option.path));
    if (it == section->end()) {
        report(out, quote(option.path) + " is missing");
        return false;
    }
    Checked checked = checkValue(option, *it, out);
    if (!checked) return false;
    *it = std::move(*checked);
    option.store(config, *it);
    return true;
}

}  // namespace terragrid::config_detail

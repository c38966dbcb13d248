// Terrain validation (terrain_rules.hpp): thresholds, class tables, the gap check, and keys
// that have no effect.

#include "config/terrain_rules.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/keys.hpp"
#include "config/validation.hpp"
#include "terragrid/config/terrain_messages.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid::config_detail {

Checked checkThreshold(const Option& o, const Json& value, Problems& out) {
    const std::string rule = R"(be a number between 0 and 1 or {"coverage": share})";
    if (!value.is_object()) {
        if (!isUnitNumber(value)) return fail(out, o, rule, value);
        return Json(value.get<double>());
    }
    const UnknownKeys unknown = reportUnknownMembers(value, o.path, kCoverageKeys, out);
    const auto coverage = value.find("coverage");
    if (coverage == value.end() && unknown.suggest("coverage")) return std::nullopt;
    if (coverage == value.end() || !isUnitNumber(*coverage)) return fail(out, o, rule, value);
    if (unknown.count > 0) return std::nullopt;
    return Json{{"coverage", coverage->get<double>()}};
}

namespace {

/// Characters of UTF-8 text (nlohmann has checked that it is valid UTF-8).
std::size_t utf8Length(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

Checked checkClassName(const std::string& path, const Json& value, Problems& out) {
    const std::string name = value.is_string() ? value.get<std::string>() : "";
    if (name.empty() || utf8Length(name) > kMaxClassNameChars)
        return failAt(out, path,
                      "be a non-empty string of at most " + std::to_string(kMaxClassNameChars) +
                          " characters",
                      value);
    return value;
}

/// [lo, hi] with min <= lo <= hi <= max.
Checked checkRange(const std::string& path, const Json& value, double min, double max,
                   Problems& out) {
    const auto within = [&](const Json& v) {
        return v.is_number() && v.get<double>() >= min && v.get<double>() <= max;
    };
    const bool ok = value.is_array() && value.size() == 2 && within(value[0]) &&
                    within(value[1]) && value[0].get<double>() <= value[1].get<double>();
    if (!ok)
        return failAt(out, path,
                      "be an array of 2 numbers with " + formatNumber(min) + " <= lo <= hi <= " +
                          formatNumber(max),
                      value);
    return Json::array({value[0].get<double>(), value[1].get<double>()});
}

/// [lo, hi] with 0 <= lo <= hi <= 1.
Checked checkUnitRange(const std::string& path, const Json& value, Problems& out) {
    const bool ok = value.is_array() && value.size() == 2 && isUnitNumber(value[0]) &&
                    isUnitNumber(value[1]) && value[0].get<double>() <= value[1].get<double>();
    if (!ok) return failAt(out, path, "be an array of 2 numbers with 0 <= lo <= hi <= 1", value);
    return Json::array({value[0].get<double>(), value[1].get<double>()});
}

Checked checkTemperatureRange(const std::string& path, const Json& value, Problems& out) {
    return checkRange(path, value, kMinTemperature, kMaxTemperature, out);
}
Checked checkPrecipitationRange(const std::string& path, const Json& value, Problems& out) {
    return checkRange(path, value, 0, kMaxPrecipitation, out);
}
Checked checkSlopeRange(const std::string& path, const Json& value, Problems& out) {
    return checkRange(path, value, 0, kMaxSlope, out);
}

/// Index of the first key of an entry that is a range of the climate or the slope: those are
/// left out of the canonical entry when not given, so a table written before they existed keeps
/// its resolved form (and hash).
constexpr std::size_t kFirstNewRangeKey = 5;

/// One entry of terrain.classes, at `path` ("terrain.classes[2]"); canonical with both ranges.
Checked checkClassEntry(const std::string& path, const Json& value, Problems& out) {
    if (!value.is_object()) return failAt(out, path, "be an object", value);
    const UnknownKeys unknown = reportUnknownMembers(value, path, kClassEntryKeys, out);
    bool ok = unknown.count == 0;
    static constexpr std::array<MemberCheck, kClassEntryKeys.size()> kChecks{
        checkClassName, checkColourAt,         checkBooleanAt,          checkUnitRange,
        checkUnitRange, checkTemperatureRange, checkPrecipitationRange, checkSlopeRange};
    Json canonical = Json::object();
    for (std::size_t i = 0; i < kClassEntryKeys.size(); ++i) {
        const std::string key(kClassEntryKeys[i]);
        const std::string memberPath = path + "." + key;
        const auto member = value.find(key);
        if (member == value.end() && i >= kFirstNewRangeKey) {
            continue;
        } else if (member == value.end() && i >= kRequiredClassEntryKeys) {
            canonical[key] = Json::array({0.0, 1.0});
        } else if (member == value.end()) {
            if (!unknown.suggest(kClassEntryKeys[i]))
                report(out, quote(memberPath) + " is missing");
            ok = false;
        } else if (Checked checked = kChecks[i](memberPath, *member, out)) {
            canonical[key] = std::move(*checked);
        } else {
            ok = false;
        }
    }
    return ok ? Checked(std::move(canonical)) : std::nullopt;
}

}  // namespace

Checked checkClassTable(const Option& o, const Json& value, Problems& out) {
    if (!value.is_array()) return fail(out, o, "be an array of classes", value);
    if (value.size() > kMaxClasses) {
        report(out, quote(o.path) + " must hold at most " + std::to_string(kMaxClasses) +
                        " classes (got " + std::to_string(value.size()) +
                        "): index 255 is classes.tif's nodata");
        return std::nullopt;
    }
    const auto entryPath = [&](std::size_t i) { return o.path + "[" + std::to_string(i) + "]"; };
    Json canonical = Json::array();
    bool ok = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
        Checked entry = checkClassEntry(entryPath(i), value[i], out);
        if (!entry) ok = false;
        canonical.push_back(entry ? std::move(*entry) : Json());
    }
    if (!ok) return std::nullopt;
    for (std::size_t i = 0; i < canonical.size(); ++i) {
        const Json& name = canonical[i]["name"];
        for (std::size_t j = 0; j < i; ++j) {
            if (canonical[j]["name"] != name) continue;
            report(out, quote(entryPath(i) + ".name") + " (" + showJson(name) +
                            ") must differ from " + quote(entryPath(j) + ".name"));
            ok = false;
            break;
        }
    }
    if (!ok) return std::nullopt;
    if (!canonical.empty()) {
        if (const auto gap = findGap(classesFrom(canonical))) {
            report(out, quote(o.path) + " leave " + *gap +
                            " unclassified: every cell must match a class");
            return std::nullopt;
        }
    }
    return canonical;
}

namespace {

/// A threshold of the default rules that must be below another when both are values (with a
/// coverage, resolveTerrain checks the resolved values by the same rule).
void checkThresholdOrder(const Validation& v, DefaultClass below, DefaultClass above,
                         Problems& out) {
    const TerrainConfig& t = v.config.terrain;
    const Threshold& low = t.threshold(below);
    const Threshold& high = t.threshold(above);
    if (!v.passedAll({thresholdKey(below), thresholdKey(above)}) || low.byCoverage ||
        high.byCoverage)
        return;
    if (low.value < high.value) return;
    report(out, thresholdOrderText(below, low, low.value, above, high, high.value));
}

/// The default classes do not overlap, so the shares asked for cannot add up to more than the
/// whole map.
void checkCoverageTotal(const Validation& v, Problems& out) {
    std::vector<std::string> named;
    double total = 0;
    for (const DefaultClass c : {DefaultClass::Lake, DefaultClass::Mountain, DefaultClass::Forest,
                                 DefaultClass::Desert}) {
        const Threshold& threshold = v.config.terrain.threshold(c);
        if (!v.passedAll({thresholdKey(c)}) || !threshold.byCoverage) continue;
        named.push_back(v.named(thresholdKey(c)));
        total += threshold.coverage;
    }
    // A little slack, so 0.1 + 0.2 + 0.7 is 1.
    if (named.size() < 2 || total <= 1 + 1e-9) return;
    std::string text;
    for (std::size_t i = 0; i < named.size(); ++i)
        text += (i == 0 ? "" : i + 1 == named.size() ? " and " : ", ") + named[i];
    report(out, text + " ask for more than the whole map: coverages must add up to at most 1");
}

}  // namespace

void checkTerrainThresholds(const Validation& v, Problems& out) {
    // The biome table reads the lake threshold alone.
    if (v.passedAll({"terrain.model"}) && v.config.terrain.model == TerrainModel::Climate) return;
    checkThresholdOrder(v, DefaultClass::Lake, DefaultClass::Mountain, out);
    checkThresholdOrder(v, DefaultClass::Desert, DefaultClass::Forest, out);
    checkCoverageTotal(v, out);
}

void checkUnusedDefaultRules(Validation& v, Problems& out) {
    if (!v.passedAll({"terrain.classes"}) || !v.config.terrain.customClasses) return;
    for (const auto path : kDefaultRuleKeys) {
        if (v.userSet(path))
            report(out, quote(path) + " has no effect when 'terrain.classes' is given");
        // A config that sets them is refused: the resolved config (--print-config) leaves
        // them out, so that it loads back.
        sectionOf(v.document, path)->erase(std::string(lastKey(path)));
    }
}

}  // namespace terragrid::config_detail

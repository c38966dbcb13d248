// The `layers` list of a layer section (height, moisture): checking its entries and turning
// them into stacked layers. An entry takes every layer key (layerRows) plus combine, weight and
// mask; keys it leaves out are the section's own.

#include "config/layers.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "config/keys.hpp"
#include "config/options.hpp"
#include "config/values.hpp"

namespace terragrid::config_detail {
namespace {

/// The rule of each of kStackedLayerKeys, in order.
const std::array<Rule, kStackedLayerKeys.size()> kStackedLayerRules{
    Rule{.kind = Kind::Choice, .choices = kCombineNames},
    Rule{.kind = Kind::Number, .min = -kMaxLayerWeight, .max = kMaxLayerWeight},
    Rule{.kind = Kind::Choice, .choices = kLayerMaskNames}};

/// The keys an entry may have at its top level: kStackedLayerKeys, then the layer keys'
/// first parts ("noise", ..., "cellular", "marble", "warp").
std::vector<std::string_view> entryNames() {
    std::vector<std::string_view> names(kStackedLayerKeys.begin(), kStackedLayerKeys.end());
    for (const LayerRow& row : layerRows()) {
        const std::string_view first = row.key.substr(0, row.key.find('.'));
        if (std::find(names.begin(), names.end(), first) == names.end()) names.push_back(first);
    }
    return names;
}

/// The keys of group `group` ("warp"): the second parts of the layer keys in it.
std::vector<std::string_view> groupNames(std::string_view group) {
    std::vector<std::string_view> names;
    for (const LayerRow& row : layerRows()) {
        const auto dot = row.key.find('.');
        if (dot != std::string_view::npos && row.key.substr(0, dot) == group)
            names.push_back(row.key.substr(dot + 1));
    }
    return names;
}

/// Reports the unknown keys of an entry and its groups; returns whether there were none.
bool checkEntryKeys(const std::string& path, const Json& entry, Problems& out) {
    const auto names = entryNames();
    bool ok = reportUnknownMembers(entry, path, names, out).count == 0;
    for (const auto& [key, member] : entry.items()) {
        const auto group = groupNames(key);
        if (group.empty()) continue;
        if (!member.is_object()) {
            report(out, quote(path + "." + key) + " must be an object" + got(member));
            ok = false;
        } else if (reportUnknownMembers(member, path + "." + key, group, out).count > 0) {
            ok = false;
        }
    }
    return ok;
}

/// Checks the member of `entry` at `key` ("cellular.return") against `rule` into `canonical`.
bool checkEntryMember(const std::string& path, const Json& entry, std::string_view key,
                      const Rule& rule, std::string_view meaning, Json& canonical,
                      Problems& out) {
    const Json* section = sectionOf(entry, key);
    if (section == nullptr || !section->is_object()) return true;  // reported by the key check
    const auto member = section->find(lastKey(key));
    if (member == section->end()) return true;  // left out: the section's own
    const Option option{path + "." + std::string(key), rule, meaning, nullptr};
    Checked checked = checkValue(option, *member, out);
    if (!checked) return false;
    Json* target = &canonical;
    for (const auto& part : splitPath(key)) target = &(*target)[part];
    *target = std::move(*checked);
    return true;
}

Checked checkEntry(const std::string& path, const Json& entry, Problems& out) {
    if (!entry.is_object()) return failAt(out, path, "be an object", entry);
    bool ok = checkEntryKeys(path, entry, out);
    Json canonical = Json::object();
    for (std::size_t i = 0; i < kStackedLayerKeys.size(); ++i)
        ok &= checkEntryMember(path, entry, kStackedLayerKeys[i], kStackedLayerRules[i], "",
                               canonical, out);
    for (const LayerRow& row : layerRows())
        ok &= checkEntryMember(path, entry, row.key, row.rule, row.meaning, canonical, out);
    return ok ? Checked(std::move(canonical)) : std::nullopt;
}

}  // namespace

Checked checkLayerList(const Option& o, const Json& value, Problems& out) {
    if (!value.is_array()) return fail(out, o, "be an array of layers", value);
    if (value.size() > kMaxStackedLayers) {
        report(out, quote(o.path) + " must hold at most " + std::to_string(kMaxStackedLayers) +
                        " layers (got " + std::to_string(value.size()) + ")");
        return std::nullopt;
    }
    Json canonical = Json::array();
    bool ok = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
        Checked entry = checkEntry(o.path + "[" + std::to_string(i) + "]", value[i], out);
        ok = ok && entry.has_value();
        canonical.push_back(entry ? std::move(*entry) : Json());
    }
    return ok ? Checked(std::move(canonical)) : std::nullopt;
}

std::vector<StackedLayer> stackedLayersFrom(const NoiseParams& base, const Json& entries) {
    std::vector<StackedLayer> layers;
    for (const Json& entry : entries) {
        StackedLayer layer{.noise = base};
        for (const LayerRow& row : layerRows()) {
            const Json* section = sectionOf(entry, row.key);
            if (section == nullptr) continue;
            const auto member = section->find(lastKey(row.key));
            if (member != section->end()) row.store(layer.noise, *member);
        }
        if (entry.contains("combine"))
            layer.combine = enumNamed<Combine>(kCombineNames, entry["combine"]);
        if (entry.contains("weight")) layer.weight = entry["weight"].get<double>();
        if (entry.contains("mask")) layer.mask = enumNamed<LayerMask>(kLayerMaskNames, entry["mask"]);
        layers.push_back(layer);
    }
    return layers;
}

}  // namespace terragrid::config_detail

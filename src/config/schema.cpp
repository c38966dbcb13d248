// The JSON Schema of a config (configSchemaJson), for editors.

#include <cassert>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "config/documents.hpp"
#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid {

using namespace config_detail;

namespace {

// ---------------------------------------------------------------------------------------------
// JSON Schema (draft 2020-12), for editors. Written from the table, so it cannot drift from
// what the parser accepts; ordered, so it reads in documentation order.

using SchemaJson = nlohmann::ordered_json;

constexpr std::string_view kColourPattern = "^#[0-9a-fA-F]{6}$";

SchemaJson schemaNumber(double min, double max, bool minExclusive = false) {
    SchemaJson s{{"type", "number"}};
    s[minExclusive ? "exclusiveMinimum" : "minimum"] = min;
    s["maximum"] = max;
    return s;
}

SchemaJson schemaColour() { return {{"type", "string"}, {"pattern", kColourPattern}}; }

/// [lo, hi] with 0 <= lo, hi <= 1 (lo <= hi is the parser's to check).
/// [lo, hi] with both within min..max.
SchemaJson schemaRange(double min, double max) {
    return {{"type", "array"}, {"items", schemaNumber(min, max)}, {"minItems", 2}, {"maxItems", 2}};
}

SchemaJson schemaUnitRange() { return schemaRange(0, 1); }

SchemaJson schemaNames(std::span<const std::string_view> names) {
    SchemaJson list = SchemaJson::array();
    for (const auto name : names) list.push_back(std::string(name));
    return list;
}

/// An object with one member per name, each following `member`; members left out keep their
/// default (documents merge key by key), so none is required.
SchemaJson schemaPerName(std::span<const std::string_view> names, const SchemaJson& member) {
    SchemaJson properties = SchemaJson::object();
    for (const auto name : names) properties[std::string(name)] = member;
    return {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
}

SchemaJson schemaClassEntry() {
    SchemaJson properties = SchemaJson::object();
    properties["name"] = {{"type", "string"},
                          {"minLength", 1},
                          {"maxLength", kMaxClassNameChars},
                          {"description", "Unique name of the class."}};
    properties["colour"] = schemaColour();
    properties["colour"]["description"] = "Colour of the class, \"#rrggbb\".";
    properties["walkable"] = {{"type", "boolean"},
                              {"description", "Whether the class can be walked on."}};
    properties["height"] = schemaUnitRange();
    properties["height"]["description"] = "Height range [lo, hi] of the class; [0, 1] if left out.";
    properties["moisture"] = schemaUnitRange();
    properties["moisture"]["description"] =
        "Moisture range [lo, hi] of the class; [0, 1] if left out.";
    properties["temperature"] = schemaRange(kMinTemperature, kMaxTemperature);
    properties["temperature"]["description"] =
        "Temperature range [lo, hi] of the class in degrees C (the climate's; needs "
        "climate.enabled); the whole axis if left out.";
    properties["precipitation"] = schemaRange(0, kMaxPrecipitation);
    properties["precipitation"]["description"] =
        "Precipitation range [lo, hi] of the class in mm a year (the climate's; needs "
        "climate.enabled); the whole axis if left out.";
    properties["slope"] = schemaRange(0, kMaxSlope);
    properties["slope"]["description"] =
        "Slope range [lo, hi] of the class in degrees; the whole axis if left out.";
    static_assert(kClassEntryKeys.size() == 8 && kRequiredClassEntryKeys == 3);
    return {{"type", "object"},
            {"properties", properties},
            {"required", schemaNames(std::span(kClassEntryKeys).first(kRequiredClassEntryKeys))},
            {"additionalProperties", false}};
}

SchemaJson schemaOf(const Rule& rule);
SchemaJson schemaSection();

/// An entry of a `layers` list: combine, weight, mask and every layer key, none required.
SchemaJson schemaStackedLayer() {
    SchemaJson properties = SchemaJson::object();
    properties["combine"] = {{"type", "string"},
                             {"enum", schemaNames(kCombineNames)},
                             {"description", "How the layer's term joins the value so far."}};
    properties["weight"] = schemaNumber(-kMaxLayerWeight, kMaxLayerWeight);
    properties["weight"]["description"] = "The layer's term is weight x its value.";
    properties["mask"] = {{"type", "string"},
                          {"enum", schemaNames(kLayerMaskNames)},
                          {"description", "base: the term is also multiplied by the base layer."}};
    for (const LayerRow& row : layerRows()) {
        const auto keys = splitPath(row.key);
        SchemaJson* section = &properties;
        if (keys.size() == 2) {
            if (!properties.contains(keys[0])) properties[keys[0]] = schemaSection();
            section = &properties[keys[0]]["properties"];
        }
        (*section)[keys.back()] = schemaOf(row.rule);
        (*section)[keys.back()]["description"] = std::string(row.meaning);
    }
    return {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
}

/// The schema of a value that passes `rule`, without default and description.
SchemaJson schemaOf(const Rule& rule) {
    switch (rule.kind) {
        case Kind::Integer:
            return {{"type", "integer"}, {"minimum", rule.intMin}, {"maximum", rule.intMax}};
        case Kind::Number:
            return schemaNumber(rule.min, rule.max, rule.minExclusive);
        case Kind::Boolean:
            return {{"type", "boolean"}};
        case Kind::NumberPair:
            return {{"type", "array"},
                    {"items", schemaNumber(rule.min, rule.max, rule.minExclusive)},
                    {"minItems", 2},
                    {"maxItems", 2}};
        case Kind::String:
            return {{"type", "string"}, {"minLength", 1}, {"pattern", "^[^\\u0000]*$"}};
        case Kind::Choice:
            return {{"type", "string"}, {"enum", schemaNames(rule.choices)}};
        case Kind::FileList:
            return {{"type", "array"},
                    {"items", {{"type", "string"}, {"enum", schemaNames(rule.choices)}}},
                    {"minItems", 1},
                    {"uniqueItems", true}};
        case Kind::Threshold: {
            const SchemaJson share = schemaNumber(rule.min, rule.max);
            const SchemaJson coverage{{"type", "object"},
                                      {"properties", {{std::string(kCoverageKeys[0]), share}}},
                                      {"required", schemaNames(kCoverageKeys)},
                                      {"additionalProperties", false}};
            return {{"oneOf", SchemaJson::array({share, coverage})}};
        }
        case Kind::FlagPerClass:
            return schemaPerName(rule.choices, {{"type", "boolean"}});
        case Kind::ColourPerClass:
            return schemaPerName(rule.choices, schemaColour());
        case Kind::Colour:
            return schemaColour();
        case Kind::ClassTable:
            return {{"type", "array"}, {"items", schemaClassEntry()}, {"maxItems", kMaxClasses}};
        case Kind::LayerList:
            return {{"type", "array"},
                    {"items", schemaStackedLayer()},
                    {"maxItems", kMaxStackedLayers}};
    }
    return {};
}

/// An object of `properties` that refuses any other key.
SchemaJson schemaSection() {
    return {{"type", "object"},
            {"properties", SchemaJson::object()},
            {"additionalProperties", false}};
}

SchemaJson buildConfigSchema() {
    SchemaJson root{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                    {"title", "terragrid config"},
                    {"description",
                     "A terragrid config. Every key is optional: a key left out keeps its "
                     "default from the built-in config (configs/default.json)."}};
    root.update(schemaSection());
    root["properties"][std::string(kSchemaKey)] = {
        {"type", "string"},
        {"description", "The JSON Schema this file follows, for editors; terragrid ignores it."}};
    const Json& defaults = builtinDocument();
    for (const auto& option : options()) {
        const auto keys = splitPath(option.path);
        SchemaJson* section = &root;
        for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
            SchemaJson& properties = (*section)["properties"];
            if (!properties.contains(keys[i])) properties[keys[i]] = schemaSection();
            section = &properties[keys[i]];
        }
        SchemaJson property = schemaOf(option.rule);
        const Json* defaultSection = sectionOf(defaults, option.path);
        assert(defaultSection != nullptr && defaultSection->contains(keys.back()));
        property["default"] = SchemaJson::parse(dumpJson(defaultSection->at(keys.back())));
        property["description"] = std::string(option.meaning);
        (*section)["properties"][keys.back()] = std::move(property);
    }
    return root;
}

}  // namespace

std::string configSchemaJson() {
    static const std::string text =
        buildConfigSchema().dump(2, ' ', false, SchemaJson::error_handler_t::replace) + "\n";
    return text;
}

}  // namespace terragrid

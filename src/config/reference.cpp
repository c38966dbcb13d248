// The option reference (optionReference, optionReferenceMarkdown): the option table as the
// README shows it.

#include <string>
#include <string_view>
#include <vector>

#include "config/documents.hpp"
#include "config/json.hpp"
#include "config/options.hpp"
#include "config/text.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid {

using namespace config_detail;

namespace {

/// The range column of the reference: "1..16", "> 0 and <= 1e7", "one of: a, b".
std::string rangeText(const Rule& rule) {
    switch (rule.kind) {
        case Kind::Integer:
            return std::to_string(rule.intMin) + ".." + std::to_string(rule.intMax);
        case Kind::Number:
            return rule.minExclusive
                       ? "> " + formatNumber(rule.min) + " and <= " + formatNumber(rule.max)
                       : formatNumber(rule.min) + ".." + formatNumber(rule.max);
        case Kind::NumberPair:
            return "each " + formatNumber(rule.min) + ".." + formatNumber(rule.max);
        case Kind::Boolean:
            return "";
        case Kind::String:
            return "non-empty, no NUL byte";
        case Kind::Choice:
            return "one of: " + joinNames(rule.choices, ", ");
        case Kind::FileList:
            return "one or more of: " + joinNames(rule.choices, ", ") + "; each once";
        case Kind::Threshold:
            return "0..1, or {\"coverage\": 0..1}";
        case Kind::FlagPerClass:
            return "true or false for each of: " + joinNames(rule.choices, ", ");
        case Kind::ColourPerClass:
            return "\"#rrggbb\" for each of: " + joinNames(rule.choices, ", ");
        case Kind::Colour:
            return "\"#rrggbb\"";
        case Kind::ClassTable:
            return "at most " + std::to_string(kMaxClasses) + " classes; [] for the defaults";
        case Kind::LayerList:
            return "at most " + std::to_string(kMaxStackedLayers) + " layers";
    }
    return {};
}

std::string typeText(Kind kind) {
    switch (kind) {
        case Kind::Integer:
            return "integer";
        case Kind::Number:
            return "number";
        case Kind::NumberPair:
            return "[number, number]";
        case Kind::Boolean:
            return "boolean";
        case Kind::String:
        case Kind::Choice:
        case Kind::Colour:
            return "string";
        case Kind::FileList:
            return "array of strings";
        case Kind::Threshold:
            return "number or {coverage}";
        case Kind::FlagPerClass:
            return "object of booleans";
        case Kind::ColourPerClass:
            return "object of colours";
        case Kind::ClassTable:
            return "array of classes";
        case Kind::LayerList:
            return "array of layers";
    }
    return {};
}

std::string escapeTableCell(std::string_view text) {
    std::string cell;
    for (const char c : text) cell += c == '|' ? std::string("\\|") : std::string(1, c);
    return cell;
}

}  // namespace

std::vector<OptionInfo> optionReference() {
    const Json& defaults = builtinDocument();
    std::vector<OptionInfo> infos;
    for (const auto& option : options()) {
        const Json* section = sectionOf(defaults, option.path);
        const auto it = section ? section->find(lastKey(option.path)) : defaults.end();
        infos.push_back({option.path, typeText(option.rule.kind),
                         section && it != section->end() ? dumpJson(*it) : "",
                         rangeText(option.rule), std::string(option.meaning)});
    }
    return infos;
}

std::string optionReferenceMarkdown() {
    std::string table = "| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
    for (const auto& o : optionReference()) {
        table += "| `" + o.path + "` | " + escapeTableCell(o.type) + " | `" +
                 escapeTableCell(o.defaultJson) + "` | " + escapeTableCell(o.range) + " | " +
                 escapeTableCell(o.meaning) + " |\n";
    }
    return table;
}

}  // namespace terragrid

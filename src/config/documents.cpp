// Config documents (documents.hpp): parsing and merging config text, and the built-in default.

#include "config/documents.hpp"

#include <utility>

#include "config/json_duplicate_keys.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::config_detail {

namespace {

void reportParseFailure(const JsonParseFailure& failure, std::string_view sourceName,
                        Problems& out) {
    if (!failure.overflowingNumber.empty() && !failure.keyPath.empty())
        return reportOverflow(failure.keyPath, failure.overflowingNumber, out);
    if (failure.tooDeep) {
        return report(out, quote(sourceName) + " nests arrays and objects more than " +
                               std::to_string(kMaxJsonDepth) + " deep" +
                               (failure.keyPath.empty() ? "" : " at " + quote(failure.keyPath)));
    }
    // nlohmann's words quote the last token read, which may be 100 MB of a string or spaces.
    report(out, quote(sourceName) + " is not valid JSON: " + abbreviate(failure.message));
}

Json parseBuiltin() {
    Problems problems;
    Json document = Json::object();
    mergeText(document, builtinConfigText(), "built-in default", problems);
    if (!problems.empty()) throw ConfigError(std::move(problems));
    return document;
}

}  // namespace

void reportOverflow(const std::string& path, const std::string& number, Problems& out) {
    report(out, quote(path) + " must be a finite number (got " + abbreviate(number) + ")");
}

void mergeText(Json& document, std::string_view text, std::string_view sourceName, Problems& out,
               Json* written) {
    JsonParseResult parsed = parseJson(text, true);
    if (!parsed.ok) return reportParseFailure(parsed.failure, sourceName, out);
    if (const auto duplicate = findDuplicateKey(text, true))
        return report(out, quote(sourceName) + " sets " + quote(duplicate->path) +
                               " twice (line " + std::to_string(duplicate->firstLine) +
                               " and line " + std::to_string(duplicate->secondLine) +
                               "); give each key once");
    if (!parsed.value.is_object())
        return report(out, quote(sourceName) + " must hold a JSON object" + got(parsed.value));
    mergeJson(document, parsed.value);
    if (written != nullptr) mergeJson(*written, parsed.value);
}

const Json& builtinDocument() {
    static const Json document = parseBuiltin();
    return document;
}

}  // namespace terragrid::config_detail

#pragma once
// JSON helpers for config loading that know nothing about the options: parsing with a usable
// failure report, merging documents, showing values in messages, and a fixed hash.
// Private to the library (src/), so nlohmann stays out of the public headers.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace terragrid {

using Json = nlohmann::json;

/// The deepest nesting of arrays and objects parseJson accepts. A config needs 5; copying or
/// showing a value recurses once per level, so 100000 levels would overflow the stack.
inline constexpr std::size_t kMaxJsonDepth = 64;

/// Why a text is not valid JSON.
struct JsonParseFailure {
    /// nlohmann's words without the "[json.exception...] " prefix (or ours for a NUL byte,
    /// which nlohmann takes for the end of the input); for a syntax error they include the
    /// line and column.
    std::string message;
    /// The number as written when the failure is a number too large for a double ("1e309");
    /// empty for every other failure.
    std::string overflowingNumber;
    /// Dotted key path, inside the text, of the value being read when parsing stopped ("" at
    /// the top level).
    std::string keyPath;
    /// The text is JSON but nests arrays and objects deeper than kMaxJsonDepth (at keyPath);
    /// `message` is empty.
    bool tooDeep = false;
};

/// The result of parseJson: a value, or why there is none.
struct JsonParseResult {
    Json value;
    bool ok = false;
    JsonParseFailure failure;
};

/// Parses `text` as JSON, with // and /* */ comments when `allowComments`, refusing nesting
/// deeper than kMaxJsonDepth. Never throws for bad input. Thread-safe.
JsonParseResult parseJson(std::string_view text, bool allowComments);

/// Merges `overlay` into `base`: where both are objects, key by key and recursively; anything
/// else (arrays, scalars, or an object meeting a non-object) replaces.
void mergeJson(Json& base, const Json& overlay);

/// `value` as problem messages show it: compact JSON, but ", " between array elements and
/// floats in their shortest round-trip form ("30", "0.5", "1e15"). Never throws.
std::string showJson(const Json& value);

/// The shortest text that reads back as `value`, with a plain exponent ("1e15", "1e-4").
std::string formatNumber(double value);

/// `value` dumped by nlohmann (`indent` -1 is compact), with invalid UTF-8 replaced instead of
/// throwing.
std::string dumpJson(const Json& value, int indent = -1);

/// FNV-1a 64 of `text` as 16 lowercase hex digits: a fixed function, so the same text hashes
/// the same on every run and platform.
std::string fnv1a64Hex(std::string_view text);

}  // namespace terragrid

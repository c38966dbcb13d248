// A scan of the JSON text rather than of the parsed value: the value has already lost the
// duplicates, and nlohmann's SAX interface tells no line numbers.

#include "config/json_duplicate_keys.hpp"

#include <map>
#include <vector>

#include "config/json.hpp"

namespace terragrid {
namespace {

struct Frame {
    bool object = false;
    std::string path;                           ///< of this object or array
    std::map<std::string, std::size_t> keys;    ///< key -> line, objects only
    std::string currentKey;
};

std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

/// The path a value opened now gets: its key's in an object, its array's in an array.
std::string childPath(const std::vector<Frame>& stack) {
    if (stack.empty()) return {};
    const Frame& top = stack.back();
    return top.object ? join(top.path, top.currentKey) : top.path;
}

/// Skips a string starting at text[i] == '"'; returns the index of its closing quote.
std::size_t endOfString(std::string_view text, std::size_t i) {
    for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    return i;
}

/// Skips a comment starting at text[i] == '/', counting the line breaks inside it; returns the
/// index of its last character.
std::size_t endOfComment(std::string_view text, std::size_t i, std::size_t& line) {
    if (i + 1 < text.size() && text[i + 1] == '/') {
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        return i;
    }
    for (i += 2; i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/'); ++i)
        if (text[i] == '\n') ++line;
    return i + 1;
}

}  // namespace

std::optional<DuplicateKey> findDuplicateKey(std::string_view text, bool allowComments) {
    std::vector<Frame> stack;
    std::size_t line = 1;
    std::optional<std::pair<std::string, std::size_t>> lastString;  // with its line
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
        } else if (c == '"') {
            const std::size_t end = endOfString(text, i);
            // The text parsed, so each string token parses, escapes and all ("\u0041" is "A").
            const JsonParseResult token = parseJson(text.substr(i, end - i + 1), false);
            lastString.emplace(token.ok ? token.value.get<std::string>() : std::string(), line);
            i = end;
        } else if (c == '/' && allowComments) {
            i = endOfComment(text, i, line);
        } else if (c == ':' && lastString && !stack.empty() && stack.back().object) {
            Frame& top = stack.back();
            const auto [at, inserted] = top.keys.emplace(lastString->first, lastString->second);
            if (!inserted)
                return DuplicateKey{join(top.path, lastString->first), at->second,
                                    lastString->second};
            top.currentKey = lastString->first;
            lastString.reset();
        } else if (c == '{' || c == '[') {
            stack.push_back(Frame{c == '{', childPath(stack), {}, {}});
        } else if ((c == '}' || c == ']') && !stack.empty()) {
            stack.pop_back();
        } else if (c == ',') {
            lastString.reset();
        }
    }
    return std::nullopt;
}

}  // namespace terragrid

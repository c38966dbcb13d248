// Problems and key paths (text.hpp).

#include "config/text.hpp"

namespace terragrid::config_detail {

std::string oneLine(std::string text) {
    for (std::size_t at = text.find_first_of("\r\n"); at != std::string::npos;
         at = text.find_first_of("\r\n", at + 2))
        text.replace(at, 1, text[at] == '\n' ? "\\n" : "\\r");
    return text;
}

void report(Problems& out, const std::string& text) { out.push_back("config: " + oneLine(text)); }

namespace {

bool isUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string abbreviate(std::string_view text) {
    if (text.size() <= kMaxShownBytes) return std::string(text);
    std::size_t headEnd = kMaxShownBytes * 2 / 3;
    while (headEnd > 0 && isUtf8Continuation(text[headEnd])) --headEnd;
    std::size_t tailStart = text.size() - kMaxShownBytes / 3;
    while (tailStart < text.size() && isUtf8Continuation(text[tailStart])) ++tailStart;
    return std::string(text.substr(0, headEnd)) + "...(" +
           std::to_string(tailStart - headEnd) + " bytes left out)..." +
           std::string(text.substr(tailStart));
}

std::string quote(std::string_view name) {
    const std::string shown = abbreviate(name);
    // Appended piecewise: "'" + std::string(name) trips GCC 12's -Wrestrict false positive.
    std::string text;
    text.reserve(shown.size() + 2);
    text += '\'';
    text += shown;
    text += '\'';
    return text;
}

std::string got(const Json& value) { return " (got " + abbreviate(showJson(value)) + ")"; }

std::string joinNames(std::span<const std::string_view> names, std::string_view separator) {
    std::string text;
    for (const auto name : names)
        text += (text.empty() ? "" : std::string(separator)) + std::string(name);
    return text;
}

std::string joinPath(std::string_view section, std::string_view key) {
    if (section.empty() || key.empty()) return std::string(section.empty() ? key : section);
    return std::string(section) + "." + std::string(key);
}

std::vector<std::string> splitPath(std::string_view path) {
    std::vector<std::string> keys;
    for (std::size_t start = 0;;) {
        const auto dot = path.find('.', start);
        keys.emplace_back(path.substr(start, dot - start));
        if (dot == std::string_view::npos) return keys;
        start = dot + 1;
    }
}

std::string lastKey(std::string_view path) { return std::string(path.substr(path.rfind('.') + 1)); }

}  // namespace terragrid::config_detail

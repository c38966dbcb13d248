// JSON helpers for config loading; see json.hpp.

#include "config/json.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <vector>

namespace terragrid {
namespace {

// nlohmann reports a number that overflows a double with this exception id.
constexpr int kNumberOverflowId = 406;

/// A SAX handler that builds nothing: it follows the key path and records why parsing stopped.
/// nlohmann's own exception for an overflowing number names neither position nor key, so a
/// failed parse is read a second time with this to find the key.
class FailureLocator final : public Json::json_sax_t {
public:
    const JsonParseFailure& failure() const noexcept { return m_failure; }

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
        if (tooDeep()) return false;
        m_keys.emplace_back(std::string{});
        return true;
    }
    bool key(string_t& name) override {
        m_keys.back() = name;
        return true;
    }
    bool end_object() override {
        m_keys.pop_back();
        return true;
    }
    // Arrays add no key: an element's problem is its array's problem.
    bool start_array(std::size_t) override {
        if (tooDeep()) return false;
        m_keys.emplace_back(std::nullopt);
        return true;
    }
    bool end_array() override {
        m_keys.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string& lastToken,
                     const nlohmann::detail::exception& error) override {
        m_failure.message = withoutExceptionPrefix(error.what());
        if (error.id == kNumberOverflowId) m_failure.overflowingNumber = lastToken;
        m_failure.keyPath = keyPath();
        return false;
    }

private:
    /// Whether an array or object starting now would pass kMaxJsonDepth (parseJson's limit);
    /// records the failure if so.
    bool tooDeep() {
        if (m_keys.size() < kMaxJsonDepth) return false;
        m_failure.tooDeep = true;
        m_failure.keyPath = keyPath();
        return true;
    }

    static std::string withoutExceptionPrefix(std::string_view what) {
        const auto end = what.find("] ");
        return std::string(what.starts_with("[json.exception.") && end != std::string_view::npos
                               ? what.substr(end + 2)
                               : what);
    }

    std::string keyPath() const {
        std::string path;
        for (const auto& key : m_keys) {
            if (!key || key->empty()) continue;
            if (!path.empty()) path += '.';
            path += *key;
        }
        return path;
    }

    std::vector<std::optional<std::string>> m_keys;
    JsonParseFailure m_failure;
};

/// nlohmann stops at a NUL byte as at the end of the input, so a text that parsed may have
/// had more after one ("{}\0garbage"). JSON text never holds a raw NUL: reports where it is.
JsonParseFailure nulByteFailure(std::string_view text, std::size_t at) {
    const std::string_view before = text.substr(0, at);
    const auto lineStart = before.rfind('\n');
    const auto breaks = std::count(before.begin(), before.end(), '\n');
    const std::size_t line = 1 + static_cast<std::size_t>(breaks);
    const std::size_t column = at - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1;
    JsonParseFailure failure;
    failure.message = "parse error at line " + std::to_string(line) + ", column " +
                      std::to_string(column) + ": unexpected NUL byte (binary data?)";
    return failure;
}

/// Why `text` does not parse, for a text nlohmann refused or that nests too deep.
JsonParseFailure locateFailure(std::string_view text, bool allowComments) {
    FailureLocator locator;
    Json::sax_parse(text, &locator, Json::input_format_t::json, true, allowComments);
    return locator.failure();
}

/// Thrown by parseJson's parser callback when nesting passes kMaxJsonDepth.
struct TooDeep {};

}  // namespace

JsonParseResult parseJson(std::string_view text, bool allowComments) {
    JsonParseResult result;
    // nlohmann parses any depth without recursing, but copying and showing the value recurse.
    const Json::parser_callback_t limitDepth = [](int depth, Json::parse_event_t event, Json&) {
        const bool opens = event == Json::parse_event_t::object_start ||
                           event == Json::parse_event_t::array_start;
        if (opens && static_cast<std::size_t>(depth) >= kMaxJsonDepth) throw TooDeep{};
        return true;
    };
    try {
        result.value = Json::parse(text, limitDepth, true, allowComments);
        if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
            result.value = Json();
            result.failure = nulByteFailure(text, nul);
            return result;
        }
        result.ok = true;
    } catch (const Json::exception&) {
        result.failure = locateFailure(text, allowComments);
    } catch (const TooDeep&) {
        result.failure = locateFailure(text, allowComments);
    }
    return result;
}

void mergeJson(Json& base, const Json& overlay) {
    if (!base.is_object() || !overlay.is_object()) {
        base = overlay;
        return;
    }
    for (const auto& [key, value] : overlay.items()) mergeJson(base[key], value);
}

std::string formatNumber(double value) {
    char buffer[64];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    std::string text(buffer, error == std::errc{} ? end : buffer);
    // to_chars writes "1e+15" and "1e-04"; people write "1e15" and "1e-4".
    const auto e = text.find('e');
    if (e == std::string::npos) return text;
    std::string exponent = text.substr(e + 1);
    const bool negative = exponent.starts_with('-');
    exponent.erase(0, exponent.find_first_not_of("+-0"));
    return text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

std::string dumpJson(const Json& value, int indent) {
    return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

std::string showJson(const Json& value) {
    if (value.is_number_float()) return formatNumber(value.get<double>());
    if (value.is_array()) {
        std::string text = "[";
        for (std::size_t i = 0; i < value.size(); ++i)
            text += (i == 0 ? "" : ", ") + showJson(value[i]);
        return text + "]";
    }
    if (value.is_object()) {
        std::string text = "{";
        for (const auto& [key, member] : value.items())
            text += (text.size() == 1 ? "" : ", ") + dumpJson(Json(key)) + ": " + showJson(member);
        return text + "}";
    }
    return dumpJson(value);
}

std::string fnv1a64Hex(std::string_view text) {
    constexpr std::uint64_t kOffsetBasis = 14695981039346656037ull;
    constexpr std::uint64_t kPrime = 1099511628211ull;
    std::uint64_t hash = kOffsetBasis;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= kPrime;
    }
    constexpr char kDigits[] = "0123456789abcdef";
    std::string hex(16, '0');
    for (int i = 15; i >= 0; --i, hash >>= 4)
        hex[static_cast<std::size_t>(i)] = kDigits[hash & 0xf];
    return hex;
}

}  // namespace terragrid

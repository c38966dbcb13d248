// JSON helpers for config loading; see config_json.hpp.

#include "config_json.hpp"

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

}  // namespace

JsonParseResult parseJson(std::string_view text, bool allowComments) {
    JsonParseResult result;
    try {
        result.value = Json::parse(text, nullptr, true, allowComments);
        result.ok = true;
    } catch (const Json::exception&) {
        FailureLocator locator;
        Json::sax_parse(text, &locator, Json::input_format_t::json, true, allowComments);
        result.failure = locator.failure();
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

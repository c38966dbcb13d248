#pragma once
// Duplicate keys in a JSON object. JSON parsers keep one of them silently (nlohmann the last),
// so a config that sets "seed" twice runs with a value its author may not have meant; the
// config loader refuses it instead, naming the key and both lines.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace terragrid {

struct DuplicateKey {
    std::string path;  ///< dotted key path of the repeated key ("map.width")
    std::size_t firstLine = 0;
    std::size_t secondLine = 0;
};

/// The first key that appears twice in one object of `text`, which must be valid JSON (with
/// // and /* */ comments when `allowComments`); nullopt when there is none.
std::optional<DuplicateKey> findDuplicateKey(std::string_view text, bool allowComments);

}  // namespace terragrid

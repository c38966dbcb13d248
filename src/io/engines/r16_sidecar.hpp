#pragma once
// height.r16.json: everything a user needs to import height.r16 without guessing: its layout,
// which edge of the map each edge of the file is, the mapping back to metres, and every field
// of each engine's import dialog with its value.

#include <nlohmann/json.hpp>

#include "terragrid/io/config.hpp"

namespace terragrid {

/// The sidecar of height.r16 for `config`; it depends on the config alone, so it is known
/// before the first tile. Pure, thread-safe.
nlohmann::ordered_json r16Sidecar(const Config& config);

}  // namespace terragrid

#pragma once
// height.r16.json: everything a user needs to import height.r16 without guessing: its layout,
// which edge of the map each edge of the file is, the mapping back to metres, and every field
// of each engine's import dialog with its value.

#include <nlohmann/json.hpp>

#include "io/height_range.hpp"
#include "terragrid/io/config.hpp"

namespace terragrid {

/// The sidecar of height.r16 for `config` with its heights mapped from `range`
/// (mapHeightRange): known before the first tile. Pure, thread-safe.
nlohmann::ordered_json r16Sidecar(const Config& config, const HeightRange& range);

/// The sidecars' words for where a range comes from: "elevation.min..max" or "the eroded
/// heights (hydrology stage)".
const char* heightRangeSource(const HeightRange& range) noexcept;

}  // namespace terragrid

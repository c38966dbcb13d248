#pragma once
// How one fuzz input becomes a parseConfig call, shared by the libFuzzer target
// (tests/fuzz/config_fuzz.cpp) and the regression test that replays the corpus and every crash
// found (tests/fuzz_regression_test.cpp), so both feed parseConfig exactly the same way.
//
// An input is the config text, optionally followed by a line "--set" and then one override per
// line ("key.path=value", as the CLI's --set takes them):
//
//   {"map": {"width": 64}}
//   --set
//   height.octaves=3
//
// The marker is plain text so seeds stay readable and editable; the text before it may hold any
// bytes, NUL and invalid UTF-8 included, which the config parser must refuse cleanly.

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/config/loader.hpp"

namespace terragrid::fuzz {

inline constexpr std::string_view kOverridesMarker = "\n--set\n";
/// More overrides than the CLI would ever get add nothing but time per input.
inline constexpr std::size_t kMaxOverrides = 16;

struct ConfigInput {
    std::string_view text;
    std::vector<std::string> overrides;
};

inline ConfigInput splitInput(std::string_view data) {
    ConfigInput input{data, {}};
    const auto marker = data.find(kOverridesMarker);
    if (marker == std::string_view::npos) return input;
    input.text = data.substr(0, marker);
    std::string_view rest = data.substr(marker + kOverridesMarker.size());
    while (!rest.empty() && input.overrides.size() < kMaxOverrides) {
        const auto end = rest.find('\n');
        input.overrides.emplace_back(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    }
    return input;
}

/// A few invariants of an accepted config that the generator and writers rely on (see the
/// option table in src/config/options.cpp): what an accepted config breaks, or nullptr.
inline const char* brokenInvariant(const LoadedConfig& c) {
    if (c.map.width < 1 || c.map.height < 1) return "the map is empty";
    if (c.map.tileSizeCells < 1) return "the tile size is below 1";
    if (!std::isfinite(c.map.cellSize) || c.map.cellSize <= 0) return "the cell size is not > 0";
    if (!std::isfinite(c.map.originX) || !std::isfinite(c.map.originY))
        return "the origin is not finite";
    if (!std::isfinite(c.elevation.minMeters) || !std::isfinite(c.elevation.maxMeters))
        return "an elevation is not finite";
    if (c.output.files.empty()) return "no output file is wanted";
    if (c.resolvedJson.empty()) return "the resolved JSON is empty";
    if (c.hash.size() != 16) return "the hash is not 16 hex digits";
    return nullptr;
}

}  // namespace terragrid::fuzz

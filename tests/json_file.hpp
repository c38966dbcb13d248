#pragma once
// Output files that are JSON (Tiled maps and tilesets, stats.json), read for a test.

#include <filesystem>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid::test {

/// The JSON file at `path`, parsed (keys sorted, as nlohmann::json keeps them).
inline nlohmann::json readJson(const std::filesystem::path& path) {
    return nlohmann::json::parse(readFile(path));
}

}  // namespace terragrid::test

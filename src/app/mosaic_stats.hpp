#pragma once
// stats.json of a map made of pieces, from the pieces' stats.json, as docs/shards.md says the
// figures add up: cell, class and walkable counts add, shares are counts over the map's cells,
// the elevation range combines and the mean comes from the exact sum (in 2^-30 m, so it is
// the single run's mean to the bit). Regions are labelled within each piece, cut at its edges,
// so they do not add up: the combined file says so instead of giving figures that would be
// wrong. Timings are the pieces' own, added.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace terragrid {

/// The pieces' stats.json documents (each with its "window") combined into the whole map's.
/// Throws std::invalid_argument naming the key when a piece's document lacks a figure.
nlohmann::ordered_json combinedStats(const std::vector<nlohmann::ordered_json>& pieces);

}  // namespace terragrid

#pragma once
// The whole-map grid the hydrology stage works on, and what counts as an outlet.
//
// Memory per cell of the hydrology layer (n = width * height; temporaries are freed on return):
//   Grid::z                 4 B   float height
//   fillDepressions         4 B   result (float) + 4 B watershed labels (temporary) + its queues
//                                 (the depression rims and pits: a small fraction of n,
//                                 8 B per queued cell)
//   findLakes               4 B   Lakes::id (uint32) + 4 B temporary (flood queue)
//   routeFlow               8 B   receiver + order (uint32 each) + 1 B temporary (donor count)
//                                 + 4 B temporary (flat queue, only cells of flats)
//   accumulate              4 B   float
//   riverMask / strahler    1 B each (uint8) + 2 B temporary
// A typical whole-map run (z, filled, lakes, routing, accumulation, masks) holds about
// 26 B per cell at its peak (fill's labels are freed before routing starts): 7 GiB at 16384^2.

#include <cstdint>
#include <optional>
#include <vector>

namespace terragrid::hydro {

/// A height grid: row-major, z[y * width + x], width * height cells (< 2^32 - 1 so a cell
/// index fits in a uint32). Plain data, no invariants beyond z.size() == width * height.
struct Grid {
    std::int32_t width = 0, height = 0;
    double cellSize = 1;  ///< metres per cell (for slopes and areas)
    std::vector<float> z;
};

/// "No receiver": the cell is an outlet (map edge or sea), water leaves the map there.
inline constexpr std::uint32_t kNoReceiver = 0xFFFFFFFFu;

/// Where water leaves the map. `edges`: every cell on the map's border is an outlet.
/// `seaLevel`: every cell with z <= seaLevel is sea, an outlet whose height is never raised.
/// At least one outlet must exist (else the functions below throw std::invalid_argument).
struct Outlets {
    bool edges = true;
    std::optional<float> seaLevel;
};

}  // namespace terragrid::hydro

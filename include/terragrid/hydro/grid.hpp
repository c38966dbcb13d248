#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The whole-map grid the hydrology stage works on, and what counts as an outlet.
//
// Memory per cell of the hydrology layer (n = width * height; temporaries are freed on return):
//   Grid::z                 4 B   float height
//   fillDepressions         4 B   result (float) + 4 B watershed labels (temporary) + its queues
//                                 (8 B per queued rim cell, 4 B per cell of the depression
//                                 being filled)
//   findLakes               4 B   Lakes::id + 4 B temporary (outlet search marks) + a queue of
//                                 the largest lake's cells (4 B each)
//   routeFlow               4 B   receiver (uint32); temporaries: where the map has flats 4 B
//                                 flat gradient per cell plus 8 B per flat cell (lists)
//   accumulate              4 B   float + 2 B temporary (donor masks and counts)
//   riverMask, strahlerOrder 1 B each (uint8) + 2 B temporary
// A whole-map run holding z, filled, lake ids, routing and accumulation needs 20 B per cell,
// about 28 B at the peak (routeFlow on a map that is mostly flat): 7 GiB at 16384^2.

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

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Lakes by water balance: each depression holds water only up to the level where what flows
// into it equals what evaporates from its surface; a depression that fills spills into the
// next, and depressions that fill together merge into one lake (Fill-Spill-Merge: Barnes,
// Callaghan & Wickert 2021, "Computing water flow through complex landscapes, Part 3",
// solved here for the steady state instead of one runoff event).
//
// The depression hierarchy: the cells taken in increasing height (ties by index) grow
// components of the ground below a level; a cell with no lower component starts a depression
// (a pit), a cell that touches two or more joins them at that height (their spill point), and
// a component that reaches an outlet (the map's edge, the sea) drains. Each depression's
// inflow is the runoff of its catchment (the cells whose steepest descent ends in its pit);
// flooding a cell trades its runoff for its lake balance (precipitation minus evaporation on
// the lake). A depression takes its cells in height order while its balance stays positive: it
// stops where evaporation has caught up with the inflow, or, full to its spill point, sends the
// surplus over the spill point into the neighbour the water runs down to, or on to the parent
// depression once all the depressions meeting there are full.
//
// With inflow to spare everywhere, every depression fills to its spill point: the surface is
// then exactly Priority-Flood's (fillDepressions), bit for bit.

#include <cstdint>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro {

/// Each cell's share of the water budget, in one unit for all cells (m^3 a year, say).
struct WaterBudget {
    /// What a dry cell sends downhill: its precipitation less its land evaporation (>= 0).
    std::vector<float> runoff;
    /// What a cell under a lake gains: its precipitation less the lake's evaporation (often
    /// negative: evaporation wins in all but wet climates).
    std::vector<float> lake;
};

/// What balancedSurface found besides the surface.
struct WaterBalanceSummary {
    std::size_t depressions = 0;  ///< pits (leaves of the hierarchy)
    std::size_t full = 0;         ///< depressions (of any level) filled to their spill point
    double toOutlets = 0;         ///< the budget's unit: what left the map through the outlets
};

/// The water surface of `dem` at balance: each cell's height, or the level of the lake over
/// it (always at most fillDepressions' surface). A lake's level lies halfway between the
/// highest cell it covers and the lowest it does not (at its spill point when full), so
/// lakes are level and a cell is under water where the surface is above its height.
/// Deterministic (serial after a parallel sort of unique keys: the same bits for any thread
/// count). Throws std::invalid_argument when the sizes do not match or there is no outlet.
/// Memory: about 28 bytes per cell besides the inputs.
std::vector<float> balancedSurface(const Grid& dem, const Outlets& outlets,
                                   const WaterBudget& budget,
                                   WaterBalanceSummary* summary = nullptr);

}  // namespace terragrid::hydro

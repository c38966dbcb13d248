#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Landscape evolution: stream-power fluvial incision plus linear hillslope diffusion, solved
// implicitly step by step (Braun and Willett 2013, "A very efficient O(n), implicit and stable
// algorithm for the evaluation of stream power erosion"):
//
//   dh/dt = U - K A^m S^n + D laplacian(h)
//
// h height (m), U uplift rate (m/yr), A drainage area (m^2), S slope to the receiver (m/m),
// D hillslope diffusivity (m^2/yr). Each step routes flow on the current surface (D8 steepest
// descent, depressions drained through their spill points), accumulates A, solves incision
// from the outlets upstream (exact for n = 1, Newton's method otherwise), then diffuses
// (implicit, one direction after the other). Unconditionally stable: dt is free.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro {

/// How the noise drives the model. Uplift: the noise (in [0, 1]) scales the uplift rate, so
/// mountains grow where the noise is high and rivers cut them as they rise. Relief: the noise
/// is the initial surface, uplifted uniformly, and erosion carves it.
enum class ErosionMode : std::uint8_t { Uplift, Relief, Last = Relief };
inline constexpr std::array<std::string_view, 2> kErosionModeNames{"uplift", "relief"};
static_assert(kErosionModeNames.size() == std::size_t(ErosionMode::Last) + 1);

/// What erosion does at the map's edge when the edges are outlets (Outlets::edges). Fixed: the
/// border cells are base level, held at their initial height (the land inside then rises and
/// erodes toward them: a ramp down to the border, cut by parallel gullies). Open: the border is
/// eroded, uplifted and diffused like the land inside, and drains to a ring of cells beyond it
/// at its own height (hydro/erosion_edges.hpp), so the land runs on past the border.
enum class ErosionEdges : std::uint8_t { Fixed, Open, Last = Open };

/// Parameters in metres and years. For n = 1 the model is linear in height: scaling the initial
/// surface and the uplift by c scales the result by c, so the defaults suit any relief.
/// The model's parameters. They start neutral (no step): their defaults live in one place,
/// configs/default.json (hydrology.erosion), and erosionParams() in
/// pipeline/hydrology_stage.hpp carries a config's values here.
struct ErosionParams {
    int steps = 0;          ///< time steps (>= 0)
    double k = 0;           ///< erodibility K (>= 0), yr^-1 m^(1 - 2m) for n = 1
    double m = 0;           ///< drainage-area exponent (> 0)
    double n = 0;           ///< slope exponent (> 0); m / n is the concavity theta
    double diffusion = 0;   ///< hillslope diffusivity D (>= 0), m^2/yr
    double dt = 0;          ///< years per step (> 0)
    double uplift = 0;      ///< uplift rate U (>= 0), m/yr, times the uplift field if given
    ErosionEdges edges = ErosionEdges::Fixed;
};

/// Memory erode() holds per cell of the grid, besides the grid itself: heights, the incision's
/// new heights, uplift, area, incision factors and the diffusion's scratch (8 B each), the
/// flow's walks and the last step's copy of them, basins (4 B each), directions, donor bits,
/// waiting counts, pass marks and three outlet masks (1 B each). Measured peaks of the stage
/// with erosion stay below this plus the stage's 16 B (tests/dry_run_test.cpp).
inline constexpr std::size_t kErosionBytesPerCell = 72;
/// The worst case, on a surface where most cells are exact local minima (large flats): the
/// depression routing then adds up to 4 pass edges per cell (16 B each, up to twice that while
/// the vector grows), the spanning tree and its walk.
inline constexpr std::size_t kErosionPeakBytesPerCell = 230;

/// What a run of erode() did.
struct ErosionSummary {
    int steps = 0;
    std::size_t firstPits = 0;  ///< depressions routed out at the first step
    std::size_t lastPits = 0;   ///< and at the last
};

/// The cells erosion holds fixed as base level (1) and the others (0): the outlets (the map's
/// border cells when outlets.edges, cells at or below outlets.seaLevel). Throws
/// std::invalid_argument when there is none.
std::vector<std::uint8_t> baseLevelCells(const Grid& terrain, const Outlets& outlets);

/// Called after each step of erode() with (steps done, steps in all), on erode's thread; it
/// may throw to stop the run (the terrain is then left as it was).
using ErosionStepFn = std::function<void(int done, int steps)>;

/// Evolves `terrain` (heights in metres, cellSize in metres) for params.steps steps in place.
/// Base-level cells (baseLevelCells) never change; with params.edges Open the border cells are
/// not base level (the ring beyond them is). The uplift rate of cell i is params.uplift,
/// times (*upliftField)[i] when upliftField is given (its size must be the grid's; ErosionMode
/// Uplift passes the noise in [0, 1]). The result is a pure function of the arguments: the
/// same bits for any number of threads. Throws std::invalid_argument on bad parameters or
/// sizes, or without an outlet. Memory: see kErosionBytesPerCell. Not thread-safe on one terrain.
ErosionSummary erode(Grid& terrain, const ErosionParams& params, const Outlets& outlets,
                     const std::vector<float>* upliftField = nullptr,
                     const ErosionStepFn& onStep = {});

}  // namespace terragrid::hydro

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The slope-area relation of river cells, S = k_s A^-theta (Flint's law): in landscapes shaped
// by rivers theta sits near m / n of the stream-power law, usually 0.35..0.65; raw fractal noise
// has no such relation. The erosion model is checked against it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro {

struct SlopeAreaOptions {
    /// River cells: accumulation at or above this (in the accumulation's unit; 100 cells).
    double minAccumulation = 100;
    /// Width of the log10(A) bins (a tenth of a decade).
    double binWidth = 0.1;
    /// Bins with fewer cells are left out of the fit (their means are noise).
    std::size_t minCellsPerBin = 10;
};

struct SlopeAreaFit {
    double theta = 0;      ///< -d log S / d log A; NaN when fewer than 2 bins were usable
    double steepness = 0;  ///< k_s, in the accumulation's unit to the theta
    double r2 = 0;         ///< coefficient of determination of the fit to the bin means
    std::size_t cells = 0; ///< river cells with a positive slope that went into the bins
    std::size_t bins = 0;  ///< bins used
};

/// Fits log S = log k_s - theta log A over the river cells: S the drop from a cell to its
/// receiver on `surface` (the eroded surface, not a filled one) over the distance between their
/// centres; cells with S <= 0 (lakes, flats) and cells without a receiver (receiver[i] == i or
/// kNoReceiver) are left out. The cells are binned by log10 A, and the line is fitted by least
/// squares to the bins' mean log A and mean log S, which weighs every decade of area alike
/// (the many small channels would otherwise decide the fit). Pure function; sizes must match.
SlopeAreaFit fitSlopeArea(const Grid& surface, const std::vector<std::uint32_t>& receiver,
                          const std::vector<float>& accumulation, const SlopeAreaOptions& options);

/// fitSlopeArea with the erosion model's own routing of `surface` (D8 steepest descent,
/// depressions drained through their spill points) and accumulation in cells.
SlopeAreaFit fitSlopeArea(const Grid& surface, const Outlets& outlets,
                          const SlopeAreaOptions& options);

}  // namespace terragrid::hydro

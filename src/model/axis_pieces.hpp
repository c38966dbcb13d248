#pragma once
// The elementary pieces of an axis of a class table, which the terrain table's coverage check
// (terrain.cpp) and the climate table's gap finder (class_gaps.cpp) both probe.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace terragrid {

/// One elementary piece of an axis: the point `lo` (== hi) or the open interval (lo, hi),
/// with `probe` a double inside it.
struct AxisPiece {
    double lo;
    double hi;
    double probe;
};

/// The elementary pieces of [lo, hi] cut at every endpoint in `ends` (those outside [lo, hi]
/// left out): each endpoint, and each open interval between consecutive endpoints. Within a
/// piece every closed range [a, b] whose ends are among `ends` either holds every point or
/// none, so one probe per piece decides it. An interval with no double strictly inside
/// (consecutive doubles) is left out: no cell can have a value there.
inline std::vector<AxisPiece> axisPieces(std::vector<double> ends, double lo, double hi) {
    ends.push_back(lo);
    ends.push_back(hi);
    std::erase_if(ends, [&](double v) { return !(v >= lo && v <= hi); });
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    std::vector<AxisPiece> pieces;
    for (std::size_t i = 0; i < ends.size(); ++i) {
        pieces.push_back({ends[i], ends[i], ends[i]});
        if (i + 1 == ends.size()) break;
        const double mid = ends[i] + (ends[i + 1] - ends[i]) / 2;
        if (ends[i] < mid && mid < ends[i + 1]) pieces.push_back({ends[i], ends[i + 1], mid});
    }
    return pieces;
}

}  // namespace terragrid

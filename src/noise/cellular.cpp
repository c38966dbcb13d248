// Cellular (Worley) noise: one hashed feature point per lattice cell; the value is the distance
// from the sample to the nearest (F1) or second nearest (F2) point, or their difference.
//
// Geometry (j = jitter, h = j / 2). Cell (i, k)'s point lies in the square
// [i + 1/2 - h, i + 1/2 + h] x [k + 1/2 - h, k + 1/2 + h]. Moving a point away from a sample
// never lowers F1 or F2 there, so the largest F1 / F2 a sample can see is the smallest /
// second smallest over cells of the farthest corner of each cell's square. Per axis that
// corner is |f - 1/2| + h away in the sample's own cell and 1/2 + f + h (resp. 3/2 - f + h)
// in the neighbours, f the sample's fraction. Hence (cellularBound):
//   F1 <= (1/2 + h) per axis, worst at a cell corner: (1 + j) / sqrt(2) Euclidean, 1 + j
//         Manhattan;
//   F2 <= at the cell centre, the own point and the nearer neighbour across a side
//         ((1 + h, h) away): sqrt((1 + h)^2 + h^2) Euclidean, 1 + j Manhattan (elsewhere the
//         nearer of the side neighbours is closer; checked on a 101 x 101 grid of samples
//         for jitter 0, 0.3, 0.7 and 1);
//   F2 - F1 <= the F2 bound, reached with the own point on the centre sample.
// Every bound is reached for some hash values (for j = 0, exactly: F1 at cell corners, F2 and
// F2 - F1 at cell centres), so the [-1, 1] mapping wastes none of the range.
//
// Search: points of cells two or more cells away in x or y are at least 2 away (both metrics),
// and both F2 bounds are <= 2, so the 5 x 5 block around the sample's cell always holds the two
// nearest points. The 3 x 3 block alone does not for large jitter (a sample at a cell corner
// with the four nearby points in their far corners sees F1 = sqrt(2) inside it and a point 1
// away outside it), which would make F1 and F2 jump. The 16 outer cells are only visited when
// their square could beat the current F1 / F2, which with jitter near 1 is rare.

#include "terragrid/noise/noise.hpp"

#include "noise/cellular_points.hpp"
#include "noise/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace terragrid {

namespace {

using cellular::kInnerReach;
using cellular::kOuterReach;

/// The two smallest distances seen so far.
struct Nearest {
    double f1 = std::numeric_limits<double>::infinity();
    double f2 = std::numeric_limits<double>::infinity();

    void add(double d) noexcept {
        if (d < f1) {
            f2 = f1;
            f1 = d;
        } else if (d < f2) {
            f2 = d;
        }
    }
};

double metric(CellularDistance d, double dx, double dy) noexcept {
    if (d == CellularDistance::Manhattan) return std::fabs(dx) + std::fabs(dy);
    return std::sqrt(dx * dx + dy * dy);
}

/// The distance along one axis from fraction `f` to the nearest place the point of the cell
/// `c` cells away can be: 0 inside its interval [c + 1/2 - half, c + 1/2 + half].
double axisGap(int c, double f, double half) noexcept {
    const double centre = static_cast<double>(c) + 0.5;
    return std::max({0.0, (centre - half) - f, f - (centre + half)});
}

class CellSearch {
public:
    CellSearch(double x, double y, CellularDistance d, double jitter, const LatticeHash& h)
        : m_x(lattice::split(x)), m_y(lattice::split(y)), m_distance(d), m_jitter(jitter),
          m_hash(h) {}

    /// Visits the cell `cx`, `cy` cells from the sample's.
    void visit(int cx, int cy) noexcept {
        const cellular::Point p =
            cellular::featurePoint(m_x.index + cx, m_y.index + cy, m_jitter, m_hash);
        // Offsets in cell-local coordinates: as exact a million cells out as at the origin.
        const double dx = (static_cast<double>(cx) + p.x) - m_x.frac;
        const double dy = (static_cast<double>(cy) + p.y) - m_y.frac;
        m_nearest.add(metric(m_distance, dx, dy));
    }

    /// Whether no point of the cell `cx`, `cy` cells away can be nearer than `limit`.
    bool beyond(int cx, int cy, double limit) const noexcept {
        const double half = 0.5 * m_jitter;
        return metric(m_distance, axisGap(cx, m_x.frac, half), axisGap(cy, m_y.frac, half)) >=
               limit;
    }

    const Nearest& nearest() const noexcept { return m_nearest; }

private:
    lattice::Coord m_x;
    lattice::Coord m_y;
    CellularDistance m_distance;
    double m_jitter;
    const LatticeHash& m_hash;
    Nearest m_nearest;
};

}  // namespace

double cellularBound(CellularReturn r, CellularDistance d, double jitter) noexcept {
    const double half = 0.5 * jitter;
    if (d == CellularDistance::Manhattan) return 1.0 + jitter;
    if (r == CellularReturn::F1) return (1.0 + jitter) / std::sqrt(2.0);
    return std::sqrt((1.0 + half) * (1.0 + half) + half * half);
}

double cellularNoise(double x, double y, CellularReturn r, CellularDistance d, double jitter,
                     const LatticeHash& h) noexcept {
    CellSearch search(x, y, d, jitter, h);
    for (int cy = -kInnerReach; cy <= kInnerReach; ++cy)
        for (int cx = -kInnerReach; cx <= kInnerReach; ++cx) search.visit(cx, cy);
    // Skipping a cell that cannot come nearer than the current F1 (F2) leaves F1 (F2) as it is,
    // so the result does not depend on the skipping.
    for (int cy = -kOuterReach; cy <= kOuterReach; ++cy) {
        for (int cx = -kOuterReach; cx <= kOuterReach; ++cx) {
            const bool inner = std::abs(cx) <= kInnerReach && std::abs(cy) <= kInnerReach;
            const Nearest& n = search.nearest();
            const double limit = r == CellularReturn::F1 ? n.f1 : n.f2;
            if (inner || search.beyond(cx, cy, limit)) continue;
            search.visit(cx, cy);
        }
    }
    const Nearest& n = search.nearest();
    const double value = r == CellularReturn::F1 ? n.f1
                         : r == CellularReturn::F2 ? n.f2
                                                   : n.f2 - n.f1;
    // Rounding can step a hair past the bound.
    return std::clamp(2.0 * value / cellularBound(r, d, jitter) - 1.0, -1.0, 1.0);
}

}  // namespace terragrid

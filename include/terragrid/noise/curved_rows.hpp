#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// A NoiseField over whole rows of a sphere (3D, planets) or a torus (4D, tileable maps): the
// generator's path on those surfaces, as NoiseRows is on the plane.

#include <cstddef>
#include <memory>

#include "terragrid/noise/noise.hpp"

namespace terragrid {

/// Where a row's points lie. Each column gives a pair (a_c, b_c), each row a pair (A, B):
///   Sphere: the point (A a_c, A b_c, B)  (a, b = cos, sin of the longitude; A, B = R cos and
///           R sin of the latitude);
///   Torus:  the point (a_c, b_c, A, B)   (one circle per column, one per row).
enum class CurvedShape : unsigned char { Sphere, Torus };

/// row(A, B)[i] equals field.sample(point of column i) bit for bit, on every CPU. Versions 1 to
/// 3: octave by octave each lane finds its lattice (or skewed simplex) cell; the hashes of a
/// cell's corners are computed once and kept in a small per-octave cache, which neighbouring
/// columns and rows share, and the noise itself runs in double SIMD lanes (Highway, dispatched
/// at run time). Version 4 (the lattice hash): float lanes that hash every corner themselves
/// (src/noise/curved_v4_rows.cpp). Marble's stripes are added per column after its turbulence
/// sum. A layer with a warp has its warp fields (unwarped Perlin fBm) computed by rows like
/// these, and the layer itself at the points they move by version 4's kernels (every axis of a
/// point in the lanes: any noise on a planet, simplex on a torus), else by the reference. Not
/// thread-safe (it
/// caches): one per thread / tile.
class CurvedRows {
public:
    /// Copies the column pairs; `field` must outlive this object and have 3 (sphere) or 4
    /// (torus) dimensions (hasDimensions), and not tile by its lattice (a field that tiles()
    /// samples a torus at its plane coordinates: NoiseRows on those).
    CurvedRows(const NoiseField& field, CurvedShape shape, const double* a, const double* b,
               std::size_t n);
    ~CurvedRows();
    CurvedRows(const CurvedRows&) = delete;
    CurvedRows& operator=(const CurvedRows&) = delete;

    std::size_t size() const noexcept;
    /// out[i] = field.sample(point(i, A, B)) for i < size().
    void row(double A, double B, double* out);

private:
    struct State;  // src/noise/curved_rows.cpp
    /// out[0, size()) from the kernel's padded row, and marble's stripes.
    static void finishRow(const State& st, double A, double* out);
    /// A warped layer's moved points on the row (the warp fields' values from their rows) and
    /// the layer there through version 4's point kernels (curved_v4::PointPlan), into the
    /// padded row; false where a lattice index leaves their bound (the row then takes the
    /// reference).
    static bool movedPoints(State& st, double A, double B);
    std::unique_ptr<State> m_state;
};

}  // namespace terragrid

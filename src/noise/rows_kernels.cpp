// The SIMD inner loops of NoiseRows' whole rows (value and Perlin from per-cell coefficients,
// simplex, version 2 simplex, the lattice corners), written once with Google Highway and
// compiled for each x86-64 target (SSE4, AVX2, AVX-512, ...); HWY_DYNAMIC_DISPATCH picks the
// best one the CPU has at run time. Every lane performs the scalar reference's IEEE operations
// in the same order (separable-inl.hpp, simplex.cpp), so every target gives the same bits. The
// point kernels are in point_kernels.cpp, what both use in lattice_lanes-inl.hpp.

#include "noise/rows_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/rows_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <array>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <vector>

#include "noise/fractal_lanes-inl.hpp"
#include "noise/lattice_lanes-inl.hpp"
#include "noise/separable-inl.hpp"
#include "noise/simplex_row_lanes-inl.hpp"
#include "noise/simplex_constants.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using fractal_lanes::normalise;   // fractal_lanes-inl.hpp
using fractal_lanes::octaveTerm;

// ---------------------------------------------------------------------------------------------
// Value and Perlin noise: per-cell coefficients looked up per lane.

template <NoiseKind kNoise>
HWY_INLINE V separableNoise(D d, const rows::SeparableOctave& o, std::size_t c) {
    const DI di;
    // The lanes' cells are consecutive from the first lane's, so a vector loaded there holds
    // every coefficient this vector needs; a lane permutation hands them out.
    const std::int64_t first = o.cell[c];
    const V u = hn::LoadU(d, o.fade + c);
    const auto evaluate = [&](const auto& at) {
        if constexpr (kNoise == NoiseKind::Perlin) {
            const separable::PerlinCoefficients<V> k{at(o.p), at(o.q), at(o.r), at(o.s)};
            return separable::perlinEvaluate(k, hn::LoadU(d, o.fx + c), u);
        }
        return separable::valueEvaluate(separable::ValueCoefficients<V>{at(o.p), at(o.r)}, u);
    };
    // The low octaves' cells span many columns: most vectors lie in one cell.
    if (o.cell[c + hn::Lanes(d) - 1] == first)
        return evaluate([&](const double* coefficients) { return hn::Set(d, coefficients[first]); });
    const auto lane =
        hn::IndicesFromVec(d, hn::Sub(hn::LoadU(di, o.cell + c), hn::Set(di, first)));
    return evaluate([&](const double* coefficients) {
        return hn::TableLookupLanes(hn::LoadU(d, coefficients + first), lane);
    });
}

void PerlinCoefficients(const rows::CornerRows& c, double* p, double* q, double* r, double* s) {
    const D d;
    const V fy = hn::Set(d, c.fy);
    const V fyMinus1 = hn::Set(d, c.fy - 1.0);
    const V v = hn::Set(d, c.v);
    for (std::size_t i = 0; i < c.count; i += hn::Lanes(d)) {
        const auto k = separable::perlinCoefficients(
            hn::LoadU(d, c.gx00 + i), hn::LoadU(d, c.gy00 + i), hn::LoadU(d, c.gx10 + i),
            hn::LoadU(d, c.gy10 + i), hn::LoadU(d, c.gx01 + i), hn::LoadU(d, c.gy01 + i),
            hn::LoadU(d, c.gx11 + i), hn::LoadU(d, c.gy11 + i), fy, fyMinus1, v);
        hn::StoreU(k.p, d, p + i);
        hn::StoreU(k.q, d, q + i);
        hn::StoreU(k.r, d, r + i);
        hn::StoreU(k.s, d, s + i);
    }
}

void ValueCoefficients(const rows::CornerRows& c, double* p, double* r) {
    const D d;
    const V v = hn::Set(d, c.v);
    for (std::size_t i = 0; i < c.count; i += hn::Lanes(d)) {
        const auto k = separable::valueCoefficients(
            hn::LoadU(d, c.gx00 + i), hn::LoadU(d, c.gx10 + i), hn::LoadU(d, c.gx01 + i),
            hn::LoadU(d, c.gx11 + i), v);
        hn::StoreU(k.p, d, p + i);
        hn::StoreU(k.r, d, r + i);
    }
}


using simplex_row_lanes::repeated;  // simplex_row_lanes-inl.hpp
using simplex_row_lanes::skewedSum;
using simplex_row_lanes::SkewedLanes;
using simplex_row_lanes::uniformBit;

// A corner's kernel (corner2f) with its gradient given as simplex::kGradX / kGradY / kGradZ
// entries (same bits as grad2, see simplex_constants.hpp).
HWY_INLINE VF cornerWith(VF gx, VF gy, VF gz, VF x, VF y) {
    const DF df;
    const VF t = hn::Sub(hn::Sub(hn::Set(df, simplex::kRadius2f), hn::Mul(x, x)), hn::Mul(y, y));
    const VF t2 = hn::Mul(t, t);
    const VF grad = hn::Add(hn::Add(hn::Mul(gx, x), hn::Mul(gy, y)), gz);
    return hn::IfThenElseZero(hn::Gt(t, hn::Zero(df)), hn::Mul(hn::Mul(t2, t2), grad));
}

// corner2f of a hashed corner: where a vector holds the 8 gradients, three lane permutations
// of the tables are cheaper than grad2f's bit tests and selects; narrower targets use grad2f.
HWY_INLINE VF cornerHashed(VU32 hash, VF x, VF y) {
    const DF df;
    if constexpr (hn::MaxLanes(df) >= 8) {
        const DU32 du;
        const hn::RebindToSigned<DF> di;
        // simplex::kGradX / Y / Z repeated to fill a vector (lookups index lanes 0..7 only).
        alignas(64) static constexpr std::array<float, 16> kX = repeated(simplex::kGradX);
        alignas(64) static constexpr std::array<float, 16> kY = repeated(simplex::kGradY);
        alignas(64) static constexpr std::array<float, 16> kZ = repeated(simplex::kGradZ);
        static_assert(hn::MaxLanes(df) <= 16);
        const auto lane = hn::IndicesFromVec(df, hn::BitCast(di, hn::And(hash, hn::Set(du, 7u))));
        return cornerWith(hn::TableLookupLanes(hn::Load(df, kX.data()), lane),
                          hn::TableLookupLanes(hn::Load(df, kY.data()), lane),
                          hn::TableLookupLanes(hn::Load(df, kZ.data()), lane), x, y);
    } else {
        return corner2f(hash, x, y);
    }
}

// The gradients of the corners of the last lattice cell a whole vector of columns lay in.
// At the low octaves a cell spans many columns, so most vectors reuse them and hash nothing
// (the gradients are a function of the cell alone: same bits).
struct CellGradients {
    bool valid = false;
    std::uint32_t lowI = 0, lowJ = 0;
    // The corners (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1).
    float x[4] = {}, y[4] = {}, z[4] = {};
};

HWY_INLINE void fillCell(CellGradients& cell, std::uint32_t lowI, std::uint32_t lowJ,
                         std::uint32_t key) {
    using Parts = detail::LatticeHashParts;
    const std::uint32_t base = lowI * Parts::kHashX + lowJ * Parts::kHashY + key;
    const std::uint32_t inputs[4] = {base, base + Parts::kHashX, base + Parts::kHashY,
                                     base + Parts::kHashX + Parts::kHashY};
    for (int k = 0; k < 4; ++k) {
        const std::uint32_t g = Parts::fmix32(inputs[k]) & 7u;
        cell.x[k] = simplex::kGradX[g];
        cell.y[k] = simplex::kGradY[g];
        cell.z[k] = simplex::kGradZ[g];
    }
    cell.valid = true;
    cell.lowI = lowI;
    cell.lowJ = lowJ;
}

// Out of line on the emulated targets (fractal_lanes-inl.hpp): inlined three times into each
// fractal's addSimplexV2 there, it made the four heaviest functions of the whole build.
TERRAGRID_INLINE_UNLESS_EMULATED VF simplex2f(const rows::SimplexV2Octave& o, std::size_t c, CellGradients& cell) {
    using namespace simplex;
    using Parts = detail::LatticeHashParts;
    const DF df;
    const DU32 du;
    const SkewedLanes sx = skewedSum(hn::LoadU(df, o.fracA + c), o.fracC);
    const SkewedLanes sy = skewedSum(hn::LoadU(df, o.fracB + c), o.fracD);
    const VF t = hn::Mul(hn::Add(sx.frac, sy.frac), hn::Set(df, kG2f));
    const VF x0 = hn::Sub(sx.frac, t);
    const VF y0 = hn::Sub(sy.frac, t);
    const auto lower = hn::Gt(x0, y0);
    const VF one = hn::Set(df, 1.0f);
    // (x0 + G) - 1 or - 0; subtracting +0 gives the same bits as not subtracting.
    const VF x0g = hn::Add(x0, hn::Set(df, kG2f));
    const VF y0g = hn::Add(y0, hn::Set(df, kG2f));
    const VF x1 = hn::IfThenElse(lower, hn::Sub(x0g, one), x0g);
    const VF y1 = hn::IfThenElse(lower, y0g, hn::Sub(y0g, one));
    const VF x2 = hn::Add(x0, hn::Set(df, kCorner2f));
    const VF y2 = hn::Add(y0, hn::Set(df, kCorner2f));
    VF n;
    const int carryX = o.run[c] >= hn::Lanes(df) ? uniformBit(sx.carry) : -1;
    const int carryY = carryX >= 0 ? uniformBit(sy.carry) : -1;
    if (carryY >= 0) {
        // Every lane in the cell (i, j): its corners' gradients once, then broadcast.
        const std::uint32_t lowI = o.lowA[c] + o.lowC + static_cast<std::uint32_t>(carryX);
        const std::uint32_t lowJ = o.lowB[c] + o.lowD + static_cast<std::uint32_t>(carryY);
        if (!cell.valid || cell.lowI != lowI || cell.lowJ != lowJ) fillCell(cell, lowI, lowJ, o.key);
        const auto at = [&](int k, const float* g) { return hn::Set(df, g[k]); };
        const auto middle = [&](const float* g) { return hn::IfThenElse(lower, at(1, g), at(2, g)); };
        n = hn::Add(hn::Add(cornerWith(at(0, cell.x), at(0, cell.y), at(0, cell.z), x0, y0),
                            cornerWith(middle(cell.x), middle(cell.y), middle(cell.z), x1, y1)),
                    cornerWith(at(3, cell.x), at(3, cell.y), at(3, cell.z), x2, y2));
    } else {
        // hash32 of the three corners: lo(i) P + lo(j) Q + key, with lo(i) = lo(a) + lo(c)
        // + carry and lo(j) likewise, so the column's and the row's parts are added and each
        // carry adds P or Q (modulo 2^32, like the scalar products); then one step in x and / or
        // y adds P and / or Q.
        const VU32 h = hn::Add(hn::LoadU(du, o.hashAB + c), hn::Set(du, o.hashCD));
        const VU32 hx = hn::IfThenElse(hn::RebindMask(du, sx.carry), hn::Add(h, hn::Set(du, Parts::kHashX)), h);
        const VU32 h0 = hn::IfThenElse(hn::RebindMask(du, sy.carry), hn::Add(hx, hn::Set(du, Parts::kHashY)), hx);
        const VU32 h1 = hn::Add(h0, hn::IfThenElse(hn::RebindMask(du, lower), hn::Set(du, Parts::kHashX),
                                                   hn::Set(du, Parts::kHashY)));
        const VU32 h2 = hn::Add(h0, hn::Set(du, Parts::kHashX + Parts::kHashY));
        n = hn::Add(hn::Add(cornerHashed(fmix32(h0), x0, y0), cornerHashed(fmix32(h1), x1, y1)),
                    cornerHashed(fmix32(h2), x2, y2));
    }
    return hn::Min(hn::Max(hn::Mul(hn::Set(df, kScale2f), n), hn::Set(df, -1.0f)), one);
}

template <FractalKind kKind>
void addSimplexV2(const rows::SimplexV2Octave& o) {
    const D d;
    const DF df;
    const hn::Rebind<float, D> dHalf;  // as many floats as doubles
    const std::size_t lanes = hn::Lanes(d);
    const V amplitude = hn::Set(d, o.amplitude);
    const std::size_t step = hn::Lanes(df);
    HWY_ALIGN float noise[2 * hn::MaxLanes(df)];
    CellGradients cell;
    // The sum in double, octave by octave, like NoiseField::sample.
    const auto add = [&](std::size_t c, std::size_t count) {
        for (std::size_t k = 0; k < count; k += lanes) {
            const V n = hn::PromoteTo(d, hn::Load(dHalf, noise + k));
            const V sum = hn::LoadU(d, o.sum + c + k);
            hn::StoreU(hn::Add(sum, hn::Mul(amplitude, octaveTerm<kKind>(d, n))), d, o.sum + c + k);
        }
    };
    std::size_t c = 0;
    // Two vectors per step give the CPU two independent chains to interleave.
    for (; c + 2 * step <= o.columns; c += 2 * step) {
        const VF n0 = simplex2f(o, c, cell);
        const VF n1 = simplex2f(o, c + step, cell);
        hn::Store(n0, df, noise);
        hn::Store(n1, df, noise + step);
        add(c, 2 * step);
    }
    for (; c < o.columns; c += step) {
        hn::Store(simplex2f(o, c, cell), df, noise);
        add(c, step);
    }
}

template <FractalKind kKind>
void normaliseAll(double amplitudeSum, double* sums, std::size_t columns) {
    const D d;
    for (std::size_t c = 0; c < columns; c += hn::Lanes(d))
        hn::StoreU(normalise<kKind>(d, hn::LoadU(d, sums + c), amplitudeSum), d, sums + c);
}

void NormaliseRow(FractalKind fractal, double amplitudeSum, double* sums, std::size_t columns) {
    fractal_lanes::withFractal(fractal, [&](auto k) {
        normaliseAll<decltype(k)::value>(amplitudeSum, sums, columns);
    });
}

void AddSimplexV2Octave(const rows::SimplexV2Octave& o) {
    fractal_lanes::withFractal(o.fractal, [&](auto k) { addSimplexV2<decltype(k)::value>(o); });
}


void FillCorners(const rows::CornerFill& f) {
    const D d;
    const DI di;
    const DU du;
    const VU iy = hn::BitCast(du, hn::Set(di, f.iy));
    const auto store = [&](VU xPart, double* x, double* y, std::size_t i) {
        const VU h = hn::ShiftRight<32>(mix64(hn::Add(xPart, iy)));
        if (f.noise == NoiseKind::Value) {
            hn::StoreU(signedValue(HashKind::Lattice, h), d, x + i);
            return;
        }
        const GradientLanes g = perlinGradient(h);
        hn::StoreU(g.x, d, x + i);
        hn::StoreU(g.y, d, y + i);
    };
    for (std::size_t i = 0; i < f.count; i += hn::Lanes(d)) {
        store(hn::LoadU(du, f.left + i), f.leftX, f.leftY, i);
        if (f.right != nullptr) store(hn::LoadU(du, f.right + i), f.rightX, f.rightY, i);
    }
}

// ---------------------------------------------------------------------------------------------
// Whole rows: all octaves per vector of columns, the sum kept in a register.

template <NoiseKind kNoise>
HWY_INLINE V octaveNoise(D d, const rows::Row& row, int i, std::size_t c) {
    if constexpr (kNoise == NoiseKind::Simplex) {
        const rows::SimplexOctave& o = row.simplex[i];
        return simplex2(o, row.hash, hn::LoadU(d, o.xs + c), hn::Set(d, o.y));
    } else {
        return separableNoise<kNoise>(d, row.separable[i], c);
    }
}

template <NoiseKind kNoise>
HWY_INLINE double octaveAmplitude(const rows::Row& row, int i) {
    if constexpr (kNoise == NoiseKind::Simplex) return row.simplex[i].amplitude;
    return row.separable[i].amplitude;
}

// Two vectors of columns per step (the padding allows it) give the CPU two independent
// chains of octaves to interleave.
template <NoiseKind kNoise, FractalKind kKind>
void rowOf(const rows::Row& row) {
    const D d;
    const std::size_t lanes = hn::Lanes(d);
    for (std::size_t c = 0; c < row.columns; c += 2 * lanes) {
        // Summed from 0.0 in octave order, like NoiseField::sample.
        V sum0 = hn::Zero(d);
        V sum1 = hn::Zero(d);
        for (int i = 0; i < row.octaves; ++i) {
            const V amplitude = hn::Set(d, octaveAmplitude<kNoise>(row, i));
            const V n0 = octaveNoise<kNoise>(d, row, i, c);
            const V n1 = octaveNoise<kNoise>(d, row, i, c + lanes);
            sum0 = hn::Add(sum0, hn::Mul(amplitude, octaveTerm<kKind>(d, n0)));
            sum1 = hn::Add(sum1, hn::Mul(amplitude, octaveTerm<kKind>(d, n1)));
        }
        hn::StoreU(normalise<kKind>(d, sum0, row.amplitudeSum), d, row.out + c);
        hn::StoreU(normalise<kKind>(d, sum1, row.amplitudeSum), d, row.out + c + lanes);
    }
}

template <NoiseKind kNoise>
void rowOfKind(const rows::Row& row) {
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<kNoise, decltype(k)::value>(row); });
}

void EvaluateRow(const rows::Row& row) {
    switch (row.noise) {
    case NoiseKind::Value: return rowOfKind<NoiseKind::Value>(row);
    case NoiseKind::Perlin: return rowOfKind<NoiseKind::Perlin>(row);
    case NoiseKind::Simplex: return rowOfKind<NoiseKind::Simplex>(row);
    default: return;  // kinds without a SIMD path never get here (rows.cpp: hasSimdRows)
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::rows {

HWY_EXPORT(EvaluateRow);
HWY_EXPORT(AddSimplexV2Octave);
HWY_EXPORT(NormaliseRow);
HWY_EXPORT(FillCorners);
HWY_EXPORT(PerlinCoefficients);
HWY_EXPORT(ValueCoefficients);

void evaluateRow(const Row& row) { HWY_DYNAMIC_DISPATCH(EvaluateRow)(row); }

void addSimplexV2Octave(const SimplexV2Octave& octave) {
    HWY_DYNAMIC_DISPATCH(AddSimplexV2Octave)(octave);
}

void normaliseRow(FractalKind fractal, double amplitudeSum, double* sums, std::size_t columns) {
    HWY_DYNAMIC_DISPATCH(NormaliseRow)(fractal, amplitudeSum, sums, columns);
}

void fillCorners(const CornerFill& fill) { HWY_DYNAMIC_DISPATCH(FillCorners)(fill); }

void perlinCoefficients(const CornerRows& c, double* p, double* q, double* r, double* s) {
    HWY_DYNAMIC_DISPATCH(PerlinCoefficients)(c, p, q, r, s);
}

void valueCoefficients(const CornerRows& c, double* p, double* r) {
    HWY_DYNAMIC_DISPATCH(ValueCoefficients)(c, p, r);
}

}  // namespace terragrid::rows
#endif  // HWY_ONCE

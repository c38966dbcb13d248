// RowPlan: version 4's rows of a flat value or Perlin layer on one set of columns (a tile's):
// the columns split once per octave as flat_v4.cpp's scalar reference splits them, and per row
// the cells' coefficients (flat_v4_rows.hpp).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "noise/flat_v4.hpp"
#include "noise/flat_v4_rows.hpp"
#include "noise/lattice.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

namespace terragrid::flat_v4 {

namespace {

using Parts = detail::LatticeHashParts;
using rows::kRowPadding;

/// A corner's column part of its hash input, premixed (the row adds its part and the key).
std::uint32_t columnPart(std::int64_t index) noexcept {
    return curved_v4::premix(Parts::low(index) * Parts::kHashX);
}

/// A corner's row part with the octave's key, premixed.
std::uint32_t rowPart(std::int64_t index, std::uint32_t key) noexcept {
    return curved_v4::premix(Parts::low(index) * Parts::kHashY + key);
}

}  // namespace

RowPlan::RowPlan(const NoiseParams& params, double amplitudeSum, std::vector<OctaveParams> octaves,
                 const double* xs, std::size_t columns)
    : m_params(params),
      m_octaveParams(std::move(octaves)),
      m_columns(columns),
      m_scale(simplex_v3::normaliseScale(lattice::summedFractal(params.fractal), amplitudeSum)),
      m_plans(m_octaveParams.size()),
      m_octaves(m_octaveParams.size()),
      m_sums(columns + 16) {
    for (std::size_t i = 0; i < m_plans.size(); ++i) {
        const OctaveParams& o = m_octaveParams[i];
        Plan& plan = m_plans[i];
        plan.frac.resize(columns);
        plan.fade.resize(columns);
        plan.cell.resize(columns);
        plan.key = curved_v4::originKey(*o.hash);
        std::int64_t previous = 0;
        for (std::size_t c = 0; c < columns; ++c) {
            // The lattice coordinate as NoiseField::latticeCoordinates computes it.
            const lattice::FloatCoord x =
                lattice::splitFloat((xs[c] * o.frequency + params.offsetX) + o.shiftX);
            const std::int64_t left = wrapped(x.index, o.cells[0]);
            m_bounded = m_bounded && curved_v4::withinBound(left);
            plan.frac[c] = x.frac;
            if (c == 0 || x.index != previous) {
                plan.left.push_back(columnPart(left));
                plan.right.push_back(columnPart(next(left, o.cells[0])));
                previous = x.index;
            }
            plan.cell[c] = static_cast<std::int32_t>(plan.left.size() - 1);
        }
        fadeColumns(params.fade, plan.frac.data(), plan.fade.data(), columns);
        const std::size_t padded = plan.left.size() + kRowPadding;  // kernels read whole vectors
        plan.left.resize(padded, 0);
        plan.right.resize(padded, 0);
        for (auto* v : {&plan.p, &plan.q, &plan.r, &plan.s}) v->assign(padded, 0.0f);
        m_octaves[i] = {plan.frac.data(), plan.fade.data(), plan.cell.data(), plan.p.data(),
                        plan.q.data(),    plan.r.data(),    plan.s.data(),
                        static_cast<float>(o.amplitude)};
    }
}

bool RowPlan::row(double y, double* out) {
    if (!m_bounded) return false;
    for (std::size_t i = 0; i < m_plans.size(); ++i) {
        const OctaveParams& o = m_octaveParams[i];
        Plan& plan = m_plans[i];
        const lattice::FloatCoord v =
            lattice::splitFloat((y * o.frequencyY + m_params.offsetY) + o.shiftY);
        const std::int64_t bottom = wrapped(v.index, o.cells[1]);
        if (!curved_v4::withinBound(bottom)) return false;
        fillCells({m_params.noise, plan.left.data(), plan.right.data(), plan.left.size() - kRowPadding,
                   rowPart(bottom, plan.key), rowPart(next(bottom, o.cells[1]), plan.key), v.frac,
                   m_params.fade, plan.p.data(), plan.q.data(), plan.r.data(), plan.s.data()});
    }
    const auto address = reinterpret_cast<std::uintptr_t>(m_sums.data());
    float* sums = m_sums.data() + ((64 - address % 64) % 64) / sizeof(float);
    evaluateRow({m_params.noise, lattice::summedFractal(m_params.fractal),
                 static_cast<int>(m_octaves.size()), m_octaves.data(), m_scale, m_columns, sums, out});
    return true;
}

}  // namespace terragrid::flat_v4

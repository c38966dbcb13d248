// baseNoise dispatch and NoiseField: octaves of base noise summed and normalised from the
// parameters alone (design.md principle 3), so every tile computes the same value for a point.

#include "terragrid/noise/noise.hpp"

#include "noise/curved_v4.hpp"
#include "noise/flat_v4.hpp"
#include "noise/lattice.hpp"
#include "noise/simplex_v3.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace terragrid {

namespace {

// splitmix64's increment: octave o draws values 3o + 1 .. 3o + 3 of the splitmix64 stream of
// the layer seed, so every (seed, octave) gets independent hash seeds and shifts.
constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kDrawsPerOctave = 3;

std::uint64_t streamValue(std::uint64_t seed, std::uint64_t index) noexcept {
    return mix64(seed + index * kGoldenGamma);
}

// A domain shift in [0, 256): the top 53 bits as a multiple of 2^-45, exact in a double.
double shiftFrom(std::uint64_t bits) noexcept {
    constexpr double kScale = 0x1p-45;  // 2^-53 (unit fraction) * 256
    return static_cast<double>(bits >> 11) * kScale;
}

// Draws of the layer seed's stream beyond the octaves' (3o + 1 .. 3o + 3 < 64): the z and w
// shifts of octave o are draws 64 + 2o and 65 + 2o; warp axis d is seeded by draw 128 + d.
constexpr std::uint64_t kFirstZwDraw = 64;
constexpr std::uint64_t kFirstWarpDraw = 128;
static_assert(kDrawsPerOctave * kMaxOctaves < kFirstZwDraw);
static_assert(kFirstZwDraw + 2 * kMaxOctaves <= kFirstWarpDraw);

/// The warp field of one axis: fBm of Perlin noise with the layer's fade and hash, each octave
/// twice the frequency and half the amplitude of the one before.
NoiseParams warpParams(const NoiseParams& layer) {
    NoiseParams p;
    p.noise = NoiseKind::Perlin;
    p.fade = layer.fade;
    p.fractal = FractalKind::Fbm;
    p.hash = layer.hash;
    p.octaves = layer.warp.octaves;
    p.lacunarity = 2.0;
    p.persistence = 0.5;
    p.frequency = layer.warp.frequency;
    p.offsetX = p.offsetY = 0.0;
    p.seedOffset = 0;
    p.version = layer.version;
    return p;
}

/// A tiling octave's cells across `period` world units at `frequency`: the nearest whole
/// number, at least 1 (a coarser octave than the map still repeats once across it) and at most
/// 2^30 (the lanes hold wrapped indices in 32 bits; a map of 2^20 cells then has 1024 lattice
/// cells to a map cell, detail no cell shows).
std::int64_t cellsAcross(double frequency, double period, double most = 1073741824.0) noexcept {
    return static_cast<std::int64_t>(std::clamp(std::round(frequency * period), 1.0, most));
}

/// A tiling octave's cells across the period {width, height} at `frequency`. Value and Perlin:
/// unit cells each way. Version 6's simplex (simplexTilingV6): its lattice has edges of
/// sqrt(2/3) (simplexNoiseV3's at that frequency) and repeats every two rows, sqrt 2 high, so
/// n edges across and m row pairs down, m at most 2^29 (2m rows within 2^30).
flat_v4::Cells tilingCells(const NoiseParams& params, double frequency) noexcept {
    if (params.noise != NoiseKind::Simplex)
        return {cellsAcross(frequency, params.period[0]), cellsAcross(frequency, params.period[1])};
    return {cellsAcross(frequency * std::sqrt(1.5), params.period[0]),
            cellsAcross(frequency * std::sqrt(0.5), params.period[1], 536870912.0)};
}

// GenericLattice's grid displacement in lattice cells, added to the octave's coordinates.
double displacementCells(GridDisplacement d) noexcept {
    switch (d) {
    case GridDisplacement::None:
        return 0.0;
    case GridDisplacement::Half:
        return 0.5;
    case GridDisplacement::Quarter:
        return 0.25;
    }
    return 0.0;
}

}  // namespace

double baseNoise(NoiseKind kind, double x, double y, FadeCurve f, const LatticeHash& h) noexcept {
    switch (kind) {
    case NoiseKind::Value:
        return valueNoise(x, y, f, h);
    case NoiseKind::Perlin:
        return perlinNoise(x, y, f, h);
    case NoiseKind::Simplex:
        return simplexNoise(x, y, h);
    case NoiseKind::GenericLattice:
        return genericLatticeNoise(x, y, Proximity::Gradient, f, h);
    case NoiseKind::Cellular:
        return cellularNoise(x, y, CellularReturn::F1, CellularDistance::Euclidean, 1.0, h);
    }
    return 0.0;
}

bool hasDimensions(NoiseKind kind, int dimensions) noexcept {
    switch (dimensions) {
    case 2:
        return true;
    case 3:
        return kind == NoiseKind::Value || kind == NoiseKind::Perlin || kind == NoiseKind::Simplex;
    case 4:
        return kind == NoiseKind::Perlin || kind == NoiseKind::Simplex;
    default:
        return false;
    }
}

bool tilesByLattice(const NoiseParams& params) noexcept {
    return (params.version >= NoiseVersion::V5 && flat_v4::usesFlatV4(params)) ||
           (params.version >= NoiseVersion::V6 && lattice::usesSimplexV3(params));
}

NoiseField::NoiseField(const NoiseParams& params, std::uint64_t mapSeed)
    : m_params(params),
      m_tiles(tilesByLattice(params) && params.period[0] > 0.0 && params.period[1] > 0.0),
      m_octaves(params.fractal == FractalKind::None ? 1
                                                     : std::clamp(params.octaves, 1, kMaxOctaves)),
      m_amplitudeSum(0.0) {
    // Config validates these; the clamp above only keeps a bad value inside the array.
    assert(params.fractal == FractalKind::None ||
           (params.octaves >= 1 && params.octaves <= kMaxOctaves));
    assert(params.persistence >= 0.0);  // a signed amplitude sum could be 0

    // Unsigned wrap-around is intended: any 64-bit sum is a valid seed.
    const std::uint64_t layerSeed = mapSeed + params.seedOffset;
    // f_o and a_o by repeated multiplication (not pow(), whose last bit is not specified).
    double frequency = params.frequency;
    double amplitude = 1.0;
    for (int o = 0; o < m_octaves; ++o) {
        const std::uint64_t draw = kDrawsPerOctave * static_cast<std::uint64_t>(o);
        m_octave[o] = Octave{frequency, frequency, amplitude, shiftFrom(streamValue(layerSeed, draw + 1)),
                             shiftFrom(streamValue(layerSeed, draw + 2)), 0.0, 0.0,
                             LatticeHash(params.hash, streamValue(layerSeed, draw + 3))};
        if (m_tiles) {
            // Whole cells across the map each way, so the lattice repeats with the map.
            Octave& t = m_octave[o];
            t.cells = tilingCells(params, frequency);
            t.frequency = static_cast<double>(t.cells[0]) / params.period[0];
            t.frequencyY = static_cast<double>(t.cells[1]) / params.period[1];
        }
        const std::uint64_t zwDraw = kFirstZwDraw + 2 * static_cast<std::uint64_t>(o);
        m_octave[o].shiftZ = shiftFrom(streamValue(layerSeed, zwDraw));
        m_octave[o].shiftW = shiftFrom(streamValue(layerSeed, zwDraw + 1));
        m_amplitudeSum += amplitude;
        frequency *= params.lacunarity;
        amplitude *= params.persistence;
    }
    if (m_tiles) {
        // Marble's stripes along x repeat with the map too: whole cycles across it (none
        // where the frequency rounds to 0).
        m_params.marbleFrequency = std::round(params.marbleFrequency * params.period[0]) / params.period[0];
    }
    // Folded into the shifts (exact: they are multiples of 2^-45 below 256), so sample() and
    // the rows need no extra term.
    if (params.noise == NoiseKind::GenericLattice) {
        const double cells = displacementCells(params.displacement);
        for (int o = 0; o < m_octaves; ++o) {
            m_octave[o].shiftX += cells;
            m_octave[o].shiftY += cells;
        }
    }
    if (params.warp.amplitude > 0.0) {
        // A tiling layer's warp fields tile with it (they move its plane point); the others'
        // sample the surface's point as the layer does.
        NoiseParams warp = warpParams(params);
        if (m_tiles) warp.period = params.period;
        for (std::uint64_t axis = 0; axis < 4; ++axis)
            m_warp.emplace_back(warp, streamValue(layerSeed, kFirstWarpDraw + axis));
    }
}

double NoiseField::layerNoise(double u, double v, const LatticeHash& hash) const noexcept {
    // baseNoise with the layer's own settings for the kinds that have some.
    switch (m_params.noise) {
    case NoiseKind::GenericLattice:
        return genericLatticeNoise(u, v, m_params.proximity, m_params.fade, hash);
    case NoiseKind::Cellular:
        return cellularNoise(u, v, m_params.cellularReturn, m_params.cellularDistance,
                             m_params.cellularJitter, hash);
    case NoiseKind::Simplex:  // (version 3's never gets here: unwarped() sums it in float)
        return lattice::usesSimplexV2(m_params) ? simplexNoiseV2(u, v, hash)
                                                : simplexNoise(u, v, hash);
    default:
        return baseNoise(m_params.noise, u, v, m_params.fade, hash);
    }
}

double NoiseField::layerNoise(const std::array<double, 4>& u, int dimensions,
                              const LatticeHash& hash) const noexcept {
    if (dimensions == 2) return layerNoise(u[0], u[1], hash);
    const bool four = dimensions == 4;
    switch (m_params.noise) {
    case NoiseKind::Value:
        return valueNoise(u[0], u[1], u[2], m_params.fade, hash);
    case NoiseKind::Perlin:
        return four ? perlinNoise(u[0], u[1], u[2], u[3], m_params.fade, hash)
                    : perlinNoise(u[0], u[1], u[2], m_params.fade, hash);
    case NoiseKind::Simplex:
        return four ? simplexNoise(u[0], u[1], u[2], u[3], hash)
                    : simplexNoise(u[0], u[1], u[2], hash);
    default:  // config refuses 3D and 4D maps for the other kinds (hasDimensions)
        assert(false);
        return 0.0;
    }
}

double NoiseField::sample(double x, double y) const noexcept {
    return sample(NoisePoint{{x, y, 0.0, 0.0}, 2});
}

NoisePoint NoiseField::onLayer(const NoisePoint& p) const noexcept {
    if (!m_tiles || p.dimensions != 4) return p;
    return {{p.plane[0], p.plane[1], 0.0, 0.0}, 2, p.plane};
}

double NoiseField::sample(const NoisePoint& point) const noexcept {
    const NoisePoint p = onLayer(point);
    if (m_warp.empty()) return unwarped(p);
    NoisePoint moved = p;
    for (int d = 0; d < p.dimensions; ++d) {
        const auto axis = static_cast<std::size_t>(d);
        moved.at[axis] = warped(moved.at[axis], m_params.warp.amplitude, m_warp[axis].unwarped(p));
    }
    return unwarped(moved);
}

std::array<double, 4> NoiseField::latticeCoordinates(const NoisePoint& p,
                                                     const Octave& octave) const noexcept {
    const std::array<double, 4> offset{m_params.offsetX, m_params.offsetY, 0.0, 0.0};
    const std::array<double, 4> shift{octave.shiftX, octave.shiftY, octave.shiftZ, octave.shiftW};
    // The lattice coordinate is always ((x * f_o) + offset) + shift, in that order:
    // floating-point addition is not associative, and sampleRow / SIMD rows must perform
    // the same operations to agree bit for bit.
    std::array<double, 4> u{};
    for (std::size_t d = 0; d < static_cast<std::size_t>(p.dimensions); ++d)
        u[d] = (p.at[d] * (d == 1 ? octave.frequencyY : octave.frequency) + offset[d]) + shift[d];
    return u;
}

double NoiseField::unwarped(const NoisePoint& point) const noexcept {
    const NoisePoint p = onLayer(point);
    if (summedInFloat(p.dimensions)) return unwarpedFloat(p);
    double sum = 0.0;
    for (int o = 0; o < m_octaves; ++o) {
        const Octave& octave = m_octave[o];
        const double n = layerNoise(latticeCoordinates(p, octave), p.dimensions, octave.hash);
        sum += octave.amplitude * lattice::octaveTerm(m_params.fractal, n);
    }
    const double value = normalise(sum);
    return m_params.fractal == FractalKind::Marble ? lattice::marble(m_params, p.at[0], value)
                                                   : value;
}

bool NoiseField::summedInFloat(int dimensions) const noexcept {
    if (dimensions > 2) return curved_v4::usesCurvedV4(m_params);
    return lattice::usesSimplexV3(m_params) || flat_v4::usesFlatV4(m_params);
}

double NoiseField::unwarpedFloat(const NoisePoint& p) const noexcept {
    // The lattice coordinates as in unwarped(); the sum, its terms and the normalisation in
    // float with fused multiply-adds, which the rows (simplex_v3_rows.cpp, flat_v4_rows.cpp,
    // curved_v4_rows.cpp) repeat lane by lane.
    const FractalKind summed = lattice::summedFractal(m_params.fractal);
    float sum = 0.0f;
    for (int o = 0; o < m_octaves; ++o) {
        const Octave& octave = m_octave[o];
        const std::array<double, 4> u = latticeCoordinates(p, octave);
        float n = 0.0f;
        if (p.dimensions > 2) {
            n = curved_v4::noise(m_params.noise, m_params.fade, u, p.dimensions, octave.hash);
        } else if (m_params.noise == NoiseKind::Simplex) {
            n = m_tiles ? simplexTilingV6(u[0], u[1], octave.hash, octave.cells)
                        : simplexNoiseV3(u[0], u[1], octave.hash);
        } else {
            n = flat_v4::noise(m_params.noise, m_params.fade, u[0], u[1], octave.hash, octave.cells);
        }
        sum = std::fma(static_cast<float>(octave.amplitude), simplex_v3::octaveTerm(summed, n),
                       sum);
    }
    const auto value = static_cast<double>(simplex_v3::normalise(
        summed, sum, simplex_v3::normaliseScale(summed, m_amplitudeSum)));
    return m_params.fractal == FractalKind::Marble ? lattice::marble(m_params, p.at[0], value)
                                                   : value;
}

double NoiseField::normalise(double sum) const noexcept {
    const double mean = sum / m_amplitudeSum;
    const bool isSigned = m_params.fractal == FractalKind::None ||
                          m_params.fractal == FractalKind::Fbm;
    const double value = isSigned ? (mean + 1.0) / 2.0 : mean;
    // Guards the overshoot of kinds whose bound is not exactly 1 (and rounding).
    return std::clamp(value, 0.0, 1.0);
}

void NoiseField::sampleRow(const double* xs, std::size_t n, double y,
                           double* out) const noexcept {
    NoiseRows rows(*this, xs, n);
    rows.row(y, out);
}

}  // namespace terragrid

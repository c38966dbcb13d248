#pragma once
// Noise kinds, fade curves, fractal sums and NoiseField, the layer the generator samples.
//
// Everything here is a pure function of its arguments: no global state, no RNG state, safe to
// call from any number of threads at once. The scalar functions are the reference every fast
// path must equal bit for bit (design.md principle 6).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace terragrid {

// ---------------------------------------------------------------------------------------------
// Enums, each with one constexpr name table (config keys and messages use these names). Each
// enum names its last value `Last`, and a static_assert ties the table's size to it: a value
// added without a name, or a name without a value, does not compile.

enum class NoiseKind : std::uint8_t {
    Value,
    Perlin,
    Simplex,
    GenericLattice,
    Cellular,
    Last = Cellular
};
enum class FadeCurve : std::uint8_t { Linear, Cubic, Quintic, Last = Quintic };
enum class FractalKind : std::uint8_t { None, Fbm, Turbulence, Ridged, Marble, Last = Marble };
/// Lattice hashing. `Lattice`: integer hash of (ix, iy[, iz], seed), never repeats.
/// `Permutation`: a 256-entry permutation shuffled from the seed (repeats every 256 lattice
/// cells, like the classic implementations). `Reference`: Ken Perlin's fixed permutation; the
/// seed then only moves each octave's domain.
enum class HashKind : std::uint8_t { Lattice, Permutation, Reference, Last = Reference };

inline constexpr std::array<std::string_view, 5> kNoiseKindNames{"value", "perlin", "simplex",
                                                                 "generic_lattice", "cellular"};
static_assert(kNoiseKindNames.size() == std::size_t(NoiseKind::Last) + 1);
inline constexpr std::array<std::string_view, 3> kFadeCurveNames{"linear", "cubic", "quintic"};
static_assert(kFadeCurveNames.size() == std::size_t(FadeCurve::Last) + 1);
inline constexpr std::array<std::string_view, 5> kFractalKindNames{"none", "fbm", "turbulence",
                                                                   "ridged", "marble"};
static_assert(kFractalKindNames.size() == std::size_t(FractalKind::Last) + 1);
inline constexpr std::array<std::string_view, 3> kHashKindNames{"lattice", "permutation",
                                                                "reference"};
static_assert(kHashKindNames.size() == std::size_t(HashKind::Last) + 1);

/// The generation of the noise algorithms (config key noise_version; README "Map versions").
/// V1: the phase-one algorithms, kept so that a config naming version 1 reproduces its old map
/// bit for bit. V2: 2D simplex noise with the lattice hash computed in float cell arithmetic
/// with a 32-bit hash (simplexNoiseV2), several times faster in rows. Every other noise, hash
/// and dimension is the same in both versions. V3: 2D simplex noise with the lattice hash in
/// float throughout (simplexNoiseV3): fused multiply-adds, a kernel cut off with max(t, 0), no
/// clamp per octave, and the octaves summed and normalised in float, so the rows sum every
/// octave in one pass of float lanes; everything else is as in V2. V4: V3, and with the lattice
/// hash the 3D and 4D value, Perlin and simplex noise of planets and tileable maps
/// (src/noise/curved_v4.hpp) and the 2D value and Perlin noise of flat maps, so their warp
/// fields too (src/noise/flat_v4.hpp), in float the same way with a 32-bit hash. V5: V4, and
/// on tileable maps value and Perlin layers with the lattice hash tile by their own 2D lattice
/// instead of sampling a torus in 4D: each octave's frequency is rounded to a whole number of
/// lattice cells across the map (NoiseParams::period) and the corners' indices wrap there. V6:
/// V5, and on tileable maps simplex layers with the lattice hash tile by their own triangular
/// lattice too (simplexTilingV6): version 3's simplex noise on a triangular lattice turned to
/// have an edge along x, fitted to the map with whole numbers of edges along x and of row pairs
/// (a height of sqrt 3 edges) along y, where the corners' indices wrap.
enum class NoiseVersion : std::uint8_t { V1, V2, V3, V4, V5, V6, Last = V6 };
/// The config's number of a version (1, 2, ...).
inline constexpr int versionNumber(NoiseVersion v) noexcept { return static_cast<int>(v) + 1; }

/// What NoiseKind::GenericLattice places at each lattice point: a function of the offset d
/// from the point to the sample and the point's hash (genericLatticeNoise defines each).
enum class Proximity : std::uint8_t {
    Constant,
    Gradient,
    Triangular,
    Ridged,
    SemiRidged,
    Last = SemiRidged
};
inline constexpr std::array<std::string_view, 5> kProximityNames{
    "constant", "gradient", "triangular", "ridged", "semi_ridged"};
static_assert(kProximityNames.size() == std::size_t(Proximity::Last) + 1);

/// GenericLattice only: each octave's grid moved by 0, -1/2 or -1/4 of its own step, so the
/// lattice points of successive octaves do not coincide.
enum class GridDisplacement : std::uint8_t { None, Half, Quarter, Last = Quarter };
inline constexpr std::array<std::string_view, 3> kGridDisplacementNames{"none", "half",
                                                                        "quarter"};
static_assert(kGridDisplacementNames.size() == std::size_t(GridDisplacement::Last) + 1);

/// NoiseKind::Cellular: which distance it returns: F1 (to the nearest feature point), F2 (to
/// the second nearest) or F2 - F1 (0 on the borders between cells).
enum class CellularReturn : std::uint8_t { F1, F2, F2MinusF1, Last = F2MinusF1 };
inline constexpr std::array<std::string_view, 3> kCellularReturnNames{"f1", "f2",
                                                                      "f2_minus_f1"};
static_assert(kCellularReturnNames.size() == std::size_t(CellularReturn::Last) + 1);
/// NoiseKind::Cellular: how distance is measured (Manhattan gives diamond-shaped cells).
enum class CellularDistance : std::uint8_t { Euclidean, Manhattan, Last = Manhattan };
inline constexpr std::array<std::string_view, 2> kCellularDistanceNames{"euclidean",
                                                                        "manhattan"};
static_assert(kCellularDistanceNames.size() == std::size_t(CellularDistance::Last) + 1);

// ---------------------------------------------------------------------------------------------
// Hashing

/// Ken Perlin's reference permutation of 0..255 (improved noise, 2002).
extern const std::array<std::uint8_t, 256> kPerlinPermutation;

/// splitmix64's output function: a fixed, platform-independent 64-bit mixer. (Inline: the
/// row evaluator hashes in its inner loops.)
inline std::uint64_t mix64(std::uint64_t x) noexcept {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

namespace detail {
struct LatticeHashParts;  // terragrid/noise/detail/lattice_hash_parts.hpp
}

/// Hashes integer lattice points to 32 bits. A value type (the permutation kinds keep their
/// 512-byte doubled table inline); thread-safe once constructed.
class LatticeHash {
public:
    /// `seed` selects the lattice hash / shuffles the permutation; ignored by `Reference`.
    LatticeHash(HashKind kind, std::uint64_t seed);

    HashKind kind() const noexcept { return m_kind; }
    /// Hash of a lattice point. For the permutation kinds only the low 8 bits carry
    /// information (perm[perm[ix & 255] + (iy & 255)] ...); for `Lattice` all 32 bits do.
    std::uint32_t operator()(std::int64_t ix) const noexcept;
    std::uint32_t operator()(std::int64_t ix, std::int64_t iy) const noexcept;
    std::uint32_t operator()(std::int64_t ix, std::int64_t iy, std::int64_t iz) const noexcept;
    std::uint32_t operator()(std::int64_t ix, std::int64_t iy, std::int64_t iz,
                             std::int64_t iw) const noexcept;
    /// The 32-bit lattice hash of NoiseVersion::V2 (`Lattice` only): murmur3's fmix32 of
    /// lo(ix) P + lo(iy) Q + key(hi(ix), hi(iy)), lo the low 32 bits of the index, hi the high
    /// 32 bits of index + 2^31 and key a mix64 of the seed and the high halves, so it never
    /// repeats, and a row evaluator whose lattice points share their high halves (every map
    /// within 2^31 lattice cells of the origin) computes the key once.
    std::uint32_t hash32(std::int64_t ix, std::int64_t iy) const noexcept;
    /// The hash of a point mapped onto [0, 1] (value noise): h / 255 for the permutation
    /// kinds, the top 24 bits / (2^24 - 1) for `Lattice`.
    /// (Inline: value noise rows call it for every corner of every cell they meet.)
    double unit(std::uint32_t hash) const noexcept {
        if (m_kind == HashKind::Lattice) {
            // 24 bits fit a double's mantissa exactly, and 2^24 levels are finer than any map.
            constexpr double kMax24 = 16777215.0;
            return static_cast<double>(hash >> 8) / kMax24;
        }
        return static_cast<double>(hash & 0xFFu) / 255.0;
    }

private:
    friend struct detail::LatticeHashParts;  // the row evaluators' split hash

    HashKind m_kind;
    std::uint64_t m_seed;
    std::array<std::uint8_t, 512> m_perm{};  // doubled permutation (permutation kinds)
};

// ---------------------------------------------------------------------------------------------
// Fade curves and base noise. Every base noise returns a value in [-1, 1].

/// linear t, cubic 3t^2 - 2t^3, quintic 6t^5 - 15t^4 + 10t^3; t in [0, 1].
double fade(FadeCurve curve, double t) noexcept;

/// Value noise: the hashed values (mapped to [-1, 1]) blended with the fade curve.
double valueNoise(double x, FadeCurve f, const LatticeHash& h) noexcept;
double valueNoise(double x, double y, FadeCurve f, const LatticeHash& h) noexcept;
double valueNoise(double x, double y, double z, FadeCurve f, const LatticeHash& h) noexcept;

/// Perlin gradient noise; 0 at every lattice point. 1D: gradient g*t, g in {-1..1};
/// 2D: the 4 axes and 4 unit diagonals, result times sqrt(2); 3D: Perlin's 12 cube edges padded
/// to 16. With HashKind::Reference and the quintic fade the 3D form reproduces Perlin's own
/// Java ImprovedNoise.noise(x, y, z). Exception to [-1, 1]: the 3D form is not clamped (that
/// would break the reference) and, like Perlin's, reaches about +-1.0364 at worst.
double perlinNoise(double x, FadeCurve f, const LatticeHash& h) noexcept;
double perlinNoise(double x, double y, FadeCurve f, const LatticeHash& h) noexcept;
double perlinNoise(double x, double y, double z, FadeCurve f, const LatticeHash& h) noexcept;

/// Simplex noise with radius^2 = 0.5 kernels (continuous); the fade curve does not apply.
double simplexNoise(double x, double y, const LatticeHash& h) noexcept;
/// Version 2 of 2D simplex noise (NoiseVersion::V2; `h` must be HashKind::Lattice): the same
/// kernels, gradients and scale, with the skew split so that rows can do it per column and
/// per row. The skewed coordinates X = x (1 + F) + y F and Y = y (1 + F) + x F are each the
/// sum of two products split into an int64 index and a fraction (exact in double, then
/// rounded to float), so a point far from the origin keeps a sharp fraction; everything inside
/// the cell is float arithmetic, and corners are hashed with LatticeHash::hash32. The result
/// is a float widened to double.
double simplexNoiseV2(double x, double y, const LatticeHash& h) noexcept;
/// Version 3 of 2D simplex noise (NoiseVersion::V3; `h` must be HashKind::Lattice): version 2's
/// skew split, cell and hash, with the cell's arithmetic in float with fused multiply-adds
/// (std::fma, which the rows' lanes match on every SIMD target) and each kernel cut off with
/// max(0.5 - x^2 - y^2, 0). Unclamped: within about [-1, 1] (the scale is version 2's); a
/// layer's sum is clamped once, after normalising.
float simplexNoiseV3(double x, double y, const LatticeHash& h) noexcept;
/// Version 6's simplex noise of a tiling layer (`h` HashKind::Lattice) at lattice coordinates
/// (u, v), repeating every `cells[0]` = n along u and `cells[1]` = m along v. Simplex's skewed
/// lattice has no rectangular period; its triangles turned by 15 degrees do, one edge along u:
/// n edges across, and m pairs of rows (sqrt 3 edges high) down. In skewed coordinates those
/// periods are (n, 0) and (m, 2m), and the point's skewed cell is the split of (u + v, 2v)
/// (lattice::sumOf(split(u), split(v)), split(2v)). From there on it is simplexNoiseV3 (the
/// same offsets, gradients and sums, in float), but each corner's indices are reduced to
/// their representative in [0, n) x [0, 2m) before hashing, so the noise repeats exactly.
float simplexTilingV6(double u, double v, const LatticeHash& h, std::array<std::int64_t, 2> cells) noexcept;
double simplexNoise(double x, double y, double z, const LatticeHash& h) noexcept;

/// 4D Perlin and simplex noise, for tileable maps (two circles in 4D). Both use the 32
/// gradients with one coordinate 0 and the others +-1 (hash & 31). Perlin: quadrilinear blend
/// with the fade curve, 0 at every lattice point, divided by its largest magnitude for that
/// fade (about 1.54 to 1.57); simplex: radius^2 = 0.5 kernels (continuous), times 62.77. Both
/// clamped to [-1, 1]; noise4d.cpp says how the bounds were found.
double perlinNoise(double x, double y, double z, double w, FadeCurve f,
                   const LatticeHash& h) noexcept;
double simplexNoise(double x, double y, double z, double w, const LatticeHash& h) noexcept;

/// Cellular (Worley) noise: one feature point per lattice cell, at the cell centre moved by up
/// to jitter / 2 along each axis (hashed; jitter in [0, 1], 0 gives a regular grid). Returns
/// F1, F2 or F2 - F1 (`r`) in the metric `d`, mapped from [0, bound] onto [-1, 1], where the
/// bound is the largest value the geometry allows for this return, metric and jitter
/// (cellularBound). Exact (every cell that could hold one of the two nearest points is
/// searched), so F1 and F2 are continuous.
double cellularNoise(double x, double y, CellularReturn r, CellularDistance d, double jitter,
                     const LatticeHash& h) noexcept;
/// The largest F1 / F2 / F2 - F1 any point can see for this metric and jitter (the maximum
/// cellularNoise maps to 1): F1: (1 + j) / sqrt(2) Euclidean, 1 + j Manhattan; F2 and F2 - F1:
/// sqrt((1 + j/2)^2 + (j/2)^2) Euclidean, 1 + j Manhattan. Derived in cellular.cpp.
double cellularBound(CellularReturn r, CellularDistance d, double jitter) noexcept;

/// Generic lattice noise: each corner of the lattice cell contributes proximity(d, hash),
/// d = the offset from the corner to (x, y), weighted by the separable fade weight
/// fade(1 - |dx|) fade(1 - |dy|); the four contributions are summed. `Constant` gives
/// valueNoise (bit for bit), `Gradient` perlinNoise (to rounding); the other proximities are
/// defined in src/noise/generic_lattice.cpp. In [-1, 1] for every proximity.
double genericLatticeNoise(double x, double y, Proximity p, FadeCurve f,
                           const LatticeHash& h) noexcept;

/// The contribution of one lattice point to genericLatticeNoise: (dx, dy) is the offset from
/// the point to the sample (each in [-1, 1] inside the point's cells), `hash` the point's hash.
/// In [-1, 1] for every proximity but Gradient (Perlin's ramp, up to +-2 at a far corner).
double latticeProximity(Proximity p, double dx, double dy, std::uint32_t hash,
                        const LatticeHash& h) noexcept;

/// 2D dispatch on kind (simplex ignores `f`; GenericLattice uses the gradient proximity here,
/// NoiseField the layer's; Cellular F1, Euclidean, jitter 1 here, NoiseField the layer's).
double baseNoise(NoiseKind kind, double x, double y, FadeCurve f, const LatticeHash& h) noexcept;

// ---------------------------------------------------------------------------------------------
// NoiseField: one configured layer.

inline constexpr int kMaxOctaves = 16;

// The parameter structs below start neutral (0, the first enumerator): their defaults live in
// one place, configs/default.json, which the config loader fills them from. Code that builds
// a layer by hand says every value it relies on.

/// Domain warp: a layer's sample point moved by fBm of Perlin noise before the layer is
/// sampled there (natural-looking coastlines). Off when the amplitude is 0.
struct WarpParams {
    double amplitude = 0.0;  ///< largest displacement along each axis, world units
    double frequency = 0.0;  ///< cycles per world unit of the warp's first octave
    int octaves = 0;         ///< 1..16 when the amplitude is not 0
};

/// A flat layer description (design.md principle 5); the config loader (src/config/) fills it
/// from JSON.
struct NoiseParams {
    NoiseKind noise = NoiseKind::Value;
    FadeCurve fade = FadeCurve::Linear;
    FractalKind fractal = FractalKind::None;
    HashKind hash = HashKind::Lattice;
    int octaves = 0;            ///< 1..16 (ignored by FractalKind::None, which uses one)
    double lacunarity = 0.0;    ///< frequency factor per octave
    double persistence = 0.0;   ///< amplitude factor per octave
    double frequency = 0.0;     ///< cycles per world unit in the first octave
    double offsetX = 0.0;       ///< added to the lattice coordinate (noise units)
    double offsetY = 0.0;
    std::uint64_t seedOffset = 0;  ///< added to the map seed, so layers differ
    Proximity proximity = Proximity::Constant;               ///< GenericLattice only
    GridDisplacement displacement = GridDisplacement::None;  ///< GenericLattice only
    double marbleFrequency = 0.0;   ///< Marble only: sine cycles per world unit along x
    double marbleTurbulence = 0.0;  ///< Marble only: phase cycles per unit of turbulence
    CellularReturn cellularReturn = CellularReturn::F1;               ///< Cellular only
    CellularDistance cellularDistance = CellularDistance::Euclidean;  ///< Cellular only
    double cellularJitter = 0.0;  ///< Cellular only: 0 (regular grid) .. 1
    WarpParams warp;
    NoiseVersion version = NoiseVersion::V1;  ///< the config's noise_version
    /// A tileable map's width and height in world units (0: the map does not wrap), set by
    /// LayerStack on a torus. A layer that tilesByLattice() repeats with this period on its own
    /// 2D lattice (versions 5 and 6); the others sample the torus's 4D point.
    std::array<double, 2> period{0.0, 0.0};
};

/// Whether a layer on a tileable map tiles by its own 2D lattice (version 5 value and Perlin
/// noise with the lattice hash, version 6 simplex with it too): sampled at the point's `plane`
/// coordinates, each octave's frequency rounded to whole cells across the period.
bool tilesByLattice(const NoiseParams& params) noexcept;

/// A point a layer is sampled at: world (x, y) on a flat map, a point of a torus in 4D on a
/// wrapping map, of a sphere in 3D on a planet (surface.hpp says which). World units.
struct NoisePoint {
    std::array<double, 4> at{};
    int dimensions = 2;  ///< 2, 3 or 4
    /// On a torus: the cell's place on the map unrolled, (c + 1/2) g and (r + 1/2) g from the
    /// full map's top-left corner, where a layer that tilesByLattice() samples.
    std::array<double, 2> plane{};
};

/// Whether `kind` has a base noise in `dimensions` (2: every kind; 3: value, Perlin, simplex;
/// 4: Perlin, simplex).
bool hasDimensions(NoiseKind kind, int dimensions) noexcept;

/// A noise layer: sample(x, y) is a pure function of world coordinates, in [0, 1].
///
/// Normalisation comes from the parameters only (design.md principle 3):
///   none:        (n + 1) / 2                    n = one octave of base noise in [-1, 1]
///   fbm:         (sum a_o n_o / sum a_o + 1) / 2
///   turbulence:  sum a_o |n_o| / sum a_o
///   ridged:      sum a_o (1 - |n_o|)^2 / sum a_o
///   marble:      (sin(2 pi (marbleFrequency x + marbleTurbulence T)) + 1) / 2
///                T = the turbulence value above, x = world x (not shifted by offsetX)
/// clamped to [0, 1] (3D Perlin and simplex can overshoot 1 by a few per cent).
/// GenericLattice octaves add the grid displacement (1/2 or 1/4, in lattice cells) to both
/// lattice coordinates, which moves the octave's grid by minus that many of its steps.
/// Octave o samples base noise at (x * f_o + offsetX + d_o, y * f_o + offsetY + e_o), where
/// f_o = frequency * lacunarity^o and (d_o, e_o) is a per-octave domain shift in [0, 256)
/// derived from the seed, which keeps octaves from lining up at the origin. A 3D or 4D point
/// adds its z and w the same way, with their own shifts and no offset.
/// With a warp, the point p is first moved to p + amplitude (2 w_d(p) - 1) along each axis d,
/// w_d an fBm of Perlin noise (the layer's fade and hash, its own seed per axis) in [0, 1].
/// Thread-safe: const after construction.
class NoiseField {
public:
    NoiseField(const NoiseParams& params, std::uint64_t mapSeed);

    const NoiseParams& params() const noexcept { return m_params; }
    /// Whether the layer tiles on its own 2D lattice (tilesByLattice, with a period): it
    /// samples a torus point at its `plane` coordinates.
    bool tiles() const noexcept { return m_tiles; }

    /// The field at world position (x, y); in [0, 1].
    double sample(double x, double y) const noexcept;
    /// The field at `p`, in [0, 1]; the layer's noise must have p's dimensions
    /// (hasDimensions). sample(x, y) is sample({{x, y}, 2}).
    double sample(const NoisePoint& p) const noexcept;

    /// out[i] = sample(xs[i], y) for i < n, bit for bit. xs are world x coordinates (computed
    /// once per tile column by the caller), y is the row's world y.
    void sampleRow(const double* xs, std::size_t n, double y, double* out) const noexcept;

private:
    friend class NoiseRows;  // reads the octaves; NoiseRows::row must equal sample()
    friend class CurvedRows;  // the same on spheres and tori

    /// The fractal sum of the octaves' terms mapped onto [0, 1] (shared by sample and rows).
    double normalise(double sum) const noexcept;
    /// One octave's base noise at lattice coordinates (u, v), with this layer's settings.
    double layerNoise(double u, double v, const LatticeHash& hash) const noexcept;
    /// The same in 3 or 4 dimensions (the kinds hasDimensions allows).
    double layerNoise(const std::array<double, 4>& u, int dimensions,
                      const LatticeHash& hash) const noexcept;
    /// The field at `p` without the warp.
    double unwarped(const NoisePoint& p) const noexcept;
    /// Where this layer samples `p`: a torus point's plane as a 2D point if the layer tiles by
    /// its lattice (m_tiles), else `p` itself.
    NoisePoint onLayer(const NoisePoint& p) const noexcept;
    /// A coordinate of a point moved by its axis's warp field, of value `warp` there (sample()'s
    /// move, which the rows repeat with the warp fields' rows).
    static double warped(double at, double amplitude, double warp) noexcept {
        return at + amplitude * (2.0 * warp - 1.0);
    }
    /// Whether the octaves of this layer's noise in `dimensions` are float, summed in float:
    /// version 3's 2D simplex, version 4's 2D value and Perlin and its 3D and 4D noise (the
    /// lattice hash).
    bool summedInFloat(int dimensions) const noexcept;
    /// unwarped() of such a layer.
    double unwarpedFloat(const NoisePoint& p) const noexcept;

    // Default member initialisers make Octave (and so the array) default-constructible;
    // the constructor then fills the octaves in use.
    struct Octave {
        double frequency = 0.0;
        double frequencyY = 0.0;  ///< along y: frequency but where the layer tiles (m_tiles)
        double amplitude = 0.0;
        double shiftX = 0.0;
        double shiftY = 0.0;
        double shiftZ = 0.0;  ///< 3D and 4D points only
        double shiftW = 0.0;
        LatticeHash hash{HashKind::Lattice, 0};
        /// Where the layer tiles: the lattice cells across the period along x and y, whole
        /// numbers >= 1 (the frequencies are those over the period); else 0.
        std::array<std::int64_t, 2> cells{0, 0};
    };
    /// A point's lattice coordinates in an octave: ((p_d f) + offset_d) + shift_d.
    std::array<double, 4> latticeCoordinates(const NoisePoint& p, const Octave& octave) const noexcept;
    NoiseParams m_params;
    bool m_tiles;  ///< tilesByLattice and a period: the layer tiles on its 2D lattice
    int m_octaves;
    double m_amplitudeSum;
    // Octaves are few (<= 16) and fixed after construction.
    std::array<Octave, kMaxOctaves> m_octave;
    /// The warp's fields, one per axis (empty without a warp).
    std::vector<NoiseField> m_warp;
};

/// A NoiseField evaluated over whole rows of one fixed set of columns (a tile's width): the
/// generator's hot path. What depends only on x (lattice index, fraction, fade weight, hash
/// part) is computed once per column and octave in the constructor; what depends only on y
/// once per row; the inner loop combines the two across SIMD lanes (Highway, dispatched at
/// run time to the best instruction set of the CPU).
///
/// row(y) equals NoiseField::sample(xs[i], y) bit for bit, on every CPU. Rows may come in any
/// order; consecutive rows with increasing y reuse the most. Not thread-safe (it caches per
/// row): use one NoiseRows per thread / tile.
class NoiseRows {
public:
    /// Copies `xs` (world x of each column); `field` must outlive this object.
    NoiseRows(const NoiseField& field, const double* xs, std::size_t n);
    ~NoiseRows();
    NoiseRows(const NoiseRows&) = delete;
    NoiseRows& operator=(const NoiseRows&) = delete;

    std::size_t size() const noexcept;
    /// out[i] = field.sample(xs[i], y) for i < size().
    void row(double y, double* out);

private:
    void rowSimplexV2(double y, double* out);
    bool rowSimplexV3(double y, double* out);
    void rowSimplexTiling(double y, double* out);

    struct State;  // the per-column and per-row caches; src/noise/rows.cpp
    std::unique_ptr<State> m_state;
};

}  // namespace terragrid

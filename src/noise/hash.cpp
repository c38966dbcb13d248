// Lattice hashing: Perlin's reference permutation, a seeded permutation and an integer hash.
//
// Every kind is integer-only, so the same seed hashes to the same bits on every platform and
// compiler. Shader-style sin() hashes are not: sin differs between libms, and far from the
// origin a float argument has no fractional bits left to hash.

#include "terragrid/noise/noise.hpp"

#include "terragrid/noise/detail/lattice_hash_parts.hpp"

#include <utility>

namespace terragrid {

// clang-format off
const std::array<std::uint8_t, 256> kPerlinPermutation{
    151, 160, 137,  91,  90,  15, 131,  13, 201,  95,  96,  53, 194, 233,   7, 225,
    140,  36, 103,  30,  69, 142,   8,  99,  37, 240,  21,  10,  23, 190,   6, 148,
    247, 120, 234,  75,   0,  26, 197,  62,  94, 252, 219, 203, 117,  35,  11,  32,
     57, 177,  33,  88, 237, 149,  56,  87, 174,  20, 125, 136, 171, 168,  68, 175,
     74, 165,  71, 134, 139,  48,  27, 166,  77, 146, 158, 231,  83, 111, 229, 122,
     60, 211, 133, 230, 220, 105,  92,  41,  55,  46, 245,  40, 244, 102, 143,  54,
     65,  25,  63, 161,   1, 216,  80,  73, 209,  76, 132, 187, 208,  89,  18, 169,
    200, 196, 135, 130, 116, 188, 159,  86, 164, 100, 109, 198, 173, 186,   3,  64,
     52, 217, 226, 250, 124, 123,   5, 202,  38, 147, 118, 126, 255,  82,  85, 212,
    207, 206,  59, 227,  47,  16,  58,  17, 182, 189,  28,  42, 223, 183, 170, 213,
    119, 248, 152,   2,  44, 154, 163,  70, 221, 153, 101, 155, 167,  43, 172,   9,
    129,  22,  39, 253,  19,  98, 108, 110,  79, 113, 224, 232, 178, 185, 112, 104,
    218, 246,  97, 228, 251,  34, 242, 193, 238, 210, 144,  12, 191, 179, 162, 241,
     81,  51, 145, 235, 249,  14, 239, 107,  49, 192, 214,  31, 181, 199, 106, 157,
    184,  84, 204, 176, 115, 121,  50,  45, 127,   4, 150, 254, 138, 236, 205,  93,
    222, 114,  67,  29,  24,  72, 243, 141, 128, 195,  78,  66, 215,  61, 156, 180};
// clang-format on

namespace {

// splitmix64's increment (2^64 / golden ratio): consecutive states never collide.
constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

// The permutation kinds mask lattice indices to one period of the table.
constexpr std::int64_t kPeriodMask = 255;

// Index into the doubled table; `& 255` on a two's-complement int64 (C++20) maps negative
// indices onto 0..255 the same way Java's `(int)floor(x) & 255` does.
std::size_t wrap(std::int64_t i) noexcept { return static_cast<std::size_t>(i & kPeriodMask); }

std::array<std::uint8_t, 512> doubled(const std::array<std::uint8_t, 256>& p) noexcept {
    std::array<std::uint8_t, 512> out{};
    for (std::size_t i = 0; i < 256; ++i) {
        out[i] = p[i];
        out[i + 256] = p[i];
    }
    return out;
}

// Fisher-Yates with splitmix64: std::shuffle and std distributions are implementation-defined,
// so a seeded map would differ between standard libraries.
std::array<std::uint8_t, 256> shuffledPermutation(std::uint64_t seed) noexcept {
    std::array<std::uint8_t, 256> p{};
    for (std::size_t i = 0; i < 256; ++i) p[i] = static_cast<std::uint8_t>(i);
    std::uint64_t state = seed;
    for (std::size_t i = 255; i > 0; --i) {
        state += kGoldenGamma;
        // Multiply-shift of the top 32 bits maps onto 0..i; the bias (< 2^-24) is invisible.
        const std::uint64_t j = ((mix64(state) >> 32) * (i + 1)) >> 32;
        std::swap(p[i], p[j]);
    }
    return p;
}

}  // namespace

LatticeHash::LatticeHash(HashKind kind, std::uint64_t seed) : m_kind(kind), m_seed(0) {
    switch (kind) {
    case HashKind::Lattice:
        // Pre-mix the seed: with `seed + ix` directly, seed s + 1 would be seed s shifted by
        // one cell. After mixing, two seeds' keys differ by a random 64-bit amount.
        m_seed = mix64(seed + kGoldenGamma);
        break;
    case HashKind::Permutation:
        m_seed = seed;
        m_perm = doubled(shuffledPermutation(seed));
        break;
    case HashKind::Reference:
        m_perm = doubled(kPerlinPermutation);
        break;
    }
}

// Lattice kind: one mix64 per axis, chained. The first stage depends on ix alone, so a row
// evaluator can compute it once per column. Never periodic: the hash sees all 64 bits.
std::uint32_t LatticeHash::operator()(std::int64_t ix) const noexcept {
    if (m_kind == HashKind::Lattice) {
        return static_cast<std::uint32_t>(mix64(m_seed + static_cast<std::uint64_t>(ix)) >> 32);
    }
    return m_perm[wrap(ix)];
}

std::uint32_t LatticeHash::operator()(std::int64_t ix, std::int64_t iy) const noexcept {
    using Parts = detail::LatticeHashParts;
    return Parts::withY(*this, Parts::xPart(*this, ix), iy);
}

std::uint32_t LatticeHash::operator()(std::int64_t ix, std::int64_t iy,
                                      std::int64_t iz) const noexcept {
    if (m_kind == HashKind::Lattice) {
        const std::uint64_t hx = mix64(m_seed + static_cast<std::uint64_t>(ix));
        const std::uint64_t hxy = mix64(hx + static_cast<std::uint64_t>(iy));
        return static_cast<std::uint32_t>(mix64(hxy + static_cast<std::uint64_t>(iz)) >> 32);
    }
    return m_perm[m_perm[m_perm[wrap(ix)] + wrap(iy)] + wrap(iz)];
}

// The 3D hash with one more stage, so the 4D hash of (ix, iy, iz, iw) nests the 3D one the way
// the 3D one nests the 2D one.
std::uint32_t LatticeHash::operator()(std::int64_t ix, std::int64_t iy, std::int64_t iz,
                                      std::int64_t iw) const noexcept {
    if (m_kind == HashKind::Lattice) {
        const std::uint64_t hx = mix64(m_seed + static_cast<std::uint64_t>(ix));
        const std::uint64_t hxy = mix64(hx + static_cast<std::uint64_t>(iy));
        const std::uint64_t hxyz = mix64(hxy + static_cast<std::uint64_t>(iz));
        return static_cast<std::uint32_t>(mix64(hxyz + static_cast<std::uint64_t>(iw)) >> 32);
    }
    return m_perm[m_perm[m_perm[m_perm[wrap(ix)] + wrap(iy)] + wrap(iz)] + wrap(iw)];
}

std::uint32_t LatticeHash::hash32(std::int64_t ix, std::int64_t iy) const noexcept {
    using Parts = detail::LatticeHashParts;
    const std::uint32_t key = Parts::key32(*this, Parts::high(ix), Parts::high(iy));
    return Parts::fmix32(Parts::low(ix) * Parts::kHashX + Parts::low(iy) * Parts::kHashY + key);
}

}  // namespace terragrid

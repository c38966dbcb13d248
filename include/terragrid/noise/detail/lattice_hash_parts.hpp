#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Internals of the row evaluators (not API): a LatticeHash's 2D hash in two steps, so a row
// evaluator does the x step once per column, and what a SIMD hash reads of it.

#include <array>
#include <cstddef>
#include <cstdint>

#include "terragrid/noise/noise.hpp"

namespace terragrid::detail {

struct LatticeHashParts {
    /// h(ix, iy) == withY(h, xPart(h, ix), iy).
    static std::uint64_t xPart(const LatticeHash& h, std::int64_t ix) noexcept {
        if (h.m_kind == HashKind::Lattice) return mix64(h.m_seed + static_cast<std::uint64_t>(ix));
        return h.m_perm[static_cast<std::size_t>(ix & 255)];
    }
    static std::uint32_t withY(const LatticeHash& h, std::uint64_t xPart,
                               std::int64_t iy) noexcept {
        if (h.m_kind == HashKind::Lattice)
            return static_cast<std::uint32_t>(mix64(xPart + static_cast<std::uint64_t>(iy)) >> 32);
        // Perlin's nesting: p[p[ix] + iy]; the doubled table makes the sum a valid index.
        // `& 255` on two's-complement int64 maps negative indices like Java's `(int)floor & 255`.
        return h.m_perm[xPart + static_cast<std::size_t>(iy & 255)];
    }

    /// The hash of 3 or 4 axes in stages (what h(ix, iy, iz[, iw]) chains): after xPart,
    /// next() adds one axis; finish() turns the last stage into the hash. So
    /// h(ix, iy, iz) == finish(h, next(h, next(h, xPart(h, ix), iy), iz)), and corners of a
    /// lattice cell that share their first axes share those stages.
    static std::uint64_t next(const LatticeHash& h, std::uint64_t part, std::int64_t i) noexcept {
        if (h.m_kind == HashKind::Lattice) return mix64(part + static_cast<std::uint64_t>(i));
        return h.m_perm[part + static_cast<std::size_t>(i & 255)];
    }
    static std::uint32_t finish(const LatticeHash& h, std::uint64_t part) noexcept {
        if (h.m_kind == HashKind::Lattice) return static_cast<std::uint32_t>(part >> 32);
        return static_cast<std::uint32_t>(part);
    }

    /// LatticeHash::hash32 in parts: the key of the high halves, the multipliers of the low
    /// halves and the finaliser; hash32(ix, iy) ==
    /// fmix32(lo(ix) * kHashX + lo(iy) * kHashY + key32(h, hi(ix), hi(iy))).
    static constexpr std::uint32_t kHashX = 0x9E3779B1u;  // odd: the golden ratio
    static constexpr std::uint32_t kHashY = 0x85EBCA77u;  // odd (xxHash's PRIME32_2)
    static std::uint32_t key32(const LatticeHash& h, std::uint32_t hiX, std::uint32_t hiY) noexcept {
        const std::uint64_t high = (static_cast<std::uint64_t>(hiX) << 32) | hiY;
        return static_cast<std::uint32_t>(mix64(h.m_seed ^ high) >> 32);
    }
    /// murmur3's 32-bit finaliser: every output bit depends on every input bit.
    static constexpr std::uint32_t fmix32(std::uint32_t x) noexcept {
        x ^= x >> 16;
        x *= 0x85EBCA6Bu;
        x ^= x >> 13;
        x *= 0xC2B2AE35u;
        return x ^ (x >> 16);
    }
    static std::uint32_t low(std::int64_t i) noexcept { return static_cast<std::uint32_t>(i); }
    /// The high half of i + 2^31: it changes at +-2^31, not at 0, so the lattice points of
    /// any map near the origin share it.
    static std::uint32_t high(std::int64_t i) noexcept {
        return static_cast<std::uint32_t>((static_cast<std::uint64_t>(i) + (1ULL << 31)) >> 32);
    }

    /// What a SIMD hash needs: the mixed seed (`Lattice`) and the doubled permutation (the
    /// permutation kinds).
    static std::uint64_t key(const LatticeHash& h) noexcept { return h.m_seed; }
    static const std::array<std::uint8_t, 512>& permutation(const LatticeHash& h) noexcept {
        return h.m_perm;
    }
};

}  // namespace terragrid::detail

#pragma once
// What the noise tests share: the kinds they iterate, reproducible test points and names for
// failure messages.

#include "terragrid/noise/noise.hpp"

#include <array>
#include <cstdint>
#include <random>
#include <string>

namespace terragrid::test {

inline constexpr std::array kHashKinds{HashKind::Lattice, HashKind::Permutation,
                                       HashKind::Reference};
inline constexpr std::array kFades{FadeCurve::Linear, FadeCurve::Cubic, FadeCurve::Quintic};

/// Test points only. mt19937_64's output sequence is fixed by the standard; the std
/// distributions are not, so the bits are mapped to [lo, hi) here.
class Points {
public:
    explicit Points(std::uint64_t seed) : m_rng(seed) {}
    double next(double lo, double hi) {
        const double unit = static_cast<double>(m_rng() >> 11) * 0x1p-53;
        return lo + (hi - lo) * unit;
    }
    std::int64_t nextIndex(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(m_rng() % static_cast<std::uint64_t>(hi - lo));
    }

private:
    std::mt19937_64 m_rng;
};

inline std::string name(HashKind k) { return std::string(kHashKindNames[static_cast<int>(k)]); }
inline std::string name(FadeCurve f) {
    return std::string(kFadeCurveNames[static_cast<int>(f)]);
}

}  // namespace terragrid::test

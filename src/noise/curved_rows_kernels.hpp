#pragma once
// The SIMD inner loop of CurvedRows (curved_rows.cpp): 3D and 4D noise on rows of a sphere or
// a torus, compiled for every x86-64 instruction set Highway targets and dispatched at run
// time (private to src/noise).

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "terragrid/noise/noise.hpp"

namespace terragrid::curved {

/// What a lattice cell (or a skewed simplex cell) contributes, from the hashes of its 8 (3D)
/// or 16 (4D) corners; corner c is the cell's origin plus bit d of c along axis d.
struct CellData {
    /// Gradient kinds: byte c & 7 of word c >> 3 says how corner c's gradient meets the offset
    /// (the bits of gradient3Code / gradient4Code in curved_rows.cpp).
    std::array<std::uint64_t, 2> code{};
    /// Value noise: the corners' values on [-1, 1] (kept beside the entries, so the gradient
    /// noises' entries stay one cache line each).
    const double* value = nullptr;
};

/// The cells of one octave met so far: a direct-mapped cache from cell to CellData, so a cell
/// is hashed about once per tile, however many columns and rows fall into it.
class CellCache {
public:
    CellCache(const LatticeHash& hash, NoiseKind noise, int dimensions);
    /// The data of the cell whose origin is (floors[0], ..)[dimensions]: integral doubles, as
    /// std::floor gives them. Valid until the next call. (Inline: the kernel's lanes meet a
    /// new cell every few columns at the fine octaves.)
    const CellData& at(const double* floors) {
        std::array<std::int64_t, 4> key{};
        std::uint64_t mixed = 0;
        for (int d = 0; d < m_dimensions; ++d) {
            key[d] = static_cast<std::int64_t>(floors[d]);
            mixed = (mixed ^ static_cast<std::uint64_t>(key[d])) * 0x9E3779B97F4A7C15ULL;
        }
        const std::size_t slot = mixed >> (64 - kBits);
        Entry& e = m_entries[slot];
        if (!e.valid || e.key[0] != key[0] || e.key[1] != key[1] || e.key[2] != key[2] ||
            e.key[3] != key[3])
            refill(e, slot, key);
        return e.data;
    }

private:
    /// Slots: a 256-column tile meets about 100 cells per row at its finest default octave;
    /// the rows below meet mostly the same ones.
    static constexpr int kBits = 9;

    /// One cache line: the refill writes it whole.
    struct alignas(64) Entry {
        std::array<std::int64_t, 4> key{};
        CellData data;
        bool valid = false;
    };
    void refill(Entry& e, std::size_t slot, const std::array<std::int64_t, 4>& key);
    template <int kDims>
    void refillCorners(Entry& e, std::size_t slot, const std::array<std::int64_t, 4>& key);

    LatticeHash m_hash;
    NoiseKind m_noise;
    int m_dimensions;
    std::vector<Entry> m_entries;
    std::vector<double> m_values;  ///< value noise: 8 per slot
};

/// One octave as a row sees it; `current` is the cell the last lane looked up (kept from
/// vector to vector and row to row: neighbouring lanes mostly share it).
struct Octave {
    double frequency = 0.0;
    double amplitude = 0.0;
    std::array<double, 4> shift{};
    CellCache* cells = nullptr;
    const CellData* current = nullptr;
    std::array<double, 4> currentFloors{};
    /// The current cell's gradients as vectors with entries 0, 1 and -1 (corner c, axis d at
    /// 4 c + d), for vectors whose lanes all lie in it; decoded when first needed (gradientOf:
    /// the cell decoded, reset whenever `current` is looked up again).
    std::array<double, 64> gradient{};
    const CellData* gradientOf = nullptr;
};

/// A whole row. Lattice coordinate d of a column is (p_d f + offset_d) + shift_d, p the point
/// (curved_rows.hpp), offset = (offsetX, offsetY, 0, 0), as NoiseField::sample computes it.
struct Row {
    NoiseKind noise;
    FractalKind fractal;
    FadeCurve fade;
    bool torus;            ///< else a sphere
    const double* a;       ///< per column, padded to a multiple of kPadding
    const double* b;
    double rowA, rowB;
    double offsetX, offsetY;
    int octaves;
    Octave* octave;
    double amplitudeSum;
    std::size_t columns;  ///< a multiple of kPadding
    double* out;
};
void evaluateRow(const Row& row);

/// More than the lanes of any target (8 doubles in AVX-512).
inline constexpr std::size_t kPadding = 16;

}  // namespace terragrid::curved

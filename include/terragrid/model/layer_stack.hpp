#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// A layer section (height or moisture) evaluated over a map's surface: its noise layers
// sampled at each cell's point, combined, normalised and shaped (layers.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "terragrid/noise/layers.hpp"
#include "terragrid/noise/curved_rows.hpp"
#include "terragrid/noise/noise.hpp"
#include "terragrid/model/surface.hpp"

namespace terragrid {

/// sample(col, row) is a pure function of the cell, in [0, 1]:
///   acc = base value b; then for each stacked layer in order, with its value v,
///   term = weight v (times b when masked by the base), acc = combine(acc, term);
///   h = (acc - lo) / (hi - lo), [lo, hi] = combinedRange (a lone base layer is left as is);
///   falloff: h (1 - strength d^exponent), d the distance from the map's centre (radial:
///   sqrt(x^2 + y^2) capped at 1; square: max(|x|, |y|); x, y from -1 to 1 across the map);
///   then h^redistribution.
/// Stacked layer i (from 0) draws its noise from its own seed, mix64(seed + (i + 1) gamma),
/// so a layer with the base's settings still adds new detail. Immutable and thread-safe.
class LayerStack {
public:
    LayerStack(const LayerStackParams& params, const Surface& surface, std::uint64_t mapSeed);

    const Surface& surface() const noexcept { return m_surface; }
    /// The reference: LayerStackRows must equal it bit for bit.
    double sample(std::int64_t col, std::int64_t row) const noexcept;

private:
    friend class LayerStackRows;

    /// The value of a cell from its layers' values (base first) and its place on the map.
    double finish(const double* values, double acrossX, double acrossY) const noexcept;

    LayerStackParams m_params;
    Surface m_surface;
    std::vector<NoiseField> m_fields;  ///< the base, then each stacked layer
    ValueRange m_range;
};

/// A LayerStack over whole rows of a fixed set of map columns (a tile's, or the coverage
/// sample's): the generator's path. Each layer goes through NoiseRows on a plane and through
/// CurvedRows on a torus or sphere (SIMD where the layer has it). row(r)[i] equals
/// stack.sample(cols[i], r) bit for bit. Not thread-safe: one per thread / tile.
class LayerStackRows {
public:
    /// `stack` must outlive this object.
    LayerStackRows(const LayerStack& stack, const std::int64_t* cols, std::size_t n);
    ~LayerStackRows();
    LayerStackRows(const LayerStackRows&) = delete;
    LayerStackRows& operator=(const LayerStackRows&) = delete;

    std::size_t size() const noexcept { return m_across.size(); }
    /// out[i] = stack.sample(cols[i], row) for i < size().
    void row(std::int64_t row, double* out);

private:
    const LayerStack& m_stack;
    std::vector<double> m_across;  ///< acrossX of each column
    /// A layer's rows: NoiseRows on the plane (and on a torus for a layer that tiles by its
    /// lattice, onPlane: the rows' y is the row's plane coordinate), else CurvedRows.
    struct Layer {
        std::unique_ptr<NoiseRows> flat;
        std::unique_ptr<CurvedRows> curved;
        bool onPlane = false;
    };
    std::vector<Layer> m_layers;
    std::vector<double> m_values;  ///< layer-major: m_values[layer * size() + i]
};

}  // namespace terragrid

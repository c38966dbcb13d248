#include "terragrid/model/layer_stack.hpp"

#include <algorithm>
#include <cmath>

namespace terragrid {

namespace {

constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

/// The map seed stacked layer `index` draws its noise from.
std::uint64_t stackedSeed(std::uint64_t mapSeed, std::size_t index) noexcept {
    return mix64(mapSeed + (static_cast<std::uint64_t>(index) + 1) * kGoldenGamma);
}

double combine(Combine how, double acc, double term) noexcept {
    switch (how) {
    case Combine::Add:
        return acc + term;
    case Combine::Multiply:
        return acc * term;
    case Combine::Min:
        return std::min(acc, term);
    case Combine::Max:
        return std::max(acc, term);
    }
    return acc;
}

/// `how` applied to two intervals: the smallest interval holding every result.
ValueRange combine(Combine how, ValueRange acc, ValueRange term) noexcept {
    if (how != Combine::Multiply)
        return {combine(how, acc.lo, term.lo), combine(how, acc.hi, term.hi)};
    const double products[4] = {acc.lo * term.lo, acc.lo * term.hi, acc.hi * term.lo,
                                acc.hi * term.hi};
    return {*std::min_element(products, products + 4), *std::max_element(products, products + 4)};
}

/// Distance from the map's centre for the falloff, 0 at the centre and 1 at the edge.
double falloffDistance(Falloff shape, double x, double y) noexcept {
    if (shape == Falloff::Square) return std::max(std::fabs(x), std::fabs(y));
    return std::min(1.0, std::sqrt(x * x + y * y));
}

}  // namespace

ValueRange combinedRange(const LayerStackParams& stack) noexcept {
    ValueRange range{0.0, 1.0};  // the base layer's
    for (const StackedLayer& layer : stack.layers) {
        // weight * v * (mask in [0, 1]) with v in [0, 1]: between 0 and weight.
        const ValueRange term{std::min(0.0, layer.weight), std::max(0.0, layer.weight)};
        range = combine(layer.combine, range, term);
    }
    return range;
}

LayerStack::LayerStack(const LayerStackParams& params, const Surface& surface,
                       std::uint64_t mapSeed)
    : m_params(params), m_surface(surface), m_range(combinedRange(params)) {
    m_fields.reserve(params.layers.size() + 1);
    // On a torus every layer learns the map's period; those that tile by their own lattice
    // (version 5) use it (NoiseParams::period).
    const auto onSurface = [&](NoiseParams p) {
        p.period = surface.period();
        return p;
    };
    m_fields.emplace_back(onSurface(params.base), mapSeed);
    for (std::size_t i = 0; i < params.layers.size(); ++i)
        m_fields.emplace_back(onSurface(params.layers[i].noise), stackedSeed(mapSeed, i));
}

double LayerStack::sample(std::int64_t col, std::int64_t row) const noexcept {
    const NoisePoint p = m_surface.point(col, row);
    std::vector<double> values(m_fields.size());
    for (std::size_t i = 0; i < m_fields.size(); ++i) values[i] = m_fields[i].sample(p);
    return finish(values.data(), m_surface.acrossX(col), m_surface.acrossY(row));
}

double LayerStack::finish(const double* values, double acrossX,
                          double acrossY) const noexcept {
    double h = values[0];
    if (!m_params.layers.empty()) {
        double acc = values[0];
        for (std::size_t i = 0; i < m_params.layers.size(); ++i) {
            const StackedLayer& layer = m_params.layers[i];
            double term = layer.weight * values[i + 1];
            if (layer.mask == LayerMask::Base) term *= values[0];
            acc = combine(layer.combine, acc, term);
        }
        // Config refuses stacks whose range is a single value.
        h = std::clamp((acc - m_range.lo) / (m_range.hi - m_range.lo), 0.0, 1.0);
    }
    const FalloffParams& falloff = m_params.falloff;
    if (falloff.shape != Falloff::None) {
        const double d = falloffDistance(falloff.shape, acrossX, acrossY);
        h *= 1.0 - falloff.strength * std::pow(d, falloff.exponent);
    }
    if (m_params.redistribution != 1.0) h = std::pow(h, m_params.redistribution);
    return h;
}

LayerStackRows::LayerStackRows(const LayerStack& stack, const std::int64_t* cols,
                               std::size_t n)
    : m_stack(stack), m_across(n), m_values(stack.m_fields.size() * n) {
    const Surface& surface = stack.m_surface;
    std::vector<double> a(n), b(n), plane(n);
    for (std::size_t i = 0; i < n; ++i) {
        const SurfacePart column = surface.column(cols[i]);
        a[i] = column.a;
        b[i] = column.b;
        plane[i] = column.plane;
        m_across[i] = surface.acrossX(cols[i]);
    }
    // On the plane a column's part is its world x; on a sphere or torus it is the pair
    // CurvedRows takes (surface.hpp and curved_rows.hpp describe the same points), but a layer
    // that tiles by its lattice takes rows of the torus's plane coordinates.
    const SurfaceKind kind = surface.kind();
    for (const NoiseField& field : stack.m_fields) {
        Layer layer;
        if (kind == SurfaceKind::Plane) {
            layer.flat = std::make_unique<NoiseRows>(field, a.data(), n);
        } else if (field.tiles()) {
            layer.flat = std::make_unique<NoiseRows>(field, plane.data(), n);
            layer.onPlane = true;
        } else {
            const CurvedShape shape =
                kind == SurfaceKind::Sphere ? CurvedShape::Sphere : CurvedShape::Torus;
            layer.curved = std::make_unique<CurvedRows>(field, shape, a.data(), b.data(), n);
        }
        m_layers.push_back(std::move(layer));
    }
}

LayerStackRows::~LayerStackRows() = default;

void LayerStackRows::row(std::int64_t row, double* out) {
    const Surface& surface = m_stack.m_surface;
    const std::size_t n = size();
    const std::size_t layers = m_stack.m_fields.size();
    const SurfacePart rowPart = surface.row(row);
    for (std::size_t l = 0; l < layers; ++l) {
        Layer& layer = m_layers[l];
        if (layer.curved != nullptr) layer.curved->row(rowPart.a, rowPart.b, &m_values[l * n]);
        else layer.flat->row(layer.onPlane ? rowPart.plane : rowPart.a, &m_values[l * n]);
    }
    if (layers == 1 && m_stack.m_params.falloff.shape == Falloff::None &&
        m_stack.m_params.redistribution == 1.0) {
        std::copy_n(m_values.begin(), n, out);  // finish() would return the value as it is
        return;
    }
    const double acrossY = surface.acrossY(row);
    std::vector<double> cell(layers);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t l = 0; l < layers; ++l) cell[l] = m_values[l * n + i];
        out[i] = m_stack.finish(cell.data(), m_across[i], acrossY);
    }
}

}  // namespace terragrid

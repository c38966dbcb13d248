#pragma once
// What a layer section of the config (height, moisture) describes: a base noise layer, more
// layers combined with it, and the shaping of the result (island falloff, redistribution).
// LayerStack (layer_stack.hpp) evaluates it over a map.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "terragrid/noise/noise.hpp"

namespace terragrid {

/// How a stacked layer's term joins the value of the layers before it.
enum class Combine : std::uint8_t { Add, Multiply, Min, Max, Last = Max };
inline constexpr std::array<std::string_view, 4> kCombineNames{"add", "multiply", "min", "max"};
static_assert(kCombineNames.size() == std::size_t(Combine::Last) + 1);

/// What a stacked layer's term is multiplied by: nothing, or the base layer's value (so
/// mountains rise only where the continents are high).
enum class LayerMask : std::uint8_t { None, Base, Last = Base };
inline constexpr std::array<std::string_view, 2> kLayerMaskNames{"none", "base"};
static_assert(kLayerMaskNames.size() == std::size_t(LayerMask::Last) + 1);

/// Island shaping: the height lowered toward the map's edge, by distance from the centre
/// measured as a circle (radial) or a square.
enum class Falloff : std::uint8_t { None, Radial, Square, Last = Square };
inline constexpr std::array<std::string_view, 3> kFalloffNames{"none", "radial", "square"};
static_assert(kFalloffNames.size() == std::size_t(Falloff::Last) + 1);

/// One entry of a section's `layers` list: term = weight * value (* base value when masked).
struct StackedLayer {
    NoiseParams noise;
    Combine combine = Combine::Add;
    double weight = 1.0;  ///< may be negative (carves instead of raising)
    LayerMask mask = LayerMask::None;
};

struct FalloffParams {
    Falloff shape = Falloff::None;
    double strength = 1.0;  ///< 0..1: how far the edge is lowered (1: to 0)
    double exponent = 2.0;  ///< > 0: larger keeps more of the centre untouched
};

/// A layer section: base, then each of `layers` in order, normalised onto [0, 1] by the range
/// the combination can take (combinedRange), then the falloff, then v^redistribution.
struct LayerStackParams {
    NoiseParams base;
    std::vector<StackedLayer> layers;
    FalloffParams falloff;
    double redistribution = 1.0;  ///< > 0; above 1 flattens valleys and sharpens peaks
};

/// The smallest and largest value a stack's combination (before normalisation) can take, from
/// the parameters alone: every layer's value lies in [0, 1], and the combination is evaluated
/// in interval arithmetic. hi > lo unless the weights make the result constant.
struct ValueRange {
    double lo = 0.0;
    double hi = 1.0;
};
ValueRange combinedRange(const LayerStackParams& stack) noexcept;

}  // namespace terragrid

#include "io/png/preview_painter.hpp"

#include <cmath>
#include <string>
#include <string_view>

namespace terragrid {
namespace {

/// The index of the class named `name`, or kNoClass.
std::uint8_t classIndexNamed(const Terrain& terrain, std::string_view name) {
    const auto& classes = terrain.classes();
    for (std::size_t i = 0; i < classes.size() && i < kNoClass; ++i)
        if (classes[i].name == name) return static_cast<std::uint8_t>(i);
    return kNoClass;
}

}  // namespace

PreviewPainter::PreviewPainter(const Config& config, const Terrain* terrain,
                               const HeightRamp& ramp)
    : m_ramp(ramp),
      m_water(config.hydrology.enabled),
      m_riverColour(config.hydrology.riverColour),
      // Level ground: no gradient, whatever the pixel size.
      m_flatShade(hillshade({0.0}, 1, 1, 1.0)[0]) {
    if (terrain != nullptr) {
        m_palette.emplace();  // indices that name no class show black
        const auto& classes = terrain->classes();
        for (std::size_t i = 0; i < classes.size() && i < m_palette->size(); ++i) {
            (*m_palette)[i] = classes[i].colour;
            m_legend.push_back({classes[i].colour, classes[i].name});
        }
        if (m_water) {
            m_lakeClass = classIndexNamed(*terrain, kLakeClassName);
            m_riverClass = classIndexNamed(*terrain, kRiverClassName);
        }
        return;
    }
    const std::vector<RampStop> stops = heightRampStops(m_ramp);
    for (auto stop = stops.rbegin(); stop != stops.rend(); ++stop) {  // high at the top
        m_legend.push_back({stop->colour, std::to_string(std::lround(stop->meters)) + " m" +
                                              (stop->water ? " water" : "")});
    }
    if (!m_water) return;
    // With a sea the ramp's water entries show the lakes' colours already.
    if (!m_ramp.hasWater) {
        m_legend.push_back({kWaterStops[0], "lake (shallow)"});
        m_legend.push_back({kWaterStops[1], "lake (deep)"});
    }
    m_legend.push_back({m_riverColour, "river"});
}

ColourF PreviewPainter::colourOf(const PreviewPixel& pixel) const noexcept {
    if (!m_palette) return heightColour(m_ramp, pixel.surfaceMeters);
    const Rgb& c = (*m_palette)[pixel.classIndex];
    return {double(c.r), double(c.g), double(c.b)};
}

Rgb PreviewPainter::paint(const PreviewPixel& pixel) const noexcept {
    const ColourF colour = colourOf(pixel);
    if (!m_water) return shadeColour(colour, pixel.shade);
    // A pixel whose centre cell is lake (or sea) shows water: preview.png the lake class's
    // colour, height.png the water ramp by the cell's depth below the pixel's water surface
    // down to the elevation range's minimum; else a pixel a river is drawn over shows the
    // river colour. Both are shaded as level ground.
    const bool lake = m_palette ? pixel.classIndex == m_lakeClass : pixel.lakeDepthMeters > 0;
    if (lake) {
        if (m_palette) return shadeColour(colour, m_flatShade);
        const HeightRamp water{.minMeters = m_ramp.minMeters, .maxMeters = m_ramp.maxMeters,
                               .hasWater = true, .waterMeters = pixel.surfaceMeters};
        return shadeColour(
            heightColour(water, pixel.surfaceMeters - double(pixel.lakeDepthMeters)),
            m_flatShade);
    }
    if (pixel.river == 0) return shadeColour(colour, pixel.shade);
    const Rgb& c = m_palette && m_riverClass != kNoClass ? (*m_palette)[m_riverClass]
                                                          : m_riverColour;
    return shadeColour({double(c.r), double(c.g), double(c.b)}, m_flatShade);
}

}  // namespace terragrid

#include "io/png/preview_painter.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "io/png/preview_kernels.hpp"

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

ColourF PreviewPainter::paletteColour(std::uint8_t classIndex) const noexcept {
    const Rgb& c = (*m_palette)[classIndex];
    return {double(c.r), double(c.g), double(c.b)};
}

ColourF PreviewPainter::colourOf(const PreviewRow& row, std::size_t i) const noexcept {
    if (!m_palette) return heightColour(m_ramp, row.surfaceMeters[i]);
    return paletteColour(row.classIndex[i]);
}

PreviewPainter::Unshaded PreviewPainter::unshaded(const PreviewRow& row,
                                                  std::size_t i) const noexcept {
    if (!m_water) return {colourOf(row, i), row.shade[i]};
    // A pixel whose centre cell is lake (or sea) shows water: preview.png the lake class's
    // colour, height.png the water ramp by the cell's depth below the pixel's water surface
    // down to the elevation range's minimum; else a pixel a river is drawn over shows the
    // river colour. Both are shaded as level ground.
    const bool lake = m_palette ? row.classIndex[i] == m_lakeClass
                                : row.lakeDepthMeters != nullptr && row.lakeDepthMeters[i] > 0;
    if (lake) {
        if (m_palette) return {paletteColour(m_lakeClass), m_flatShade};
        const double surface = row.surfaceMeters[i];
        const HeightRamp water{.minMeters = m_ramp.minMeters, .maxMeters = m_ramp.maxMeters,
                               .hasWater = true, .waterMeters = surface};
        return {heightColour(water, surface - double(row.lakeDepthMeters[i])), m_flatShade};
    }
    if (row.river == nullptr || row.river[i] == 0) return {colourOf(row, i), row.shade[i]};
    if (m_palette && m_riverClass != kNoClass) return {paletteColour(m_riverClass), m_flatShade};
    return {{double(m_riverColour.r), double(m_riverColour.g), double(m_riverColour.b)},
            m_flatShade};
}

void PreviewPainter::paintRow(const PreviewRow& row, std::uint8_t* out,
                              std::size_t channels) const noexcept {
    // The colours and shades of a piece of the row, then shaded by the SIMD kernel
    // (preview_kernels.hpp): a tile's row is one piece, and the piece stays in L1.
    constexpr std::size_t kPiece = 256;
    double r[kPiece], g[kPiece], b[kPiece], shade[kPiece];
    for (std::size_t start = 0; start < row.count; start += kPiece) {
        const std::size_t n = std::min(kPiece, row.count - start);
        for (std::size_t i = 0; i < n; ++i) {
            const Unshaded u = unshaded(row, start + i);
            r[i] = u.colour.r;
            g[i] = u.colour.g;
            b[i] = u.colour.b;
            shade[i] = u.shade;
        }
        preview_kernels::shadeRow({.r = r, .g = g, .b = b, .shade = shade, .count = n},
                                  out + channels * start, channels);
    }
}

}  // namespace terragrid

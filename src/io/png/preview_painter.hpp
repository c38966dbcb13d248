#pragma once
// How preview.png and height.png colour a pixel: the class colours (preview.png) or the
// height ramp (height.png), the hydrology stage's lakes and rivers, and the hill shade. The
// batch pictures (preview_sinks.cpp) and the explorer's tiles (src/serve) paint through this
// one class, so a tile at one pixel per cell is the batch picture's pixels (design.md
// principle 9).

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "io/png/legend.hpp"
#include "io/png/preview.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// What one picture pixel shows, as paint() takes it.
struct PreviewPixel {
    double surfaceMeters = 0;       ///< the height shown: the ground, or the water's surface
    std::uint8_t classIndex = 0;    ///< the class of the pixel's centre cell (preview.png)
    float lakeDepthMeters = 0;      ///< height.png with hydrology: the centre cell's lake or sea
                                    ///< depth, 0 when it is neither
    std::uint8_t river = 0;         ///< with hydrology: the order of the river drawn over the
                                    ///< pixel (preview_water.hpp), 0 for none
    double shade = 0;               ///< hill shade on [0, 1] (hillshade)
};

/// The colours of one picture kind for one config. Immutable and thread-safe.
class PreviewPainter {
public:
    /// `terrain` non-null: preview.png, the classes' colours (`ramp` unused); null: height.png,
    /// coloured by `ramp`. With hydrology.enabled, lakes and rivers as the batch pictures
    /// draw them.
    PreviewPainter(const Config& config, const Terrain* terrain, const HeightRamp& ramp);

    /// Whether pixels are coloured by class (preview.png) rather than by height.
    bool paintsClasses() const noexcept { return m_palette.has_value(); }
    /// Whether the pictures show the hydrology stage's water (then PreviewPixel::river, and for
    /// height.png lakeDepthMeters, must be given).
    bool showsWater() const noexcept { return m_water; }
    const HeightRamp& ramp() const noexcept { return m_ramp; }

    /// The pixel's colour: its class colour or ramp colour; with water, a lake pixel (the
    /// lake class's colour in preview.png, the depth below its surface on the water ramp in
    /// height.png) or a river pixel (the river colour), both shaded as flat ground; times the
    /// shade (shadeColour).
    Rgb paint(const PreviewPixel& pixel) const noexcept;

    /// The legend the batch picture draws: the classes (preview.png), or the ramp's stops high
    /// to low and, with hydrology, the lake and river colours (height.png).
    const std::vector<LegendEntry>& legend() const noexcept { return m_legend; }

private:
    ColourF colourOf(const PreviewPixel& pixel) const noexcept;

    HeightRamp m_ramp;
    std::optional<std::array<Rgb, 256>> m_palette;  ///< preview.png: colour of each class index
    bool m_water = false;                           ///< hydrology.enabled
    Rgb m_riverColour;
    std::uint8_t m_lakeClass = kNoClass;
    std::uint8_t m_riverClass = kNoClass;
    double m_flatShade = 0;  ///< the shade of level ground: water is level
    std::vector<LegendEntry> m_legend;
};

}  // namespace terragrid

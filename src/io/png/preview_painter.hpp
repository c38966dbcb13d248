#pragma once
// How preview.png and height.png colour a pixel: the class colours (preview.png) or the
// height ramp (height.png), the hydrology stage's lakes and rivers, and the hill shade. The
// batch pictures (preview_sinks.cpp) and the explorer's tiles (src/serve) paint through this
// one class, so a tile at one pixel per cell is the batch picture's pixels (design.md
// principle 9).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "io/png/legend.hpp"
#include "io/png/preview.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// A row of picture pixels as paintRow() takes them: `count` entries in each array.
struct PreviewRow {
    std::size_t count = 0;
    const double* surfaceMeters = nullptr;  ///< the height shown: the ground, or the water's
                                            ///< surface
    const double* shade = nullptr;          ///< hill shade on [0, 1] (hillshade)
    const std::uint8_t* classIndex = nullptr;  ///< preview.png: the class of each pixel's centre
                                               ///< cell
    const float* lakeDepthMeters = nullptr;  ///< height.png with hydrology: the centre cell's
                                             ///< lake or sea depth, 0 when it is neither (null:
                                             ///< no lakes, as before the stage is done)
    const std::uint8_t* river = nullptr;     ///< with hydrology: the order of the river drawn
                                             ///< over the pixel (preview_water.hpp), 0 for none
                                             ///< (null: no rivers)
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
    /// Whether the pictures show the hydrology stage's water (PreviewRow::river, and for
    /// height.png lakeDepthMeters).
    bool showsWater() const noexcept { return m_water; }
    const HeightRamp& ramp() const noexcept { return m_ramp; }

    /// Paints the row's pixels into `out`, `channels` bytes each (3: RGB; 4: RGBA, opaque).
    /// A pixel's colour: its class colour or ramp colour; with water, a lake pixel (the lake
    /// class's colour in preview.png, the depth below its surface on the water ramp in
    /// height.png) or a river pixel (the river colour), both shaded as flat ground; times the
    /// shade (shadeColour). classIndex must be given when paintsClasses().
    void paintRow(const PreviewRow& row, std::uint8_t* out, std::size_t channels) const noexcept;

    /// The legend the batch picture draws: the classes (preview.png), or the ramp's stops high
    /// to low and, with hydrology, the lake and river colours (height.png).
    const std::vector<LegendEntry>& legend() const noexcept { return m_legend; }

private:
    /// A pixel's colour before shading and the shade it takes.
    struct Unshaded {
        ColourF colour;
        double shade = 0;
    };
    Unshaded unshaded(const PreviewRow& row, std::size_t i) const noexcept;
    ColourF colourOf(const PreviewRow& row, std::size_t i) const noexcept;
    ColourF paletteColour(std::uint8_t classIndex) const noexcept;

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

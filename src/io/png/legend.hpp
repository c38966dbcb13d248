#pragma once
// A legend drawn into a picture (preview.png's classes, height.png's ramp): a pale box in the
// bottom-left corner with one row per entry, a colour swatch and its label in a built-in 5x7
// bitmap font (letters are drawn as capitals; characters it lacks as '?'). No font library:
// the pictures stay the same bytes everywhere.

#include <cstdint>
#include <string>
#include <vector>

#include "terragrid/model/terrain.hpp"

namespace terragrid {

struct LegendEntry {
    Rgb colour;
    std::string label;
};

/// Where a legend lies in a picture, in pixels; the swatch of entry i is the swatchWidth x
/// swatchHeight rectangle at (swatchX, swatchY + i * rowHeight).
struct LegendLayout {
    std::int64_t x = 0, y = 0, width = 0, height = 0;  ///< the box, border included
    std::int64_t swatchX = 0, swatchY = 0, swatchWidth = 0, swatchHeight = 0, rowHeight = 0;
    int scale = 1;  ///< font pixels per glyph pixel
};

/// The legend of `entries` in a pictureWidth x pictureHeight picture: glyphs at scale 1 below
/// 1024 pixels wide, 2 from there; the box clipped to the picture. Pure.
LegendLayout legendLayout(const std::vector<LegendEntry>& entries, std::int64_t pictureWidth,
                          std::int64_t pictureHeight);

/// Draws the legend into `rgb` (8-bit RGB, row-major, width x height pixels).
void drawLegend(std::vector<std::uint8_t>& rgb, std::int64_t width, std::int64_t height,
                const std::vector<LegendEntry>& entries);

}  // namespace terragrid

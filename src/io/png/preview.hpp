#pragma once
// The picture math of preview.png and height.png, free of files: downsampling the tiles as
// they stream past, hill shading, and the hypsometric colour ramp.
//
// A preview holds one value per picture pixel, never per map cell (design.md principle 4):
// a map of any size becomes a picture of at most maxSize x maxSize pixels.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "terragrid/pipeline/generator.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// How a map shrinks into a picture: every pixel covers scale x scale map cells (fewer at the
/// right and bottom edges).
struct PreviewGeometry {
    std::int64_t scale = 1;   ///< map cells per pixel along each axis
    std::int64_t width = 0;   ///< pixels across: ceil(mapWidth / scale)
    std::int64_t height = 0;  ///< pixels down: ceil(mapHeight / scale)

    friend bool operator==(const PreviewGeometry&, const PreviewGeometry&) = default;
};

/// scale = ceil(max(mapWidth, mapHeight) / maxSize), so the longer side has at most maxSize
/// pixels (scale 1 when the map fits). All arguments positive (std::invalid_argument
/// otherwise).
PreviewGeometry previewGeometry(std::int64_t mapWidth, std::int64_t mapHeight,
                                std::int64_t maxSize);

/// Throws std::invalid_argument naming `who` unless `rect` is a non-empty part of the map.
void requireTileInMap(const TileRect& rect, std::int64_t mapWidth, std::int64_t mapHeight,
                      const char* who);

/// Calls visit(pixel, cell) for every pixel of the picture whose centre cell (offset scale / 2
/// on both axes, clipped to the map) lies in `rect`: `pixel` its index in the picture (row
/// major), `cell` the centre cell's index in the tile's row-major buffers. Each pixel is
/// visited by exactly one tile, so pixels that take their centre cell do not depend on tiling.
template <class Visit>
void forEachCentredPixel(const PreviewGeometry& geometry, std::int64_t mapWidth,
                         std::int64_t mapHeight, const TileRect& rect, Visit&& visit) {
    const std::int64_t s = geometry.scale;
    const auto centre = [s](std::int64_t pixel, std::int64_t mapSize) {
        return std::min(pixel * s + s / 2, mapSize - 1);
    };
    for (std::int64_t py = rect.row0 / s; py <= (rect.row0 + rect.height - 1) / s; ++py) {
        const std::int64_t cy = centre(py, mapHeight);
        if (cy < rect.row0 || cy >= rect.row0 + rect.height) continue;
        for (std::int64_t px = rect.col0 / s; px <= (rect.col0 + rect.width - 1) / s; ++px) {
            const std::int64_t cx = centre(px, mapWidth);
            if (cx < rect.col0 || cx >= rect.col0 + rect.width) continue;
            visit(static_cast<std::size_t>(py * geometry.width + px),
                  static_cast<std::size_t>((cy - rect.row0) * rect.width + (cx - rect.col0)));
        }
    }
}

/// std::round (halves away from zero) without the libm call it costs on every cell of a map:
/// below 2^62, value - truncated is exact, so the result is the same bits.
inline double roundHalfAway(double value) noexcept {
    if (!(std::fabs(value) < 0x1p62)) return std::round(value);  // huge or NaN: libm's way
    const auto truncated = static_cast<std::int64_t>(value);
    const double rest = value - static_cast<double>(truncated);
    return static_cast<double>(truncated + (rest >= 0.5) - (rest <= -0.5));
}

/// How preview pictures round elevations before summing them into pixels: to a multiple of a
/// power of two small enough to be invisible and large enough that every partial sum of a
/// pixel of scale x scale cells of at most |boundMeters| is a whole number of steps below
/// 2^53, so the double additions are exact and the sums equal in any order. A picture at one
/// pixel per cell (scale 1) shows each cell's rounded elevation: the explorer's tiles round
/// their cells with the same quantum.
class HeightQuantum {
public:
    HeightQuantum(double boundMeters, std::int64_t scale);
    /// `meters` rounded to the step (halves away from zero).
    double operator()(float meters) const noexcept {
        return roundHalfAway(static_cast<double>(meters) * m_toSteps) * m_step;
    }
    /// out[i] = (*this)(meters[i]) for `count` heights, in SIMD lanes (preview_kernels.hpp).
    void round(const float* meters, std::size_t count, double* out) const;
    int exponent() const noexcept { return m_exponent; }
    double toSteps() const noexcept { return m_toSteps; }  ///< 2^-exponent
    double step() const noexcept { return m_step; }        ///< 2^exponent

private:
    int m_exponent;     // the step is 2^m_exponent
    double m_toSteps;   // 2^-m_exponent
    double m_step;      // 2^m_exponent
};

/// Accumulates tiles into a picture: per pixel the mean elevation of its cells and, when
/// asked for, the class of its centre cell (the cell at offset scale / 2 on both axes,
/// clipped to the map). Memory grows with the picture, not the map.
///
/// The result does not depend on how the map is cut into tiles, nor on their order: each
/// elevation is rounded to a multiple of a power of two small enough to be invisible and
/// large enough that every partial sum of a pixel is a whole number of such steps below 2^53,
/// so the double additions are exact and the sums equal in any order.
class PreviewDownsampler {
public:
    /// `heightBoundMeters`: the largest |elevation| the map can hold (the config's elevation
    /// range); cells beyond it are still summed, but may round. `keepClasses`: whether
    /// add() receives class indices and classes() is wanted.
    PreviewDownsampler(std::int64_t mapWidth, std::int64_t mapHeight, std::int64_t maxSize,
                       double heightBoundMeters, bool keepClasses);

    const PreviewGeometry& geometry() const noexcept { return m_geometry; }

    /// Adds the cells of `rect`: `elevation` (and `classIndex` when keepClasses) row-major,
    /// rect.width x rect.height values. Rects must lie inside the map and not overlap
    /// (std::invalid_argument for one outside the map). The same as
    /// addSums(sums(rect, elevation), classIndex).
    void add(const TileRect& rect, const float* elevation, const std::uint8_t* classIndex);

    /// The part of add() that needs nothing but the rect's cells: the sums and cell counts of
    /// the pixels it touches. Thread-safe (reads only the geometry), so it can run on the
    /// worker that generated the tile. Every sum is exact (elevations rounded to a power-of-two
    /// step, sums far below 2^53 steps), so adding them in any grouping gives the same bits.
    struct TileSums {
        TileRect rect;
        std::int64_t px0 = 0, py0 = 0, width = 0, height = 0;  ///< the pixels touched
        std::vector<double> sums;                              ///< row-major, width x height
        std::vector<std::int64_t> counts;
    };
    TileSums sums(const TileRect& rect, const float* elevation) const;
    /// Adds what sums() made, and the pixels' centre classes from `classIndex` (the rect's
    /// cells, when keepClasses).
    void addSums(const TileSums& sums, const std::uint8_t* classIndex);

    /// The mean elevation of every pixel, row-major. Throws std::logic_error when some cell
    /// has not arrived (or arrived twice).
    std::vector<double> meanHeights() const;

    /// The class of every pixel's centre cell, row-major (empty unless keepClasses).
    const std::vector<std::uint8_t>& classes() const noexcept { return m_classes; }

private:
    std::int64_t expectedCells(std::int64_t px, std::int64_t py) const noexcept;

    std::int64_t m_mapWidth;
    std::int64_t m_mapHeight;
    PreviewGeometry m_geometry;
    HeightQuantum m_quantum;
    std::vector<double> m_sums;
    std::vector<std::int64_t> m_counts;
    std::vector<std::uint8_t> m_classes;
};

/// Where the light comes from: azimuth clockwise from north, altitude above the horizon.
struct Sun {
    double azimuthDegrees = 315;  ///< north-west, the cartographic convention
    double altitudeDegrees = 45;
};

/// Hill shade on [0, 1] of a width x height grid of heights (row-major, row 0 north) with
/// square pixels of `pixelSizeMeters`: Horn's 3x3 gradient, edge pixels reusing the nearest
/// row or column, lit by `sun`. A flat surface gets sin(altitude); a slope facing the sun 1.
std::vector<double> hillshade(const std::vector<double>& heights, std::int64_t width,
                              std::int64_t height, double pixelSizeMeters, const Sun& sun = {});

/// A colour with channels on 0..255, unrounded, so shading can scale it before rounding.
struct ColourF {
    double r = 0, g = 0, b = 0;
};

/// The hypsometric ramp's colours, low to high, at evenly spaced elevations from the range's
/// minimum to its maximum.
inline constexpr std::array<Rgb, 6> kHypsometricStops{{
    {24, 92, 48},     // deep green
    {118, 170, 84},   // light green
    {214, 196, 128},  // yellow-tan
    {140, 98, 58},    // brown
    {150, 150, 150},  // grey
    {255, 255, 255},  // white
}};

/// The ramp's colour at `elevation` on [minMeters, maxMeters] (clamped to it), linear between
/// neighbouring stops. minMeters < maxMeters.
ColourF hypsometricColour(double elevation, double minMeters, double maxMeters) noexcept;

/// Water's colours, shallow (at the water level) to deep (at the elevation range's minimum).
inline constexpr std::array<Rgb, 2> kWaterStops{{
    {150, 200, 235},  // shallow: pale blue
    {12, 40, 100},    // deep: dark navy
}};

/// height.png's colours: land is the hypsometric ramp over the whole elevation range, as
/// without water; cells at or below the water level (when there is one) are water, coloured
/// by depth from kWaterStops' shallow at the level to deep at the range's minimum.
struct HeightRamp {
    double minMeters = 0;
    double maxMeters = 1;
    bool hasWater = false;
    double waterMeters = 0;  ///< with hasWater: cells at or below it are water
};

/// One colour of a ramp's legend or of a style file's ramp: the colour at `meters`.
struct RampStop {
    double meters = 0;
    Rgb colour;
    bool water = false;
};

/// The colour of `elevation` on `ramp` (clamped to its range), unrounded.
ColourF heightColour(const HeightRamp& ramp, double elevation) noexcept;

/// The ramp's stops, low to high: with water, deep at the minimum and shallow at the water
/// level, then the land colour just above the level and the hypsometric stops above it;
/// linear interpolation between neighbours gives heightColour (up to rounding to bytes).
std::vector<RampStop> heightRampStops(const HeightRamp& ramp);

/// How much of a colour a pixel with `shade` (on [0, 1]) shows: kShadeFloor + kShadeSpan *
/// shade, 0.45 to 1, so even slopes facing away from the sun keep their colour recognisable.
inline constexpr double kShadeFloor = 0.45;
inline constexpr double kShadeSpan = 0.55;
double shadeFactor(double shade) noexcept;

/// `colour` times shadeFactor(shade), each channel rounded to the nearest byte.
Rgb shadeColour(const ColourF& colour, double shade) noexcept;

}  // namespace terragrid

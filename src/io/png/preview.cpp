#include "io/png/preview.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "io/png/preview_kernels.hpp"
#include "model/ceil_div.hpp"

namespace terragrid {
namespace {

// The exponent e of the step 2^e every elevation is rounded to. A pixel's sum has at most
// cellsPerPixel terms of at most boundMeters (plus half a step each); choosing e so that
// boundMeters * cellsPerPixel < 2^(e + 52) keeps every partial sum a multiple of 2^e below
// 2^(e + 53), which a double holds exactly. For a 1000 m range and 16 x 16 cells per pixel
// the step is 2^-34 m: far below anything a picture can show.
int quantumExponent(double boundMeters, std::int64_t scale) {
    const double cellsPerPixel = static_cast<double>(scale) * static_cast<double>(scale);
    const double largestSum = std::max(boundMeters, 1.0) * cellsPerPixel;
    int exponent = 0;
    std::frexp(largestSum, &exponent);  // largestSum < 2^exponent
    return exponent - 52;
}

using preview_kernels::clampOrLow;

}  // namespace

PreviewGeometry previewGeometry(std::int64_t mapWidth, std::int64_t mapHeight,
                                std::int64_t maxSize) {
    if (mapWidth <= 0 || mapHeight <= 0 || maxSize <= 0) {
        throw std::invalid_argument("previewGeometry: map " + std::to_string(mapWidth) + "x" +
                                    std::to_string(mapHeight) + " and maximum size " +
                                    std::to_string(maxSize) + " must be positive");
    }
    PreviewGeometry g;
    g.scale = ceilDiv(std::max(mapWidth, mapHeight), maxSize);
    g.width = ceilDiv(mapWidth, g.scale);
    g.height = ceilDiv(mapHeight, g.scale);
    return g;
}

HeightQuantum::HeightQuantum(double boundMeters, std::int64_t scale)
    : m_exponent(quantumExponent(std::abs(boundMeters), scale)),
      // Multiplying by a power of two is exact, so these two scale to and from whole steps.
      m_toSteps(std::ldexp(1.0, -m_exponent)),
      m_step(std::ldexp(1.0, m_exponent)) {}

void HeightQuantum::round(const float* meters, std::size_t count, double* out) const {
    preview_kernels::quantiseRow(*this, meters, count, out);
}

PreviewDownsampler::PreviewDownsampler(std::int64_t mapWidth, std::int64_t mapHeight,
                                       std::int64_t maxSize, double heightBoundMeters,
                                       bool keepClasses)
    : m_mapWidth(mapWidth),
      m_mapHeight(mapHeight),
      m_geometry(previewGeometry(mapWidth, mapHeight, maxSize)),
      m_quantum(heightBoundMeters, m_geometry.scale) {
    const auto pixels = static_cast<std::size_t>(m_geometry.width * m_geometry.height);
    m_sums.assign(pixels, 0.0);
    m_counts.assign(pixels, 0);
    if (keepClasses) m_classes.assign(pixels, 0);
}

void PreviewDownsampler::add(const TileRect& rect, const float* elevation,
                             const std::uint8_t* classIndex) {
    addSums(sums(rect, elevation), classIndex);
}

void requireTileInMap(const TileRect& rect, std::int64_t mapWidth, std::int64_t mapHeight,
                      const char* who) {
    if (rect.width <= 0 || rect.height <= 0 || rect.col0 < 0 || rect.row0 < 0 ||
        rect.col0 > mapWidth - rect.width || rect.row0 > mapHeight - rect.height) {
        throw std::invalid_argument(std::string(who) + ": tile " + std::to_string(rect.index) +
                                    " lies outside the map");
    }
}

PreviewDownsampler::TileSums PreviewDownsampler::sums(const TileRect& rect,
                                                      const float* elevation) const {
    requireTileInMap(rect, m_mapWidth, m_mapHeight, "PreviewDownsampler::add");
    const std::int64_t s = m_geometry.scale;
    TileSums out;
    out.rect = rect;
    out.px0 = rect.col0 / s;
    out.py0 = rect.row0 / s;
    out.width = (rect.col0 + rect.width - 1) / s - out.px0 + 1;
    out.height = (rect.row0 + rect.height - 1) / s - out.py0 + 1;
    out.sums.assign(static_cast<std::size_t>(out.width * out.height), 0.0);
    out.counts.assign(out.sums.size(), 0);
    for (std::int64_t r = 0; r < rect.height; ++r) {
        const std::int64_t py = (rect.row0 + r) / s - out.py0;
        const float* row = elevation + r * rect.width;
        // One run of cells per pixel the row crosses, so there is no division per cell.
        std::int64_t c = 0;
        while (c < rect.width) {
            const std::int64_t px = (rect.col0 + c) / s;
            const std::int64_t end = std::min(rect.width, (px + 1) * s - rect.col0);
            double sum = 0;
            for (std::int64_t i = c; i < end; ++i) {
                sum += m_quantum(row[i]);
            }
            const auto at = static_cast<std::size_t>(py * out.width + (px - out.px0));
            out.sums[at] += sum;
            out.counts[at] += end - c;
            c = end;
        }
    }
    return out;
}

void PreviewDownsampler::addSums(const TileSums& tileSums, const std::uint8_t* classIndex) {
    const TileRect& rect = tileSums.rect;
    const std::int64_t pw = m_geometry.width;
    for (std::int64_t y = 0; y < tileSums.height; ++y)
        for (std::int64_t x = 0; x < tileSums.width; ++x) {
            const auto from = static_cast<std::size_t>(y * tileSums.width + x);
            const auto at = static_cast<std::size_t>((tileSums.py0 + y) * pw + tileSums.px0 + x);
            m_sums[at] += tileSums.sums[from];
            m_counts[at] += tileSums.counts[from];
        }
    if (m_classes.empty()) return;
    if (classIndex == nullptr) {
        throw std::invalid_argument("PreviewDownsampler::add: tile " +
                                    std::to_string(rect.index) + " has no classes");
    }
    // Every pixel whose centre cell lies in this tile takes that cell's class.
    forEachCentredPixel(m_geometry, m_mapWidth, m_mapHeight, rect,
                        [&](std::size_t pixel, std::size_t cell) {
                            m_classes[pixel] = classIndex[cell];
                        });
}

std::int64_t PreviewDownsampler::expectedCells(std::int64_t px, std::int64_t py) const noexcept {
    const std::int64_t s = m_geometry.scale;
    return (std::min(m_mapWidth, (px + 1) * s) - px * s) *
           (std::min(m_mapHeight, (py + 1) * s) - py * s);
}

std::vector<double> PreviewDownsampler::meanHeights() const {
    std::vector<double> means(m_sums.size());
    for (std::int64_t py = 0; py < m_geometry.height; ++py) {
        for (std::int64_t px = 0; px < m_geometry.width; ++px) {
            const auto at = static_cast<std::size_t>(py * m_geometry.width + px);
            if (m_counts[at] != expectedCells(px, py)) {
                throw std::logic_error("PreviewDownsampler: pixel (" + std::to_string(px) +
                                       ", " + std::to_string(py) + ") received " +
                                       std::to_string(m_counts[at]) + " of its " +
                                       std::to_string(expectedCells(px, py)) + " cells");
            }
            means[at] = m_sums[at] / static_cast<double>(m_counts[at]);
        }
    }
    return means;
}

std::vector<double> hillshade(const std::vector<double>& heights, std::int64_t width,
                              std::int64_t height, double pixelSizeMeters, const Sun& sun) {
    if (width <= 0 || height <= 0 || heights.size() != static_cast<std::size_t>(width * height)) {
        throw std::invalid_argument("hillshade: " + std::to_string(heights.size()) +
                                    " heights for a " + std::to_string(width) + "x" +
                                    std::to_string(height) + " grid");
    }
    constexpr double kRadians = std::numbers::pi / 180.0;
    const double azimuth = sun.azimuthDegrees * kRadians;
    const double altitude = sun.altitudeDegrees * kRadians;
    const preview_kernels::Light light{.east = std::cos(altitude) * std::sin(azimuth),
                                       .south = -std::cos(altitude) * std::cos(azimuth),
                                       .up = std::sin(altitude),
                                       .run = 8.0 * pixelSizeMeters};
    std::vector<double> shade(heights.size());
    // Rows in parallel (the caller's TBB arena): each pixel is its own, so the picture does
    // not depend on the threads. Edge pixels reuse the nearest row or column.
    tbb::parallel_for(std::int64_t{0}, height, [&](std::int64_t y) {
        const double* row = heights.data() + y * width;
        const double* above = y > 0 ? row - width : row;
        const double* below = y + 1 < height ? row + width : row;
        preview_kernels::hillshadeRow(above, row, below, static_cast<std::size_t>(width), light,
                                      shade.data() + y * width);
    });
    return shade;
}

ColourF hypsometricColour(double elevation, double minMeters, double maxMeters) noexcept {
    const double t = clampOrLow((elevation - minMeters) / (maxMeters - minMeters), 0.0, 1.0);
    constexpr auto kSegments = static_cast<double>(kHypsometricStops.size() - 1);
    const double position = t * kSegments;
    const auto k = std::min(static_cast<std::size_t>(position), kHypsometricStops.size() - 2);
    const double f = position - static_cast<double>(k);
    const Rgb& lo = kHypsometricStops[k];
    const Rgb& hi = kHypsometricStops[k + 1];
    const auto mix = [f](std::uint8_t from, std::uint8_t to) {
        return from + (static_cast<double>(to) - from) * f;
    };
    return {mix(lo.r, hi.r), mix(lo.g, hi.g), mix(lo.b, hi.b)};
}

ColourF heightColour(const HeightRamp& ramp, double elevation) noexcept {
    if (!ramp.hasWater || !(elevation <= ramp.waterMeters)) {
        return hypsometricColour(elevation, ramp.minMeters, ramp.maxMeters);
    }
    // Depth as a share of the deepest possible water: 0 at the level, 1 at the minimum.
    const double depthRange = ramp.waterMeters - ramp.minMeters;
    const double f =
        depthRange > 0 ? clampOrLow((ramp.waterMeters - elevation) / depthRange, 0.0, 1.0) : 0.0;
    const Rgb& shallow = kWaterStops[0];
    const Rgb& deep = kWaterStops[1];
    const auto mix = [f](std::uint8_t from, std::uint8_t to) {
        return from + (static_cast<double>(to) - from) * f;
    };
    return {mix(shallow.r, deep.r), mix(shallow.g, deep.g), mix(shallow.b, deep.b)};
}

std::vector<RampStop> heightRampStops(const HeightRamp& ramp) {
    const auto rounded = [](const ColourF& c) {
        return Rgb{static_cast<std::uint8_t>(std::lround(c.r)),
                   static_cast<std::uint8_t>(std::lround(c.g)),
                   static_cast<std::uint8_t>(std::lround(c.b))};
    };
    std::vector<RampStop> stops;
    const double span = ramp.maxMeters - ramp.minMeters;
    double landFrom = ramp.minMeters;
    if (ramp.hasWater && ramp.waterMeters >= ramp.minMeters) {
        if (ramp.waterMeters > ramp.minMeters)
            stops.push_back({ramp.minMeters, kWaterStops[1], true});
        stops.push_back({ramp.waterMeters, kWaterStops[0], true});
        landFrom = ramp.waterMeters;
        if (landFrom < ramp.maxMeters) {
            stops.push_back({landFrom, rounded(hypsometricColour(landFrom, ramp.minMeters,
                                                                 ramp.maxMeters)),
                             false});
        }
    }
    constexpr auto kSegments = static_cast<double>(kHypsometricStops.size() - 1);
    for (std::size_t k = 0; k < kHypsometricStops.size(); ++k) {
        const double meters = ramp.minMeters + span * static_cast<double>(k) / kSegments;
        if (meters > landFrom || (meters == landFrom && stops.empty()))
            stops.push_back({meters, kHypsometricStops[k], false});
    }
    return stops;
}

double shadeFactor(double shade) noexcept {
    return kShadeFloor + kShadeSpan * clampOrLow(shade, 0.0, 1.0);
}

Rgb shadeColour(const ColourF& colour, double shade) noexcept {
    const double factor = shadeFactor(shade);
    const auto channel = [factor](double value) {
        return static_cast<std::uint8_t>(roundHalfAway(clampOrLow(value * factor, 0.0, 255.0)));
    };
    return {channel(colour.r), channel(colour.g), channel(colour.b)};
}

}  // namespace terragrid

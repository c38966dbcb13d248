#include "serve/tile_renderer.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "io/png/png_writer.hpp"
#include "io/png/preview_water.hpp"

namespace terragrid::serve {
namespace {

constexpr auto kPixels = static_cast<std::size_t>(kTilePixels * kTilePixels);

/// The pixels of a tile that show the map, at its zoom.
struct TileFrame {
    int zoom = 0;
    std::int64_t step = 1;        ///< map cells per pixel
    std::int64_t px0 = 0, py0 = 0;  ///< the tile's first pixel in the zoom's picture
    std::int64_t nx = 0, ny = 0;    ///< pixels of the tile inside the map
    std::int64_t pw = 0, ph = 0;    ///< the zoom's picture, in pixels
};

TileFrame frameOf(const TilePyramid& pyramid, const TileAddress& a) {
    TileFrame f;
    f.zoom = a.zoom;
    f.step = pyramid.step(a.zoom);
    f.px0 = a.x * kTilePixels;
    f.py0 = a.y * kTilePixels;
    f.pw = pyramid.pixelsAcross(a.zoom);
    f.ph = pyramid.pixelsDown(a.zoom);
    f.nx = std::min(kTilePixels, f.pw - f.px0);
    f.ny = std::min(kTilePixels, f.ph - f.py0);
    return f;
}

/// The centre cells of the frame's pixels, with `halo` pixels more on every side clamped to
/// the picture's edge: the neighbours a hill shade reads, as preview.png's hillshade reuses
/// its edge pixels.
CellGrid gridOf(const TilePyramid& pyramid, const TileFrame& f, std::int64_t halo) {
    CellGrid grid;
    const auto axis = [&](std::int64_t p0, std::int64_t n, std::int64_t pixels,
                          std::int64_t cells, std::vector<std::int64_t>& out) {
        out.resize(static_cast<std::size_t>(n + 2 * halo));
        for (std::int64_t i = 0; i < n + 2 * halo; ++i) {
            const std::int64_t p = std::clamp<std::int64_t>(p0 - halo + i, 0, pixels - 1);
            out[std::size_t(i)] = pyramid.centreCell(p, f.zoom, cells);
        }
    };
    axis(f.px0, f.nx, f.pw, pyramid.mapWidth(), grid.cols);
    axis(f.py0, f.ny, f.ph, pyramid.mapHeight(), grid.rows);
    return grid;
}

/// The order of the river drawn over each pixel of the frame (nx x ny), widened as the batch
/// picture widens it at this scale: from the rivers of the frame grown by the reach of the
/// map's highest order.
std::vector<std::uint8_t> drawnRivers(const ExploredMap& map, const MapWater& water,
                                      const TileFrame& f) {
    const std::int64_t reach = riverReachPixels(water.maxOrder, f.step);
    const std::int64_t x0 = std::max<std::int64_t>(0, f.px0 - reach);
    const std::int64_t y0 = std::max<std::int64_t>(0, f.py0 - reach);
    const std::int64_t x1 = std::min(f.pw, f.px0 + f.nx + reach);
    const std::int64_t y1 = std::min(f.ph, f.py0 + f.ny + reach);
    const std::int64_t w = x1 - x0, h = y1 - y0;
    std::vector<std::uint8_t> orders(static_cast<std::size_t>(w * h), 0);
    if (f.step == 1) {
        // One pixel per cell: the cells' own orders, a line's cells only evaluated.
        const MapFields& fields = map.dryFields();
        riverOrders(*water.stage, TileRect{0, x0, y0, w, h},
                    [&](std::int64_t col, std::int64_t row) {
                        return noiseHeightMeters(fields, col, row);
                    },
                    orders.data());
    } else {
        const int level = map.pyramid().maxZoom() - f.zoom;
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x)
                orders[std::size_t(y * w + x)] = water.rivers.at(level, x0 + x, y0 + y);
    }
    const std::vector<std::uint8_t> drawn = widenRivers(orders, w, h, f.step);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(f.nx * f.ny));
    for (std::int64_t y = 0; y < f.ny; ++y)
        for (std::int64_t x = 0; x < f.nx; ++x)
            out[std::size_t(y * f.nx + x)] =
                drawn[std::size_t((f.py0 - y0 + y) * w + (f.px0 - x0 + x))];
    return out;
}

void put(std::vector<std::uint8_t>& rgba, std::int64_t x, std::int64_t y, Rgb c,
         std::uint8_t alpha) {
    std::uint8_t* p = rgba.data() + 4 * std::size_t(y * kTilePixels + x);
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = alpha;
}

/// The water's surface of a cell: the ground plus its lake or sea depth.
float surfaceOf(const CellValues& v, std::size_t i) {
    return v.waterDepth.empty() ? v.elevationMeters[i] : v.elevationMeters[i] + v.waterDepth[i];
}

/// preview.png or height.png at this tile: hill shade of the rounded surfaces with a
/// one-pixel halo, each pixel painted by the batch picture's painter.
void paintShaded(const ExploredMap& map, const MapWater* water, const TileFrame& f,
                 const PreviewPainter& painter, std::vector<std::uint8_t>& rgba) {
    const MapFields& fields = water ? water->fields : map.dryFields();
    CellValues cells;
    // height.png's colours come from the ground and its water alone: no moisture layer, no
    // classes (half the noise of such a tile).
    generateCells(fields, gridOf(map.pyramid(), f, 1), cells,
                  painter.paintsClasses() ? CellNeeds::All : CellNeeds::Surface);
    const std::int64_t gw = f.nx + 2, gh = f.ny + 2;
    std::vector<double> heights(static_cast<std::size_t>(gw * gh));
    const HeightQuantum& quantum = water ? water->quantum : map.quantum();
    const float* surfaces = cells.elevationMeters.data();
    std::vector<float> withWater;  // the ground plus the lakes' depths, when there is water
    if (!cells.waterDepth.empty()) {
        withWater.resize(heights.size());
        for (std::size_t i = 0; i < heights.size(); ++i) withWater[i] = surfaceOf(cells, i);
        surfaces = withWater.data();
    }
    quantum.round(surfaces, heights.size(), heights.data());
    const std::vector<double> shade =
        hillshade(heights, gw, gh, map.cellMeters() * static_cast<double>(f.step));
    const std::vector<std::uint8_t> rivers =
        water ? drawnRivers(map, *water, f) : std::vector<std::uint8_t>{};
    std::vector<float> lakeDepths(water ? static_cast<std::size_t>(f.nx) : 0);
    for (std::int64_t y = 0; y < f.ny; ++y) {
        const auto k = std::size_t((y + 1) * gw + 1);  // the row's first pixel in the grid
        PreviewRow row{.count = std::size_t(f.nx), .surfaceMeters = &heights[k],
                       .shade = &shade[k]};
        if (painter.paintsClasses()) row.classIndex = &cells.classIndex[k];
        if (water) {
            row.river = &rivers[std::size_t(y * f.nx)];
            for (std::size_t x = 0; x < lakeDepths.size(); ++x)
                lakeDepths[x] = cells.water[k + x] == static_cast<std::uint8_t>(Water::Lake)
                                    ? cells.waterDepth[k + x]
                                    : 0.0f;
            row.lakeDepthMeters = lakeDepths.data();
        }
        painter.paintRow(row, rgba.data() + 4 * std::size_t(y * kTilePixels), 4);
    }
}

/// What a layer of one value per pixel reads of its cells: the classes, or only the ground and
/// its water (then no moisture layer is evaluated: half the noise of the tile).
CellNeeds flatNeeds(TileLayer layer) {
    switch (layer) {
        case TileLayer::Classes:
        case TileLayer::Walkable: return CellNeeds::All;
        case TileLayer::Water:
        case TileLayer::Terrarium: return CellNeeds::Surface;
        case TileLayer::Preview:
        case TileLayer::Height: break;  // shaded: paintShaded asks its painter
    }
    return CellNeeds::All;
}

/// The layers of one value per pixel, unshaded.
void paintFlat(const ExploredMap& map, const MapWater* water, const TileFrame& f,
               TileLayer layer, std::vector<std::uint8_t>& rgba) {
    const MapFields& fields = water ? water->fields : map.dryFields();
    CellValues cells;
    generateCells(fields, gridOf(map.pyramid(), f, 0), cells, flatNeeds(layer));
    const std::vector<std::uint8_t> rivers = water && layer == TileLayer::Water
                                                 ? drawnRivers(map, *water, f)
                                                 : std::vector<std::uint8_t>{};
    const auto& classes = map.terrain().classes();
    const Config& config = map.config();
    for (std::int64_t y = 0; y < f.ny; ++y)
        for (std::int64_t x = 0; x < f.nx; ++x) {
            const auto k = std::size_t(y * f.nx + x);
            switch (layer) {
                case TileLayer::Classes: {
                    const std::uint8_t c = cells.classIndex[k];
                    put(rgba, x, y, c < classes.size() ? classes[c].colour : Rgb{}, 255);
                    break;
                }
                case TileLayer::Walkable:
                    // Blocked cells in red over whatever lies below; walkable ones clear.
                    if (cells.walkable[k] == 0) put(rgba, x, y, {200, 30, 30}, 150);
                    break;
                case TileLayer::Water: {
                    if (water && cells.water[k] == static_cast<std::uint8_t>(Water::Lake)) {
                        // height.png's lake colours: deeper, darker (over the range
                        // height.png's ramp spans: with erosion, the eroded heights').
                        const double surface = surfaceOf(cells, k);
                        const HeightRamp& height = water->heightPainter.ramp();
                        const HeightRamp ramp{.minMeters = height.minMeters,
                                              .maxMeters = height.maxMeters,
                                              .hasWater = true,
                                              .waterMeters = surface};
                        put(rgba, x, y,
                            shadeColour(heightColour(ramp, surface - cells.waterDepth[k]), 1.0),
                            230);
                    } else if (rivers[k] != 0) {
                        put(rgba, x, y, config.hydrology.riverColour, 255);
                    }
                    break;
                }
                case TileLayer::Terrarium: {
                    const auto c = terrariumRgb(surfaceOf(cells, k));
                    put(rgba, x, y, {c[0], c[1], c[2]}, 255);
                    break;
                }
                case TileLayer::Preview:
                case TileLayer::Height: break;
            }
        }
}

}  // namespace

std::array<std::uint8_t, 3> terrariumRgb(double meters) noexcept {
    // Values beyond the bytes' range clamp to their ends; NaN (std::clamp passes it through, and
    // converting it to an integer is undefined) encodes as the lowest value.
    const double v = std::isnan(meters)
                         ? 0.0
                         : std::clamp(meters + 32768.0, 0.0, 65536.0 - 1.0 / 256.0);
    const double whole = std::floor(v);
    const auto w = static_cast<std::uint32_t>(whole);
    return {static_cast<std::uint8_t>(w >> 8), static_cast<std::uint8_t>(w & 0xff),
            static_cast<std::uint8_t>(std::floor((v - whole) * 256.0))};
}

std::vector<std::uint8_t> renderTileRgba(const ExploredMap& map, const MapWater* water,
                                         const TileAddress& address) {
    const TileFrame frame = frameOf(map.pyramid(), address);
    std::vector<std::uint8_t> rgba(kPixels * 4, 0);
    if (address.layer == TileLayer::Terrarium) {
        // Beyond the map: the lowest elevation, opaque, so a 3D view ends in a flat floor.
        const auto floor = terrariumRgb(map.config().elevation.minMeters);
        for (std::size_t i = 0; i < kPixels; ++i) {
            std::copy(floor.begin(), floor.end(), rgba.begin() + std::ptrdiff_t(4 * i));
            rgba[4 * i + 3] = 255;
        }
    }
    // A tile is one request's work: its hill shade's parallel rows stay on this thread, so
    // concurrent requests share the cores instead of contending for them.
    thread_local tbb::task_arena single(1);
    single.execute([&] {
        switch (address.layer) {
            case TileLayer::Preview:
                paintShaded(map, water, frame, map.previewPainter(), rgba);
                break;
            case TileLayer::Height:
                paintShaded(map, water, frame,
                            water ? water->heightPainter : map.heightPainter(), rgba);
                break;
            default:
                paintFlat(map, water, frame, address.layer, rgba);
        }
    });
    return rgba;
}

std::vector<std::uint8_t> renderTilePng(const ExploredMap& map, const MapWater* water,
                                        const TileAddress& address) {
    std::vector<std::uint8_t> rgba = renderTileRgba(map, water, address);
    const auto side = static_cast<std::uint32_t>(kTilePixels);
    // The layers of a few colours (the classes', the overlays') go out indexed: a byte per
    // pixel to deflate instead of three or four. (Not the others: a shaded tile changes colour
    // at nearly every pixel, and looking each up would cost more than it saves.)
    const bool fewColours = address.layer == TileLayer::Classes ||
                            address.layer == TileLayer::Walkable || address.layer == TileLayer::Water;
    if (fewColours) {
        if (const auto indexed = indexColours(rgba.data(), kPixels))
            return encodePalettePng(side, side, indexed->indices.data(), indexed->indices.size(),
                                    indexed->palette);
    }
    // An opaque tile (terrarium's always, a preview or height tile inside the map) goes out as
    // RGB: its alpha would carry nothing, and a quarter fewer bytes to filter and deflate is a
    // tenth of the tile's time. Tiles at the map's edge keep their transparent pixels.
    bool opaque = true;
    for (std::size_t i = 3; i < rgba.size() && opaque; i += 4) opaque = rgba[i] == 255;
    if (!opaque) return encodePng(side, side, rgba.data(), rgba.size(), PngFormat::Rgba8);
    thread_local std::vector<std::uint8_t> rgb;
    rgb.resize(kPixels * 3);
    // Four bytes at a time, each pixel's alpha overwritten by the next pixel's red: one load
    // and one store per pixel. std::copy_n of 3 bytes was a call to memmove per pixel (2.4 % of
    // a tile), three byte copies 2.3 %.
    for (std::size_t i = 0; i + 1 < kPixels; ++i) std::memcpy(&rgb[3 * i], &rgba[4 * i], 4);
    std::memcpy(&rgb[3 * (kPixels - 1)], &rgba[4 * (kPixels - 1)], 3);
    return encodePng(side, side, rgb.data(), rgb.size(), PngFormat::Rgb8);
}

}  // namespace terragrid::serve

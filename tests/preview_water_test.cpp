// Rivers in preview.png (io/preview_water): widths by Strahler order on hand-made rivers whose
// drawn width is known, the same picture for any cut of the map into tiles, and, on a real
// hydrology stage, every river cell drawn at its order's width.

#include "io/png/preview_water.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {
namespace {

/// Gathers a width x height grid of river orders in tiles of `tile` cells (in reverse tile
/// order when asked) and returns the drawn picture.
std::vector<std::uint8_t> drawnInTiles(const std::vector<std::uint8_t>& orders,
                                       std::int64_t width, std::int64_t height,
                                       std::int64_t maxSize, std::int64_t tile,
                                       bool reversed = false) {
    PreviewRivers rivers(width, height, previewGeometry(width, height, maxSize));
    std::vector<TileRect> rects;
    for (std::int64_t r = 0; r < height; r += tile)
        for (std::int64_t c = 0; c < width; c += tile)
            rects.push_back({std::int64_t(rects.size()), c, r, std::min(tile, width - c),
                             std::min(tile, height - r)});
    if (reversed) std::reverse(rects.begin(), rects.end());
    for (const TileRect& rect : rects) {
        std::vector<std::uint8_t> cells;
        for (std::int64_t y = rect.row0; y < rect.row0 + rect.height; ++y)
            for (std::int64_t x = rect.col0; x < rect.col0 + rect.width; ++x)
                cells.push_back(orders[std::size_t(y * width + x)]);
        rivers.add(rivers.gather(rect, cells.data()));
    }
    return rivers.drawn();
}

TEST(PreviewRiversTest, RadiusDoublesWithEachOrderFromTheThird) {
    EXPECT_EQ(riverRadiusCells(0), 0);
    EXPECT_EQ(riverRadiusCells(1), 0);
    EXPECT_EQ(riverRadiusCells(2), 0);
    EXPECT_EQ(riverRadiusCells(3), 1);
    EXPECT_EQ(riverRadiusCells(4), 2);
    EXPECT_EQ(riverRadiusCells(5), 4);
    EXPECT_EQ(riverRadiusCells(8), 32);
    EXPECT_EQ(riverRadiusCells(255), std::int64_t{1} << 30);
}

// A straight river along row 30 of a 64 x 64 map, of order `order` from column 10 to 50: its
// drawn pixels in column 32 (far from its ends) run from row 30 - r to 30 + r of the picture,
// r = riverRadiusCells(order) / scale pixels.
TEST(PreviewRiversTest, AStraightRiverIsDrawnAtItsOrdersWidth) {
    struct Case {
        std::uint8_t order;
        std::int64_t maxSize;  // 64: scale 1, 32: scale 2, 16: scale 4
        std::int64_t firstRow, lastRow;  // of the picture's column through map column 32
    };
    const Case cases[] = {
        {1, 64, 30, 30}, {2, 64, 30, 30}, {3, 64, 29, 31}, {4, 64, 28, 32}, {5, 64, 26, 34},
        {3, 32, 15, 15}, {4, 32, 14, 16}, {5, 32, 13, 17}, {6, 32, 11, 19},
        {1, 16, 7, 7},   {4, 16, 7, 7},   {5, 16, 6, 8},   {6, 16, 5, 9},
    };
    const std::int64_t n = 64;
    for (const Case& k : cases) {
        std::vector<std::uint8_t> orders(std::size_t(n * n), 0);
        for (std::int64_t c = 10; c <= 50; ++c) orders[std::size_t(30 * n + c)] = k.order;
        const std::vector<std::uint8_t> drawn = drawnInTiles(orders, n, n, k.maxSize, 16);
        const std::int64_t scale = n / k.maxSize, pw = k.maxSize;
        const std::int64_t px = 32 / scale;
        for (std::int64_t py = 0; py < pw; ++py) {
            const bool river = py >= k.firstRow && py <= k.lastRow;
            EXPECT_EQ(drawn[std::size_t(py * pw + px)], river ? k.order : 0)
                << "order " << int(k.order) << ", scale " << scale << ", pixel row " << py;
        }
    }
}

// Where a wide river meets a narrow one, the wider (higher order) wins; a disk is round: the
// end of a wide river is a disk of its radius, not a square.
TEST(PreviewRiversTest, HigherOrdersWinAndEndsAreRound) {
    const std::int64_t n = 32;
    std::vector<std::uint8_t> orders(std::size_t(n * n), 0);
    orders[std::size_t(16 * n + 16)] = 5;  // one cell of order 5: a disk of radius 4
    orders[std::size_t(16 * n + 18)] = 2;
    const std::vector<std::uint8_t> drawn = drawnInTiles(orders, n, n, n, 8);
    for (std::int64_t y = 0; y < n; ++y)
        for (std::int64_t x = 0; x < n; ++x) {
            const std::int64_t dx = x - 16, dy = y - 16;
            EXPECT_EQ(drawn[std::size_t(y * n + x)], dx * dx + dy * dy <= 16 ? 5 : 0)
                << x << ", " << y;
        }
}

TEST(PreviewRiversTest, ThePictureIsTheSameForAnyTilingAndTileOrder) {
    const std::int64_t w = 203, h = 151;
    std::mt19937 random(7);
    std::vector<std::uint8_t> orders(std::size_t(w * h), 0);
    // Sparse rivers of orders 1..7, some near every tile border.
    for (auto& o : orders)
        if (random() % 40 == 0) o = std::uint8_t(1 + random() % 7);
    for (const std::int64_t maxSize : {203, 101, 50, 17}) {
        const std::vector<std::uint8_t> reference = drawnInTiles(orders, w, h, maxSize, 1000);
        EXPECT_GT(std::count_if(reference.begin(), reference.end(), [](auto o) { return o; }),
                  0);
        for (const std::int64_t tile : {7, 16, 64, 256}) {
            EXPECT_EQ(drawnInTiles(orders, w, h, maxSize, tile), reference)
                << "tiles of " << tile << ", preview of " << maxSize;
            EXPECT_EQ(drawnInTiles(orders, w, h, maxSize, tile, true), reference)
                << "tiles of " << tile << " in reverse, preview of " << maxSize;
        }
    }
}

// On a real stage: every river cell's pixel, and every pixel within its order's radius along
// both axes, shows a river of at least that order, at scale 1 and downsampled.
TEST(PreviewRiversTest, EveryRiverCellOfAStageIsDrawnAtLeastAtItsOrdersWidth) {
    const Config config = defaultConfig({"map.width=320", "map.height=272",
                                         "hydrology.enabled=true",
                                         "hydrology.river_threshold=100000",
                                         "hydrology.erosion.enabled=true",
                                         "hydrology.erosion.steps=40"});
    const HydrologyStage stage = computeHydrology(config);
    const MapFields fields(config, nullptr, &stage);
    const std::int64_t w = config.map.width, h = config.map.height;
    Tile tile;
    generateTile(fields, {0, 0, 0, w, h}, tile);
    const std::uint8_t highest = *std::max_element(tile.riverOrder.begin(), tile.riverOrder.end());
    ASSERT_GE(highest, 4) << "the map needs wide rivers to test";
    for (const std::int64_t maxSize : {320, 160, 80}) {
        const std::vector<std::uint8_t> drawn = drawnInTiles(tile.riverOrder, w, h, maxSize, 64);
        const PreviewGeometry g = previewGeometry(w, h, maxSize);
        std::int64_t checked = 0;
        for (std::int64_t r = 0; r < h; ++r)
            for (std::int64_t c = 0; c < w; ++c) {
                const std::uint8_t o = tile.riverOrder[std::size_t(r * w + c)];
                if (o == 0) continue;
                const std::int64_t reach = riverRadiusCells(o) / g.scale;
                const std::int64_t px = c / g.scale, py = r / g.scale;
                for (std::int64_t d = -reach; d <= reach; ++d) {
                    for (const auto& [x, y] : {std::pair{px + d, py}, std::pair{px, py + d}}) {
                        if (x < 0 || y < 0 || x >= g.width || y >= g.height) continue;
                        ++checked;
                        ASSERT_GE(drawn[std::size_t(y * g.width + x)], o)
                            << "cell " << c << ", " << r << " of order " << int(o)
                            << ", pixel " << x << ", " << y << ", scale " << g.scale;
                    }
                }
            }
        EXPECT_GT(checked, 0);
    }
}

}  // namespace
}  // namespace terragrid

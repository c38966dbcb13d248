#include "terragrid/model/tiling.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_support.hpp"

namespace terragrid {
namespace {

using test::mapOf;

TEST(TilingTest, TilesCoverEveryCellExactlyOnceInRowMajorOrder) {
    for (std::int64_t tile : {1, 7, 16, 64, 100, 333, 1000}) {
        const TileLayout layout(mapOf(300, 170, tile));
        std::vector<int> seen(300 * 170, 0);
        std::int64_t lastRow0 = -1, lastCol0 = -1;
        for (std::int64_t i = 0; i < layout.tileCount(); ++i) {
            const TileRect r = layout.tile(i);
            EXPECT_EQ(r.index, i);
            EXPECT_GT(r.width, 0);
            EXPECT_GT(r.height, 0);
            EXPECT_LE(r.width, tile);
            EXPECT_LE(r.height, tile);
            // Row-major: row0 never decreases; within a row col0 increases.
            EXPECT_TRUE(r.row0 > lastRow0 || (r.row0 == lastRow0 && r.col0 > lastCol0));
            lastRow0 = r.row0;
            lastCol0 = r.col0;
            for (std::int64_t y = r.row0; y < r.row0 + r.height; ++y)
                for (std::int64_t x = r.col0; x < r.col0 + r.width; ++x) ++seen[y * 300 + x];
        }
        for (int s : seen) ASSERT_EQ(s, 1) << "tile size " << tile;
    }
}

TEST(TilingTest, CountsRoundUp) {
    const TileLayout layout(mapOf(257, 256, 64));
    EXPECT_EQ(layout.tilesAcross(), 5);
    EXPECT_EQ(layout.tilesDown(), 4);
    EXPECT_EQ(layout.tile(4).width, 1);
}

TEST(TilingTest, CellCentresComeFromGlobalIndices) {
    const TileLayout layout(mapOf(10, 10, 4, 30, 600, 900));
    const GridGeometry& g = layout.geometry();
    EXPECT_EQ(g.originCol, 20);
    EXPECT_EQ(g.originRow, 30);
    EXPECT_EQ(g.cellX(0), 615.0);
    EXPECT_EQ(g.cellY(0), 885.0);
    EXPECT_EQ(g.cellX(9), 600.0 + 9.5 * 30);
    EXPECT_EQ(g.cellY(9), 900.0 - 9.5 * 30);
}

TEST(TilingTest, ShiftedOriginGivesTheSameCellCentresBitForBit) {
    // Cell size 0.1 is not exact in binary: accumulating steps would drift, global indices
    // must not. A window starting at map cell (37, 23) has the same centres as the big map.
    const double cell = 0.1;
    const TileLayout big(mapOf(100, 100, 16, cell, -1234.5, 6789.0));
    const TileLayout window(mapOf(20, 20, 16, cell, -1234.5 + 37 * cell, 6789.0 - 23 * cell));
    for (std::int64_t i = 0; i < 20; ++i) {
        EXPECT_EQ(window.geometry().cellX(i), big.geometry().cellX(37 + i));
        EXPECT_EQ(window.geometry().cellY(i), big.geometry().cellY(23 + i));
    }
}

TEST(TilingTest, GridIndexRoundsToTheNearestCell) {
    EXPECT_EQ(gridIndex(-1234.5, 0.1), -12345);
    EXPECT_EQ(gridIndex(0.3, 0.1), 3);  // 0.3 / 0.1 = 2.9999999999999996
    EXPECT_EQ(gridIndex(-90.0, 30.0), -3);
}

}  // namespace
}  // namespace terragrid

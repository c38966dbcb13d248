// Windows of a map (--region, --shard): parsing, the arithmetic of shard bands, the checks,
// and the window's own config.

#include "terragrid/model/window.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "terragrid/model/tiling.hpp"

#include "test_support.hpp"

namespace terragrid {
namespace {

using testing::HasSubstr;
using testing::ThrowsMessage;

using test::mapOf;

Config configOf(const MapConfig& map,
                Connectivity connectivity = Connectivity::Report) {
    Config c;
    c.map = map;
    c.terrain.connectivity = connectivity;
    return c;
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

TEST(WindowTest, ShardBandsPartitionTheMapInWholeTileRows) {
    // Many sizes, tile sizes and shard counts, some above the tile-row count (empty bands).
    for (std::int64_t height : {1, 2, 31, 32, 33, 150, 255, 1000})
        for (std::int64_t tile : {1, 7, 32, 100, 2048}) {
            const MapConfig map = mapOf(45, height, tile);
            const std::int64_t tileRows = ceilDiv(height, tile);
            for (std::int64_t count = 1; count <= 40; ++count) {
                std::int64_t nextRow = 0, fewest = height, most = 0;
                for (std::int64_t k = 0; k < count; ++k) {
                    const CellWindow w = shardWindow(map, {k, count});
                    SCOPED_TRACE(std::to_string(height) + " rows, tile " + std::to_string(tile) +
                                 ", shard " + std::to_string(k) + "/" + std::to_string(count));
                    EXPECT_EQ(w.col0, 0);
                    EXPECT_EQ(w.width, 45);
                    EXPECT_EQ(w.row0, nextRow);  // no gap, no overlap
                    EXPECT_GE(w.height, 0);
                    if (w.row0 < height) {
                        EXPECT_EQ(w.row0 % tile, 0) << "a band starts a tile row";
                    }
                    nextRow = w.row0 + w.height;
                    const std::int64_t bandTiles = ceilDiv(w.height, tile);
                    fewest = std::min(fewest, bandTiles);
                    most = std::max(most, bandTiles);
                }
                EXPECT_EQ(nextRow, height) << "the bands end at the map's bottom edge";
                EXPECT_LE(most - fewest, 1) << "bands differ by at most one tile row";
                EXPECT_EQ(fewest, count <= tileRows ? tileRows / count : 0);
            }
        }
}

TEST(WindowTest, ShardOfOneIsTheWholeMap) {
    const MapConfig map = mapOf(200, 150, 32);
    EXPECT_EQ(shardWindow(map, {0, 1}), wholeMap(map));
}

TEST(WindowTest, FourShardsOf150RowsInTilesOf32) {
    // 5 tile rows into 4 bands: the last band takes two, and the map's short last row.
    const MapConfig map = mapOf(200, 150, 32);
    EXPECT_EQ(shardWindow(map, {0, 4}), (CellWindow{0, 0, 200, 32}));
    EXPECT_EQ(shardWindow(map, {1, 4}), (CellWindow{0, 32, 200, 32}));
    EXPECT_EQ(shardWindow(map, {2, 4}), (CellWindow{0, 64, 200, 32}));
    EXPECT_EQ(shardWindow(map, {3, 4}), (CellWindow{0, 96, 200, 54}));
}

TEST(WindowTest, ParsesRegionsAndShards) {
    EXPECT_EQ(parseRegion("0,0,1,1"), (CellWindow{0, 0, 1, 1}));
    EXPECT_EQ(parseRegion("10,20,300,40"), (CellWindow{10, 20, 300, 40}));
    const Shard s = parseShard("3/4");
    EXPECT_EQ(s.index, 3);
    EXPECT_EQ(s.count, 4);
    EXPECT_EQ(parseShard("0/1").count, 1);
}

TEST(WindowTest, BadRegionTextNamesTheOptionTheRuleAndTheValue) {
    const struct {
        const char* text;
        const char* message;
    } cases[] = {
        {"", "'--region' must be X,Y,WIDTH,HEIGHT in cells: four whole numbers separated by "
             "commas (got '')"},
        {"1,2,3", "(got '1,2,3')"},
        {"1,2,3,4,5", "(got '1,2,3,4,5')"},
        {"-1,0,5,5", "(got '-1,0,5,5')"},
        {"1, 2,3,4", "(got '1, 2,3,4')"},
        {"1,2,3,4x", "(got '1,2,3,4x')"},
        {"1,2,3.5,4", "(got '1,2,3.5,4')"},
        {"1,2,99999999999999999999,4", "(got '1,2,99999999999999999999,4')"},
        {"0,0,0,10", "'--region' 0,0,0,10: WIDTH and HEIGHT must be at least 1 cell (got 0 x 10)"},
        {"0,0,10,0", "(got 10 x 0)"},
    };
    for (const auto& c : cases)
        EXPECT_THAT([&] { parseRegion(c.text); }, ThrowsMessage<WindowError>(HasSubstr(c.message)))
            << c.text;
}

TEST(WindowTest, BadShardTextNamesTheOptionTheRuleAndTheValue) {
    const struct {
        const char* text;
        const char* message;
    } cases[] = {
        {"3", "'--shard' must be K/N: shard K of N, two whole numbers, K counted from 0 (got '3')"},
        {"1/2/3", "(got '1/2/3')"},
        {"-1/4", "(got '-1/4')"},
        {"a/4", "(got 'a/4')"},
        {"1/", "(got '1/')"},
        {"0/0", "'--shard' '0/0': N must be between 1 and 1048576 (got 0)"},
        {"0/2000000", "N must be between 1 and 1048576 (got 2000000)"},
        {"4/4", "'--shard' '4/4': K must be between 0 and N-1 = 3, shards are numbered from 0 "
                "(got 4)"},
        {"9/4", "(got 9)"},
    };
    for (const auto& c : cases)
        EXPECT_THAT([&] { parseShard(c.text); }, ThrowsMessage<WindowError>(HasSubstr(c.message)))
            << c.text;
}

TEST(WindowTest, RegionMustLieInsideTheMap) {
    const Config config = configOf(mapOf(200, 150, 32));
    EXPECT_NO_THROW(regionWindow(config, {0, 0, 200, 150}));
    EXPECT_NO_THROW(regionWindow(config, {199, 149, 1, 1}));
    EXPECT_THAT([&] { regionWindow(config, {150, 0, 51, 10}); },
                ThrowsMessage<WindowError>(
                    "'--region' 150,0,51,10 reaches past the map's right edge: X + WIDTH must be "
                    "at most map.width 200 (got 150 + 51)"));
    EXPECT_THAT([&] { regionWindow(config, {0, 150, 10, 1}); },
                ThrowsMessage<WindowError>(HasSubstr("past the map's bottom edge: Y + HEIGHT "
                                                     "must be at most map.height 150 (got 150 + "
                                                     "1)")));
    // Far past the map: no overflow into a window that seems to fit.
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    EXPECT_THROW(regionWindow(config, {huge, 0, huge, 1}), WindowError);
    EXPECT_THROW(regionWindow(config, {0, 1, 1, huge}), WindowError);
}

TEST(WindowTest, MoreShardsThanTileRowsAreRefused) {
    const Config config = configOf(mapOf(200, 150, 32));  // 5 tile rows
    EXPECT_NO_THROW(shardMapWindow(config, {4, 5}));
    EXPECT_THAT([&] { shardMapWindow(config, {0, 6}); },
                ThrowsMessage<WindowError>(
                    "'--shard' 0/6 asks for 6 shards, but the map has only 5 rows of tiles "
                    "(map.height 150, map.tile_size 32): use at most 5 shards, or a smaller tile "
                    "size"));
}

TEST(WindowTest, LargestConnectivityNeedsTheWholeMap) {
    const Config config = configOf(mapOf(200, 150, 32), Connectivity::Largest);
    EXPECT_THAT([&] { shardMapWindow(config, {1, 4}); },
                ThrowsMessage<WindowError>(HasSubstr(
                    "'--shard' 1/4 cannot be used with 'terrain.connectivity' \"largest\"")));
    EXPECT_THAT([&] { regionWindow(config, {0, 0, 10, 10}); },
                ThrowsMessage<WindowError>(HasSubstr("'--region' 0,0,10,10 cannot be used")));
    // The whole map is not a piece: nothing to refuse.
    EXPECT_NO_THROW(shardMapWindow(config, {0, 1}));
    EXPECT_NO_THROW(regionWindow(config, {0, 0, 200, 150}));
}

TEST(WindowTest, WindowConfigHasTheSameCellCentresAsTheFullMap) {
    // Cell sizes that are not exact in binary, origins far from 0 and on either side of it.
    // Origins on the grid and off it by parts of a cell (any origin is accepted), halves
    // included, where rounding the window's own origin could go either way.
    for (double cell : {30.0, 0.1, 1.0 / 3.0, 2.5e-5})
        for (std::int64_t col : {-123456789, 0, 7, 4000000})
            for (std::int64_t row : {-5, 0, 99991})
                for (double part : {0.0, 0.3, 0.5, -0.5, 0.73}) {
                    Config full = configOf(mapOf(300, 200, 64, cell, (double(col) + part) * cell,
                                                 (double(row) - part) * cell));
                    const GridGeometry whole = TileLayout(full.map).geometry();
                    for (const CellWindow w :
                         {CellWindow{0, 0, 300, 200}, CellWindow{37, 23, 20, 21},
                          CellWindow{299, 199, 1, 1}, CellWindow{0, 64, 300, 64}}) {
                        const Config piece = windowConfig(full, w);
                        EXPECT_EQ(piece.map.width, w.width);
                        EXPECT_EQ(piece.map.height, w.height);
                        EXPECT_EQ(piece.map.tileSizeCells, 64);
                        const GridGeometry g = TileLayout(piece.map).geometry();
                        for (std::int64_t i = 0; i < std::min(w.width, w.height); ++i) {
                            ASSERT_EQ(g.cellX(i), whole.cellX(w.col0 + i))
                                << cell << " " << col << " " << part;
                            ASSERT_EQ(g.cellY(i), whole.cellY(w.row0 + i))
                                << cell << " " << row << " " << part;
                        }
                        // The georeferenced corner is the one GDAL computes for that pixel of the
                        // full map.
                        EXPECT_EQ(piece.map.originX, full.map.originX + double(w.col0) * cell);
                        EXPECT_EQ(piece.map.originY, full.map.originY - double(w.row0) * cell);
                    }
                }
}

TEST(WindowTest, WindowAtTheCornerKeepsTheOriginExactly) {
    Config full = configOf(mapOf(100, 100, 16, 0.1, 0.3, -1234.5));
    const Config piece = windowConfig(full, {0, 0, 10, 10});
    EXPECT_EQ(piece.map.originX, 0.3);
    EXPECT_EQ(piece.map.originY, -1234.5);
}

}  // namespace
}  // namespace terragrid

// Whether pieces cover a map exactly once (app/mosaic_coverage.hpp): shards of any count
// partition the map; taking one away names exactly its rows, doubling one names its rows and
// both pieces; a two-dimensional split of regions names the columns too.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/mosaic_coverage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using testing::ElementsAre;

std::vector<CoveragePiece> shardsOf(const MapConfig& map, std::int64_t count) {
    std::vector<CoveragePiece> pieces;
    for (std::int64_t k = 0; k < count; ++k)
        pieces.push_back({"s" + std::to_string(k), shardWindow(map, {k, count})});
    return pieces;
}

std::string rows(const CellWindow& w) {
    return "rows " + std::to_string(w.row0) +
           (w.height > 1 ? "-" + std::to_string(w.row0 + w.height - 1) : std::string());
}

TEST(MosaicCoverageTest, ShardsOfEveryCountCoverTheMapAndEachGapOrDoubleIsNamed) {
    for (const auto& [w, h, tile] : {std::tuple{200, 150, 32}, {64, 1000, 16}, {7, 33, 16}}) {
        const MapConfig map = test::mapOf(w, h, tile);
        const std::int64_t tileRows = (h + tile - 1) / tile;
        for (std::int64_t count = 1; count <= tileRows; ++count) {
            const auto pieces = shardsOf(map, count);
            EXPECT_TRUE(coverageProblems(pieces, w, h).empty()) << count;
            for (std::int64_t k = 0; k < count; ++k) {
                auto missing = pieces;
                missing.erase(missing.begin() + k);
                EXPECT_THAT(coverageProblems(missing, w, h),
                            ElementsAre(rows(pieces[k].window) + " are in no piece"))
                    << count << " " << k;
                auto doubled = pieces;
                doubled.push_back({"copy", pieces[k].window});
                EXPECT_THAT(coverageProblems(doubled, w, h),
                            ElementsAre(rows(pieces[k].window) + " are in more than one piece: '" +
                                        pieces[k].name + "', 'copy'"))
                    << count << " " << k;
            }
        }
    }
}

TEST(MosaicCoverageTest, RegionsOfAnyShapeNameTheColumnsOfAGapOrOverlap) {
    const std::vector<CoveragePiece> pieces{{"left", {0, 0, 120, 150}},
                                            {"top", {120, 0, 80, 70}},
                                            {"bottom", {120, 70, 80, 80}}};
    EXPECT_TRUE(coverageProblems(pieces, 200, 150).empty());
    EXPECT_THAT(coverageProblems({pieces[0], pieces[2]}, 200, 150),
                ElementsAre("rows 0-69, columns 120-199, are in no piece"));
    auto wide = pieces;
    wide[1].window = {100, 0, 100, 70};
    EXPECT_THAT(coverageProblems(wide, 200, 150),
                ElementsAre("rows 0-69, columns 100-119, are in more than one piece: 'left', "
                            "'top'"));
    EXPECT_THAT(coverageProblems({}, 200, 150), ElementsAre("rows 0-149 are in no piece"));
}

}  // namespace
}  // namespace terragrid

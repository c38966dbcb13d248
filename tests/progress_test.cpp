// Progress on stderr: the formatting, and when a reporter writes, on a fake clock and a string
// stream instead of a terminal.

#include "terragrid/app/progress.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::json;
using testing::HasSubstr;

MapConfig mapOf(std::int64_t w, std::int64_t h, std::int64_t tile) {
    return test::mapOf(w, h, tile, 1);
}

/// A clock the test moves by hand.
struct FakeClock {
    double now = 100.0;  // not 0: the reporter must only take differences
    SecondsClock clock() {
        return [this] { return now; };
    }
};

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

TEST(ProgressTest, CellsInFirstTilesSumTheTilesCells) {
    for (std::int64_t tile : {1, 7, 32, 64, 500})
        for (const auto& [w, h] : {std::pair{200, 150}, {1, 1}, {64, 64}, {65, 3}}) {
            const TileLayout layout(mapOf(w, h, tile));
            std::int64_t sum = 0;
            EXPECT_EQ(cellsInFirstTiles(layout, 0), 0);
            for (std::int64_t i = 0; i < layout.tileCount(); ++i) {
                sum += layout.tile(i).cellCount();
                ASSERT_EQ(cellsInFirstTiles(layout, i + 1), sum) << w << "x" << h << " tile " << tile;
            }
            EXPECT_EQ(sum, std::int64_t(w) * h);
        }
}

TEST(ProgressTest, DurationsAndRates) {
    EXPECT_EQ(formatDuration(0), "0:00");
    EXPECT_EQ(formatDuration(7.4), "0:07");
    EXPECT_EQ(formatDuration(59.6), "1:00");
    EXPECT_EQ(formatDuration(754), "12:34");
    EXPECT_EQ(formatDuration(3723), "1:02:03");
    EXPECT_EQ(formatDuration(-1), "--:--");
    EXPECT_EQ(formatRate(0), "0.00 cells/s");
    EXPECT_EQ(formatRate(12.34), "12.3 cells/s");
    EXPECT_EQ(formatRate(999.4), "999 cells/s");
    EXPECT_EQ(formatRate(999.6), "1.00 kcells/s");
    EXPECT_EQ(formatRate(3.14159e6), "3.14 Mcells/s");
    EXPECT_EQ(formatRate(2.5e9), "2.50 Gcells/s");
}

TEST(ProgressTest, BarShowsTheShareTilesRateElapsedAndEta) {
    const ProgressSnapshot s{11, 20, 5500, 10000, 2.0};
    EXPECT_EQ(formatProgressBar(s, 20),
              "[###########.........]  55%  11/20 tiles  2.75 kcells/s  elapsed 0:02  ETA 0:02");
    const ProgressSnapshot start{0, 20, 0, 10000, 0.0};
    EXPECT_EQ(formatProgressBar(start, 10),
              "[..........]   0%  0/20 tiles  0.00 cells/s  elapsed 0:00  ETA --:--");
}

TEST(ProgressTest, BarIsFullOnlyWhenEveryCellIsDone) {
    for (std::int64_t done = 0; done <= 1000; ++done) {
        const std::string bar = formatProgressBar({done, 1000, done, 1000, 1.0}, 30);
        const std::string cells = bar.substr(1, bar.find(']') - 1);
        ASSERT_EQ(cells.size(), 30u) << bar;
        const bool full = cells.find('.') == std::string::npos;
        ASSERT_EQ(full, done == 1000) << bar;
        ASSERT_EQ(bar.find("100%") != std::string::npos, done == 1000) << bar;
    }
}

TEST(ProgressTest, JsonLineHasEveryFieldAndNullEtaWhileUnknown) {
    const Json line = Json::parse(formatProgressJson({3, 20, 3072, 30000, 1.5}, false));
    EXPECT_EQ(line["event"], "progress");
    EXPECT_EQ(line["tiles_done"], 3);
    EXPECT_EQ(line["tiles_total"], 20);
    EXPECT_EQ(line["cells_done"], 3072);
    EXPECT_EQ(line["cells_total"], 30000);
    EXPECT_EQ(line["elapsed_s"].get<double>(), 1.5);
    EXPECT_EQ(line["cells_per_s"].get<double>(), 2048);
    EXPECT_EQ(line["eta_s"].get<double>(), 13.148);  // 26928 / 2048 to the millisecond
    EXPECT_TRUE(Json::parse(formatProgressJson({0, 20, 0, 30000, 0.2}, false))["eta_s"].is_null());
    const Json done = Json::parse(formatProgressJson({20, 20, 30000, 30000, 3.0}, true));
    EXPECT_EQ(done["event"], "done");
    EXPECT_EQ(done["eta_s"].get<double>(), 0.0);
    EXPECT_EQ(formatProgressJson({1, 2, 3, 4, 0.5}, false).find('\n'), std::string::npos);
}

TEST(ProgressTest, ShortRunsShowNoBar) {
    FakeClock t;
    std::ostringstream out;
    {
        ProgressReporter reporter(ProgressStyle::Bar, out, TileLayout(mapOf(200, 150, 32)),
                                  t.clock());
        for (std::int64_t i = 1; i <= 35; ++i) {
            t.now += 0.02;  // 0.7 s in all
            reporter.update(i, 35);
        }
        reporter.finish();
    }
    EXPECT_EQ(out.str(), "");
}

TEST(ProgressTest, BarAppearsAfterASecondRedrawsAtMostTenTimesASecondAndEndsItsLine) {
    FakeClock t;
    std::ostringstream out;
    const TileLayout layout(mapOf(1000, 1000, 10));  // 10000 tiles
    ProgressReporter reporter(ProgressStyle::Bar, out, layout, t.clock());
    double firstDraw = -1;
    for (std::int64_t i = 1; i <= layout.tileCount(); ++i) {
        t.now += 0.0005;  // 5 s in all
        reporter.update(i, layout.tileCount());
        if (firstDraw < 0 && !out.str().empty()) firstDraw = t.now - 100.0;
    }
    reporter.finish();
    EXPECT_GE(firstDraw, 1.0);
    EXPECT_LT(firstDraw, 1.001);
    const std::string text = out.str();
    const auto redraws = std::count(text.begin(), text.end(), '\r');
    EXPECT_LE(redraws, 4 * 10 + 2);  // 4 s of bar at 10 a second, and the final one
    EXPECT_GE(redraws, 4 * 10 - 2);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    const std::string last = text.substr(text.rfind('\r') + 1);
    EXPECT_THAT(last, HasSubstr("100%  10000/10000 tiles  200 kcells/s  elapsed 0:05  ETA 0:00"));
}

TEST(ProgressTest, FailedRunEndsTheBarsLineSoTheErrorStartsOnItsOwn) {
    FakeClock t;
    std::ostringstream out;
    {
        ProgressReporter reporter(ProgressStyle::Bar, out, TileLayout(mapOf(100, 100, 10)),
                                  t.clock());
        t.now += 2;
        reporter.update(5, 100);
        EXPECT_THAT(out.str(), HasSubstr("5/100 tiles"));
        EXPECT_EQ(out.str().back(), 'K');  // the erase sequence, no newline yet
    }  // destroyed without finish(): the run threw
    EXPECT_EQ(out.str().back(), '\n');
}

TEST(ProgressTest, JsonWritesTheFirstTileAtMostOneLineASecondAndAlwaysTheLast) {
    FakeClock t;
    std::ostringstream out;
    const TileLayout layout(mapOf(200, 150, 32));  // 35 tiles
    ProgressReporter reporter(ProgressStyle::Json, out, layout, t.clock());
    for (std::int64_t i = 1; i <= 35; ++i) {
        t.now += 0.1;  // 3.5 s in all
        reporter.update(i, 35);
    }
    t.now += 0.25;
    reporter.finish();
    const auto all = lines(out.str());
    ASSERT_EQ(all.size(), 5u) << out.str();  // tile 1, at 1.1 s, 2.1 s, 3.1 s, done
    std::int64_t lastTiles = 0;
    double lastElapsed = -1;
    for (const std::string& text : all) {
        const Json line = Json::parse(text);
        EXPECT_EQ(line["tiles_total"], 35);
        EXPECT_EQ(line["cells_total"], 30000);
        EXPECT_GT(line["tiles_done"].get<std::int64_t>(), lastTiles);
        EXPECT_GT(line["elapsed_s"].get<double>(), lastElapsed);
        lastTiles = line["tiles_done"];
        lastElapsed = line["elapsed_s"];
    }
    EXPECT_EQ(Json::parse(all.front())["tiles_done"], 1);
    EXPECT_EQ(Json::parse(all.front())["event"], "progress");
    const Json last = Json::parse(all.back());
    EXPECT_EQ(last["event"], "done");
    EXPECT_EQ(last["tiles_done"], 35);
    EXPECT_EQ(last["cells_done"], 30000);
    EXPECT_EQ(last["elapsed_s"].get<double>(), 3.75);
}

TEST(ProgressTest, JsonOfAnInstantRunIsTheFirstAndTheDoneLine) {
    FakeClock t;
    std::ostringstream out;
    ProgressReporter reporter(ProgressStyle::Json, out, TileLayout(mapOf(64, 64, 32)), t.clock());
    for (std::int64_t i = 1; i <= 4; ++i) reporter.update(i, 4);
    reporter.finish();
    const auto all = lines(out.str());
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(Json::parse(all[1])["event"], "done");
    EXPECT_EQ(Json::parse(all[1])["cells_per_s"], 0);  // no time passed: no rate, no division
}

TEST(ProgressTest, JsonTellsEachFileOfTheWritingStageWithItsBytes) {
    FakeClock t;
    std::ostringstream out;
    ProgressReporter reporter(ProgressStyle::Json, out, TileLayout(mapOf(64, 64, 32)), t.clock());
    for (std::int64_t i = 1; i <= 4; ++i) reporter.update(i, 4);
    t.now += 0.5;
    reporter.fileWritten("out/height.tif", 12345);
    t.now += 0.25;
    reporter.fileWritten("out/a \"quoted\" name.json", 7);
    reporter.finish();
    const auto all = lines(out.str());
    ASSERT_EQ(all.size(), 4u) << out.str();
    const Json first = Json::parse(all[1]);
    EXPECT_EQ(first["event"], "file");
    EXPECT_EQ(first["file"], "out/height.tif");
    EXPECT_EQ(first["bytes"], 12345);
    EXPECT_EQ(first["elapsed_s"].get<double>(), 0.5);
    EXPECT_EQ(first["tiles_done"], 4);  // the progress line's fields, like every line
    EXPECT_EQ(Json::parse(all[2])["file"], "out/a \"quoted\" name.json");
    EXPECT_EQ(Json::parse(all[3])["event"], "done");
}

TEST(ProgressTest, BarSaysWritingFilesAfterTheLastTileThenNamesEachFile) {
    FakeClock t;
    std::ostringstream out;
    ProgressReporter reporter(ProgressStyle::Bar, out, TileLayout(mapOf(100, 100, 10)),
                              t.clock());
    t.now += 2;
    reporter.update(99, 100);
    t.now += 0.01;  // within the redraw interval: the last tile is drawn all the same
    reporter.update(100, 100);
    EXPECT_THAT(out.str(), testing::EndsWith("100/100 tiles  " +
                                             formatRate(10000 / 2.01) +
                                             "  elapsed 0:02  ETA 0:00  writing files\x1b[K"));
    reporter.fileWritten("out/height.tif", 2 << 20);
    EXPECT_THAT(out.str(), testing::EndsWith("  wrote out/height.tif (2.0 MiB)\x1b[K"));
    reporter.finish();
    EXPECT_THAT(out.str(), testing::EndsWith("ETA 0:00\x1b[K\n"));
}

}  // namespace
}  // namespace terragrid

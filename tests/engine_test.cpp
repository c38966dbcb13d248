// Game engines' size rules and scale figures (engine.hpp), and the 16-bit height mapping the
// engine outputs share (io/engines/height16.hpp).

#include "terragrid/model/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "io/engines/height16.hpp"

namespace terragrid {
namespace {

// ---------------------------------------------------------------------------------------------
// Sizes

TEST(EngineSizeTest, UnityTakesSquareTwoToTheNPlusOne) {
    for (std::int64_t n : {33, 65, 129, 257, 513, 1025, 2049, 4097}) {
        EXPECT_TRUE(engineAccepts(Engine::Unity, n, n)) << n;
    }
    EXPECT_FALSE(engineAccepts(Engine::Unity, 1024, 1024));
    EXPECT_FALSE(engineAccepts(Engine::Unity, 1025, 513)) << "not square";
    EXPECT_FALSE(engineAccepts(Engine::Unity, 17, 17)) << "below 33";
    EXPECT_FALSE(engineAccepts(Engine::Unity, 8193, 8193)) << "above 4097";
}

TEST(EngineSizeTest, UnitySnapsToTheSquareNearestTheLongerSide) {
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 1024, 1024), (EngineSize{1025, 1025}));
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 300, 1000), (EngineSize{1025, 1025}));
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 1000, 300), (EngineSize{1025, 1025}));
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 100, 50), (EngineSize{129, 129}));
    // Limits: the smallest and the largest there are.
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 1, 1), (EngineSize{33, 33}));
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 100000, 10), (EngineSize{4097, 4097}));
    // 49 lies 16 from both 33 and 65: the larger wins; one cell either side decides.
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 49, 49), (EngineSize{65, 65}));
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 48, 48), (EngineSize{33, 33}));
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 50, 50), (EngineSize{65, 65}));
    // An accepted size stays as it is.
    EXPECT_EQ(nearestEngineSize(Engine::Unity, 2049, 2049), (EngineSize{2049, 2049}));
}

TEST(EngineSizeTest, UnrealTakesTheRecommendedSizesOnEachSide) {
    const std::vector<std::int64_t> sides{127, 253, 505, 1009, 2017, 4033, 8129};
    for (std::int64_t w : sides) {
        for (std::int64_t h : sides) EXPECT_TRUE(engineAccepts(Engine::Unreal, w, h)) << w << h;
    }
    EXPECT_FALSE(engineAccepts(Engine::Unreal, 1025, 1025));
    EXPECT_FALSE(engineAccepts(Engine::Unreal, 1009, 1000));
    EXPECT_FALSE(engineAccepts(Engine::Unreal, 63, 63));
}

TEST(EngineSizeTest, UnrealSnapsEachSideOnItsOwn) {
    EXPECT_EQ(nearestEngineSize(Engine::Unreal, 1000, 1000), (EngineSize{1009, 1009}));
    // Not squared: 300 is 47 from 253 and 205 from 505.
    EXPECT_EQ(nearestEngineSize(Engine::Unreal, 1000, 300), (EngineSize{1009, 253}));
    EXPECT_EQ(nearestEngineSize(Engine::Unreal, 4000, 2100), (EngineSize{4033, 2017}));
    EXPECT_EQ(nearestEngineSize(Engine::Unreal, 10, 100000), (EngineSize{127, 8129}));
    // 190 is 63 from both 127 and 253: the larger.
    EXPECT_EQ(nearestEngineSize(Engine::Unreal, 190, 189), (EngineSize{253, 127}));
}

TEST(EngineSizeTest, GodotTakesTwoToTheNPlusOneOnEachSide) {
    EXPECT_TRUE(engineAccepts(Engine::Godot, 33, 16385));
    EXPECT_TRUE(engineAccepts(Engine::Godot, 8193, 1025)) << "need not be square";
    EXPECT_FALSE(engineAccepts(Engine::Godot, 32769, 32769)) << "above 16385";
    EXPECT_FALSE(engineAccepts(Engine::Godot, 17, 17)) << "below 33";
    EXPECT_FALSE(engineAccepts(Engine::Godot, 1024, 1025));

    EXPECT_EQ(nearestEngineSize(Engine::Godot, 1000, 2000), (EngineSize{1025, 2049}));
    EXPECT_EQ(nearestEngineSize(Engine::Godot, 20, 40000), (EngineSize{33, 16385}));
    // 1537 is 512 from both 1025 and 2049.
    EXPECT_EQ(nearestEngineSize(Engine::Godot, 1537, 1536), (EngineSize{2049, 1025}));
}

TEST(EngineSizeTest, NoneTakesAnySize) {
    EXPECT_TRUE(engineAccepts(Engine::None, 1, 1));
    EXPECT_TRUE(engineAccepts(Engine::None, 1000, 7));
    EXPECT_EQ(nearestEngineSize(Engine::None, 1000, 7), (EngineSize{1000, 7}));
}

TEST(EngineSizeTest, EveryEngineStatesItsRule) {
    for (std::size_t i = 0; i < kEngineNames.size(); ++i) {
        EXPECT_FALSE(engineSizeRule(static_cast<Engine>(i)).empty()) << kEngineNames[i];
    }
    EXPECT_EQ(engineSizeRule(Engine::Unity), "square 2^n+1 sizes from 33 to 4097");
}

// ---------------------------------------------------------------------------------------------
// Scale figures

// Worked by hand: elevation -100 .. 924 m (a 1024 m range), 2 m cells, 1009 x 505 samples.
//   Unreal X/Y scale: 2 m = 200 cm per quad -> 200.
//   Unreal Z scale: 1024 m * 100 / 512 = 200.
//   Unreal location Z: value 32768 sits at the actor, and at Z scale 200 a step is
//     200 / 128 cm, so value 0 is 32768 * 200 / 128 = 51200 cm below it; for value 0 to land
//     on -100 m = -10000 cm the actor goes to -10000 + 51200 = 41200 cm, the middle of the
//     range ((-100 + 924) / 2 = 412 m).
//   Unity: (1009 - 1) * 2 = 2016 m wide, (505 - 1) * 2 = 1008 m long, and 1024 * 65536 / 65535
//     = 1024.0156... m high, because Unity's Import Raw reads a value as v / 65536: 65535 then
//     lands at 1024 m.
//   Godot: height scale 1024.
TEST(EngineScaleTest, WorkedExample) {
    const EngineScale s = engineScale(-100.0, 924.0, 2.0, 2.0, 1009, 505);
    EXPECT_EQ(s.unrealScaleXPercent, 200.0);
    EXPECT_EQ(s.unrealScaleYPercent, 200.0);
    EXPECT_EQ(s.unrealScaleZPercent, 200.0);
    EXPECT_EQ(s.unrealLocationZCm, 41200.0);
    EXPECT_EQ(s.unityTerrainWidthMeters, 2016.0);
    EXPECT_EQ(s.unityTerrainLengthMeters, 1008.0);
    EXPECT_NEAR(s.unityTerrainHeightMeters, 1024.0156252384, 1e-9);
    EXPECT_DOUBLE_EQ(65535.0 / 65536.0 * s.unityTerrainHeightMeters, 1024.0);
    EXPECT_EQ(s.godotHeightScale, 1024.0);
}

// Unreal's own arithmetic (height h at LocationZ + (h - 32768) / 128 * ZScale cm) puts the
// figures' value 0 at the minimum and value 65535 within a step of the maximum.
TEST(EngineScaleTest, UnrealFiguresPutTheRangeWhereItBelongs) {
    const double minM = 37.5, maxM = 1801.25;
    const EngineScale s = engineScale(minM, maxM, 30.0, 30.0, 1009, 1009);
    const auto worldCm = [&](double h) {
        return s.unrealLocationZCm + (h - 32768.0) / 128.0 * s.unrealScaleZPercent;
    };
    EXPECT_NEAR(worldCm(0.0), minM * 100.0, 1e-6);
    const double stepCm = (maxM - minM) * 100.0 / 65535.0;
    EXPECT_NEAR(worldCm(65535.0), maxM * 100.0, stepCm);
    EXPECT_EQ(s.unrealScaleXPercent, 3000.0);
    EXPECT_EQ(s.unrealScaleYPercent, 3000.0);
}

// ---------------------------------------------------------------------------------------------
// The 16-bit mapping

TEST(Height16Test, EndpointsAreExact) {
    const double ranges[][2] = {{0.0, 1000.0}, {-12.3, 4567.89}, {-500.0, -499.9},
                                {0.1, 0.7},    {-8000.0, 9000.0}};
    for (const auto& range : ranges) {
        EXPECT_EQ(toHeight16(range[0], range[0], range[1]), 0) << range[0] << " " << range[1];
        EXPECT_EQ(toHeight16(range[1], range[0], range[1]), 65535) << range[0] << " " << range[1];
    }
}

// height16.tif's mapping keeps 65535 for nodata: no elevation, in the range or out of it,
// reaches it.
TEST(Height16Test, TifTopLeavesTheNodataValueUnused) {
    const double ranges[][2] = {{0.0, 1000.0}, {-12.3, 4567.89}, {-8000.0, 9000.0}};
    for (const auto& range : ranges) {
        EXPECT_EQ(toHeight16(range[0], range[0], range[1], kHeight16TifMax), 0);
        EXPECT_EQ(toHeight16(range[1], range[0], range[1], kHeight16TifMax), kHeight16TifMax);
        EXPECT_NEAR(fromHeight16(kHeight16TifMax, range[0], range[1], kHeight16TifMax), range[1],
                    1e-9 * std::abs(range[1] - range[0]));
        for (double e : {range[1] + 1.0, 1e300, std::numeric_limits<double>::infinity()})
            EXPECT_EQ(toHeight16(e, range[0], range[1], kHeight16TifMax), kHeight16TifMax) << e;
        // Every step of the range, densely: never above the top.
        std::uint16_t highest = 0;
        for (int i = 0; i <= 200000; ++i) {
            const double e = range[0] + (range[1] - range[0]) * i / 200000.0;
            highest = std::max(highest, toHeight16(e, range[0], range[1], kHeight16TifMax));
        }
        EXPECT_EQ(highest, kHeight16TifMax);
    }
    static_assert(kHeight16TifMax < kHeight16Nodata);
}

TEST(Height16Test, OutsideTheRangeClamps) {
    EXPECT_EQ(toHeight16(-1.0, 0.0, 100.0), 0);
    EXPECT_EQ(toHeight16(-1e300, 0.0, 100.0), 0);
    EXPECT_EQ(toHeight16(100.001, 0.0, 100.0), 65535);
    EXPECT_EQ(toHeight16(std::numeric_limits<double>::infinity(), 0.0, 100.0), 65535);
    EXPECT_EQ(toHeight16(-std::numeric_limits<double>::infinity(), 0.0, 100.0), 0);
    EXPECT_EQ(toHeight16(std::numeric_limits<double>::quiet_NaN(), 0.0, 100.0), 0);
    EXPECT_EQ(toHeight16(5.0, 10.0, 10.0), 0) << "an empty range";
}

// Over 0 .. 65535 m a step is a metre, so the rounding is easy to see.
TEST(Height16Test, RoundsToTheNearestStep) {
    const double maxM = 65535.0;
    EXPECT_EQ(toHeight16(1.0, 0.0, maxM), 1);
    EXPECT_EQ(toHeight16(1.25, 0.0, maxM), 1);
    EXPECT_EQ(toHeight16(1.75, 0.0, maxM), 2);
    EXPECT_EQ(toHeight16(0.5 - 1e-6, 0.0, maxM), 0);
    EXPECT_EQ(toHeight16(0.5 + 1e-6, 0.0, maxM), 1);
    EXPECT_EQ(toHeight16(65534.4, 0.0, maxM), 65534);
    EXPECT_EQ(toHeight16(65534.6, 0.0, maxM), 65535);
    EXPECT_EQ(toHeight16(32767.5 + 1e-6, 0.0, maxM), 32768);
    // An offset range: 1000 m above min is 1000 steps.
    EXPECT_EQ(toHeight16(-234.0 + 1000.2, -234.0, -234.0 + 65535.0), 1000);
}

// Rising elevations never give falling values, and a sweep finer than a step reaches every
// value: no gaps, no repeats out of order.
TEST(Height16Test, IsMonotoneAndReachesEveryValue) {
    const double minM = -50.5, maxM = 1234.25;
    const int samples = 300000;  // a step is ~0.0196 m, the sweep ~0.0043 m
    std::vector<bool> seen(65536, false);
    int previous = -1;
    for (int i = 0; i <= samples; ++i) {
        const double e = minM + (maxM - minM) * i / samples;
        const int v = toHeight16(e, minM, maxM);
        ASSERT_GE(v, previous) << "at " << e;
        previous = v;
        seen[static_cast<std::size_t>(v)] = true;
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0);
}

TEST(Height16Test, FromHeight16InvertsWithinHalfAStep) {
    const double minM = -12.3, maxM = 4567.89;
    const double step = (maxM - minM) / 65535.0;
    for (double e = minM; e <= maxM; e += 0.731) {
        EXPECT_NEAR(fromHeight16(toHeight16(e, minM, maxM), minM, maxM), e, step / 2 + 1e-9);
    }
    EXPECT_EQ(fromHeight16(0, minM, maxM), minM);
    EXPECT_DOUBLE_EQ(fromHeight16(65535, minM, maxM), maxM);
}

TEST(Height16Test, ConvertsArraysLikeSingleValues) {
    const std::vector<float> e{-5.0f, 0.0f, 12.5f, 99.99f, 100.0f, 250.0f};
    std::vector<std::uint16_t> out(e.size());
    toHeight16(e.data(), e.size(), 0.0, 100.0, out.data());
    for (std::size_t i = 0; i < e.size(); ++i) {
        EXPECT_EQ(out[i], toHeight16(static_cast<double>(e[i]), 0.0, 100.0)) << i;
    }
}

}  // namespace
}  // namespace terragrid

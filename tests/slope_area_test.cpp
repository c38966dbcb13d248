#include "terragrid/hydro/slope_area.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "hydro_terrain.hpp"
#include "terragrid/hydro/depressions.hpp"
#include "terragrid/hydro/erosion.hpp"
#include "terragrid/hydro/flow.hpp"

namespace terragrid::hydro {
namespace {

/// A channel draining west, cell i carrying accumulation length - i, built so that S = A^-theta
/// exactly: the fit must give theta back.
TEST(SlopeAreaTest, RecoversThePowerLawOfAChannel) {
    for (const double theta : {0.3, 0.45, 0.7}) {
        const std::int32_t length = 3000;
        Grid g{length, 1, 10.0, std::vector<float>(length, 0.0f)};
        std::vector<std::uint32_t> receiver(length);
        std::vector<float> accumulation(length);
        double z = 0;
        for (std::int32_t i = 0; i < length; ++i) {
            receiver[std::size_t(i)] = std::uint32_t(i == 0 ? 0 : i - 1);
            accumulation[std::size_t(i)] = float(length - i);
            if (i > 0) z += 10.0 * 2.0 * std::pow(double(length - i), -theta);
            g.z[std::size_t(i)] = float(z);
        }
        SlopeAreaOptions options;
        options.minAccumulation = 1;
        options.minCellsPerBin = 1;
        const SlopeAreaFit fit = fitSlopeArea(g, receiver, accumulation, options);
        EXPECT_NEAR(fit.theta, theta, 0.01);
        EXPECT_NEAR(fit.steepness, 2.0, 0.1);
        EXPECT_GT(fit.r2, 0.99);
        EXPECT_GT(fit.bins, 20u);
    }
}

TEST(SlopeAreaTest, LeavesOutFlatsLakesAndCellsWithoutReceiver) {
    Grid g{4, 1, 1.0, {0, 0, 0, 5}};
    const std::vector<std::uint32_t> receiver{kNoReceiver, 0, 1, 2};
    const std::vector<float> accumulation{400, 300, 200, 100};
    const SlopeAreaFit fit = fitSlopeArea(g, receiver, accumulation, SlopeAreaOptions{1, 0.1, 1});
    EXPECT_EQ(fit.cells, 1u);  // only the last cell has a positive slope
    EXPECT_TRUE(std::isnan(fit.theta));
}

/// Flint's law: the default map's noise eroded with m/n = 0.5 (relief mode, the default
/// parameters) has theta near 0.5 (0.45..0.48 here), inside 0.35..0.65; the raw noise does
/// not. Noise has no drainage network: its slope hardly depends on the area above a cell, and
/// what little it does comes from the broad lows of the first octave, which flatten toward
/// their bottoms (theta 0.1-0.25, see the README).
TEST(SlopeAreaTest, ErodedNoiseFollowsFlintsLawAndRawNoiseDoesNot) {
    const Outlets outlets;
    for (const char* seed : {"seed=7", "seed=2", "seed=5"}) {
        const test::NoiseTerrain t = test::noiseTerrain(256, {seed});
        const SlopeAreaFit raw = fitSlopeArea(t.metres, outlets, {});
        EXPECT_LT(raw.theta, 0.3) << seed;
        Grid g = t.metres;
        erode(g, test::defaultErosion(), outlets);
        const SlopeAreaFit eroded = fitSlopeArea(g, outlets, {});
        EXPECT_GE(eroded.theta, 0.35) << seed;
        EXPECT_LE(eroded.theta, 0.65) << seed;
        EXPECT_GT(eroded.r2, 0.95) << seed;
        EXPECT_GT(eroded.bins, 15u) << seed;
    }
}

/// With the noise as the uplift rate, rivers run from fast-rising ground to slow: at steady
/// state S = (U / K) A^-0.5 with U falling downstream, so the fitted theta comes out above
/// 0.5 (0.55..0.71 over seeds 1..5 and 7 at 256^2, see the README); far from the raw noise.
TEST(SlopeAreaTest, UpliftModeSteepensThetaByItsUpliftGradient) {
    const Outlets outlets;
    const test::NoiseTerrain t = test::noiseTerrain(256);
    Grid g = t.metres;
    erode(g, test::defaultErosion(), outlets, &t.unit);
    const SlopeAreaFit eroded = fitSlopeArea(g, outlets, {});
    EXPECT_GT(eroded.theta, 0.5);
    EXPECT_LT(eroded.theta, 0.75);
    EXPECT_GT(eroded.r2, 0.9);
}

/// The fit on the whole-map stage's routing (fill, then D8 on the filled surface) agrees with
/// the fit on the erosion model's own routing: the slopes come from the eroded surface either
/// way, and an eroded surface has hardly any depression left for the two to differ on.
TEST(SlopeAreaTest, HydrosRoutingGivesTheSameTheta) {
    const Outlets outlets;
    Grid g = test::noiseTerrain(256).metres;
    erode(g, test::defaultErosion(), outlets);
    Grid filled = g;
    filled.z = fillDepressions(g, outlets);
    const FlowRouting routing = routeFlow(filled, outlets);
    const std::vector<float> cells = accumulate(routing, nullptr);
    const SlopeAreaFit viaHydro = fitSlopeArea(g, routing.receiver, cells, {});
    const SlopeAreaFit own = fitSlopeArea(g, outlets, {});
    EXPECT_NEAR(viaHydro.theta, own.theta, 0.02);
    EXPECT_GT(viaHydro.cells, own.cells * 9 / 10);
}

}  // namespace
}  // namespace terragrid::hydro

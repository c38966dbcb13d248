#include "terragrid/hydro/slope_area.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "hydro_terrain.hpp"
#include "terragrid/hydro/erosion.hpp"

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

/// Flint's law: a noise map eroded with m/n = 0.5 has theta near 0.5 (0.35..0.65), in both
/// modes; the raw noise does not. Noise has no drainage network: its slopes hardly depend on
/// the area above them, so its theta is small (0.1-0.2 here, see the README).
TEST(SlopeAreaTest, ErodedNoiseFollowsFlintsLawAndRawNoiseDoesNot) {
    const test::NoiseTerrain t = test::noiseTerrain(256);
    const Outlets outlets;
    const SlopeAreaFit raw = fitSlopeArea(t.metres, outlets, {});
    EXPECT_FALSE(raw.theta >= 0.35 && raw.theta <= 0.65) << "raw noise theta " << raw.theta;
    for (const ErosionMode mode : {ErosionMode::Uplift, ErosionMode::Relief}) {
        Grid g = t.metres;
        erode(g, ErosionParams{}, outlets, mode == ErosionMode::Uplift ? &t.unit : nullptr);
        const SlopeAreaFit eroded = fitSlopeArea(g, outlets, {});
        EXPECT_GE(eroded.theta, 0.35) << kErosionModeNames[std::size_t(mode)];
        EXPECT_LE(eroded.theta, 0.65) << kErosionModeNames[std::size_t(mode)];
        EXPECT_GT(eroded.bins, 10u);
    }
}

}  // namespace
}  // namespace terragrid::hydro

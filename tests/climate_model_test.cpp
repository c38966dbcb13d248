// The climate model (climate/climate_model.hpp) on hand-made grids: temperature and its lapse
// rate, the rain shadow of a ridge across the wind (and its mirror when the wind turns), water
// that feeds the air, warmer air that rains more, the planet's bands, and the same bits for any
// thread count.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "terragrid/climate/climate_model.hpp"
#include "terragrid/config/loader.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

/// The built-in default's parameters: the tests check the model the program runs.
climate::Params defaults() { return defaultConfig().climate.model; }

/// A plane grid of w x h cells of `km`, at latitude `lat`, heights from `height(x, y)`, water
/// where `water(x, y)`.
climate::Grid planeGrid(std::int32_t w, std::int32_t h, double km, double lat,
                        const std::function<float(std::int32_t, std::int32_t)>& height,
                        const std::function<bool(std::int32_t, std::int32_t)>& water =
                            [](std::int32_t, std::int32_t) { return false; }) {
    climate::Grid g;
    g.width = w;
    g.height = h;
    g.columnCellKm = km;
    g.rowCellKm.assign(std::size_t(h), km);
    g.latitude.assign(std::size_t(h), lat);
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x) {
            g.surface.push_back(height(x, y));
            g.water.push_back(water(x, y) ? 1.0f : 0.0f);
        }
    return g;
}

/// Mean precipitation over the columns [x0, x1) of every row.
double meanOver(const climate::Grid& g, const std::vector<float>& p, std::int32_t x0,
                std::int32_t x1) {
    double sum = 0;
    for (std::int32_t y = 0; y < g.height; ++y)
        for (std::int32_t x = x0; x < x1; ++x) sum += p[std::size_t(y * g.width + x)];
    return sum / double(g.height * (x1 - x0));
}

TEST(ClimateModelTest, TemperatureFallsWithLatitudeAndWithElevationAtTheLapseRate) {
    const climate::Params p = defaults();
    EXPECT_DOUBLE_EQ(climate::seaLevelTemperature(p, 0), p.equatorTemperature);
    EXPECT_NEAR(climate::seaLevelTemperature(p, 90), p.poleTemperature, 1e-12);
    EXPECT_GT(climate::seaLevelTemperature(p, 30), climate::seaLevelTemperature(p, 60));
    EXPECT_EQ(climate::seaLevelTemperature(p, -40), climate::seaLevelTemperature(p, 40));
    for (const double z : {0.0, 250.0, 1000.0, 4321.5}) {
        const double sea = climate::seaLevelTemperature(p, 45);
        EXPECT_EQ(climate::temperature(p, 45, z), sea - p.lapseRate * z / 1000.0) << z;
    }
    // Below sea level the surface is as warm as at sea level (the sea floor under the water).
    EXPECT_EQ(climate::temperature(p, 45, -3000), climate::seaLevelTemperature(p, 45));
}

/// A north-south ridge 1500 m high across a westerly wind in the middle of a 120 km plain.
climate::Grid ridge() {
    return planeGrid(240, 24, 0.5, 45, [](std::int32_t x, std::int32_t) {
        const double d = (double(x) - 119.5) / 20.0;
        return float(1500.0 * std::exp(-d * d));
    });
}

TEST(ClimateModelTest, TheLeeOfARidgeGetsAtMostHalfTheWindwardRainAndTurningTheWindSwapsThem) {
    const climate::Grid g = ridge();
    climate::Params p = defaults();
    p.windMode = climate::WindMode::Fixed;
    p.windFromDegrees = 270;  // from the west: the west side is windward
    const std::vector<float> westerly = climate::precipitation(g, p);
    const double west = meanOver(g, westerly, 0, 120), east = meanOver(g, westerly, 120, 240);
    EXPECT_LE(east, 0.5 * west) << "west " << west << " east " << east;
    p.windFromDegrees = 90;  // from the east
    const std::vector<float> easterly = climate::precipitation(g, p);
    const double west2 = meanOver(g, easterly, 0, 120), east2 = meanOver(g, easterly, 120, 240);
    EXPECT_LE(west2, 0.5 * east2) << "west " << west2 << " east " << east2;
    // The ridge is symmetric: the mirror image, to rounding.
    EXPECT_NEAR(west2, east, 1e-3 * east);
    EXPECT_NEAR(east2, west, 1e-3 * west);
    // Rain peaks on the windward slope, not on the plain before it.
    EXPECT_GT(meanOver(g, westerly, 90, 120), 2 * meanOver(g, westerly, 0, 30));
}

TEST(ClimateModelTest, OpenWaterFeedsTheAirDownwind) {
    climate::Params p = defaults();
    p.windMode = climate::WindMode::Fixed;
    p.windFromDegrees = 270;
    p.inflowHumidity = 0.2;
    const auto flat = [](std::int32_t, std::int32_t) { return 100.0f; };
    const climate::Grid dry = planeGrid(200, 8, 2, 45, flat);
    const climate::Grid wet = planeGrid(200, 8, 2, 45, flat, [](std::int32_t x, std::int32_t) {
        return x < 100;  // 200 km of sea, then land
    });
    const std::vector<float> withSea = climate::precipitation(wet, p);
    const std::vector<float> without = climate::precipitation(dry, p);
    EXPECT_GT(meanOver(wet, withSea, 100, 200), 1.5 * meanOver(dry, without, 100, 200));
}

TEST(ClimateModelTest, WarmerAirRainsMore) {
    climate::Params p = defaults();
    p.windMode = climate::WindMode::Fixed;
    p.windFromDegrees = 270;
    const auto flat = [](std::int32_t, std::int32_t) { return 0.0f; };
    const auto sea = [](std::int32_t, std::int32_t) { return true; };
    double previous = 0;
    for (const double lat : {80.0, 60.0, 40.0, 20.0}) {
        const climate::Grid g = planeGrid(64, 4, 5, lat, flat, sea);
        // Rain of the same circulation factor: divide it out.
        const double rain = meanOver(g, climate::precipitation(g, p), 32, 64) /
                            climate::circulationFactor(lat);
        EXPECT_GT(rain, previous) << lat;
        previous = rain;
    }
}

/// A planet of w x w/2 cells: sea everywhere, with one continent of highlands.
climate::Grid planet(std::int32_t w) {
    climate::Grid g;
    g.width = w;
    g.height = w / 2;
    g.columnCellKm = 40000.0 / w;
    g.wrapX = true;
    for (std::int32_t y = 0; y < g.height; ++y) {
        const double lat = 90.0 - 180.0 * (y + 0.5) / g.height;
        g.latitude.push_back(lat);
        g.rowCellKm.push_back(g.columnCellKm * std::cos(lat * 3.14159265358979 / 180));
        for (std::int32_t x = 0; x < w; ++x) {
            const bool land = x > w / 4 && x < w / 2 && std::fabs(lat) < 50;
            g.surface.push_back(land ? float(500 + 1500 * std::sin(x * 0.3)) : 0.0f);
            g.water.push_back(land ? 0.0f : 1.0f);
        }
    }
    return g;
}

TEST(ClimateModelTest, APlanetsSeaRainsMostAtTheEquatorAndLeastUnderTheSubtropicalHighs) {
    const climate::Grid g = planet(128);
    climate::Params p = defaults();
    p.windMode = climate::WindMode::Bands;
    const std::vector<float> rain = climate::precipitation(g, p);
    const auto rowMean = [&](double lat) {
        std::int32_t y = 0;
        while (y + 1 < g.height && g.latitude[std::size_t(y)] > lat) ++y;
        double sum = 0;
        for (std::int32_t x = 0; x < g.width / 4; ++x) sum += rain[std::size_t(y * g.width + x)];
        return sum / (g.width / 4);
    };
    EXPECT_GT(rowMean(2), 1.5 * rowMean(28));
    EXPECT_GT(rowMean(-2), 1.5 * rowMean(-28));
    EXPECT_GT(rowMean(55), rowMean(28));
}

TEST(ClimateModelTest, SameBitsForOneTwoAndEightThreads) {
    for (const climate::WindMode mode : {climate::WindMode::Fixed, climate::WindMode::Bands}) {
        climate::Params p = defaults();
        p.windMode = mode;
        p.windFromDegrees = 200;  // mostly from the south: the sweep runs along the columns
        const climate::Grid g = planet(96);
        const auto run = [&] { return climate::precipitation(g, p); };
        const std::vector<float> one = test::inArena(1, run);
        EXPECT_EQ(test::inArena(2, run), one);
        EXPECT_EQ(test::inArena(8, run), one);
        const climate::Grid r = ridge();
        const auto runRidge = [&] { return climate::precipitation(r, p); };
        EXPECT_EQ(test::inArena(8, runRidge), test::inArena(1, runRidge));
    }
}

TEST(ClimateModelTest, RefusesAMalformedGrid) {
    climate::Grid g = ridge();
    g.water.pop_back();
    EXPECT_THROW(climate::precipitation(g, defaults()), std::invalid_argument);
}

}  // namespace
}  // namespace terragrid

#include "terragrid/model/terrain.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>


namespace terragrid {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr auto kLake = std::uint8_t(DefaultClass::Lake);
constexpr auto kMountain = std::uint8_t(DefaultClass::Mountain);
constexpr auto kForest = std::uint8_t(DefaultClass::Forest);
constexpr auto kDesert = std::uint8_t(DefaultClass::Desert);
constexpr auto kGround = std::uint8_t(DefaultClass::Ground);

// The thresholds of the original generator, on 0..1 (README "Terrain classes").
constexpr double kLakeBelow = 0.30;
constexpr double kMountainAbove = 0.72;
constexpr double kForestAbove = 0.64;
constexpr double kDesertBelow = 0.30;

Threshold byValue(double v) { return Threshold{v, false, 0}; }
Threshold byCoverage(double share) { return Threshold{0, true, share}; }

/// The default rules as config fills them: the five classes, thresholds by value.
TerrainConfig defaultRules() {
    TerrainConfig config;
    for (const DefaultClassInfo& info : kDefaultClasses)
        config.classes.push_back({std::string(info.name), info.colour, info.walkable});
    config.lakeBelow = byValue(kLakeBelow);
    config.mountainAbove = byValue(kMountainAbove);
    config.forestAbove = byValue(kForestAbove);
    config.desertBelow = byValue(kDesertBelow);
    return config;
}

Terrain defaultTerrain() { return resolveTerrain(defaultRules(), CoverageSample{}); }

double above(double v) { return std::nextafter(v, 2.0); }
double below(double v) { return std::nextafter(v, -1.0); }

TerrainClass box(std::string name, double h0, double h1, double m0, double m1,
                 bool walkable = true) {
    return TerrainClass{std::move(name), {}, walkable, h0, h1, m0, m1};
}

// --- the default rules at and around every threshold ------------------------------------------

TEST(TerrainTest, LakeAtAndBelowThreshold) {
    const Terrain t = defaultTerrain();
    EXPECT_EQ(t.classify(kLakeBelow, 0.5), kLake);
    EXPECT_EQ(t.classify(below(kLakeBelow), 0.5), kLake);
    EXPECT_EQ(t.classify(above(kLakeBelow), 0.5), kGround);
}

TEST(TerrainTest, MountainAtAndAboveThreshold) {
    const Terrain t = defaultTerrain();
    EXPECT_EQ(t.classify(kMountainAbove, 0.5), kMountain);
    EXPECT_EQ(t.classify(above(kMountainAbove), 0.5), kMountain);
    EXPECT_EQ(t.classify(below(kMountainAbove), 0.5), kGround);
}

TEST(TerrainTest, ForestAtAndAboveThreshold) {
    const Terrain t = defaultTerrain();
    EXPECT_EQ(t.classify(0.5, kForestAbove), kForest);
    EXPECT_EQ(t.classify(0.5, above(kForestAbove)), kForest);
    EXPECT_EQ(t.classify(0.5, below(kForestAbove)), kGround);
}

TEST(TerrainTest, DesertAtAndBelowThreshold) {
    const Terrain t = defaultTerrain();
    EXPECT_EQ(t.classify(0.5, kDesertBelow), kDesert);
    EXPECT_EQ(t.classify(0.5, below(kDesertBelow)), kDesert);
    EXPECT_EQ(t.classify(0.5, above(kDesertBelow)), kGround);
}

TEST(TerrainTest, CornersAndEdgesOfTheUnitSquare) {
    const Terrain t = defaultTerrain();
    EXPECT_EQ(t.classify(0, 0), kLake);
    EXPECT_EQ(t.classify(0, 1), kLake);
    EXPECT_EQ(t.classify(1, 0), kMountain);
    EXPECT_EQ(t.classify(1, 1), kMountain);
    EXPECT_EQ(t.classify(0.5, 0), kDesert);
    EXPECT_EQ(t.classify(0.5, 1), kForest);
}

TEST(TerrainTest, LakeAndMountainWinOverMoisture) {
    const Terrain t = defaultTerrain();
    for (double m : {0.0, kDesertBelow, 0.5, kForestAbove, 1.0}) {
        EXPECT_EQ(t.classify(kLakeBelow, m), kLake) << m;
        EXPECT_EQ(t.classify(kMountainAbove, m), kMountain) << m;
    }
}

TEST(TerrainTest, WalkabilityOfDefaultClasses) {
    const Terrain t = defaultTerrain();
    EXPECT_FALSE(t.walkable(kLake));
    EXPECT_FALSE(t.walkable(kMountain));
    EXPECT_TRUE(t.walkable(kForest));
    EXPECT_TRUE(t.walkable(kDesert));
    EXPECT_TRUE(t.walkable(kGround));
    ASSERT_EQ(t.classes().size(), kDefaultClasses.size());
    for (std::size_t i = 0; i < kDefaultClasses.size(); ++i)
        EXPECT_EQ(t.classes()[i].name, kDefaultClasses[i].name);
}

TEST(TerrainTest, DefaultTableTakesNamesColoursAndWalkabilityFromConfig) {
    TerrainConfig config = defaultRules();
    config.classes[kLake] = {"water", {1, 2, 3}, true};
    const auto table = defaultClassTable(config, 0.2, 0.8, 0.7, 0.1);
    EXPECT_EQ(table[kLake].name, "water");
    EXPECT_EQ(table[kLake].colour, (Rgb{1, 2, 3}));
    EXPECT_TRUE(table[kLake].walkable);
    EXPECT_EQ(table[kLake].heightMax, 0.2);
    EXPECT_EQ(table[kMountain].heightMin, 0.8);
    EXPECT_EQ(table[kForest].moistureMin, 0.7);
    EXPECT_EQ(table[kDesert].moistureMax, 0.1);

    config.classes.clear();  // not filled: the built-in names and colours
    const auto builtin = defaultClassTable(config, 0.2, 0.8, 0.7, 0.1);
    EXPECT_EQ(builtin[kLake].name, "lake");
    EXPECT_EQ(builtin[kLake].colour, kDefaultClasses[kLake].colour);
    EXPECT_FALSE(builtin[kLake].walkable);
}

TEST(TerrainTest, UsesCoverageOnlyForDefaultRulesWithACoverageThreshold) {
    TerrainConfig config = defaultRules();
    EXPECT_FALSE(config.usesCoverage());
    config.desertBelow = byCoverage(0.1);
    EXPECT_TRUE(config.usesCoverage());
    config.customClasses = true;
    EXPECT_FALSE(config.usesCoverage());
}

// --- custom tables ---------------------------------------------------------------------------

TEST(TerrainTest, CustomTableFirstMatchWins) {
    TerrainConfig config;
    config.customClasses = true;
    config.classes = {box("marsh", 0, 0.5, 0.5, 1, false), box("low", 0, 0.6, 0, 1),
                      box("rest", 0, 1, 0, 1)};
    const Terrain t = resolveTerrain(config, CoverageSample{});
    EXPECT_EQ(t.classes().size(), 3u);
    EXPECT_EQ(t.classify(0.4, 0.7), 0);  // in marsh and low: marsh is first
    EXPECT_EQ(t.classify(0.5, 0.5), 0);
    EXPECT_EQ(t.classify(0.4, 0.3), 1);
    EXPECT_EQ(t.classify(0.6, 0.9), 1);
    EXPECT_EQ(t.classify(above(0.6), 0.9), 2);
    EXPECT_FALSE(t.walkable(0));
    EXPECT_TRUE(t.walkable(1));
}

// A row classified at once gives every cell classify's class: the default table and an
// overlapping custom one, on every threshold, a step either side of it, random cells, the unit
// square's edges and NaN (the last class, as classify gives it).
TEST(TerrainTest, ARowHasTheClassesOfItsCells) {
    TerrainConfig custom;
    custom.customClasses = true;
    custom.classes = {box("marsh", 0, 0.5, 0.5, 1, false), box("low", 0, 0.6, 0, 1), box("ridge", 0.55, 0.9, 0.2, 0.4),
                      box("rest", 0, 1, 0, 1)};
    for (const Terrain& t : {defaultTerrain(), resolveTerrain(custom, CoverageSample{})}) {
        std::vector<double> values{0.0, 1.0, std::nan("")};
        for (const TerrainClass& c : t.classes())
            for (const double v : {c.heightMin, c.heightMax, c.moistureMin, c.moistureMax})
                for (const double w : {v, above(v), below(v)})
                    if (w >= 0 && w <= 1) values.push_back(w);
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (int i = 0; i < 200; ++i) values.push_back(unit(random));
        // Every pair of values, in rows of odd lengths so the loops' tails are crossed too.
        std::vector<double> height, moisture;
        for (const double h : values)
            for (const double m : values) height.push_back(h), moisture.push_back(m);
        for (const std::size_t length : {std::size_t{1}, std::size_t{7}, std::size_t{61}, height.size()}) {
            for (std::size_t start = 0; start < height.size(); start += length) {
                const std::size_t n = std::min(length, height.size() - start);
                std::vector<std::uint8_t> row(n, 0xEE);
                t.classifyRow(&height[start], &moisture[start], n, row.data());
                for (std::size_t i = 0; i < n; ++i) {
                    const double h = height[start + i], m = moisture[start + i];
                    const std::uint8_t want = std::isnan(h) || std::isnan(m) ? std::uint8_t(t.classes().size() - 1)
                                                                            : t.classify(h, m);
                    ASSERT_EQ(row[i], want) << h << ", " << m << " in a row of " << n;
                }
            }
        }
    }
}

// Hydrology's water takes the classes named lake and river; with lakes not by height, a custom
// table's lake and river match no cell, as the default table's lake does.
TEST(TerrainTest, WithoutLakesByHeightACustomLakeOrRiverClassMatchesNoCell) {
    TerrainConfig config;
    config.customClasses = true;
    config.classes = {box("lake", 0, 0.3, 0, 1, false), box("river", 0.3, 0.4, 0, 1, false),
                      box("land", 0, 1, 0, 1)};
    const Terrain byHeight = resolveTerrain(config, CoverageSample{});
    EXPECT_EQ(byHeight.classify(0.1, 0.5), 0);
    EXPECT_EQ(byHeight.classify(0.35, 0.5), 1);
    const Terrain water = resolveTerrain(config, CoverageSample{}, false);
    ASSERT_EQ(water.classes().size(), 3u);
    EXPECT_EQ(water.classes()[0].name, "lake");  // kept, for the stage's water to take
    EXPECT_FALSE(water.walkable(0));
    for (const double h : {0.0, 0.1, 0.3, 0.35, 0.4, 0.9, 1.0})
        for (const double m : {0.0, 0.5, 1.0}) EXPECT_EQ(water.classify(h, m), 2) << h;

    // The default table's rule, for comparison: its lake class matches nothing either.
    const Terrain defaults = resolveTerrain(defaultRules(), CoverageSample{}, false);
    for (const double h : {0.0, 0.1, kLakeBelow})
        EXPECT_NE(defaults.classify(h, 0.5), kLake) << h;
}

TEST(TerrainTest, WithoutWaterRangesEmptiesOnlyLakeAndRiver) {
    const std::vector<TerrainClass> classes =
        withoutWaterRanges({box("lake", 0, 0.3, 0, 1), box("Lake", 0, 0.3, 0, 1),
                            box("river", 0, 1, 0, 1), box("sea", 0, 0.2, 0, 1)});
    EXPECT_GT(classes[0].heightMin, classes[0].heightMax);
    EXPECT_EQ(classes[1].heightMax, 0.3) << "names match exactly";
    EXPECT_GT(classes[2].heightMin, classes[2].heightMax);
    EXPECT_EQ(classes[3].heightMax, 0.2);
    EXPECT_EQ(findGap(classes), "height 0.3..1 with moisture 0..1");
}

TEST(TerrainTest, FindGapInHeight) {
    const std::vector<TerrainClass> classes{box("low", 0, 0.3, 0, 1), box("high", 0.31, 1, 0, 1)};
    EXPECT_EQ(findGap(classes), "height 0.3..0.31 with moisture 0..1");
}

TEST(TerrainTest, FindGapInMoisture) {
    const std::vector<TerrainClass> classes{box("dry", 0, 1, 0, 0.25),
                                            box("wet", 0, 1, 0.5, 1)};
    EXPECT_EQ(findGap(classes), "height 0..1 with moisture 0.25..0.5");
}

TEST(TerrainTest, FindGapInOneCornerOnly) {
    const std::vector<TerrainClass> classes{box("a", 0, 0.5, 0, 1), box("b", 0.5, 1, 0, 0.5),
                                            box("c", 0.8, 1, 0.5, 1)};
    EXPECT_EQ(findGap(classes), "height 0.5..0.8 with moisture 0.5..1");
}

TEST(TerrainTest, FindGapBetweenRangesAFewUlpsApart) {
    // The thin open strip between 0.3 and 0.30000001 still holds cells' values.
    const std::vector<TerrainClass> classes{box("a", 0, 0.3, 0, 1),
                                            box("b", 0.30000001, 1, 0, 1)};
    EXPECT_EQ(findGap(classes), "height 0.3..0.30000001 with moisture 0..1");
}

TEST(TerrainTest, NoGapBetweenConsecutiveDoubles) {
    // No double lies strictly between 0.3 and the next double, so no cell can be unclassified.
    const std::vector<TerrainClass> classes{box("a", 0, 0.3, 0, 1), box("b", above(0.3), 1, 0, 1)};
    EXPECT_EQ(findGap(classes), std::nullopt);
}

TEST(TerrainTest, NoGapWhenOneClassCoversAll) {
    EXPECT_EQ(findGap({box("all", 0, 1, 0, 1)}), std::nullopt);
    EXPECT_EQ(findGap(defaultClassTable(defaultRules(), kLakeBelow, kMountainAbove,
                                        kForestAbove, kDesertBelow)),
              std::nullopt);
}

TEST(TerrainTest, NoGapWhenOnlyTheUnionCovers) {
    // Four quadrants sharing their edges and the centre point: closed ranges that share an
    // endpoint leave no gap, not even a point.
    const std::vector<TerrainClass> quadrants{
        box("sw", 0, 0.5, 0, 0.5), box("se", 0.5, 1, 0, 0.5), box("nw", 0, 0.5, 0.5, 1),
        box("ne", 0.5, 1, 0.5, 1)};
    EXPECT_EQ(findGap(quadrants), std::nullopt);
    // Overlapping bands that reach past [0, 1] and an empty class in between.
    const std::vector<TerrainClass> bands{box("low", -1, 0.4, 0, 1), box("empty", 0.7, 0.2, 0, 1),
                                          box("mid", 0.3, 0.7, 0, 0.6),
                                          box("midwet", 0.35, 0.7, 0.6, 2),
                                          box("high", 0.7, 1, 0, 1)};
    EXPECT_EQ(findGap(bands), std::nullopt);
}

TEST(TerrainTest, FindGapWhenAClassStopsShortOfOne) {
    EXPECT_EQ(findGap({box("almost", 0, 1, 0, 0.99)}), "height 0..1 with moisture 0.99..1");
    EXPECT_EQ(findGap({box("empty", 0.5, 0.2, 0, 1)}), "height 0..1 with moisture 0..1");
}

// --- thresholds from coverage ------------------------------------------------------------------

/// n cells with evenly spaced, distinct heights 0..1 and moisture spread by a golden-ratio
/// sequence (distinct too).
CoverageSample spacedSample(int n) {
    CoverageSample s;
    for (int i = 0; i < n; ++i) {
        s.height.push_back(double(i) / (n - 1));
        s.moisture.push_back(std::fmod(i * 0.6180339887498949 + 0.1, 1.0));
    }
    return s;
}

/// n cells whose heights take 10 values and moistures 8 values, each equally often.
CoverageSample tiedSample(int n) {
    CoverageSample s;
    for (int i = 0; i < n; ++i) {
        s.height.push_back((i % 10) / 9.0);
        s.moisture.push_back(((i / 10) % 8) / 7.0);
    }
    return s;
}

/// The share of the sample's cells in each class.
std::vector<double> classShares(const Terrain& t, const CoverageSample& s) {
    std::vector<std::int64_t> counts(t.classes().size(), 0);
    for (std::size_t i = 0; i < s.height.size(); ++i) ++counts[t.classify(s.height[i], s.moisture[i])];
    std::vector<double> shares;
    for (std::int64_t count : counts) shares.push_back(double(count) / double(s.height.size()));
    return shares;
}

TerrainConfig coverageRules(double lake, double mountain, double forest, double desert) {
    TerrainConfig config = defaultRules();
    config.lakeBelow = byCoverage(lake);
    config.mountainAbove = byCoverage(mountain);
    config.forestAbove = byCoverage(forest);
    config.desertBelow = byCoverage(desert);
    return config;
}

TEST(TerrainTest, CoverageSharesWithinOneCellOfTargets) {
    for (int n : {10, 97, 1000}) {
        const CoverageSample sample = spacedSample(n);
        const Terrain t = resolveTerrain(coverageRules(0.2, 0.15, 0.25, 0.1), sample);
        const std::vector<double> shares = classShares(t, sample);
        const double tolerance = 1.0 / n + 1e-12;
        EXPECT_NEAR(shares[kLake], 0.2, tolerance) << n;
        EXPECT_NEAR(shares[kMountain], 0.15, tolerance) << n;
        EXPECT_NEAR(shares[kForest], 0.25, tolerance) << n;
        EXPECT_NEAR(shares[kDesert], 0.1, tolerance) << n;
        EXPECT_NEAR(shares[kGround], 0.3, 4 * tolerance) << n;
    }
}

TEST(TerrainTest, CoverageWithTiesHitsReachableTargets) {
    // Heights come in tenths of the sample and moisture in eighths of what is left, so these
    // targets are reachable exactly despite the ties.
    const int n = 800;
    const CoverageSample sample = tiedSample(n);
    const Terrain t = resolveTerrain(coverageRules(0.3, 0.2, 0.125, 0.25), sample);
    const std::vector<double> shares = classShares(t, sample);
    EXPECT_NEAR(shares[kLake], 0.3, 1.0 / n);
    EXPECT_NEAR(shares[kMountain], 0.2, 1.0 / n);
    EXPECT_NEAR(shares[kForest], 0.125, 1.0 / n);
    EXPECT_NEAR(shares[kDesert], 0.25, 1.0 / n);
}

TEST(TerrainTest, CoverageWithTiesPicksTheClosestReachableShare) {
    const CoverageSample sample = tiedSample(800);  // lake can be 0, 0.1, 0.2, ... of the map
    TerrainConfig config = defaultRules();
    config.lakeBelow = byCoverage(0.27);
    EXPECT_NEAR(classShares(resolveTerrain(config, sample), sample)[kLake], 0.3, 1e-12);
    config.lakeBelow = byCoverage(0.23);
    EXPECT_NEAR(classShares(resolveTerrain(config, sample), sample)[kLake], 0.2, 1e-12);
    config.lakeBelow = byCoverage(0.25);  // halfway: the smaller share
    EXPECT_NEAR(classShares(resolveTerrain(config, sample), sample)[kLake], 0.2, 1e-12);
    config.lakeBelow = byCoverage(0.04);
    EXPECT_EQ(classShares(resolveTerrain(config, sample), sample)[kLake], 0.0);
}

/// The count closest to `target` that a threshold can select from `values` (0, or the number
/// of values up to and including one of them), the smaller on ties: brute force.
std::int64_t closestReachableCount(std::vector<double> values, double target) {
    std::sort(values.begin(), values.end());
    std::int64_t best = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i + 1 < values.size() && values[i + 1] == values[i]) continue;
        const auto count = std::int64_t(i + 1);
        if (std::abs(double(count) - target) < std::abs(double(best) - target)) best = count;
    }
    return best;
}

TEST(TerrainTest, CoverageCountIsTheClosestReachableOnRandomTies) {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        CoverageSample sample;
        const int levels = 2 + int(rng() % 9);
        const int n = 1 + int(rng() % 300);
        for (int i = 0; i < n; ++i) {
            sample.height.push_back(double(rng() % levels) / (levels - 1));
            sample.moisture.push_back(0.5);
        }
        std::vector<double> flipped;  // "height >= v" counts are "1 - height <= 1 - v" counts
        for (double h : sample.height) flipped.push_back(1 - h);
        for (int k = 0; k <= 20; ++k) {
            const double coverage = k / 20.0;
            const double target = coverage * n;
            SCOPED_TRACE("n " + std::to_string(n) + ", coverage " + std::to_string(coverage));
            const TerrainConfig lakeOnly = coverageRules(coverage, 0, 0, 0);
            const auto lakeShare = classShares(resolveTerrain(lakeOnly, sample), sample)[kLake];
            EXPECT_EQ(std::llround(lakeShare * n), closestReachableCount(sample.height, target));
            const TerrainConfig mountainOnly = coverageRules(0, coverage, 0, 0);
            const auto mountainShare =
                classShares(resolveTerrain(mountainOnly, sample), sample)[kMountain];
            EXPECT_EQ(std::llround(mountainShare * n), closestReachableCount(flipped, target));
        }
    }
}

TEST(TerrainTest, CoverageIsDeterministicAndIgnoresSampleOrder) {
    const TerrainConfig config = coverageRules(0.2, 0.15, 0.25, 0.1);
    for (const CoverageSample& sample : {spacedSample(500), tiedSample(500)}) {
        const Terrain first = resolveTerrain(config, sample);
        const Terrain again = resolveTerrain(config, sample);
        CoverageSample shuffled = sample;
        std::vector<std::size_t> order(sample.height.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::mt19937_64 rng(12345);
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i = 0; i < order.size(); ++i) {
            shuffled.height[i] = sample.height[order[i]];
            shuffled.moisture[i] = sample.moisture[order[i]];
        }
        const Terrain reordered = resolveTerrain(config, shuffled);
        for (const Terrain* other : {&again, &reordered}) {
            for (std::size_t c = 0; c < first.classes().size(); ++c) {
                const TerrainClass& a = first.classes()[c];
                const TerrainClass& b = other->classes()[c];
                EXPECT_EQ(a.heightMin, b.heightMin);
                EXPECT_EQ(a.heightMax, b.heightMax);
                EXPECT_EQ(a.moistureMin, b.moistureMin);
                EXPECT_EQ(a.moistureMax, b.moistureMax);
            }
        }
    }
}

/// Matches a TerrainError whose problem() matches `m`.
template <typename M>
auto ThrowsProblem(M m) {
    return ::testing::Throws<TerrainError>(::testing::Property(&TerrainError::problem, m));
}

using Rule = TerrainProblem::Rule;
using ::testing::Field;

TEST(TerrainTest, UnreachableForestCoverageThrows) {
    // 30 lake and 28 mountain cells of 100 leave 0.42 of the map for forest.
    const CoverageSample sample = spacedSample(100);
    EXPECT_THAT([&] { resolveTerrain(coverageRules(0.3, 0.28, 0.6, 0), sample); },
                ThrowsProblem(AllOf(
                    Field(&TerrainProblem::rule, Rule::CoverageUnreachable),
                    Field(&TerrainProblem::threshold, DefaultClass::Forest),
                    Field(&TerrainProblem::given, Field(&Threshold::coverage, 0.6)),
                    Field(&TerrainProblem::availableShare, 0.42))));
    // All of what is left is reachable.
    const Terrain t = resolveTerrain(coverageRules(0.3, 0.28, 0.42, 0), sample);
    EXPECT_NEAR(classShares(t, sample)[kForest], 0.42, 1e-12);
}

TEST(TerrainTest, UnreachableDesertCoverageThrows) {
    const CoverageSample sample = spacedSample(100);
    EXPECT_THAT([&] { resolveTerrain(coverageRules(0.3, 0.28, 0.3, 0.2), sample); },
                ThrowsProblem(AllOf(
                    Field(&TerrainProblem::rule, Rule::CoverageUnreachable),
                    Field(&TerrainProblem::threshold, DefaultClass::Desert),
                    Field(&TerrainProblem::given, Field(&Threshold::coverage, 0.2)),
                    Field(&TerrainProblem::availableShare, 0.12))));
}

TEST(TerrainTest, OverlappingLakeAndMountainCoverageThrows) {
    const CoverageSample sample = spacedSample(100);
    const auto order = [](double lakeCoverage, double mountainCoverage) {
        return AllOf(Field(&TerrainProblem::rule, Rule::ThresholdOrder),
                     Field(&TerrainProblem::threshold, DefaultClass::Lake),
                     Field(&TerrainProblem::given, Field(&Threshold::coverage, lakeCoverage)),
                     Field(&TerrainProblem::above, DefaultClass::Mountain),
                     Field(&TerrainProblem::aboveGiven,
                           Field(&Threshold::coverage, mountainCoverage)));
    };
    EXPECT_THAT([&] { resolveTerrain(coverageRules(0.6, 0.5, 0, 0), sample); },
                ThrowsProblem(AllOf(order(0.6, 0.5),
                                    Field(&TerrainProblem::resolved, ::testing::Ge(0.5)))));
    TerrainConfig config = defaultRules();
    config.lakeBelow = byCoverage(1);  // everything lake: the mountain value 0.72 is below it
    EXPECT_THAT([&] { resolveTerrain(config, sample); },
                ThrowsProblem(AllOf(order(1, 0), Field(&TerrainProblem::resolved, 1.0),
                                    Field(&TerrainProblem::aboveGiven,
                                          Field(&Threshold::byCoverage, false)),
                                    Field(&TerrainProblem::aboveResolved, 0.72))));
}

TEST(TerrainTest, CoverageZeroSelectsNothing) {
    const CoverageSample sample = spacedSample(200);  // holds heights 0 and 1 exactly
    const Terrain t = resolveTerrain(coverageRules(0, 0, 0, 0), sample);
    const std::vector<double> shares = classShares(t, sample);
    EXPECT_EQ(shares[kLake], 0);
    EXPECT_EQ(shares[kMountain], 0);
    EXPECT_EQ(shares[kForest], 0);
    EXPECT_EQ(shares[kDesert], 0);
    // Not only on the sample: no height or moisture in [0, 1] reaches these classes.
    EXPECT_EQ(t.classify(0, 0.5), kGround);
    EXPECT_EQ(t.classify(1, 0.5), kGround);
    EXPECT_EQ(t.classify(0.5, 0), kGround);
    EXPECT_EQ(t.classify(0.5, 1), kGround);
}

TEST(TerrainTest, CoverageOneSelectsEverything) {
    const CoverageSample sample = spacedSample(200);
    const Terrain lake = resolveTerrain(coverageRules(1, 0, 0, 0), sample);
    EXPECT_EQ(lake.classes()[kLake].heightMax, 1);
    EXPECT_EQ(classShares(lake, sample)[kLake], 1);
    const Terrain mountain = resolveTerrain(coverageRules(0, 1, 0, 0), sample);
    EXPECT_EQ(mountain.classes()[kMountain].heightMin, 0);
    EXPECT_EQ(classShares(mountain, sample)[kMountain], 1);
    const Terrain forest = resolveTerrain(coverageRules(0, 0, 1, 0), sample);
    EXPECT_EQ(forest.classify(0.5, 0), kForest);
    const Terrain desert = resolveTerrain(coverageRules(0, 0, 0, 1), sample);
    EXPECT_EQ(desert.classify(0.5, 1), kDesert);
}

TEST(TerrainTest, DesertTakingAllThatIsLeftStaysBelowForest) {
    // 30 lake, 28 mountain and 20 forest cells of 100 leave 22 for desert.
    const CoverageSample sample = spacedSample(100);
    const Terrain t = resolveTerrain(coverageRules(0.3, 0.28, 0.2, 0.22), sample);
    EXPECT_LT(t.classes()[kDesert].moistureMax, t.classes()[kForest].moistureMin);
    const std::vector<double> shares = classShares(t, sample);
    EXPECT_NEAR(shares[kDesert], 0.22, 1e-12);
    EXPECT_EQ(shares[kGround], 0);
}

TEST(TerrainTest, ValueThresholdsStayAsGivenBesideCoverage) {
    const CoverageSample sample = spacedSample(1000);
    TerrainConfig config = defaultRules();
    config.forestAbove = byCoverage(0.1);
    const Terrain t = resolveTerrain(config, sample);
    EXPECT_EQ(t.classes()[kLake].heightMax, kLakeBelow);
    EXPECT_EQ(t.classes()[kMountain].heightMin, kMountainAbove);
    EXPECT_EQ(t.classes()[kDesert].moistureMax, kDesertBelow);
    EXPECT_NEAR(classShares(t, sample)[kForest], 0.1, 1.0 / 1000);
}

}  // namespace
}  // namespace terragrid

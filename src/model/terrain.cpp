// Terrain classes: first-match classification, the default and biome tables, the coverage
// check of a custom table, and turning coverage targets into thresholds.

#include "terragrid/model/terrain.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <functional>
#include <utility>

#include "model/axis_pieces.hpp"
#include "model/class_gaps.hpp"

namespace terragrid {

std::string hexColour(const Rgb& colour) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text = "#";
    for (const std::uint8_t channel : {colour.r, colour.g, colour.b}) {
        text += kDigits[channel >> 4];
        text += kDigits[channel & 15];
    }
    return text;
}

namespace {

// Threshold values that put no cell (or every cell) on one side: every height and moisture
// lies in [0, 1], so "<= -1" and ">= 2" match nothing.
constexpr double kBelowEverything = -1;
constexpr double kAboveEverything = 2;

// The four tests all made (& rather than &&): no branch per test, so a row of them
// (Terrain::classifyRow) runs in vector lanes; with && the classes' tile was 8 % slower.
bool contains(const TerrainClass& c, double height, double moisture) noexcept {
    return (height >= c.heightMin) & (height <= c.heightMax) & (moisture >= c.moistureMin) &
           (moisture <= c.moistureMax);
}

bool containsAll(const TerrainClass& c, const CellTraits& v) noexcept {
    return contains(c, v.height, v.moisture) && v.temperature >= c.temperatureMin &&
           v.temperature <= c.temperatureMax && v.precipitation >= c.precipitationMin &&
           v.precipitation <= c.precipitationMax && v.slope >= c.slopeMin &&
           v.slope <= c.slopeMax;
}

/// The shortest text that reads back as `value` ("0.3", "0.30000001").
std::string formatNumber(double value) {
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, result.ptr);
}

// ---------------------------------------------------------------------------------------------
// findGap: the arrangement of range endpoints.

bool coveredAt(const std::vector<TerrainClass>& classes, double height, double moisture) {
    return std::any_of(classes.begin(), classes.end(),
                       [&](const TerrainClass& c) { return contains(c, height, moisture); });
}

/// "0.3" for a point, "0.3..0.31" for an interval (its ends may be open or closed).
std::string describeSpan(const AxisPiece& first, const AxisPiece& last) {
    if (first.lo == last.hi) return formatNumber(first.lo);
    return formatNumber(first.lo) + ".." + formatNumber(last.hi);
}

// ---------------------------------------------------------------------------------------------
// resolveTerrain: thresholds from coverage targets.

/// The threshold v that selects the number of `values` closest to `target`, where `before`
/// is std::less (select value <= v) or std::greater (select value >= v). Ties in closeness:
/// the smaller number. Selecting nothing gives `none` and everything `all`, values beyond or at
/// the far end of [0, 1], so cells outside the sample follow the same intent.
template <class Before>
double thresholdForCount(std::vector<double> values, double target, Before before, double none,
                         double all) {
    const std::size_t n = values.size();
    if (n == 0) return none;
    // A threshold cannot split equal values, so the counts it can select are 0 and the ends of
    // the runs of equal values in sorted order. The run holding sorted position floor(target)
    // brackets the target: its two ends are the only candidates.
    const std::size_t at = std::min(static_cast<std::size_t>(target), n - 1);
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(at), values.end(), before);
    const double pivot = values[at];
    std::size_t countBefore = 0;   // values sorted before the pivot's run
    std::size_t countThrough = 0;  // ... and through its end
    double lastBefore = none;      // the threshold that selects exactly countBefore values
    for (const double v : values) {
        if (before(v, pivot)) {
            if (countBefore++ == 0 || before(lastBefore, v)) lastBefore = v;
        }
        if (!before(pivot, v)) ++countThrough;
    }
    const bool takeBefore = std::abs(double(countBefore) - target) <=
                            std::abs(double(countThrough) - target);
    const std::size_t count = takeBefore ? countBefore : countThrough;
    if (count == 0) return none;
    if (count == n) return all;
    return takeBefore ? lastBefore : pivot;
}

/// "value <= v" selecting about `target` values, and "value >= v" likewise.
double thresholdBelow(const std::vector<double>& values, double target) {
    return thresholdForCount(values, target, std::less<>(), kBelowEverything, 1.0);
}
double thresholdAbove(const std::vector<double>& values, double target) {
    return thresholdForCount(values, target, std::greater<>(), kAboveEverything, 0.0);
}

/// The moisture of the sample cells no earlier class (by the resolved thresholds) has taken.
std::vector<double> moistureLeft(const CoverageSample& sample, double lake, double mountain,
                                 double forest) {
    std::vector<double> left;
    for (std::size_t i = 0; i < sample.height.size(); ++i) {
        const double h = sample.height[i];
        const double m = sample.moisture[i];
        if (h > lake && h < mountain && m < forest) left.push_back(m);
    }
    return left;
}

/// The threshold for the moisture class `which`, given by coverage of the whole map, chosen
/// among the cells `left` for it; throws when there are fewer such cells than the target asks
/// for.
double moistureThreshold(DefaultClass which, const Threshold& t, const std::vector<double>& left,
                         std::size_t n, bool above) {
    const double target = t.coverage * double(n);
    // A target equal to the cells left, computed from a rounded share, may exceed it by a few
    // ulps: that is reachable.
    if (target - double(left.size()) > 1e-9 * double(n)) {
        TerrainProblem problem{.rule = TerrainProblem::Rule::CoverageUnreachable,
                               .threshold = which,
                               .given = t,
                               .availableShare = double(left.size()) / double(n)};
        throw TerrainError(problem);
    }
    return above ? thresholdAbove(left, target) : thresholdBelow(left, target);
}

std::string_view className(DefaultClass c) { return kDefaultClasses[std::size_t(c)].name; }

/// What a TerrainError says without config keys.
std::string describeProblem(const TerrainProblem& p) {
    const std::string name(className(p.threshold));
    if (p.rule == TerrainProblem::Rule::CoverageUnreachable)
        return "terrain: the " + name + " coverage " + formatNumber(p.given.coverage) +
               " cannot be reached: only " + formatNumber(p.availableShare) +
               " of the map is left for it";
    return "terrain: the " + name + " threshold (" + formatNumber(p.resolved) +
           ") must be below the " + std::string(className(p.above)) + " threshold (" +
           formatNumber(p.aboveResolved) + ")";
}

}  // namespace

TerrainError::TerrainError(const TerrainProblem& problem)
    : std::runtime_error(describeProblem(problem)), m_problem(problem) {}

bool TerrainConfig::usesCoverage() const noexcept {
    if (customClasses) return false;
    if (model == TerrainModel::Climate) return lakeBelow.byCoverage;
    return lakeBelow.byCoverage || mountainAbove.byCoverage || forestAbove.byCoverage ||
           desertBelow.byCoverage;
}

const Threshold& TerrainConfig::threshold(DefaultClass c) const noexcept {
    assert(c != DefaultClass::Ground);
    switch (c) {
        case DefaultClass::Lake: return lakeBelow;
        case DefaultClass::Mountain: return mountainAbove;
        case DefaultClass::Forest: return forestAbove;
        default: return desertBelow;
    }
}

bool TerrainClass::restrictsClimate() const noexcept {
    return temperatureMin > kMinTemperature || temperatureMax < kMaxTemperature ||
           precipitationMin > 0 || precipitationMax < kMaxPrecipitation;
}

bool TerrainClass::restrictsSlope() const noexcept { return slopeMin > 0 || slopeMax < kMaxSlope; }

Terrain::Terrain(std::vector<TerrainClass> classes) : m_classes(std::move(classes)) {
    assert(!m_classes.empty() && m_classes.size() <= 255);
    assert(!findGap(m_classes));
    for (std::size_t i = 0; i < m_classes.size() && i < m_walkable.size(); ++i)
        m_walkable[i] = m_classes[i].walkable;
    for (const TerrainClass& c : m_classes) {
        m_usesClimate = m_usesClimate || c.restrictsClimate();
        m_usesSlope = m_usesSlope || c.restrictsSlope();
        m_usesMoisture = m_usesMoisture || c.moistureMin > 0 || c.moistureMax < 1;
    }
}

std::uint8_t Terrain::classify(double height, double moisture) const noexcept {
    assert(height >= 0 && height <= 1 && moisture >= 0 && moisture <= 1);
    std::uint8_t cls;
    classifyRow(&height, &moisture, 1, &cls);
    return cls;
}

void Terrain::classifyRow(const double* height, const double* moisture, std::size_t count,
                          std::uint8_t* out) const noexcept {
    // The last class first, each earlier one taking the cells its box holds: the first box
    // holding a cell has the last word. The table covers [0, 1]^2, so only the last class is
    // left for a cell no other box holds; should a value outside it (NaN) slip past, the last
    // class is a defined answer and nothing throws.
    const auto last = static_cast<std::uint8_t>(m_classes.size() - 1);
    std::fill_n(out, count, last);
    for (std::size_t k = last; k-- > 0;) {
        const TerrainClass& c = m_classes[k];
        const auto index = static_cast<std::uint8_t>(k);
        for (std::size_t i = 0; i < count; ++i) out[i] = contains(c, height[i], moisture[i]) ? index : out[i];
    }
}

std::uint8_t Terrain::classify(const CellTraits& cell) const noexcept {
    CellTraits v = cell;
    v.temperature = std::clamp(v.temperature, kMinTemperature, kMaxTemperature);
    v.precipitation = std::clamp(v.precipitation, 0.0, kMaxPrecipitation);
    v.slope = std::clamp(v.slope, 0.0, kMaxSlope);
    const std::size_t count = m_classes.size();
    for (std::size_t i = 0; i + 1 < count; ++i)
        if (containsAll(m_classes[i], v)) return static_cast<std::uint8_t>(i);
    return static_cast<std::uint8_t>(count - 1);
}

std::vector<TerrainClass> biomeClassTable(double lake, double rockSlopeDegrees) {
    std::vector<TerrainClass> table;
    for (const BiomeInfo& b : kBiomes)
        table.push_back({.name = std::string(b.name),
                         .colour = b.colour,
                         .walkable = b.walkable,
                         .temperatureMin = b.temperatureMin,
                         .temperatureMax = b.temperatureMax,
                         .precipitationMin = b.precipitationMin,
                         .precipitationMax = b.precipitationMax});
    table[std::size_t(Biome::Lake)].heightMax = lake;
    table[std::size_t(Biome::Rock)].slopeMin = rockSlopeDegrees;
    return table;
}

std::vector<TerrainClass> defaultClassTable(const TerrainConfig& config, double lake,
                                            double mountain, double forest, double desert) {
    std::vector<TerrainClass> table(kDefaultClasses.size());
    const bool fromConfig = config.classes.size() == kDefaultClasses.size();
    for (std::size_t i = 0; i < table.size(); ++i) {
        TerrainClass& c = table[i];
        if (fromConfig) {
            c.name = config.classes[i].name;
            c.colour = config.classes[i].colour;
            c.walkable = config.classes[i].walkable;
        } else {
            c.name = std::string(kDefaultClasses[i].name);
            c.colour = kDefaultClasses[i].colour;
            c.walkable = kDefaultClasses[i].walkable;
        }
    }
    table[std::size_t(DefaultClass::Lake)].heightMax = lake;
    table[std::size_t(DefaultClass::Mountain)].heightMin = mountain;
    table[std::size_t(DefaultClass::Forest)].moistureMin = forest;
    table[std::size_t(DefaultClass::Desert)].moistureMax = desert;
    return table;
}

std::optional<std::string> findGap(const std::vector<TerrainClass>& classes) {
    if (std::any_of(classes.begin(), classes.end(), [](const TerrainClass& c) {
            return c.restrictsClimate() || c.restrictsSlope();
        }))
        return findClimateGap(classes);
    std::vector<double> heightEnds, moistureEnds;
    for (const TerrainClass& c : classes) {
        heightEnds.insert(heightEnds.end(), {c.heightMin, c.heightMax});
        moistureEnds.insert(moistureEnds.end(), {c.moistureMin, c.moistureMax});
    }
    const std::vector<AxisPiece> hs = axisPieces(std::move(heightEnds), 0, 1);
    const std::vector<AxisPiece> ms = axisPieces(std::move(moistureEnds), 0, 1);
    const auto uncovered = [&](std::size_t i, std::size_t j) {
        return !coveredAt(classes, hs[i].probe, ms[j].probe);
    };
    for (std::size_t i = 0; i < hs.size(); ++i) {
        for (std::size_t j = 0; j < ms.size(); ++j) {
            if (!uncovered(i, j)) continue;
            // The first uncovered piece in (height, moisture) order; widen it along moisture,
            // then along height while the whole moisture span stays uncovered.
            std::size_t jEnd = j;
            while (jEnd + 1 < ms.size() && uncovered(i, jEnd + 1)) ++jEnd;
            std::size_t iEnd = i;
            const auto rowUncovered = [&](std::size_t row) {
                for (std::size_t k = j; k <= jEnd; ++k)
                    if (!uncovered(row, k)) return false;
                return true;
            };
            while (iEnd + 1 < hs.size() && rowUncovered(iEnd + 1)) ++iEnd;
            return "height " + describeSpan(hs[i], hs[iEnd]) + " with moisture " +
                   describeSpan(ms[j], ms[jEnd]);
        }
    }
    return std::nullopt;
}

std::vector<TerrainClass> withoutWaterRanges(std::vector<TerrainClass> classes) {
    for (TerrainClass& c : classes) {
        if (c.name != kLakeClassName && c.name != kRiverClassName) continue;
        // An empty range inside [0, 1], as for the default table's lake class.
        c.heightMin = 1;
        c.heightMax = 0;
    }
    return classes;
}

// How close the achieved shares are. Each threshold selects the sample cells on one side of
// it, and a cut can fall only between distinct values, so with n sample cells the achieved
// count is the reachable count nearest the target: within 1/2 cell, i.e. 1/(2n) of the share,
// when the values are distinct, and further only by the cells tied at the cut. On the whole
// map the share carries, in addition, the error of estimating it from a regular subsample of
// the cells; that is 0 when the sample is every cell (maps up to kCoverageSampleCells).
Terrain resolveTerrain(const TerrainConfig& config, const CoverageSample& sample,
                       bool lakesByHeight) {
    if (config.customClasses)
        return Terrain(lakesByHeight ? config.classes : withoutWaterRanges(config.classes));

    const std::size_t n = sample.height.size();
    const auto coverageCount = [n](const Threshold& t) {
        assert(t.coverage >= 0 && t.coverage <= 1);
        return t.coverage * double(n);
    };
    // Without lakes by height (hydrology finds them) every sampled cell is left for the others.
    const double lake = !lakesByHeight ? -1.0
                        : config.lakeBelow.byCoverage
                            ? thresholdBelow(sample.height, coverageCount(config.lakeBelow))
                            : config.lakeBelow.value;
    if (config.model == TerrainModel::Climate) {
        std::vector<TerrainClass> table = biomeClassTable(lake, config.rockSlopeDegrees);
        if (!lakesByHeight) table = withoutWaterRanges(std::move(table));
        return Terrain(std::move(table));
    }
    const double mountain =
        config.mountainAbove.byCoverage
            ? thresholdAbove(sample.height, coverageCount(config.mountainAbove))
            : config.mountainAbove.value;
    // The config checks given values by the same rule; coverages are values only from here on.
    if (lake >= mountain) {
        TerrainProblem problem{.rule = TerrainProblem::Rule::ThresholdOrder,
                               .threshold = DefaultClass::Lake,
                               .given = config.lakeBelow,
                               .resolved = lake,
                               .above = DefaultClass::Mountain,
                               .aboveGiven = config.mountainAbove,
                               .aboveResolved = mountain};
        throw TerrainError(problem);
    }

    assert(!(config.forestAbove.byCoverage || config.desertBelow.byCoverage) ||
           sample.moisture.size() == n);
    double forest = config.forestAbove.value;
    if (config.forestAbove.byCoverage)
        forest = moistureThreshold(DefaultClass::Forest, config.forestAbove,
                                   moistureLeft(sample, lake, mountain, kAboveEverything), n, true);
    double desert = config.desertBelow.value;
    if (config.desertBelow.byCoverage)
        desert = moistureThreshold(DefaultClass::Desert, config.desertBelow,
                                   moistureLeft(sample, lake, mountain, forest), n, false);
    // All that is left is desert (the threshold came back as 1): the value just below forest
    // says the same and keeps desert below forest, as config requires of given values.
    if (config.desertBelow.byCoverage && desert >= forest)
        desert = std::min(1.0, std::nextafter(forest, kBelowEverything));
    std::vector<TerrainClass> table = defaultClassTable(config, lake, mountain, forest, desert);
    // An empty range inside [0, 1] (min above max): no height matches, and the table's ends
    // stay on 0..1 for findGap.
    if (!lakesByHeight) {
        table[std::size_t(DefaultClass::Lake)].heightMin = 1;
        table[std::size_t(DefaultClass::Lake)].heightMax = 0;
    }
    return Terrain(std::move(table));
}

}  // namespace terragrid

#pragma once
// Terrain classes: what a cell is (lake, ground, mountain, forest, desert, or a user's own
// classes) and whether it can be walked on, from its height and moisture on 0..1.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace terragrid {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

/// "#rrggbb" in lower case, as the config writes colours. Pure.
std::string hexColour(const Rgb& colour);

/// The class index no cell takes: classes.tif and walkable.tif carry it as GDAL's nodata, so a
/// reprojection or mosaic fills the cells it has no data for with it, not with class 0 (lake).
/// A class table therefore holds at most kNoClass classes, indices 0..254.
inline constexpr std::uint8_t kNoClass = 255;

/// One class. A cell belongs to the first class of the table whose closed ranges
/// [heightMin, heightMax] x [moistureMin, moistureMax] contain its (height, moisture).
struct TerrainClass {
    std::string name;
    Rgb colour;
    bool walkable = true;
    double heightMin = 0, heightMax = 1;
    double moistureMin = 0, moistureMax = 1;
};

/// The five classes of the original generator, in table (first-match) order: lake and
/// mountain by height, then forest and desert by moisture, and ground for everything else.
enum class DefaultClass : std::uint8_t { Lake, Mountain, Forest, Desert, Ground, Last = Ground };
struct DefaultClassInfo {
    std::string_view name;
    Rgb colour;
    bool walkable;
};
inline constexpr std::array<DefaultClassInfo, 5> kDefaultClasses{{
    {"lake", {58, 110, 165}, false},
    {"mountain", {140, 130, 120}, false},
    {"forest", {46, 110, 52}, true},
    {"desert", {222, 200, 140}, true},
    {"ground", {128, 170, 90}, true},
}};
static_assert(kDefaultClasses.size() == std::size_t(DefaultClass::Last) + 1);

/// A threshold of the default rules: a value on 0..1, or a target share of the map that is
/// turned into a value before generation (resolveTerrain).
struct Threshold {
    double value = 0;
    bool byCoverage = false;
    double coverage = 0;  ///< share of the whole map, 0..1, when byCoverage
};

enum class Connectivity : std::uint8_t { Report, Largest, Last = Largest };
inline constexpr std::array<std::string_view, 2> kConnectivityNames{"report", "largest"};
static_assert(kConnectivityNames.size() == std::size_t(Connectivity::Last) + 1);

/// `terrain` from the config.
struct TerrainConfig {
    /// true: `classes` is the user's table (config.terrain.classes), thresholds unused.
    /// false: `classes` holds the five defaults (names, colours, walkability from the config)
    /// whose ranges resolveTerrain fills in from the thresholds.
    bool customClasses = false;
    std::vector<TerrainClass> classes;
    Threshold lakeBelow;      ///< height <= value: lake
    Threshold mountainAbove;  ///< height >= value: mountain
    Threshold forestAbove;    ///< moisture >= value: forest (cells not lake or mountain)
    Threshold desertBelow;    ///< moisture <= value: desert (cells not lake, mountain, forest)
    Connectivity connectivity = Connectivity::Report;

    bool usesCoverage() const noexcept;
    /// The threshold that bounds default class `c` (not Ground, which has none).
    const Threshold& threshold(DefaultClass c) const noexcept;
};

/// The resolved classification of a run. Immutable and thread-safe.
class Terrain {
public:
    /// `classes` must be non-empty, at most 255, and cover [0, 1]^2 (see findGap).
    explicit Terrain(std::vector<TerrainClass> classes);

    /// Index of the first class containing (height, moisture); both in [0, 1].
    std::uint8_t classify(double height, double moisture) const noexcept;
    const std::vector<TerrainClass>& classes() const noexcept { return m_classes; }
    bool walkable(std::uint8_t classIndex) const noexcept { return m_walkable[classIndex]; }

private:
    std::vector<TerrainClass> m_classes;
    std::array<bool, 256> m_walkable{};
};

/// The five default classes' table for these threshold values (config colours and walkability
/// taken from `config.classes`): lake [0, lake] in height, mountain [mountain, 1] in height,
/// forest [forest, 1] in moisture, desert [0, desert] in moisture, ground everything.
std::vector<TerrainClass> defaultClassTable(const TerrainConfig& config, double lake,
                                            double mountain, double forest, double desert);

/// nullopt when every (height, moisture) in [0, 1]^2 matches some class; otherwise one
/// uncovered region in words, e.g. "height 0.3..0.31 with moisture 0..1".
std::optional<std::string> findGap(const std::vector<TerrainClass>& classes);

/// Why resolveTerrain cannot make the default table, in the model's terms: a threshold is
/// named by the default class it bounds (DefaultClass::Lake for the lake threshold). The config
/// layer words it with config keys (terragrid/config/terrain_messages.hpp).
struct TerrainProblem {
    enum class Rule : std::uint8_t {
        /// `threshold` asks by coverage for more of the map than the classes before it (in
        /// first-match order) leave: only `availableShare` of the sample is left.
        CoverageUnreachable,
        /// `threshold`, resolved to `resolved`, is not below `above`, resolved to
        /// `aboveResolved` (the lake threshold must be below the mountain threshold).
        ThresholdOrder,
    };
    Rule rule = Rule::CoverageUnreachable;
    DefaultClass threshold = DefaultClass::Lake;
    Threshold given{};  ///< `threshold` as configured
    double resolved = 0;    ///< ThresholdOrder: its value after coverage resolution
    double availableShare = 0;  ///< CoverageUnreachable: share of the sample left for it
    DefaultClass above = DefaultClass::Lake;  ///< ThresholdOrder: the threshold it must be below
    Threshold aboveGiven{};
    double aboveResolved = 0;
};

/// A TerrainProblem as an exception; what() words it in model terms.
class TerrainError : public std::runtime_error {
public:
    explicit TerrainError(const TerrainProblem& problem);
    const TerrainProblem& problem() const noexcept { return m_problem; }

private:
    TerrainProblem m_problem;
};

/// The classes the hydrology stage's water takes: with hydrology on, lake (and sea) cells take
/// the class named kLakeClassName and river cells the class named kRiverClassName, and no
/// cell takes either by its height and moisture (see resolveTerrain).
inline constexpr std::string_view kLakeClassName = "lake";
inline constexpr std::string_view kRiverClassName = "river";

/// `classes` with the ranges of the classes named kLakeClassName and kRiverClassName emptied
/// (height 1..0, which no height is in), so that only the hydrology stage's water takes them.
/// The other classes must cover [0, 1]^2 for the result to be a Terrain (config checks it).
/// Pure.
std::vector<TerrainClass> withoutWaterRanges(std::vector<TerrainClass> classes);

/// Height and moisture (0..1) of the cells the coverage estimate looks at.
struct CoverageSample {
    std::vector<double> height;
    std::vector<double> moisture;
};

/// The run's Terrain: the custom table as given, or the default table with every threshold
/// given by coverage turned into a value so that the share of `sample` cells in each class is
/// as close to the target as the sample allows. Deterministic. Throws TerrainError when a
/// target cannot be reached (e.g. more forest than there is ground) or the resolved lake
/// threshold is not below the mountain threshold. `lakesByHeight` false (lakes come from
/// hydrology): the default table's lake class matches no cell and its threshold is ignored,
/// and likewise a custom table's classes named lake and river (withoutWaterRanges), so both
/// tables follow one rule: water comes from hydrology alone.
Terrain resolveTerrain(const TerrainConfig& config, const CoverageSample& sample,
                       bool lakesByHeight = true);

}  // namespace terragrid

#pragma once
// Terrain classes: what a cell is (lake, ground, mountain, forest, desert; Whittaker's biomes;
// or a user's own classes) and whether it can be walked on, from its height and moisture on
// 0..1 and, for tables that ask for them, its temperature, precipitation and slope.

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

/// The ends of the axes a class can restrict besides height and moisture (0..1): a cell's
/// temperature (degrees C), precipitation (mm a year) and slope (degrees) are clamped into them
/// before it is classified, so a table that covers them covers every cell.
inline constexpr double kMinTemperature = -100;
inline constexpr double kMaxTemperature = 100;
inline constexpr double kMaxPrecipitation = 20000;
inline constexpr double kMaxSlope = 90;

/// One class. A cell belongs to the first class of the table whose closed ranges
/// [heightMin, heightMax] x [moistureMin, moistureMax] (x the temperature, precipitation and
/// slope ranges, whole axes unless a table restricts them) contain its values.
struct TerrainClass {
    std::string name;
    Rgb colour;
    bool walkable = true;
    double heightMin = 0, heightMax = 1;
    double moistureMin = 0, moistureMax = 1;
    double temperatureMin = kMinTemperature, temperatureMax = kMaxTemperature;
    double precipitationMin = 0, precipitationMax = kMaxPrecipitation;
    double slopeMin = 0, slopeMax = kMaxSlope;

    /// Whether its temperature or precipitation range is not the whole axis.
    bool restrictsClimate() const noexcept;
    /// Whether its slope range is not the whole axis.
    bool restrictsSlope() const noexcept;
};

/// What a cell is classified by: height and moisture on 0..1, temperature (C), precipitation
/// (mm a year) and slope (degrees); the last three matter only to tables that restrict them.
struct CellTraits {
    double height = 0;
    double moisture = 0;
    double temperature = 0;
    double precipitation = 0;
    double slope = 0;
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

/// Which built-in table the classes come from: noise (the five default classes from the
/// height and the moisture noise layer) or climate (Whittaker's biomes from the climate
/// stage's temperature and precipitation, rock by slope, lake as in noise).
enum class TerrainModel : std::uint8_t { Noise, Climate, Last = Climate };
inline constexpr std::array<std::string_view, 2> kTerrainModelNames{"noise", "climate"};
static_assert(kTerrainModelNames.size() == std::size_t(TerrainModel::Last) + 1);

/// How the class rules read an eroded map's heights (terrain.eroded_heights): on the eroded
/// relief's own range (its lowest to its highest hydrology cell: 0..1), or on
/// elevation.min..max clamped to 0..1 (terragrid before issue 29, where erosion's uplift lifts
/// most land above the mountain threshold).
enum class ErodedHeights : std::uint8_t { ErodedRange, ElevationRange, Last = ElevationRange };
inline constexpr std::array<std::string_view, 2> kErodedHeightsNames{"eroded_range",
                                                                     "elevation_range"};
static_assert(kErodedHeightsNames.size() == std::size_t(ErodedHeights::Last) + 1);

/// Whittaker's biomes (Whittaker 1975, as Ricklefs 2008 draws them) as a first-match table of
/// rectangles in (temperature C, precipitation mm a year), after lake (by height, or the
/// hydrology stage's) and rock (by slope): the classes of TerrainModel::Climate, in table order.
enum class Biome : std::uint8_t {
    Lake,
    Rock,
    Ice,
    Tundra,
    BorealForest,
    TropicalRainForest,
    TropicalSeasonalForest,
    Savanna,
    Desert,
    TemperateRainforest,
    TemperateForest,
    Shrubland,
    Grassland,
    Last = Grassland
};
struct BiomeInfo {
    std::string_view name;
    Rgb colour;
    bool walkable;
    double temperatureMin, temperatureMax;
    double precipitationMin, precipitationMax;
};
inline constexpr std::array<BiomeInfo, 13> kBiomes{{
    {"lake", {58, 110, 165}, false, kMinTemperature, kMaxTemperature, 0, kMaxPrecipitation},
    {"rock", {140, 130, 120}, false, kMinTemperature, kMaxTemperature, 0, kMaxPrecipitation},
    {"ice", {236, 242, 246}, false, kMinTemperature, -10, 0, kMaxPrecipitation},
    {"tundra", {168, 176, 142}, true, kMinTemperature, -5, 0, kMaxPrecipitation},
    {"boreal forest", {79, 111, 82}, true, kMinTemperature, 5, 250, kMaxPrecipitation},
    {"tropical rain forest", {31, 107, 42}, true, 20, kMaxTemperature, 2500, kMaxPrecipitation},
    {"tropical seasonal forest", {92, 143, 46}, true, 20, kMaxTemperature, 1200,
     kMaxPrecipitation},
    {"savanna", {184, 176, 90}, true, 20, kMaxTemperature, 300, kMaxPrecipitation},
    {"desert", {222, 200, 140}, true, 5, kMaxTemperature, 0, 300},
    {"temperate rainforest", {46, 94, 78}, true, kMinTemperature, kMaxTemperature, 2000,
     kMaxPrecipitation},
    {"temperate forest", {63, 127, 58}, true, kMinTemperature, kMaxTemperature, 1000,
     kMaxPrecipitation},
    {"shrubland", {154, 163, 90}, true, kMinTemperature, kMaxTemperature, 500,
     kMaxPrecipitation},
    {"grassland", {163, 194, 108}, true, kMinTemperature, kMaxTemperature, 0,
     kMaxPrecipitation},
}};
static_assert(kBiomes.size() == std::size_t(Biome::Last) + 1);

/// The biome table: kBiomes with lake at heights [0, lake] and rock at slopes
/// [rockSlopeDegrees, 90].
std::vector<TerrainClass> biomeClassTable(double lake, double rockSlopeDegrees);

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
    /// The built-in table (ignored with customClasses).
    TerrainModel model = TerrainModel::Noise;
    /// TerrainModel::Climate: slopes at least this steep (degrees) are rock.
    double rockSlopeDegrees = 0;
    ErodedHeights erodedHeights = ErodedHeights::ErodedRange;

    bool usesCoverage() const noexcept;
    /// The threshold that bounds default class `c` (not Ground, which has none).
    const Threshold& threshold(DefaultClass c) const noexcept;
};

/// The resolved classification of a run. Immutable and thread-safe.
class Terrain {
public:
    /// `classes` must be non-empty, at most 255, and cover [0, 1]^2 (see findGap).
    explicit Terrain(std::vector<TerrainClass> classes);

    /// Index of the first class containing (height, moisture); both in [0, 1]. For tables
    /// that restrict no other axis (usesClimate() and usesSlope() false).
    std::uint8_t classify(double height, double moisture) const noexcept;
    /// classify(height[i], moisture[i]) into out[i] for i < count (classify is this, for one
    /// cell): every class's box tested on every cell without branches, so the loop runs in
    /// vector lanes.
    void classifyRow(const double* height, const double* moisture, std::size_t count,
                     std::uint8_t* out) const noexcept;
    /// Index of the first class containing every value of `cell` (temperature, precipitation
    /// and slope clamped into their axes; height and moisture in [0, 1]).
    std::uint8_t classify(const CellTraits& cell) const noexcept;
    const std::vector<TerrainClass>& classes() const noexcept { return m_classes; }
    bool walkable(std::uint8_t classIndex) const noexcept { return m_walkable[classIndex]; }
    /// Whether a class restricts temperature or precipitation (the cells need a climate).
    bool usesClimate() const noexcept { return m_usesClimate; }
    /// Whether a class restricts the slope (the cells need their neighbours' heights).
    bool usesSlope() const noexcept { return m_usesSlope; }
    /// Whether a class restricts the moisture (the cells need the moisture layer).
    bool usesMoisture() const noexcept { return m_usesMoisture; }

private:
    std::vector<TerrainClass> m_classes;
    std::array<bool, 256> m_walkable{};
    bool m_usesClimate = false;
    bool m_usesSlope = false;
    bool m_usesMoisture = false;
};

/// The five default classes' table for these threshold values (config colours and walkability
/// taken from `config.classes`): lake [0, lake] in height, mountain [mountain, 1] in height,
/// forest [forest, 1] in moisture, desert [0, desert] in moisture, ground everything.
std::vector<TerrainClass> defaultClassTable(const TerrainConfig& config, double lake,
                                            double mountain, double forest, double desert);

/// nullopt when every (height, moisture) in [0, 1]^2 (and, for a table that restricts them,
/// every temperature, precipitation and slope on their axes) matches some class; otherwise one
/// uncovered region in words, e.g. "height 0.3..0.31 with moisture 0..1", or for a table with
/// climate ranges "height 0..1 with moisture 0..1, temperature 5..20 and precipitation
/// 0..300".
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

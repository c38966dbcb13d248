// The option table below (options()) declares every key once: its type, range and meaning, and
// where it goes in Config. The keys of a noise layer are declared once (kLayerRows) and
// instantiated for each layer (kLayers). Defaults are deliberately not here: they live in
// configs/default.json, compiled in as builtinConfigText(), so there is one place to change
// them.

#include "config/options.hpp"

#include <algorithm>

#include "config/layers.hpp"
#include "terragrid/config/crs.hpp"

namespace terragrid::config_detail {
namespace {

constexpr Rule integerIn(std::uint64_t lo, std::uint64_t hi) {
    return {.kind = Kind::Integer, .intMin = lo, .intMax = hi};
}
constexpr Rule numberIn(double lo, double hi) {
    return {.kind = Kind::Number, .min = lo, .max = hi};
}
/// lo < value <= hi.
constexpr Rule numberAbove(double lo, double hi) {
    return {.kind = Kind::Number, .min = lo, .max = hi, .minExclusive = true};
}
/// [x, y], each within -limit..limit.
constexpr Rule pairWithin(double limit) {
    return {.kind = Kind::NumberPair, .min = -limit, .max = limit};
}
constexpr Rule boolean() { return {.kind = Kind::Boolean}; }
constexpr Rule nonEmptyString() { return {.kind = Kind::String}; }
constexpr Rule oneOf(std::span<const std::string_view> names) {
    return {.kind = Kind::Choice, .choices = names};
}
/// A non-empty array of distinct names from `names`.
constexpr Rule filesFrom(std::span<const std::string_view> names) {
    return {.kind = Kind::FileList, .choices = names};
}
/// A value on 0..1, or {"coverage": share} with the share on 0..1.
constexpr Rule threshold() { return {.kind = Kind::Threshold, .min = 0, .max = 1}; }
/// An object with one boolean per name.
constexpr Rule flagPer(std::span<const std::string_view> names) {
    return {.kind = Kind::FlagPerClass, .choices = names};
}
/// An object with one "#rrggbb" colour per name.
constexpr Rule colourPer(std::span<const std::string_view> names) {
    return {.kind = Kind::ColourPerClass, .choices = names};
}
constexpr Rule colour() { return {.kind = Kind::Colour}; }
constexpr Rule classTable() { return {.kind = Kind::ClassTable}; }
constexpr Rule layerList() { return {.kind = Kind::LayerList}; }

std::vector<OutputFile> outputFilesFrom(const Json& names) {
    std::vector<OutputFile> files;
    for (const auto& name : names) files.push_back(enumNamed<OutputFile>(kOutputFileNames, name));
    return files;
}

/// A checked threshold: a number, or {"coverage": number}.
Threshold thresholdFrom(const Json& value) {
    if (!value.is_object()) return {.value = value.get<double>()};
    return {.byCoverage = true, .coverage = value.at("coverage").get<double>()};
}

/// A checked colour, "#rrggbb" in lower case.
Rgb rgbFrom(const Json& value) {
    const auto& text = value.get_ref<const std::string&>();
    const auto byte = [&](std::size_t at) {
        return static_cast<std::uint8_t>(std::stoi(text.substr(at, 2), nullptr, 16));
    };
    return {byte(1), byte(3), byte(5)};
}

/// The default rules' five classes, in kDefaultClasses order, created on first use with the
/// built-in colours and walkability (the config's own then overwrite them).
std::vector<TerrainClass>& defaultTable(TerrainConfig& terrain) {
    if (terrain.classes.empty()) {
        for (const auto& info : kDefaultClasses)
            terrain.classes.push_back(
                {.name = std::string(info.name), .colour = info.colour, .walkable = info.walkable});
    }
    return terrain.classes;
}

}  // namespace

std::vector<TerrainClass> classesFrom(const Json& entries) {
    // The ranges of the climate and the slope are optional in a checked entry: the whole axis.
    const auto end = [](const Json& e, const char* key, int which, double whole) {
        return e.contains(key) ? e.at(key)[which].get<double>() : whole;
    };
    std::vector<TerrainClass> classes;
    for (const auto& e : entries) {
        classes.push_back({.name = e.at("name").get<std::string>(),
                           .colour = rgbFrom(e.at("colour")),
                           .walkable = e.at("walkable").get<bool>(),
                           .heightMin = e.at("height")[0].get<double>(),
                           .heightMax = e.at("height")[1].get<double>(),
                           .moistureMin = e.at("moisture")[0].get<double>(),
                           .moistureMax = e.at("moisture")[1].get<double>(),
                           .temperatureMin = end(e, "temperature", 0, kMinTemperature),
                           .temperatureMax = end(e, "temperature", 1, kMaxTemperature),
                           .precipitationMin = end(e, "precipitation", 0, 0),
                           .precipitationMax = end(e, "precipitation", 1, kMaxPrecipitation),
                           .slopeMin = end(e, "slope", 0, 0),
                           .slopeMax = end(e, "slope", 1, kMaxSlope)});
    }
    return classes;
}

namespace {

/// Puts a value that passed its rule (in its canonical form) into Config.
using Store = void (*)(Config&, const Json&);

/// One key of the table, as declared.
struct Row {
    std::string_view path;
    Rule rule;
    std::string_view meaning;
    Store store;
};

// Documentation order: the reference table of docs/config.md follows it (kHeadRows, the layers, then
// kTailRows).
constexpr std::array kHeadRows{
    Row{"seed", integerIn(0, kMaxUint64),
        "Master seed: the same seed and options always give the same map.",
        [](Config& c, const Json& v) { c.seed = v.get<std::uint64_t>(); }},
    Row{"noise_version", integerIn(1, std::uint64_t(NoiseVersion::Last) + 1),
        "Generation of the noise algorithms: 6 (as 5, and on tileable maps simplex layers with "
        "the lattice hash tile by their own triangular lattice, fitted with whole numbers of "
        "edges across the map and row pairs down it, instead of sampling a torus in 4D: about 3 "
        "times as fast, with the contrast of flat maps), 5 (as 4, and on tileable maps value and Perlin "
        "layers with the lattice hash tile by their own 2D lattice, each octave's frequency "
        "rounded to whole cells across the map, instead of sampling a torus in 4D: about 6 "
        "times as fast, with the contrast of flat maps), 4 (as 3, and the 3D and 4D noise of planets and "
        "tileable maps and the 2D value and Perlin noise of flat maps in float with a 32-bit "
        "hash: faster rows), 3 (2D simplex noise all in "
        "float, with fused multiply-adds and its octaves summed in float: faster rows), 2 (2D "
        "simplex noise with float cell arithmetic and a 32-bit hash) or 1 (the algorithms of "
        "terragrid's first maps). A config naming a version gets that version's map bit for "
        "bit. Versions 2 and 3 change only simplex noise with the lattice hash on flat maps, "
        "version 4 planets, tileable maps, and flat value, Perlin and warped layers with the "
        "lattice hash, version 5 tileable maps' value and Perlin layers with the lattice hash, "
        "version 6 their simplex layers with it; see docs/map.md, Map versions.",
        [](Config& c, const Json& v) {
            c.noiseVersion = static_cast<NoiseVersion>(v.get<int>() - 1);
        }},
    Row{"map.width", integerIn(1, kMaxMapSideCells), "Map width in cells.",
        [](Config& c, const Json& v) { c.map.width = v.get<std::int64_t>(); }},
    Row{"map.height", integerIn(1, kMaxMapSideCells), "Map height in cells.",
        [](Config& c, const Json& v) { c.map.height = v.get<std::int64_t>(); }},
    Row{"map.tile_size", integerIn(1, kMaxTileSizeCells),
        "Edge of the square tiles the map is generated in, in cells; tiles at the map's "
        "right and bottom edges are clipped, so a tile larger than the map is fine.",
        [](Config& c, const Json& v) { c.map.tileSizeCells = v.get<std::int64_t>(); }},
    Row{"map.cell_size", numberAbove(0, kMaxCellSize),
        "Width and height of one cell in world (output.crs) units: degrees in a geographic CRS.",
        [](Config& c, const Json& v) { c.map.cellSize = v.get<double>(); }},
    Row{"map.origin", pairWithin(kMaxOriginAbs),
        "World [x, y] of the map's top-left corner in output.crs units (within 2^46 cells of "
        "0): any value places the map exactly. The terrain is sampled on a grid anchored at "
        "(0, 0), at the grid cell nearest the origin, so moving the origin by whole cells "
        "moves the terrain with it and a part of a cell only moves the raster (docs/gis.md, "
        "\"Origin, offset and seed\").",
        [](Config& c, const Json& v) {
            c.map.originX = v[0].get<double>();
            c.map.originY = v[1].get<double>();
        }},
    Row{"map.projection", oneOf(kProjectionNames),
        "plane: cells lie on the plane of world coordinates. equirectangular: the map is a "
        "whole planet, columns longitudes from -180 to 180 and rows latitudes from 90 to "
        "-90, its noise sampled on a sphere, so it joins across the 180th meridian and is "
        "not pinched at the poles; it needs map.width = 2 x map.height with an even height, "
        "is written in EPSG:4326 (output.crs must be EPSG:4326 or left out), and map.cell_size "
        "is then the width of a cell at the equator (map.origin has no effect).",
        [](Config& c, const Json& v) {
            c.map.projection = enumNamed<Projection>(kProjectionNames, v);
        }},
    Row{"map.wrap", boolean(),
        "A tileable map: the right edge continues into the left and the bottom into the top "
        "without a seam. The noise is sampled on two circles in 4D, so every layer's noise "
        "must be perlin or simplex (they have a 4D form); with noise_version 5 value and "
        "perlin layers with the lattice hash tile by their own 2D lattice instead, each "
        "octave's frequency rounded to a whole number of cells across the map, and with "
        "noise_version 6 simplex layers with it too.",
        [](Config& c, const Json& v) { c.map.wrap = v.get<bool>(); }},
};

/// The layer sections, each with the keys of kLayerRows, a `layers` list, and (height) the
/// shaping keys of kShapingRows.
struct Layer {
    std::string_view name;
    LayerStackParams Config::*stack;
    bool shaping;
};
constexpr std::array kLayers{Layer{"height", &Config::height, true},
                             Layer{"moisture", &Config::moisture, false}};

constexpr std::array kLayerRows{
    LayerRow{
        "noise", oneOf(kNoiseKindNames), "Base noise of the layer.",
        [](NoiseParams& p, const Json& v) { p.noise = enumNamed<NoiseKind>(kNoiseKindNames, v); }},
    LayerRow{
        "fade", oneOf(kFadeCurveNames),
        "Curve blending between lattice points (simplex noise ignores it).",
        [](NoiseParams& p, const Json& v) { p.fade = enumNamed<FadeCurve>(kFadeCurveNames, v); }},
    LayerRow{"fractal", oneOf(kFractalKindNames),
             "How the layer's octaves are summed; none samples a single octave.",
             [](NoiseParams& p, const Json& v) {
                 p.fractal = enumNamed<FractalKind>(kFractalKindNames, v);
             }},
    LayerRow{
        "hash", oneOf(kHashKindNames),
        "Lattice hashing: lattice never repeats, permutation repeats every 256 lattice "
        "cells, reference is Ken Perlin's fixed permutation (the seed then only shifts "
        "octaves).",
        [](NoiseParams& p, const Json& v) { p.hash = enumNamed<HashKind>(kHashKindNames, v); }},
    LayerRow{"octaves", integerIn(1, kMaxOctaves),
             "Number of octaves summed (fractal none uses one).",
             [](NoiseParams& p, const Json& v) { p.octaves = v.get<int>(); }},
    LayerRow{"lacunarity", numberIn(1, kMaxLacunarity),
             "Frequency factor from one octave to the next.",
             [](NoiseParams& p, const Json& v) { p.lacunarity = v.get<double>(); }},
    LayerRow{"persistence", numberAbove(0, 1),
             "Amplitude factor from one octave to the next (0 would silence every octave "
             "after the first, so it is refused).",
             [](NoiseParams& p, const Json& v) { p.persistence = v.get<double>(); }},
    LayerRow{"frequency", numberAbove(0, kMaxFrequency),
             "Cycles per world unit of the layer's first octave.",
             [](NoiseParams& p, const Json& v) { p.frequency = v.get<double>(); }},
    LayerRow{"offset", pairWithin(kMaxNoiseOffset),
             "[x, y] added to the layer's noise coordinates (noise units): moves the pattern "
             "without changing the seed.",
             [](NoiseParams& p, const Json& v) {
                 p.offsetX = v[0].get<double>();
                 p.offsetY = v[1].get<double>();
             }},
    LayerRow{"seed_offset", integerIn(0, kMaxUint64),
             "Added to seed for this layer, so layers with equal parameters differ.",
             [](NoiseParams& p, const Json& v) { p.seedOffset = v.get<std::uint64_t>(); }},
    LayerRow{"proximity", oneOf(kProximityNames),
             "What each lattice point contributes under noise generic_lattice (other noises "
             "ignore it), weighted by the fade. constant gives value noise, gradient Perlin "
             "noise; triangular a sharp crest (or trough) through the point across a hashed "
             "direction, ridged such a crest with curved flanks, semi_ridged a crest leaning "
             "into a gradient.",
             [](NoiseParams& p, const Json& v) {
                 p.proximity = enumNamed<Proximity>(kProximityNames, v);
             }},
    LayerRow{"grid_displacement", oneOf(kGridDisplacementNames),
             "Moves each octave's lattice of noise generic_lattice (other noises ignore it) by "
             "half or a quarter of its own grid step, so the lattice points of successive "
             "octaves do not coincide.",
             [](NoiseParams& p, const Json& v) {
                 p.displacement = enumNamed<GridDisplacement>(kGridDisplacementNames, v);
             }},
    LayerRow{"marble.frequency", numberIn(0, kMaxFrequency),
             "Marble stripes per world unit along x (other fractals ignore it); the layer is "
             "(sin(2 pi (frequency x + turbulence t)) + 1) / 2 with t the layer's turbulence "
             "sum.",
             [](NoiseParams& p, const Json& v) { p.marbleFrequency = v.get<double>(); }},
    LayerRow{"marble.turbulence", numberIn(0, kMaxMarbleTurbulence),
             "How far the turbulence bends the marble stripes (other fractals ignore it), in "
             "stripe widths per unit of turbulence; 0 gives straight stripes.",
             [](NoiseParams& p, const Json& v) { p.marbleTurbulence = v.get<double>(); }},
    LayerRow{"cellular.return", oneOf(kCellularReturnNames),
             "What noise cellular returns (other noises ignore it): the distance to the "
             "nearest feature point (f1), to the second nearest (f2), or their difference "
             "(f2_minus_f1: 0 along the borders between cells, a network of creases).",
             [](NoiseParams& p, const Json& v) {
                 p.cellularReturn = enumNamed<CellularReturn>(kCellularReturnNames, v);
             }},
    LayerRow{"cellular.distance", oneOf(kCellularDistanceNames),
             "How noise cellular measures distance (other noises ignore it): euclidean gives "
             "round cells, manhattan (the sum of the distances along x and y) diamond-shaped "
             "ones.",
             [](NoiseParams& p, const Json& v) {
                 p.cellularDistance = enumNamed<CellularDistance>(kCellularDistanceNames, v);
             }},
    LayerRow{"cellular.jitter", numberIn(0, 1),
             "How far noise cellular's feature points stray from their lattice cell's centre "
             "(other noises ignore it): 0 is a regular grid, 1 anywhere in the cell.",
             [](NoiseParams& p, const Json& v) { p.cellularJitter = v.get<double>(); }},
    LayerRow{"warp.amplitude", numberIn(0, kMaxWarpAmplitude),
             "Domain warp: how far, in world units, each sample point is moved by fBm of Perlin "
             "noise before the layer is sampled there (0: no warp). Bends coastlines and "
             "ridges into natural shapes; about 1 to 4 times the layer's feature size "
             "(1 / frequency) looks natural.",
             [](NoiseParams& p, const Json& v) { p.warp.amplitude = v.get<double>(); }},
    LayerRow{"warp.frequency", numberAbove(0, kMaxFrequency),
             "Cycles per world unit of the warp's first octave.",
             [](NoiseParams& p, const Json& v) { p.warp.frequency = v.get<double>(); }},
    LayerRow{"warp.octaves", integerIn(1, kMaxOctaves), "Octaves of the warp's fBm.",
             [](NoiseParams& p, const Json& v) { p.warp.octaves = v.get<int>(); }},
};

/// A layer section's list of layers stacked on its base layer.
constexpr std::string_view kLayersMeaning =
        "More noise layers combined with the base layer, in order: each entry takes any "
        "layer key (left-out keys are the section's own, but each entry draws its own "
        "noise) and combine (add, multiply, min or max: how its term joins the value so "
        "far), weight (-100..100, default 1: term = weight x its value) and mask (none, or "
        "base: the term is also multiplied by the base layer's value, e.g. mountains only "
        "where the continents are high). At most 8 entries. The result is mapped onto 0..1 "
        "by the range the combination can take (from the weights alone).";

/// Height's shaping keys, applied after the layers are combined.
constexpr std::array kShapingRows{
    Row{"falloff.shape", oneOf(kFalloffNames),
        "Island shaping: lower the height toward the map's edge, by the distance from the "
        "centre measured as a circle (radial) or a square; none leaves it. Not on wrapping "
        "maps or planets.",
        [](Config& c, const Json& v) {
            c.height.falloff.shape = enumNamed<Falloff>(kFalloffNames, v);
        }},
    Row{"falloff.strength", numberIn(0, 1),
        "How far the falloff lowers the edge: the height becomes h (1 - strength d^exponent), "
        "d from 0 at the centre to 1 at the edge.",
        [](Config& c, const Json& v) { c.height.falloff.strength = v.get<double>(); }},
    Row{"falloff.exponent", numberAbove(0, kMaxFalloffExponent),
        "Shape of the falloff: 1 slopes from the centre, larger values keep more of the "
        "centre untouched and drop near the edge.",
        [](Config& c, const Json& v) { c.height.falloff.exponent = v.get<double>(); }},
    Row{"redistribution", numberAbove(0, kMaxRedistribution),
        "The height h (0..1) becomes h^redistribution, last: above 1 flattens valleys and "
        "sharpens peaks, below 1 raises plateaus; 1 leaves it.",
        [](Config& c, const Json& v) { c.height.redistribution = v.get<double>(); }},
};

constexpr std::array kTailRows{
    Row{"elevation.min", numberIn(-kMaxElevationMeters, kMaxElevationMeters),
        "Elevation in metres written for noise value 0; must be below elevation.max.",
        [](Config& c, const Json& v) { c.elevation.minMeters = v.get<double>(); }},
    Row{"elevation.max", numberIn(-kMaxElevationMeters, kMaxElevationMeters),
        "Elevation in metres written for noise value 1.",
        [](Config& c, const Json& v) { c.elevation.maxMeters = v.get<double>(); }},
    Row{"terrain.lake_below", threshold(),
        "Cells with height at or below this are lake; {\"coverage\": share} instead picks "
        "the value that makes that share of the whole map lake. Must be below "
        "terrain.mountain_above.",
        [](Config& c, const Json& v) { c.terrain.lakeBelow = thresholdFrom(v); }},
    Row{"terrain.mountain_above", threshold(),
        "Cells with height at or above this are mountain (or {\"coverage\": share} of the "
        "whole map).",
        [](Config& c, const Json& v) { c.terrain.mountainAbove = thresholdFrom(v); }},
    Row{"terrain.forest_above", threshold(),
        "Cells that are neither lake nor mountain with moisture at or above this are forest "
        "(or {\"coverage\": share} of the whole map).",
        [](Config& c, const Json& v) { c.terrain.forestAbove = thresholdFrom(v); }},
    Row{"terrain.desert_below", threshold(),
        "Remaining cells with moisture at or below this are desert (or {\"coverage\": share} "
        "of the whole map); must be below terrain.forest_above. Everything else is ground. "
        "Coverages together must add up to at most 1.",
        [](Config& c, const Json& v) { c.terrain.desertBelow = thresholdFrom(v); }},
    Row{"terrain.walkable", flagPer(kDefaultClassNames),
        "Whether each of the default classes can be walked on.",
        [](Config& c, const Json& v) {
            if (c.terrain.customClasses) return;  // the user's table replaces them
            auto& classes = defaultTable(c.terrain);
            for (std::size_t i = 0; i < kDefaultClassNames.size(); ++i)
                classes[i].walkable = v.at(std::string(kDefaultClassNames[i])).get<bool>();
        }},
    Row{"terrain.colours", colourPer(kDefaultClassNames),
        "Colour of each of the default classes in classes.tif's palette and preview.png.",
        [](Config& c, const Json& v) {
            if (c.terrain.customClasses) return;  // the user's table replaces them
            auto& classes = defaultTable(c.terrain);
            for (std::size_t i = 0; i < kDefaultClassNames.size(); ++i)
                classes[i].colour = rgbFrom(v.at(std::string(kDefaultClassNames[i])));
        }},
    Row{"terrain.classes", classTable(),
        "Your own class table instead of the built-in classes ([] keeps them, built from the "
        "thresholds or terrain.model). Each entry is {\"name\", \"colour\", \"walkable\", "
        "\"height\", \"moisture\", \"temperature\", \"precipitation\", \"slope\"}: name is "
        "required, unique, at most 64 characters; colour (\"#rrggbb\") and walkable (true or "
        "false) are required; the others are [lo, hi] ranges, the whole axis when left out: "
        "height and moisture within 0..1, temperature within -100..100 (degrees C, the "
        "climate's; needs climate.enabled), precipitation within 0..20000 (mm a year, the "
        "climate's; needs climate.enabled) and slope within 0..90 (degrees). A cell takes the "
        "first class whose ranges contain its values, and every cell must match one. The "
        "thresholds, terrain.model, walkable and colours then have no effect.",
        [](Config& c, const Json& v) {
            if (v.empty()) {
                defaultTable(c.terrain);
                return;
            }
            c.terrain.customClasses = true;
            c.terrain.classes = classesFrom(v);
        }},
    Row{"terrain.connectivity", oneOf(kConnectivityNames),
        "Walkable cells form 4-connected regions: report counts them in stats.json; largest "
        "also keeps only the largest region walkable.",
        [](Config& c, const Json& v) {
            c.terrain.connectivity = enumNamed<Connectivity>(kConnectivityNames, v);
        }},
    Row{"terrain.model", oneOf(kTerrainModelNames),
        "The built-in classes: noise, the five classes from the height and the moisture noise "
        "layer (lake, mountain, forest, desert, ground); climate, Whittaker's biomes from the "
        "climate's temperature and precipitation (ice, tundra, boreal forest, tropical rain "
        "and seasonal forest, savanna, desert, temperate rainforest and forest, shrubland, "
        "grassland), with rock on slopes of terrain.rock_slope and lake from "
        "terrain.lake_below or hydrology (see docs/climate.md). climate needs climate.enabled; "
        "terrain.mountain_above, forest_above, desert_below, walkable and colours then have no "
        "effect.",
        [](Config& c, const Json& v) {
            c.terrain.model = enumNamed<TerrainModel>(kTerrainModelNames, v);
        }},
    Row{"terrain.rock_slope", numberIn(0, kMaxSlope),
        "With terrain.model climate, cells at least this steep (degrees) are rock, whatever "
        "their climate.",
        [](Config& c, const Json& v) { c.terrain.rockSlopeDegrees = v.get<double>(); }},
    Row{"terrain.eroded_heights", oneOf(kErodedHeightsNames),
        "How the class rules read the heights of an eroded map (hydrology.erosion): "
        "eroded_range on the eroded relief's own range (its lowest cell 0, its highest 1), so "
        "thresholds and coverages mean the same share of the relief as without erosion and "
        "coverages are measured on the eroded heights; elevation_range on elevation.min..max, "
        "clamped to 0..1, with coverages measured on the noise (terragrid before issue 29: "
        "erosion's uplift then lifts most land above terrain.mountain_above).",
        [](Config& c, const Json& v) {
            c.terrain.erodedHeights = enumNamed<ErodedHeights>(kErodedHeightsNames, v);
        }},
    Row{"hydrology.enabled", boolean(),
        "Water that flows: depressions filled into level lakes, rivers where enough water "
        "gathers, optional erosion, computed for the whole map before the tiles (see "
        "docs/hydrology.md). Off: lakes come from terrain.lake_below.",
        [](Config& c, const Json& v) { c.hydrology.enabled = v.get<bool>(); }},
    Row{"hydrology.resolution", integerIn(0, kMaxHydrologyFactor),
        "Map cells per hydrology cell along each side: 1 computes on the map's own grid, k on "
        "a grid k times coarser whose results are carried to every cell by a fixed rule; 0 "
        "chooses 1 for maps of at most 4096 x 4096 cells, else the smallest k that brings "
        "the longer side to 4096.",
        [](Config& c, const Json& v) { c.hydrology.resolution = v.get<std::int64_t>(); }},
    Row{"hydrology.min_lake_depth", numberIn(0, kMaxElevationMeters),
        "A filled depression whose deepest point lies at least this many metres below its "
        "spill height is a lake (or one at least hydrology.min_lake_area large).",
        [](Config& c, const Json& v) { c.hydrology.minLakeDepthMeters = v.get<double>(); }},
    Row{"hydrology.min_lake_area", numberIn(0, kMaxArea),
        "A filled depression covering at least this area (square world units: m^2 on a metre "
        "CRS) is a lake.",
        [](Config& c, const Json& v) { c.hydrology.minLakeAreaSquareMeters = v.get<double>(); }},
    Row{"hydrology.river_threshold", numberAbove(0, kMaxArea),
        "Cells whose upstream area (the cells draining through them, themselves included, "
        "each weighted by hydrology.rainfall), in square world units (m^2 on a metre CRS), "
        "exceeds this are river: the same rivers at any map.cell_size.",
        [](Config& c, const Json& v) {
            c.hydrology.riverThresholdSquareMeters = v.get<double>();
        }},
    Row{"hydrology.rainfall", oneOf(kRainfallNames),
        "uniform: every cell gets the same rain; moisture: each cell's rain is its moisture "
        "(0..1), so dry land feeds fewer rivers; climate: each cell's rain is the climate's "
        "precipitation in metres a year (needs climate.enabled).",
        [](Config& c, const Json& v) {
            c.hydrology.rainfall = enumNamed<Rainfall>(kRainfallNames, v);
        }},
    Row{"hydrology.sea_level", numberIn(0, 1),
        "Height (0..1, like terrain.lake_below) below which cells are sea: water drains "
        "into it, and it is drawn as lake at that level. 0: no sea; only the map's edge "
        "drains.",
        [](Config& c, const Json& v) { c.hydrology.seaLevel = v.get<double>(); }},
    Row{"hydrology.outlets", oneOf(kOutletModeNames),
        "Where water leaves the map. open: at every border cell, and erosion treats the "
        "border like the land inside, draining to land beyond at the border's own height, so "
        "no wall of uneroded land stands at the edges; edges: at every border "
        "cell, which erosion holds at its initial height while the land inside rises "
        "(terragrid before issue 29: eroded land ramps down to the border in parallel "
        "gullies); sea: only the sea (needs hydrology.sea_level above 0), the edges closed. "
        "Without erosion, open and edges give the same water.",
        [](Config& c, const Json& v) {
            c.hydrology.outlets = enumNamed<OutletMode>(kOutletModeNames, v);
        }},
    Row{"hydrology.river.colour", colour(),
        "Colour (\"#rrggbb\") of the river class in classes.tif and the previews.",
        [](Config& c, const Json& v) { c.hydrology.riverColour = rgbFrom(v); }},
    Row{"hydrology.river.walkable", boolean(), "Whether river cells can be walked on.",
        [](Config& c, const Json& v) { c.hydrology.riverWalkable = v.get<bool>(); }},
    Row{"hydrology.river.ford_order", integerIn(0, kMaxStrahlerOrder),
        "River cells of Strahler order up to this are fords, walkable whatever "
        "hydrology.river.walkable says (0: none).",
        [](Config& c, const Json& v) { c.hydrology.fordMaxOrder = v.get<std::int32_t>(); }},
    Row{"hydrology.erosion.enabled", boolean(),
        "Erode the height field before lakes and rivers are found: stream-power incision "
        "(E = k A^m S^n) and hillslope diffusion, solved implicitly per step (Braun and "
        "Willett 2013), the noise height as initial relief and as uplift.",
        [](Config& c, const Json& v) { c.hydrology.erosion.enabled = v.get<bool>(); }},
    Row{"hydrology.erosion.mode", oneOf(kNoiseRoleNames),
        "uplift: the noise height (0..1) scales the uplift rate, so ranges rise where it is "
        "high and rivers cut them as they rise; relief: the noise is the initial surface, "
        "uplifted evenly, and erosion carves it.",
        [](Config& c, const Json& v) {
            c.hydrology.erosion.noiseRole = enumNamed<NoiseRole>(kNoiseRoleNames, v);
        }},
    Row{"hydrology.erosion.steps", integerIn(1, kMaxErosionSteps), "Erosion time steps.",
        [](Config& c, const Json& v) { c.hydrology.erosion.steps = v.get<std::int32_t>(); }},
    Row{"hydrology.erosion.time_step", numberAbove(0, kMaxErosionTimeStep),
        "Length of one erosion step in years.",
        [](Config& c, const Json& v) { c.hydrology.erosion.timeStepYears = v.get<double>(); }},
    Row{"hydrology.erosion.k", numberAbove(0, 1),
        "Erodibility k of the stream-power law (A in m^2, S in m/m, per year).",
        [](Config& c, const Json& v) { c.hydrology.erosion.k = v.get<double>(); }},
    Row{"hydrology.erosion.m", numberAbove(0, 2), "Drainage-area exponent m.",
        [](Config& c, const Json& v) { c.hydrology.erosion.m = v.get<double>(); }},
    Row{"hydrology.erosion.n", numberAbove(0, 4),
        "Slope exponent n; m / n near 0.5 gives the concavity of real rivers.",
        [](Config& c, const Json& v) { c.hydrology.erosion.n = v.get<double>(); }},
    Row{"hydrology.erosion.diffusion", numberIn(0, kMaxDiffusion),
        "Hillslope diffusivity in m^2 per year (0: no diffusion).",
        [](Config& c, const Json& v) { c.hydrology.erosion.diffusion = v.get<double>(); }},
    Row{"hydrology.erosion.uplift", numberIn(0, 1),
        "Uplift rate in metres per year (with mode uplift, times the noise height).",
        [](Config& c, const Json& v) {
            c.hydrology.erosion.upliftMetersPerYear = v.get<double>();
        }},
    Row{"climate.enabled", boolean(),
        "Temperature and precipitation for the whole map, computed before the tiles: "
        "temperature from latitude and the lapse rate, precipitation carried by the wind "
        "(moisture taken up over water, rained out where the air climbs, a rain shadow "
        "behind ranges; see docs/climate.md). With hydrology, lakes then hold water by "
        "balance (inflow against evaporation) instead of filling every depression. Off: "
        "nothing changes.",
        [](Config& c, const Json& v) { c.climate.enabled = v.get<bool>(); }},
    Row{"climate.latitude", pairWithin(kMaxLatitude),
        "[north, south]: the latitude in degrees of a plane map's top and bottom edges; the "
        "rows between lie evenly between them. A planet (map.projection equirectangular) has "
        "its own.",
        [](Config& c, const Json& v) {
            c.climate.latitudeNorth = v[0].get<double>();
            c.climate.latitudeSouth = v[1].get<double>();
        }},
    Row{"climate.temperature.equator", numberIn(-kMaxCelsius, kMaxCelsius),
        "Mean annual temperature (degrees C) at sea level on the equator; at latitude l it is "
        "pole + (equator - pole) cos(l).",
        [](Config& c, const Json& v) { c.climate.model.equatorTemperature = v.get<double>(); }},
    Row{"climate.temperature.pole", numberIn(-kMaxCelsius, kMaxCelsius),
        "Mean annual temperature (degrees C) at sea level at the poles.",
        [](Config& c, const Json& v) { c.climate.model.poleTemperature = v.get<double>(); }},
    Row{"climate.temperature.lapse_rate", numberIn(0, kMaxLapseRate),
        "Degrees C the temperature falls per km of elevation above 0 m (6.5 is the standard "
        "atmosphere's).",
        [](Config& c, const Json& v) { c.climate.model.lapseRate = v.get<double>(); }},
    Row{"climate.wind.mode", oneOf(climate::kWindModeNames),
        "bands: the wind of each latitude, as on Earth: trade winds from the east-north-east "
        "(east-south-east south of the equator) below 30 degrees, westerlies from the "
        "west-south-west (west-north-west) to 60, polar easterlies beyond; fixed: from "
        "climate.wind.direction everywhere.",
        [](Config& c, const Json& v) {
            c.climate.model.windMode = enumNamed<climate::WindMode>(climate::kWindModeNames, v);
        }},
    Row{"climate.wind.direction", numberIn(0, 360),
        "With climate.wind.mode fixed: where the wind comes from, in degrees clockwise from "
        "north (270: from the west).",
        [](Config& c, const Json& v) { c.climate.model.windFromDegrees = v.get<double>(); }},
    Row{"climate.precipitation", numberIn(0, kMaxPrecipitation),
        "Precipitation (mm a year) that saturated air at 15 degrees C brings to flat land; "
        "warmer air holds more (7 % a degree), climbing air rains out more, and the "
        "circulation cells make the equator and 60 degrees wetter and 30 degrees and the "
        "poles drier.",
        [](Config& c, const Json& v) { c.climate.model.precipitation = v.get<double>(); }},
    Row{"climate.moisture_range", numberAbove(0, kMaxMoistureRangeKm),
        "Distance in km over which the air's moisture falls to 1/e over flat land away from "
        "water (rain, less what evaporates again): how dry the interior of a continent gets.",
        [](Config& c, const Json& v) { c.climate.model.moistureRangeKm = v.get<double>(); }},
    Row{"climate.inflow_humidity", numberIn(0, 1),
        "Humidity (a share of saturation) of the air that enters the map across its upwind "
        "edge: 1 air straight off a warm sea, 0 air from a desert. Tileable maps and planets "
        "have no such edge.",
        [](Config& c, const Json& v) { c.climate.model.inflowHumidity = v.get<double>(); }},
    Row{"climate.evaporation", numberIn(0, kMaxPrecipitation),
        "Evaporation (mm a year) from open water at 15 degrees C, along the same saturation "
        "curve at other temperatures: what a lake loses, and what the land could lose (its "
        "runoff follows the Budyko curve).",
        [](Config& c, const Json& v) { c.climate.evaporation = v.get<double>(); }},
    Row{"output.directory", nonEmptyString(),
        "Directory the output files are written to; not part of the config hash.",
        [](Config& c, const Json& v) { c.output.directory = v.get<std::string>(); }},
    Row{"output.files", filesFrom(kOutputFileNames),
        "Output files to write. height.r16 (raw 16-bit heights) comes with height.r16.json, "
        "height.exr (float heights in metres) with height.exr.json; map.tmj (a Tiled map) "
        "with terrain.tsj and terrain.png; splat.png writes splat_0.png, splat_1.png, ... "
        "(four classes' weights each, RGBA) and weight.png one weight_<class>.png per class; "
        "classes.tif comes with classes.tif.aux.xml (its class names for GDAL); classes.qml "
        "and height.qml are QGIS styles for classes.tif and height.tif; water.tif comes with "
        "water.tif.aux.xml and water.qml; every PNG on the map's grid (previews, height16.png, "
        "splat, weight and water maps) with a world file (.pgw) and a GDAL sidecar "
        "(.png.aux.xml) that place it.",
        [](Config& c, const Json& v) { c.output.files = outputFilesFrom(v); }},
    Row{"output.preview_max_size", integerIn(kMinPreviewSize, kMaxPreviewSize),
        "Longest side of preview.png and height.png in pixels; bigger maps are downsampled "
        "while tiles stream.",
        [](Config& c, const Json& v) { c.output.previewMaxSize = v.get<std::int64_t>(); }},
    Row{"output.preview_legend", oneOf(kPreviewLegendNames),
        "Draw a legend into preview.png (class colours and names) and height.png (its colour "
        "ramp with metres, water included): on, off, or auto (on for pictures at least 512 "
        "pixels wide).",
        [](Config& c, const Json& v) {
            c.output.previewLegend = enumNamed<PreviewLegend>(kPreviewLegendNames, v);
        }},
    Row{"output.crs", nonEmptyString(),
        "CRS of the world coordinates (map.origin, map.cell_size), as \"EPSG:NNNN\", looked "
        "up in PROJ's database: a geographic CRS takes the origin and cell size in degrees, a "
        "projected one in its axis unit. Written into the GeoTIFFs' GeoKeys. output.epsg: N "
        "is accepted as shorthand for \"EPSG:N\".",
        [](Config& c, const Json& v) {
            c.output.crs.epsg = parseEpsgText(v.get_ref<const std::string&>());
        }},
    Row{"output.compression", oneOf(kCompressionNames), "GeoTIFF compression.",
        [](Config& c, const Json& v) {
            c.output.compression = enumNamed<Compression>(kCompressionNames, v);
        }},
    Row{"output.exr_compression", oneOf(kExrCompressionNames),
        "How height.exr is compressed, all three lossless and read by every EXR reader "
        "(Godot's too): zip (deflate: about 6 % smaller than none for float heights), piz "
        "(wavelet and Huffman: about 22 % smaller, in zip's time) or none (written in a "
        "twentieth of zip's time).",
        [](Config& c, const Json& v) {
            c.output.exrCompression = enumNamed<ExrCompression>(kExrCompressionNames, v);
        }},
    Row{"output.geojson_crs", oneOf(kGeoJsonCrsNames),
        "Coordinates of rivers.geojson and lakes.geojson: wgs84 writes RFC 7946 GeoJSON "
        "(longitude and latitude in WGS 84, transformed from output.crs by PROJ), which web "
        "maps and geojson.io read; map keeps the map's own CRS (output.crs, exactly on the "
        "cells of the GeoTIFFs) and names it in a \"crs\" member, as GDAL writes projected "
        "GeoJSON (not RFC 7946).",
        [](Config& c, const Json& v) {
            c.output.geojsonCrs = enumNamed<GeoJsonCrs>(kGeoJsonCrsNames, v);
        }},
    Row{"output.bigtiff", oneOf(kBigTiffModeNames),
        "auto writes BigTIFF only when a file may pass 4 GiB; always forces it.",
        [](Config& c, const Json& v) {
            c.output.bigTiff = enumNamed<BigTiffMode>(kBigTiffModeNames, v);
        }},
    Row{"output.geotiff.block_size", integerIn(kMinGeoTiffBlock, kMaxGeoTiffBlock),
        "Edge of the square blocks (TIFF tiles) of every GeoTIFF, in cells: a multiple of 16. "
        "Set apart from map.tile_size, which changes no byte of any output.",
        [](Config& c, const Json& v) { c.output.geotiffBlockSize = v.get<std::int64_t>(); }},
    Row{"output.layout", oneOf(kTiffLayoutNames),
        "How every GeoTIFF stores its resolutions: overviews adds internal overviews (each "
        "half the size of the one before, down to one block; the mean for heights, the most "
        "frequent value for classes and masks); cog writes a Cloud Optimized GeoTIFF with the "
        "same overviews; plain writes the full resolution alone.",
        [](Config& c, const Json& v) {
            c.output.layout = enumNamed<TiffLayout>(kTiffLayoutNames, v);
        }},
    Row{"output.engine", oneOf(kEngineNames),
        "Game engine the map is meant for: its size must be one the engine accepts (unity: "
        "square 2^n+1 from 33 to 4097; unreal: each side one of 127, 253, 505, 1009, 2017, "
        "4033, 8129; godot: each side 2^n+1 from 33 to 16385). The built-in default size is "
        "snapped to the nearest accepted size; a size you give is refused unless "
        "output.engine_snap is true. none accepts any size.",
        [](Config& c, const Json& v) { c.output.engine = enumNamed<Engine>(kEngineNames, v); }},
    Row{"output.engine_snap", boolean(),
        "Snap a map size that output.engine does not accept to the nearest size it does, "
        "even when you gave the size (a note says so).",
        [](Config& c, const Json& v) { c.output.engineSnap = v.get<bool>(); }},
    Row{"output.manifest", boolean(),
        "Write manifest.json beside the outputs: every file of the run with its size and "
        "SHA-256, the config hash and resolved config, the versions and the window or shard. "
        "'terragrid verify' checks a directory against it and 'terragrid mosaic' checks "
        "pieces with it. Not part of the config hash: it changes no other file.",
        [](Config& c, const Json& v) { c.output.manifest = v.get<bool>(); }},
    Row{"output.r16_flip_y", boolean(),
        "Write height.r16 rows bottom to top (south edge first) instead of top to bottom. "
        "Left unset, it follows output.engine: true for unity, whose Import Raw reads the "
        "first row as the terrain's south (z = 0) edge, false otherwise; a value you set wins.",
        [](Config& c, const Json& v) { c.output.r16FlipY = v.get<bool>(); }},
    Row{"output.splat_blend", integerIn(0, kMaxSplatBlend),
        "Soft class borders in splat.png and weight.png: each cell takes every class in "
        "proportion to its cells in the square of this many cells around it (0: each cell is "
        "all its own class).",
        [](Config& c, const Json& v) { c.output.splatBlendCells = v.get<std::int64_t>(); }},
    Row{"output.tiled.tile_pixels", integerIn(kMinTilePixels, kMaxTilePixels),
        "Edge of one tile of map.tmj's tileset image (terrain.png), in pixels.",
        [](Config& c, const Json& v) { c.output.tiled.tilePixels = v.get<std::int64_t>(); }},
    Row{"output.tiled.walkable_layer", boolean(),
        "Add a layer to map.tmj marking the cells that cannot be walked on.",
        [](Config& c, const Json& v) { c.output.tiled.walkableLayer = v.get<bool>(); }},
    Row{"output.tiled.chunk_cells", integerIn(kMinChunkCells, kMaxChunkCells),
        "Maps with a side above this many cells are written as chunk maps of at most "
        "chunk_cells x chunk_cells cells, placed by map.world, instead of one map.tmj.",
        [](Config& c, const Json& v) { c.output.tiled.chunkCells = v.get<std::int64_t>(); }},
};

std::vector<Option> buildOptions() {
    std::vector<Option> options;
    const auto add = [&](const Row& row) {
        options.push_back({std::string(row.path), row.rule, row.meaning, row.store});
    };
    std::for_each(kHeadRows.begin(), kHeadRows.end(), add);
    for (const Layer& layer : kLayers) {
        const std::string section = std::string(layer.name) + ".";
        for (const LayerRow& row : kLayerRows) {
            options.push_back({section + std::string(row.key), row.rule, row.meaning,
                               [stack = layer.stack, store = row.store](
                                   Config& c, const Json& v) { store((c.*stack).base, v); }});
        }
        // After the base rows, so the entries can start from the stored base layer.
        options.push_back({section + "layers", layerList(), kLayersMeaning,
                           [stack = layer.stack](Config& c, const Json& v) {
                               (c.*stack).layers = stackedLayersFrom((c.*stack).base, v);
                           }});
        if (!layer.shaping) continue;
        for (const Row& row : kShapingRows)
            options.push_back({section + std::string(row.path), row.rule, row.meaning, row.store});
    }
    std::for_each(kTailRows.begin(), kTailRows.end(), add);
    return options;
}

}  // namespace

std::span<const LayerRow> layerRows() { return kLayerRows; }

const std::vector<Option>& options() {
    static const std::vector<Option> table = buildOptions();
    return table;
}

std::size_t optionIndex(std::string_view path) {
    const auto& all = options();
    return static_cast<std::size_t>(
        std::find_if(all.begin(), all.end(), [&](const Option& o) { return o.path == path; }) -
        all.begin());
}

}  // namespace terragrid::config_detail

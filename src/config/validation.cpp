// Validation of a whole document (validation.hpp): the option checks, then the rules
// across fields. The terrain rules are in terrain_rules.cpp, the map's shape in
// shapes.cpp.

#include "config/validation.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "config/climate_rules.hpp"
#include "config/crs_rules.hpp"
#include "config/hydrology_rules.hpp"
#include "config/keys.hpp"
#include "config/shapes.hpp"
#include "config/terrain_rules.hpp"
#include "config/values.hpp"
#include "terragrid/model/engine.hpp"

namespace terragrid::config_detail {
namespace {

void checkElevationOrder(const Validation& v, Problems& out) {
    if (!v.passedAll({"elevation.min", "elevation.max"})) return;
    if (v.config.elevation.minMeters < v.config.elevation.maxMeters) return;
    report(out, v.named("elevation.min") + " must be below " + v.named("elevation.max"));
}

/// TIFF 6.0 wants tile edges in multiples of 16; libtiff and GDAL refuse others.
void checkGeoTiffBlockSize(const Validation& v, Problems& out) {
    if (!v.passedAll({"output.geotiff.block_size"}) || v.config.output.geotiffBlockSize % 16 == 0)
        return;
    report(out, v.named("output.geotiff.block_size") + " must be a multiple of 16 (TIFF tiles)");
}

/// Any origin places the map (it need not lie on the grid: tiling.hpp GridGeometry); within
/// 2^46 cells of 0 the global cell indices stay exact.
void checkOriginRange(const Validation& v, Problems& out) {
    if (!v.passedAll({"map.origin", "map.cell_size"})) return;
    const MapConfig& map = v.config.map;
    const double cellsFromZero =
        std::max(std::abs(map.originX), std::abs(map.originY)) / map.cellSize;
    if (cellsFromZero <= kMaxOriginCells) return;
    report(out, v.named("map.origin") + " must lie within " + formatNumber(kMaxOriginCells) +
                    " cells of 0 at " + v.named("map.cell_size") +
                    " so that cell indices stay exact");
}

std::string engineName(Engine engine) {
    return std::string(kEngineNames[static_cast<std::size_t>(engine)]);
}

std::string sizeText(std::int64_t width, std::int64_t height) {
    return std::to_string(width) + " x " + std::to_string(height);
}

/// A map size output.engine does not accept is snapped to the nearest one it does when the
/// user asked for that (output.engine_snap) or did not choose the size (the built-in default);
/// a size the user gave is otherwise refused. Snapping rewrites the document, so the resolved
/// config and its hash carry the size actually generated.
void checkEngineSize(Validation& v, Problems& out) {
    if (!v.passedAll({"map.width", "map.height", "output.engine", "output.engine_snap"})) return;
    const Engine engine = v.config.output.engine;
    MapConfig& map = v.config.map;
    if (engine == Engine::None || engineAccepts(engine, map.width, map.height)) return;
    const EngineSize nearest = nearestEngineSize(engine, map.width, map.height);
    const bool userSized = v.userSet("map.width") || v.userSet("map.height");
    if (userSized && !v.config.output.engineSnap) {
        report(out, "'map.width' x 'map.height' (" + sizeText(map.width, map.height) +
                        ") is not a size " + engineName(engine) +
                        " accepts: " + std::string(engineSizeRule(engine)) + " (nearest: " +
                        sizeText(nearest.width, nearest.height) +
                        "); set output.engine_snap=true to snap");
        return;
    }
    v.config.notes.push_back("map snapped from " + sizeText(map.width, map.height) + " to " +
                             sizeText(nearest.width, nearest.height) + " cells for " +
                             engineName(engine));
    map.width = nearest.width;
    map.height = nearest.height;
    Json& section = *sectionOf(v.document, "map.width");
    section["width"] = Json(static_cast<std::uint64_t>(map.width));
    section["height"] = Json(static_cast<std::uint64_t>(map.height));
}

/// Every noise layer (bases, stacked layers) gets the map's noise_version.
void deriveNoiseVersions(Validation& v) {
    for (LayerStackParams* stack : {&v.config.height, &v.config.moisture}) {
        stack->base.version = v.config.noiseVersion;
        for (StackedLayer& layer : stack->layers) layer.noise.version = v.config.noiseVersion;
    }
}

/// Unity's Import Raw puts the file's first row at the terrain's z = 0 edge (south, with +z
/// north), so a Unity r16 goes bottom row first: north then lands at +z with "Flip Vertically"
/// left unticked. The engine only picks the default; a value the user set wins. Like snapping,
/// this rewrites the document, so the resolved config and its hash say which order was written.
void deriveR16RowOrder(Validation& v) {
    if (!v.passedAll({"output.engine", "output.r16_flip_y"})) return;
    if (v.userSet("output.r16_flip_y")) return;
    v.config.output.r16FlipY = v.config.output.engine == Engine::Unity;
    (*sectionOf(v.document, "output.r16_flip_y"))["r16_flip_y"] = v.config.output.r16FlipY;
}

/// Takes the top-level "$schema" (which names a JSON Schema for editors) out of `document`:
/// it is accepted, must be a string, and changes nothing, not even the hash.
void takeSchemaKey(Json& document, Problems& out) {
    const auto it = document.find(kSchemaKey);
    if (it == document.end()) return;
    if (!it->is_string()) report(out, quote(kSchemaKey) + " must be a string" + got(*it));
    document.erase(it);
}

}  // namespace

Validation validate(Json& document, const Json& written, Problems& out) {
    takeSchemaKey(document, out);
    takeEpsgShorthand(document, written, out);
    checkKeys(document, "", out);
    Validation v{document, written};
    for (std::size_t i = 0; i < options().size(); ++i)
        v.passed[i] = checkOption(options()[i], document, v.config, out);
    checkElevationOrder(v, out);
    checkOriginRange(v, out);
    checkCrs(v, out);
    checkGeoTiffBlockSize(v, out);
    checkTerrainThresholds(v, out);
    checkUnusedDefaultRules(v, out);
    // After the other rules, which read the size the user gave.
    checkEngineSize(v, out);
    deriveR16RowOrder(v);
    deriveNoiseVersions(v);
    checkWorldShape(v, out);
    checkHydrology(v, out);
    checkClimate(v, out);
    return v;
}

}  // namespace terragrid::config_detail

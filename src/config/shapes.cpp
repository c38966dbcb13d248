// Rules across fields for the map's shape (shapes.hpp): which noises a wrapping map
// or a planet can use, what has no place on them, layer stacks that leave no range, and the
// planet's fixed grid.

#include "config/shapes.hpp"

#include <cmath>
#include <string>

#include "config/crs_rules.hpp"
#include "config/validation.hpp"
#include "terragrid/config/crs.hpp"
#include "terragrid/noise/layers.hpp"

namespace terragrid::config_detail {
namespace {

std::string noiseName(NoiseKind kind) {
    return std::string(kNoiseKindNames[static_cast<std::size_t>(kind)]);
}

/// The dimensions the map's surface samples its layers in, and the option that asks for them.
struct SurfaceNeed {
    int dimensions = 2;
    std::string why;  ///< "'map.wrap' (true)"
    std::string kinds;  ///< the noises that have them
    std::string what;   ///< "a wrapping map"
};

SurfaceNeed surfaceNeed(const Validation& v) {
    if (v.config.map.projection == Projection::Equirectangular)
        return {3, v.named("map.projection"), "value, perlin or simplex", "a planet"};
    if (v.config.map.wrap)
        return {4, v.named("map.wrap"),
                "perlin or simplex (or value with noise_version 5 and the lattice hash)", "a wrapping map"};
    return {};
}

void checkNoiseDimensions(const std::string& path, const NoiseParams& layer, const SurfaceNeed& need,
                          Problems& out) {
    if (hasDimensions(layer.noise, need.dimensions)) return;
    // Version 5's value noise tiles by its own lattice instead of sampling the torus in 4D.
    if (need.dimensions == 4 && tilesByLattice(layer)) return;
    report(out, quote(path) + " (" + noiseName(layer.noise) + ") has no " +
                    std::to_string(need.dimensions) + "D form, which " + need.why +
                    " needs: use " + need.kinds);
}

/// Every layer of `section` ("height") must have a noise the surface can sample.
void checkSectionDimensions(const Validation& v, const std::string& section,
                            const LayerStackParams& stack, const SurfaceNeed& need,
                            Problems& out) {
    if (v.passedAll({section + ".noise"}))
        checkNoiseDimensions(section + ".noise", stack.base, need, out);
    if (!v.passedAll({section + ".layers"})) return;
    for (std::size_t i = 0; i < stack.layers.size(); ++i)
        checkNoiseDimensions(section + ".layers[" + std::to_string(i) + "].noise",
                             stack.layers[i].noise, need, out);
}

void checkSurface(const Validation& v, Problems& out) {
    if (!v.passedAll({"map.projection", "map.wrap"})) return;
    const MapConfig& map = v.config.map;
    if (map.wrap && map.projection == Projection::Equirectangular) {
        report(out, v.named("map.wrap") + " and " + v.named("map.projection") +
                        " cannot go together: a planet already joins across the 180th "
                        "meridian, and its poles are points, not edges");
        return;
    }
    const SurfaceNeed need = surfaceNeed(v);
    if (need.dimensions == 2) return;
    checkSectionDimensions(v, "height", v.config.height, need, out);
    checkSectionDimensions(v, "moisture", v.config.moisture, need, out);
    if (v.passedAll({"height.falloff.shape"}) && v.config.height.falloff.shape != Falloff::None)
        report(out, v.named("height.falloff.shape") + " has no place on " + need.what + " (" +
                        need.why + "): it has no edge to fall off toward");
}

void checkStackRange(const Validation& v, const std::string& section,
                     const LayerStackParams& stack, Problems& out) {
    if (!v.passedAll({section + ".layers"})) return;
    const ValueRange range = combinedRange(stack);
    if (range.hi > range.lo) return;
    report(out, quote(section + ".layers") + " always give " + formatNumber(range.lo) +
                    ": their weights leave the " + section + " no range");
}

/// An equirectangular planet's grid is fixed: longitudes -180..180, latitudes 90..-90, in
/// square cells of 360 / width degrees, in EPSG:4326.
void checkPlanet(Validation& v, Problems& out) {
    if (!v.passedAll({"map.projection", "map.width", "map.height", "map.cell_size",
                      "output.crs", "output.engine"}) ||
        v.config.map.projection != Projection::Equirectangular || v.config.map.wrap)
        return;  // (with wrap: reported by checkSurface)
    MapConfig& map = v.config.map;
    const std::size_t before = out.size();
    if (map.width != 2 * map.height || map.height % 2 != 0)
        report(out, "'map.width' x 'map.height' (" + std::to_string(map.width) + " x " +
                        std::to_string(map.height) + ") must be 2h x h with h even for " +
                        v.named("map.projection") + " (e.g. 2048 x 1024): square cells of " +
                        "longitude and latitude, the equator between two rows");
    if (crsUserSet(v) && v.config.output.crs.epsg != 4326)
        report(out, v.named("output.crs") + " must be \"EPSG:4326\" for " +
                        v.named("map.projection") +
                        ": the map is in longitude and latitude");
    if (v.userSet("map.origin"))
        report(out, quote("map.origin") + " has no effect with " + v.named("map.projection") +
                        ": a planet spans -180..180 and -90..90; leave it out");
    if (v.config.output.engine != Engine::None)
        report(out, v.named("output.engine") + " cannot take " + v.named("map.projection") +
                        ": engine terrains are flat, with cells in metres");
    if (out.size() != before) return;
    map.groundCellSize = map.cellSize;
    map.cellSize = 360.0 / static_cast<double>(map.width);
    map.originX = -180.0;
    map.originY = 90.0;
    v.config.output.crs = crsFromEpsg(4326);
    (*sectionOf(v.document, "output.crs"))["crs"] = "EPSG:4326";
    // The origin is fixed, and a config that sets it is refused: the resolved config
    // (--print-config) leaves it out, so that it loads back.
    sectionOf(v.document, "map.origin")->erase("origin");
}

}  // namespace

void checkWorldShape(Validation& v, Problems& out) {
    checkSurface(v, out);
    checkStackRange(v, "height", v.config.height, out);
    checkStackRange(v, "moisture", v.config.moisture, out);
    checkPlanet(v, out);
}

}  // namespace terragrid::config_detail

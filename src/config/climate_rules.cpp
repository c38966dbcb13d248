#include "config/climate_rules.hpp"

#include <string>

#include "config/documents.hpp"
#include "config/validation.hpp"
#include "terragrid/io/output_drivers.hpp"

namespace terragrid::config_detail {

namespace {

/// What asks for the climate while it is off.
void checkNeedsClimate(const Validation& v, Problems& out) {
    if (!v.passedAll({"climate.enabled"}) || v.config.climate.enabled) return;
    const std::string fix = ": set climate.enabled=true";
    if (v.passedAll({"terrain.model", "terrain.classes"}) && !v.config.terrain.customClasses &&
        v.config.terrain.model == TerrainModel::Climate)
        report(out, v.named("terrain.model") + " needs " + v.named("climate.enabled") + fix);
    if (v.passedAll({"hydrology.rainfall", "hydrology.enabled"}) && v.config.hydrology.enabled &&
        v.config.hydrology.rainfall == Rainfall::Climate)
        report(out, v.named("hydrology.rainfall") + " needs " + v.named("climate.enabled") + fix);
    if (v.passedAll({"terrain.classes"}) && v.config.terrain.customClasses) {
        for (const TerrainClass& c : v.config.terrain.classes) {
            if (!c.restrictsClimate()) continue;
            report(out, quote("terrain.classes") + " class '" + c.name +
                            "' has a temperature or precipitation range, which needs " +
                            v.named("climate.enabled") + fix);
            break;
        }
    }
    if (v.passedAll({"output.files"})) {
        std::string files;
        for (OutputFile file : v.config.output.files) {
            if (!driverFor(file).needsClimate) continue;
            files += (files.empty() ? "" : ", ") + std::string(driverFor(file).name);
        }
        if (!files.empty())
            report(out, quote("output.files") + " asks for " + files + ", which need " +
                            v.named("climate.enabled") + fix);
    }
}

/// A key the user set, to another value than its default, that the choices around it make
/// meaningless. (Its default is no mistake: configs/default.json itself sets every key.)
void checkNoEffect(const Validation& v, std::string_view path, const std::string& because,
                   Problems& out) {
    if (!v.userSet(path)) return;
    const Json& set = sectionOf(v.written, path)->at(lastKey(path));
    const Json* builtin = sectionOf(builtinDocument(), path);
    if (builtin != nullptr && builtin->contains(lastKey(path)) &&
        builtin->at(lastKey(path)) == set)
        return;
    report(out, quote(path) + " has no effect " + because);
}

}  // namespace

void checkClimate(Validation& v, Problems& out) {
    checkNeedsClimate(v, out);
    const TerrainConfig& t = v.config.terrain;
    if (v.passedAll({"terrain.model", "terrain.classes"}) && !t.customClasses) {
        if (t.model == TerrainModel::Climate) {
            for (const std::string_view path : kNoiseModelKeys) {
                checkNoEffect(v, path, "with 'terrain.model' climate (the biomes' own)", out);
                // Left out of the resolved config, as with a custom table, so it loads back.
                sectionOf(v.document, path)->erase(std::string(lastKey(path)));
            }
        } else {
            checkNoEffect(v, "terrain.rock_slope", "with 'terrain.model' noise", out);
        }
    }
    if (v.passedAll({"map.projection"}) && v.config.map.projection == Projection::Equirectangular)
        checkNoEffect(v, "climate.latitude", "on a planet, whose rows have their own latitudes",
                      out);
    if (v.passedAll({"climate.wind.mode"}) &&
        v.config.climate.model.windMode == climate::WindMode::Bands)
        checkNoEffect(v, "climate.wind.direction", "with 'climate.wind.mode' bands", out);
    const HydrologyConfig& h = v.config.hydrology;
    if (v.passedAll({"hydrology.enabled", "hydrology.outlets", "hydrology.sea_level"}) &&
        h.enabled && h.outlets == OutletMode::Sea && !(h.seaLevel > 0))
        report(out, v.named("hydrology.outlets") + " needs a sea to drain to, but " +
                        v.named("hydrology.sea_level") + " makes none: raise it above 0, or "
                        "choose open or edges");
}

}  // namespace terragrid::config_detail

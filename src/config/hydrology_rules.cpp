#include "config/hydrology_rules.hpp"

#include <string>

#include "config/validation.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid::config_detail {

namespace {

/// With hydrology on, a custom table's classes named lake and river match no height (water
/// comes from the stage alone, as with the default table), so the others must cover every
/// (height, moisture) by themselves.
void checkWaterClasses(const Validation& v, Problems& out) {
    if (!v.passedAll({"terrain.classes"}) || !v.config.terrain.customClasses) return;
    const auto gap = findGap(withoutWaterRanges(v.config.terrain.classes));
    if (!gap) return;
    report(out, quote("terrain.classes") + " leave " + *gap + " unclassified with " +
                    v.named("hydrology.enabled") + ": lakes and rivers then come from " +
                    "hydrology, so the classes named 'lake' and 'river' match no height; " +
                    "every other cell must match another class");
}

}  // namespace

void checkHydrology(const Validation& v, Problems& out) {
    if (!v.passedAll({"hydrology.enabled"})) return;
    const bool enabled = v.config.hydrology.enabled;
    if (!enabled && v.passedAll({"output.files"})) {
        std::string files;
        for (OutputFile file : v.config.output.files) {
            if (!driverFor(file).needsHydrology) continue;
            files += (files.empty() ? "" : ", ") + std::string(driverFor(file).name);
        }
        if (!files.empty())
            report(out, quote("output.files") + " asks for " + files + ", which need " +
                            v.named("hydrology.enabled") + ": set hydrology.enabled=true");
    }
    if (enabled) checkWaterClasses(v, out);
    if (!enabled || !v.passedAll({"map.wrap", "map.projection"})) return;
    if (v.config.map.wrap)
        report(out, v.named("hydrology.enabled") + " cannot go with " + v.named("map.wrap") +
                        ": a tileable map has no edge for water to leave by");
    if (v.config.map.projection == Projection::Equirectangular)
        report(out, v.named("hydrology.enabled") + " cannot go with " +
                        v.named("map.projection") + ": hydrology works on plane maps only");
}

}  // namespace terragrid::config_detail

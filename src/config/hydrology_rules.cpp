#include "config/hydrology_rules.hpp"

#include <string>

#include "config/validation.hpp"
#include "terragrid/io/output_drivers.hpp"

namespace terragrid::config_detail {

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
    if (!enabled || !v.passedAll({"map.wrap", "map.projection"})) return;
    if (v.config.map.wrap)
        report(out, v.named("hydrology.enabled") + " cannot go with " + v.named("map.wrap") +
                        ": a tileable map has no edge for water to leave by");
    if (v.config.map.projection == Projection::Equirectangular)
        report(out, v.named("hydrology.enabled") + " cannot go with " +
                        v.named("map.projection") + ": hydrology works on plane maps only");
}

}  // namespace terragrid::config_detail

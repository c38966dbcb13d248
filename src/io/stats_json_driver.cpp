// stats.json's driver. The run writes the file itself (app/run.hpp) from what the other
// outputs' pipeline gathered: the map statistics, the terrain classes and the walkable regions.

#include "terragrid/io/output_drivers.hpp"

#include "io/size_bounds.hpp"

namespace terragrid {

constexpr OutputDriver kStatsJsonDriver{
    .file = OutputFile::StatsJson,
    .name = "stats.json",
    .needsClasses = alwaysNeeded,  // the share of each class
    .needsRegions = alwaysNeeded,  // walkable cells after the connectivity rule, the regions
    .makeSink = nullptr,
    // The figures are a few KiB of JSON; the class names, escaped, come on top.
    .diskBound = [](const Config& config) {
        return bounds::plannedFile(config, OutputFile::StatsJson,
                                   16 * bounds::kKiB + bounds::classNamesBytes(config, 256),
                                   false);
    },
    // Written from what the run holds anyway (the statistics and the regions).
    .memoryBound = [](const Config&, int) { return WriterMemory{}; },
};
static_assert(namedAsInTable(kStatsJsonDriver));
const DriverRegistration kStatsJsonRegistered{kStatsJsonDriver};

}  // namespace terragrid

// stats.json's driver. The run writes the file itself (app/run.hpp) from what the other
// outputs' pipeline gathered: the map statistics, the terrain classes and the walkable regions.

#include "terragrid/io/output_drivers.hpp"

namespace terragrid {

extern constexpr OutputDriver kStatsJsonDriver{
    .file = OutputFile::StatsJson,
    .name = "stats.json",
    .needsClasses = alwaysNeeded,  // the share of each class
    .needsRegions = alwaysNeeded,  // walkable cells after the connectivity rule, the regions
    .makeSink = nullptr,
};
static_assert(namedAsInTable(kStatsJsonDriver));

}  // namespace terragrid

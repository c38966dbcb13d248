#pragma once
// RichDEM's D8 pipeline (r-barnes/richdem, header-only), the reference the hydrology targets
// are set against: Zhou, Sun & Fu (2016) Priority-Flood fill, Barnes, Lehman & Mulla (2014)
// Priority-Flood flow directions, D8 flow accumulation. Compiled only when CMake is given a
// local checkout (TERRAGRID_RICHDEM_DIR); RichDEM is never vendored or downloaded.

#include <string>
#include <vector>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::bench {

/// Seconds of each step of one run (wall; the process is single-threaded in them) and the
/// filled surface, to check that both fills agree.
struct RichDemRun {
    double fill = 0, flowdirs = 0, accumulate = 0;
    double fillCpu = 0, flowdirsCpu = 0, accumulateCpu = 0;
    std::vector<float> filled;
    double total() const { return fill + flowdirs + accumulate; }
    double cpu() const { return fillCpu + flowdirsCpu + accumulateCpu; }
};

/// Whether this build has RichDEM, and the commit of its checkout ("" without it).
bool haveRichDem();
std::string richDemVersion();

/// One run of the pipeline on `dem` (all border cells are outlets, as RichDEM's are), on the
/// calling thread. Throws std::logic_error when the build has no RichDEM.
RichDemRun runRichDem(const hydro::Grid& dem);

}  // namespace terragrid::bench

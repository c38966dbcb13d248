// RichDEM's D8 pipeline, timed step by step (see richdem_pipeline.hpp). Without a checkout
// (TERRAGRID_RICHDEM_DIR unset) this file only says so.

#include "richdem_pipeline.hpp"

#include <chrono>
#include <ctime>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <streambuf>

#ifdef TERRAGRID_RICHDEM_COMMIT
#define RICHDEM_NO_PROGRESS
#define RICHDEM_GIT_HASH TERRAGRID_RICHDEM_COMMIT
#define RICHDEM_COMPILE_TIME "terragrid bench"
#include <richdem/depressions/Barnes2014.hpp>
#include <richdem/depressions/Zhou2016.hpp>
#include <richdem/methods/d8_methods.hpp>
#endif

namespace terragrid::bench {

#ifdef TERRAGRID_RICHDEM_COMMIT

namespace {

double processCpu() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// RichDEM's progress bar clears the console line on std::cerr at each step's start: the
/// bench's output stays readable without it.
class QuietErrors {
public:
    QuietErrors() : m_saved(std::cerr.rdbuf(&m_null)) {}
    ~QuietErrors() { std::cerr.rdbuf(m_saved); }

private:
    struct Null : std::streambuf {
        int overflow(int c) override { return c; }
    } m_null;
    std::streambuf* m_saved;
};

}  // namespace

bool haveRichDem() { return true; }
std::string richDemVersion() { return TERRAGRID_RICHDEM_COMMIT; }

RichDemRun runRichDem(const hydro::Grid& dem) {
    const QuietErrors quiet;
    RichDemRun run;
    richdem::Array2D<float> z(dem.width, dem.height);
    // No cell is "no data" (RichDEM's default marker is -1, a height a map may have).
    z.setNoData(-std::numeric_limits<float>::infinity());
    for (std::int32_t y = 0; y < dem.height; ++y)
        for (std::int32_t x = 0; x < dem.width; ++x) z(x, y) = dem.z[std::size_t(y) * dem.width + x];
    auto wall = std::chrono::steady_clock::now();
    double cpu = processCpu();
    const auto lap = [&](double& w, double& c) {
        w = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
        c = processCpu() - cpu;
        wall = std::chrono::steady_clock::now();
        cpu = processCpu();
    };
    richdem::PriorityFlood_Zhou2016(z);
    lap(run.fill, run.fillCpu);
    richdem::Array2D<richdem::d8_flowdir_t> flowdirs;
    richdem::PriorityFloodFlowdirs_Barnes2014(z, flowdirs);
    lap(run.flowdirs, run.flowdirsCpu);
    richdem::Array2D<float> area;
    richdem::d8_flow_accum(flowdirs, area);
    lap(run.accumulate, run.accumulateCpu);
    run.filled.resize(dem.z.size());
    for (std::int32_t y = 0; y < dem.height; ++y)
        for (std::int32_t x = 0; x < dem.width; ++x) run.filled[std::size_t(y) * dem.width + x] = z(x, y);
    return run;
}

#else

bool haveRichDem() { return false; }
std::string richDemVersion() { return ""; }
RichDemRun runRichDem(const hydro::Grid&) {
    throw std::logic_error("this bench was built without RichDEM (set TERRAGRID_RICHDEM_DIR)");
}

#endif

}  // namespace terragrid::bench

// terragrid_erosion_bench [--size=N[,N...]] [--steps=S] [--mode=uplift|relief] [--k=K]
//                         [--m=M] [--n=N] [--diffusion=D] [--dt=T] [--uplift=U] [--seed=S]
//                         [--threads=T] [--summary-file=FILE] [--raw=FILE]
// The erosion model (src/hydro/erosion.cpp) on the default map's height noise at each size
// (1024 and 2048 unless told; 30 m cells, 0..1000 m, map edges as outlets): milliseconds per
// step, depressions routed out at the first and last step, and the slope-area theta of the
// raw noise and of the eroded surface (Flint's law: 0.35..0.65 expected after erosion).


#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hydro_terrain.hpp"
#include "size_runs.hpp"
#include "terragrid/hydro/erosion.hpp"
#include "terragrid/hydro/slope_area.hpp"

namespace {

using namespace terragrid;

struct Options {
    std::vector<int> sizes{1024, 2048};
    hydro::ErosionParams params = test::defaultErosion();
    hydro::ErosionMode mode = hydro::ErosionMode::Relief;  // the default (configs/default.json)
    int threads = 0;
    std::vector<std::string> overrides;  ///< config overrides for the noise (--seed=)
    std::string summaryFile;
    std::string rawFile;  ///< --raw=FILE: the last eroded grid as raw little-endian float32
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const auto value = [&](std::string_view flag) { return std::string(a.substr(flag.size())); };
        const auto number = [&](std::string_view flag) { return std::stod(value(flag)); };
        if (a.starts_with("--size=")) {
            o.sizes.clear();
            std::stringstream list(value("--size="));
            for (std::string s; std::getline(list, s, ',');) o.sizes.push_back(std::stoi(s));
        } else if (a.starts_with("--steps=")) o.params.steps = std::stoi(value("--steps="));
        else if (a.starts_with("--k=")) o.params.k = number("--k=");
        else if (a.starts_with("--m=")) o.params.m = number("--m=");
        else if (a.starts_with("--n=")) o.params.n = number("--n=");
        else if (a.starts_with("--diffusion=")) o.params.diffusion = number("--diffusion=");
        else if (a.starts_with("--dt=")) o.params.dt = number("--dt=");
        else if (a.starts_with("--uplift=")) o.params.uplift = number("--uplift=");
        else if (a.starts_with("--seed=")) o.overrides.push_back("seed=" + value("--seed="));
        else if (a.starts_with("--threads=")) o.threads = std::stoi(value("--threads="));
        else if (a == "--mode=uplift") o.mode = hydro::ErosionMode::Uplift;
        else if (a == "--mode=relief") o.mode = hydro::ErosionMode::Relief;
        else if (a.starts_with("--summary-file=")) o.summaryFile = value("--summary-file=");
        else if (a.starts_with("--raw=")) o.rawFile = value("--raw=");
        else throw std::invalid_argument("unknown option '" + std::string(a) + "'");
    }
    return o;
}

std::string runSize(const Options& o, int size) {
    test::NoiseTerrain terrain = test::noiseTerrain(size, o.overrides);
    const hydro::Outlets outlets;
    const hydro::SlopeAreaFit raw = hydro::fitSlopeArea(terrain.metres, outlets, {});
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpuStart = std::clock();
    const hydro::ErosionSummary summary =
        hydro::erode(terrain.metres, o.params, outlets,
                     o.mode == hydro::ErosionMode::Uplift ? &terrain.unit : nullptr);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // CPU time as well: on a shared machine the wall time says more about the neighbours.
    const double cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    const hydro::SlopeAreaFit eroded = hydro::fitSlopeArea(terrain.metres, outlets, {});
    if (!o.rawFile.empty()) {
        std::ofstream raw(o.rawFile, std::ios::binary);
        raw.write(reinterpret_cast<const char*>(terrain.metres.z.data()),
                  std::streamsize(terrain.metres.z.size() * sizeof(float)));
        if (!raw) throw std::runtime_error("cannot write '" + o.rawFile + "'");
    }
    float lo = terrain.metres.z[0], hi = lo;
    for (const float z : terrain.metres.z) lo = std::min(lo, z), hi = std::max(hi, z);
    char line[512];
    std::snprintf(line, sizeof line,
                  "erosion %dx%d, %s mode, %d steps: %.1f ms/step wall, %.1f ms/step CPU; depressions %zu -> "
                  "%zu; relief %.0f..%.0f m; theta raw %.3f (r2 %.2f, %zu bins), eroded %.3f "
                  "(r2 %.2f, %zu bins) [%s]\n",
                  size, size, std::string(hydro::kErosionModeNames[std::size_t(o.mode)]).c_str(),
                  summary.steps, summary.steps ? 1000 * seconds / summary.steps : 0.0,
                  summary.steps ? 1000 * cpuSeconds / summary.steps : 0.0,
                  summary.firstPits, summary.lastPits, double(lo), double(hi), raw.theta, raw.r2,
                  raw.bins, eroded.theta, eroded.r2, eroded.bins,
                  eroded.theta >= 0.35 && eroded.theta <= 0.65 ? "PASS" : "MISS");
    return line;
}

}  // namespace

int main(int argc, char** argv) try {
    const Options o = parseOptions(argc, argv);
    terragrid::bench::runSizes(o.threads, o.sizes, o.summaryFile, [&](int size) { return runSize(o, size); });
    return 0;
} catch (const std::exception& e) {
    std::cerr << "terragrid_erosion_bench: " << e.what() << "\n";
    return 2;
}

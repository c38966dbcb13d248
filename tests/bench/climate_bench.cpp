// terragrid_climate_bench [--size=N[,N...]] [--threads=T] [--summary-file=FILE]
// The cost of the climate stage (pipeline/climate_stage.hpp) on the default map with
// climate.enabled, at each size (4096 and 16384 unless told; auto stage resolution, so 16384^2
// runs on a 4096^2 grid): wall and CPU seconds of computeClimate (the height layer sampled on
// the grid, then the wind's sweep), and, at sizes whose grid is the map, the hydrology stage
// (no erosion) with and without the climate side by side: what the climate's two passes and
// the water balance add to filling every depression. Figures only: never a timed test.


#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "size_runs.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/climate_stage.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace {

using namespace terragrid;

struct Options {
    std::vector<int> sizes{4096, 16384};
    int threads = 0;
    std::string summaryFile;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const auto value = [&](std::string_view flag) { return std::string(a.substr(flag.size())); };
        if (a.starts_with("--size=")) {
            o.sizes.clear();
            std::stringstream list(value("--size="));
            for (std::string s; std::getline(list, s, ',');) o.sizes.push_back(std::stoi(s));
        } else if (a.starts_with("--threads=")) {
            o.threads = std::stoi(value("--threads="));
        } else if (a.starts_with("--summary-file=")) {
            o.summaryFile = value("--summary-file=");
        } else {
            throw std::invalid_argument("unknown option '" + std::string(a) + "'");
        }
    }
    return o;
}

/// Wall and process CPU seconds of f().
template <typename F>
std::pair<double, double> timed(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu = std::clock();
    f();
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            double(std::clock() - cpu) / CLOCKS_PER_SEC};
}

std::string runSize(int size) {
    const std::string side = std::to_string(size);
    const Config config =
        defaultConfig({"map.width=" + side, "map.height=" + side, "climate.enabled=true"});
    ClimateStage stage;
    // The default table's lake threshold: the climate's open water.
    const auto [wall, cpu] = timed([&] { stage = computeClimate(config, config.terrain.lakeBelow.value); });
    char line[512];
    std::snprintf(line, sizeof line,
                  "climate stage %dx%d (grid %lldx%lld, factor %lld): %.2f s wall, %.2f s CPU "
                  "(%.1f ns per grid cell wall); precipitation %.0f..%.0f mm, mean %.0f\n",
                  size, size, static_cast<long long>(stage.gridWidth),
                  static_cast<long long>(stage.gridHeight), static_cast<long long>(stage.factor),
                  wall, cpu, 1e9 * wall / double(stage.gridWidth * stage.gridHeight),
                  stage.facts.precipitationMin, stage.facts.precipitationMax,
                  stage.facts.precipitationMean);
    std::string out = line;
    if (hydrologyFactor(config) != 1) return out;
    // Hydrology without erosion, side by side: Priority-Flood filling against the climate's
    // passes and the water balance.
    for (const bool climate : {false, true}) {
        const Config water = defaultConfig({"map.width=" + side, "map.height=" + side,
                                            "hydrology.enabled=true",
                                            std::string("climate.enabled=") + (climate ? "true" : "false")});
        HydrologyStage s;
        const auto [w, c] = timed([&] { s = computeHydrology(water); });
        std::snprintf(line, sizeof line,
                      "hydrology stage %dx%d %s: %.2f s wall, %.2f s CPU (fill or balance %.2f s, "
                      "climate passes %.2f s); %lld lakes over %.1f %% of the map\n",
                      size, size, climate ? "with climate " : "without climate", w, c,
                      s.facts.fillSeconds, s.facts.climateSeconds,
                      static_cast<long long>(s.facts.lakes),
                      100.0 * double(s.facts.lakeCells) / (double(size) * double(size)));
        out += line;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) try {
    const Options o = parseOptions(argc, argv);
    terragrid::bench::runSizes(o.threads, o.sizes, o.summaryFile, [](int size) { return runSize(size); });
    return 0;
} catch (const std::exception& e) {
    std::cerr << "terragrid_climate_bench: " << e.what() << "\n";
    return 2;
}

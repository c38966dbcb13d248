// terragrid_hydro_bench --dem=FILE [--repeat=N] [--no-grass] [--no-saga] [--summary-file=FILE]
// Depression filling + D8 flow routing + flow accumulation on a Float32 GeoTIFF (scripts/bench.sh
// gives it the default map's height.tif, 4096 x 4096): terragrid's src/hydro on 1 and 2
// threads, RichDEM's D8 pipeline in the same process, run for run beside ours (when the build
// has a RichDEM checkout, richdem_pipeline.hpp), GRASS r.watershed and SAGA's Fill Sinks (Wang &
// Liu) on the same grid when they are installed. Prints the figures and the targets as PASS or
// MISS; the block also goes to FILE so scripts/bench.sh can repeat it at the end.

#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <sys/resource.h>
#include <tiffio.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli_runs.hpp"
#include "report_text.hpp"
#include "richdem_pipeline.hpp"
#include "summary.hpp"
#include "terragrid/hydro/depressions.hpp"
#include "terragrid/hydro/flow.hpp"
#include "terragrid/hydro/lake_outlines.hpp"
#include "terragrid/hydro/rivers.hpp"

namespace terragrid::bench {
namespace {

constexpr double kTargetOverTools = 1.0;  ///< ours / each tool, 1 thread (speed ratio)
constexpr double kTargetOverRichDem = 1.5;  ///< ours / RichDEM's D8 pipeline, 1 thread
constexpr double kTargetOneThreadSeconds = 2.4;  ///< fill + routing + accumulation, 1 thread

struct Options {
    std::string dem;
    int repeat = 3;
    bool grass = true, saga = true;
    std::string summaryFile;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.starts_with("--dem="))
            o.dem = a.substr(6);
        else if (a.starts_with("--repeat="))
            o.repeat = std::stoi(std::string(a.substr(9)));
        else if (a == "--no-grass")
            o.grass = false;
        else if (a == "--no-saga")
            o.saga = false;
        else if (a.starts_with("--summary-file="))
            o.summaryFile = a.substr(15);
        else
            throw std::invalid_argument("unknown option '" + std::string(a) + "'");
    }
    if (o.dem.empty() || o.repeat < 1) throw std::invalid_argument("--dem=FILE is required; --repeat >= 1");
    return o;
}

/// A single-band Float32 TIFF (tiled or striped) as a hydro grid.
hydro::Grid readDem(const std::string& path) {
    TIFFSetWarningHandler(nullptr);  // GeoTIFF's tags are unknown to plain libtiff
    TIFF* tif = TIFFOpen(path.c_str(), "r");
    if (!tif) throw std::runtime_error("cannot open '" + path + "'");
    std::uint32_t w = 0, h = 0;
    std::uint16_t bits = 0, format = 0, samples = 1;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    if (bits != 32 || format != SAMPLEFORMAT_IEEEFP || samples != 1) {
        TIFFClose(tif);
        throw std::runtime_error("'" + path + "' is not a single-band Float32 TIFF");
    }
    hydro::Grid g;
    g.width = static_cast<std::int32_t>(w);
    g.height = static_cast<std::int32_t>(h);
    g.z.resize(std::size_t{w} * h);
    bool ok = true;
    if (TIFFIsTiled(tif)) {
        std::uint32_t tw = 0, th = 0;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
        std::vector<float> tile(std::size_t{tw} * th);
        for (std::uint32_t ty = 0; ty < h && ok; ty += th)
            for (std::uint32_t tx = 0; tx < w && ok; tx += tw) {
                ok = TIFFReadTile(tif, tile.data(), tx, ty, 0, 0) >= 0;
                for (std::uint32_t y = ty; y < std::min(h, ty + th); ++y)
                    for (std::uint32_t x = tx; x < std::min(w, tx + tw); ++x)
                        g.z[std::size_t{y} * w + x] = tile[std::size_t{y - ty} * tw + (x - tx)];
            }
    } else {
        for (std::uint32_t y = 0; y < h && ok; ++y)
            ok = TIFFReadScanline(tif, g.z.data() + std::size_t{y} * w, y) >= 0;
    }
    TIFFClose(tif);
    if (!ok) throw std::runtime_error("cannot read the pixels of '" + path + "'");
    return g;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double processCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Wall seconds per stage, and the process CPU seconds of each (on one thread, what the wall
/// time would be on an idle machine).
struct OurRun {
    double fill = 0, route = 0, accumulate = 0;
    double fillCpu = 0, routeCpu = 0, accumulateCpu = 0;
    double total() const { return fill + route + accumulate; }
    double cpu() const { return fillCpu + routeCpu + accumulateCpu; }
};

/// The fastest of `repeat` runs of fill, routing and accumulation on `threads` threads.
OurRun measureOurs(const hydro::Grid& dem, int threads, int repeat) {
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    tbb::task_arena arena(threads);
    OurRun best;
    for (int i = 0; i < repeat; ++i) {
        OurRun run;
        arena.execute([&] {
            const hydro::Outlets outlets{};
            auto t = std::chrono::steady_clock::now();
            double cpu = processCpuSeconds();
            const auto lap = [&](double& wall, double& cpuSeconds) {
                wall = secondsSince(t);
                cpuSeconds = processCpuSeconds() - cpu;
                t = std::chrono::steady_clock::now();
                cpu = processCpuSeconds();
            };
            hydro::Grid filled{dem.width, dem.height, dem.cellSize, hydro::fillDepressions(dem, outlets)};
            lap(run.fill, run.fillCpu);
            const hydro::FlowRouting routing = hydro::routeFlow(filled, outlets);
            lap(run.route, run.routeCpu);
            const std::vector<float> acc = hydro::accumulate(routing, nullptr);
            lap(run.accumulate, run.accumulateCpu);
            if (acc.empty()) throw std::logic_error("no accumulation");
        });
        if (i == 0 || run.total() < best.total()) best = run;
    }
    return best;
}

/// The serial steps after routing, once on one thread: lakes, rivers (threshold 1000 cells),
/// Strahler order and the vector forms. Not part of the targets; what the water outputs cost.
std::string measureRest(const hydro::Grid& dem);

/// `command` through /bin/sh with its output in `log`: wall seconds, or -1 when it failed;
/// `cpu` (when given) gets the CPU seconds it took.
double shellSeconds(const std::string& command, const std::filesystem::path& log,
                    double* cpu = nullptr) {
    try {
        const ProcessCost cost =
            runTimed("/bin/sh", {"-c", "{ " + command + "; } >'" + log.string() + "' 2>&1"});
        if (cpu) *cpu = cost.cpuSeconds;
        return cost.wallSeconds;
    } catch (const std::exception&) {
        return -1;
    }
}

/// GRASS r.watershed (single flow direction, its A* search handles depressions) in a
/// temporary location; only r.watershed is timed (the script stamps the clock and reads its
/// shell's children CPU time around it), not GRASS's start-up or the import. -1 when GRASS is
/// missing or failed.
double measureGrass(const Options& o, const TempDir& tmp, double& cpu) {
    const auto script = tmp.path() / "grass.sh", stamps = tmp.path() / "grass.time";
    // Fields 16 and 17 of /proc/PID/stat: CPU ticks of the shell's waited-for children.
    std::ofstream(script) << "set -e\n"
                          << "ticks() { awk '{print $16 + $17}' /proc/$$/stat; }\n"
                          << "r.in.gdal -o --quiet input='" << o.dem << "' output=dem\n"
                          << "g.region raster=dem\n"
                          << "start=$(date +%s.%N); t0=$(ticks)\n"
                          << "r.watershed -s --quiet elevation=dem accumulation=acc memory=4000\n"
                          << "end=$(date +%s.%N); t1=$(ticks)\n"
                          << "echo \"$start $end $((t1 - t0)) $(getconf CLK_TCK)\" > '" << stamps.string() << "'\n";
    if (shellSeconds("command -v grass && grass --tmp-location EPSG:3857 --exec sh '" +
                         script.string() + "'",
                     tmp.path() / "grass.log") < 0)
        return -1;
    double start = 0, end = 0, ticks = 0, perSecond = 100;
    std::ifstream(stamps) >> start >> end >> ticks >> perSecond;
    cpu = ticks / perSecond;
    return end > start ? end - start : -1;
}

/// SAGA's Fill Sinks (Wang & Liu), ta_preprocessor 4, on one core, on the grid converted to
/// SAGA's own format first (so the timed run only reads and writes raw grids). -1 when SAGA is
/// missing or failed.
double measureSaga(const Options& o, const TempDir& tmp, double& cpu) {
    const auto dem = tmp.path() / "dem.sdat", filled = tmp.path() / "filled.sgrd";
    if (shellSeconds("gdal_translate -q -of SAGA '" + o.dem + "' '" + dem.string() + "'",
                     tmp.path() / "gdal.log") < 0)
        return -1;
    return shellSeconds("OMP_NUM_THREADS=1 saga_cmd --cores=1 ta_preprocessor 4 -ELEV '" +
                            (tmp.path() / "dem.sgrd").string() + "' -FILLED '" + filled.string() + "'",
                        tmp.path() / "saga.log", &cpu);
}

std::string oursRow(const char* label, const OurRun& r) {
    return std::string(label) +
           format("fill %6.2f s   routing %6.2f s   accumulation %6.2f s   total %6.2f s wall\n",
                  r.fill, r.route, r.accumulate, r.total()) +
           std::string(std::string_view(label).size(), ' ') +
           format("fill %6.2f s   routing %6.2f s   accumulation %6.2f s   total %6.2f s CPU\n",
                  r.fillCpu, r.routeCpu, r.accumulateCpu, r.cpu());
}

std::string toolRow(const char* label, double seconds, const char* note) {
    if (seconds < 0) return std::string(label) + "n/a (not installed or failed)\n";
    return std::string(label) + format("%6.2f s   ", seconds) + note + "\n";
}

std::string speedLine(const char* label, double theirs, double ours) {
    return std::string(label) + targetVerdict(theirs > 0 && ours > 0 ? theirs / ours : 0, kTargetOverTools) + "\n";
}

std::string measureRest(const hydro::Grid& dem) {
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, 1);
    const hydro::Outlets outlets{};
    const hydro::Grid filled{dem.width, dem.height, dem.cellSize, hydro::fillDepressions(dem, outlets)};
    const hydro::FlowRouting routing = hydro::routeFlow(filled, outlets);
    const std::vector<float> acc = hydro::accumulate(routing, nullptr);
    auto t = std::chrono::steady_clock::now();
    const auto lap = [&] {
        const double s = secondsSince(t);
        t = std::chrono::steady_clock::now();
        return s;
    };
    const hydro::Lakes lakes = hydro::findLakes(dem, filled.z, 1.0, 64);
    const double lakesSeconds = lap();
    const std::vector<std::uint8_t> river = hydro::riverMask(acc, 1000);
    const std::vector<std::uint8_t> order = hydro::strahlerOrder(routing, river);
    const double strahlerSeconds = lap();
    const auto lines = hydro::riverPolylines(routing, river, order, acc);
    const double linesSeconds = lap();
    const auto polygons = hydro::lakePolygons(lakes, dem.width, dem.height);
    const double polygonsSeconds = lap();
    return format("then, 1 thread:         findLakes %.2f s (%.0f lakes)   riverMask + strahlerOrder %.2f s   ",
                  lakesSeconds, lakes.count(), strahlerSeconds) +
           format("riverPolylines %.2f s (%.0f reaches)   lakePolygons %.2f s\n", linesSeconds,
                  double(lines.size()), polygonsSeconds);
}

/// "fill equal" when RichDEM's filled surface has our bits, else how many cells differ.
std::string sameFill(const hydro::Grid& dem, const std::vector<float>& theirs) {
    const std::vector<float> ours = hydro::fillDepressions(dem, hydro::Outlets{});
    std::size_t differ = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) differ += ours[i] != theirs[i];
    return differ == 0 ? "its filled surface has our bits"
                       : "its filled surface differs from ours in " + std::to_string(differ) + " cells";
}

std::string measure(const Options& o) {
    const hydro::Grid dem = readDem(o.dem);
    const TempDir tmp;
    std::string block = "== hydrology: depression filling + D8 routing + flow accumulation, " +
                        std::to_string(dem.width) + " x " + std::to_string(dem.height) +
                        " cells of " + std::filesystem::path(o.dem).filename().string() +
                        ", border outlets (ours: fastest of " + std::to_string(o.repeat) + ") ==\n";
    std::cout << block << std::flush;
    const auto add = [&](const std::string& line) {
        block += line;
        std::cout << line << std::flush;
    };
    // Ours and RichDEM's run for run, so a change of load between them hits both alike.
    OurRun one;
    RichDemRun richdem;
    for (int i = 0; i < o.repeat; ++i) {
        const OurRun run = measureOurs(dem, 1, 1);
        if (i == 0 || run.total() < one.total()) one = run;
        if (!haveRichDem()) continue;
        RichDemRun theirs = runRichDem(dem);
        if (i == 0 || theirs.total() < richdem.total()) richdem = std::move(theirs);
    }
    add(oursRow("terragrid, 1 thread:    ", one));
    if (haveRichDem()) {
        add("RichDEM " + richDemVersion() + ", 1 thread: " +
            format("fill %6.2f s   flow dirs %6.2f s   accumulation %6.2f s   total %6.2f s wall\n",
                   richdem.fill, richdem.flowdirs, richdem.accumulate, richdem.total()) +
            std::string(richDemVersion().size() + 19, ' ') +
            format("fill %6.2f s   flow dirs %6.2f s   accumulation %6.2f s   total %6.2f s CPU\n",
                   richdem.fillCpu, richdem.flowdirsCpu, richdem.accumulateCpu, richdem.cpu()) +
            "  (Zhou 2016 fill, Barnes 2014 Priority-Flood flow directions, D8 accumulation; " +
            sameFill(dem, richdem.filled) + ")\n");
    } else {
        add("RichDEM:                n/a (no checkout: set TERRAGRID_RICHDEM_DIR)\n");
    }
    const OurRun two = measureOurs(dem, 2, o.repeat);
    add(oursRow("terragrid, 2 threads:   ", two));
    add(measureRest(dem));
    double grassCpu = 0;
    const double grass = o.grass ? measureGrass(o, tmp, grassCpu) : -1;
    add(toolRow("GRASS r.watershed -s:   ", grass,
                format("(CPU %.2f s; 1 thread; depressions by its A* search, D8 accumulation; import not timed)", grassCpu).c_str()));
    double sagaCpu = 0;
    const double saga = o.saga ? measureSaga(o, tmp, sagaCpu) : -1;
    add(toolRow("SAGA Fill Sinks (W&L):  ", saga,
                format("(CPU %.2f s; ta_preprocessor 4, --cores=1; filling only; start-up, reading and writing .sdat included)", sagaCpu).c_str()));
    // A one-thread run that got less than 90 % of a core measured the machine's load too.
    const bool loaded = one.cpu() < 0.9 * one.total();
    add(format("ours, 1 thread, at most %.1f s:        %6.2f s   ", kTargetOneThreadSeconds, one.total()) +
        (one.total() <= kTargetOneThreadSeconds ? "PASS" : "MISS") +
        (loaded ? format("   (the run got %.0f %% of a core: %.2f s of CPU)", 100 * one.cpu() / one.total(), one.cpu()) : "") +
        "\n");
    add(haveRichDem() ? "RichDEM / ours (1 thread):             " +
                            targetVerdict(richdem.total() / one.total(), kTargetOverRichDem) +
                            format("   (CPU %.2fx)", richdem.cpu() / one.cpu()) + "\n"
                      : "RichDEM / ours (1 thread):             n/a (no checkout: set TERRAGRID_RICHDEM_DIR)\n");
    add(speedLine("GRASS r.watershed / ours (1 thread):  ", grass, one.total()));
    add(speedLine("SAGA Fill Sinks / ours (1 thread):    ", saga, one.total()));
    add("ours, 2 threads / 1 thread:            " +
        targetVerdict(two.total() > 0 ? one.total() / two.total() : 0, kTargetHydroTwoThreads) + "\n");
    return block;
}

}  // namespace
}  // namespace terragrid::bench

int main(int argc, char** argv) {
    using namespace terragrid::bench;
    try {
        const Options o = parseOptions(argc, argv);
        const std::string block = measure(o);
        if (!o.summaryFile.empty()) {
            std::ofstream out(o.summaryFile, std::ios::app);
            out << block;
            if (!out) throw std::runtime_error("cannot write '" + o.summaryFile + "'");
        }
    } catch (const std::exception& e) {
        std::cerr << "terragrid_hydro_bench: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

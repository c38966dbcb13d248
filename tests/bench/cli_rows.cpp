#include "cli_rows.hpp"

#include <sys/resource.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/generator.hpp"

namespace terragrid::bench {
namespace {

double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * t.tv_usec; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// One tile's rows as generateTile evaluates them; returns one value per row so the work
/// cannot be optimised away.
double evaluateTile(const LayerStack& height, const TileRect& rect) {
    const auto width = static_cast<std::size_t>(rect.width);
    std::vector<std::int64_t> cols(width);
    for (std::size_t c = 0; c < width; ++c) cols[c] = rect.col0 + std::int64_t(c);
    LayerStackRows rows(height, cols.data(), width);
    std::vector<double> out(width);
    double sum = 0;
    for (std::int64_t r = 0; r < rect.height; ++r) {
        rows.row(rect.row0 + r, out.data());
        sum += out[static_cast<std::size_t>(r) % width];
    }
    return sum;
}

}  // namespace

ProcessCost timeHeightRows(std::int64_t size, int threads, int repeat) {
    const LoadedConfig config = defaultConfig(
        {"map.width=" + std::to_string(size), "map.height=" + std::to_string(size)});
    const MapFields fields(config, nullptr);
    const TileLayout layout(config.map);
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    tbb::task_arena arena(threads);
    ProcessCost best;
    for (int i = 0; i < repeat; ++i) {
        std::atomic<double> checksum{0};
        const double cpu0 = processCpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        arena.execute([&] {
            tbb::parallel_for(std::int64_t{0}, layout.tileCount(), [&](std::int64_t t) {
                const double v = evaluateTile(fields.height, layout.tile(t));
                double seen = checksum.load();
                while (!checksum.compare_exchange_weak(seen, seen + v)) {
                }
            });
        });
        const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
        const ProcessCost run{wall.count(), processCpuSeconds() - cpu0};
        if (i == 0 || run.wallSeconds < best.wallSeconds) best = run;
    }
    return best;
}

}  // namespace terragrid::bench

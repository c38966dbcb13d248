#include "terragrid/generator.hpp"

#include <memory>

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

namespace terragrid {

void generateTile(const Config& config, const NoiseField& height, const GridGeometry& grid,
                  const TileRect& rect, Tile& tile) {
    const auto width = static_cast<std::size_t>(rect.width);
    tile.rect = rect;
    tile.elevationMeters.resize(static_cast<std::size_t>(rect.cellCount()));

    // x depends only on the column: computed once per tile, reused by every row.
    std::vector<double> xs(width);
    for (std::size_t c = 0; c < width; ++c) xs[c] = grid.cellX(rect.col0 + std::int64_t(c));

    const double low = config.elevation.minMeters;
    const double span = config.elevation.maxMeters - config.elevation.minMeters;
    std::vector<double> unit(width);
    for (std::int64_t r = 0; r < rect.height; ++r) {
        height.sampleRow(xs.data(), width, grid.cellY(rect.row0 + r), unit.data());
        float* out = tile.elevationMeters.data() + r * rect.width;
        for (std::size_t c = 0; c < width; ++c) out[c] = static_cast<float>(low + span * unit[c]);
    }
}

void generateMap(const Config& config, const std::vector<TileSink*>& sinks,
                 const ProgressFn& progress) {
    const TileLayout layout(config.map);
    const NoiseField height(config.height, config.seed);
    for (TileSink* sink : sinks) sink->begin(layout);

    // Two tiles in flight per thread keep every core busy while the serial sink stage catches
    // up, and bound memory by threads x tile size, not by the map (design.md principle 4).
    const auto liveTiles = static_cast<std::size_t>(2 * tbb::this_task_arena::max_concurrency());
    const std::int64_t count = layout.tileCount();
    std::int64_t next = 0;
    std::int64_t done = 0;
    using TilePtr = std::shared_ptr<Tile>;
    tbb::parallel_pipeline(
        liveTiles,
        tbb::make_filter<void, std::int64_t>(tbb::filter_mode::serial_in_order,
                                             [&](tbb::flow_control& fc) -> std::int64_t {
                                                 if (next == count) fc.stop();
                                                 return next < count ? next++ : 0;
                                             }) &
            tbb::make_filter<std::int64_t, TilePtr>(
                tbb::filter_mode::parallel,
                [&](std::int64_t index) {
                    auto tile = std::make_shared<Tile>();
                    generateTile(config, height, layout.geometry(), layout.tile(index), *tile);
                    return tile;
                }) &
            tbb::make_filter<TilePtr, void>(tbb::filter_mode::serial_in_order,
                                            [&](const TilePtr& tile) {
                                                for (TileSink* sink : sinks) sink->consume(*tile);
                                                if (progress) progress(++done, count);
                                            }));
    for (TileSink* sink : sinks) sink->finish();
}

}  // namespace terragrid

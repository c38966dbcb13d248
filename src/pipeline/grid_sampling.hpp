#pragma once
// Layer stacks evaluated on a grid of map cells through the SIMD row path, in parallel: the
// coverage sample (generator.cpp) and the hydrology stage's grid (hydrology_stage.cpp). Private
// to src/pipeline.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>

#include "terragrid/model/layer_stack.hpp"

namespace terragrid {

/// Evaluates each of `stacks` at the map cells (cols[c], rowOf(r)) of every grid row
/// r < rows, in blocks of rows and columns on TBB's workers, and hands each block's rows to
/// `store(stack, r, c0, values, n)`: values[k] (k < n) is stacks[stack] at cols[c0 + k], in a
/// scratch row that lives until store returns. A block's cells are its own, so the result
/// does not depend on the threads. The simple partitioner splits down to the grain, so a
/// LayerStackRows (about 2 kB per column and layer) never spans more than kColumnGrain
/// columns, however elongated the grid, and nothing but one row per block is held as doubles.
/// `store` is called concurrently for different blocks.
template <typename RowOf, typename Store>
void sampleGrid(std::initializer_list<const LayerStack*> stacks,
                std::span<const std::int64_t> cols, std::size_t rows, RowOf rowOf, Store store) {
    constexpr std::size_t kRowGrain = 16;
    constexpr std::size_t kColumnGrain = 1024;
    const std::vector<const LayerStack*> layers(stacks);
    const tbb::blocked_range2d<std::size_t> cells(0, rows, kRowGrain, 0, cols.size(),
                                                  kColumnGrain);
    tbb::parallel_for(
        cells,
        [&](const tbb::blocked_range2d<std::size_t>& block) {
            const std::size_t c0 = block.cols().begin();
            const std::size_t n = block.cols().size();
            std::vector<double> values(n);
            for (std::size_t s = 0; s < layers.size(); ++s) {
                LayerStackRows stackRows(*layers[s], cols.data() + c0, n);
                for (std::size_t r = block.rows().begin(); r < block.rows().end(); ++r) {
                    stackRows.row(rowOf(r), values.data());
                    store(s, r, c0, values.data(), n);
                }
            }
        },
        tbb::simple_partitioner());
}

}  // namespace terragrid

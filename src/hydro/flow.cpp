// D8 flow routing: steepest descent, flats drained by Barnes, Lehman & Mulla (2014), "An
// efficient assignment of drainage direction over flat surfaces in raster digital elevation
// models" (flats.cpp), and a topological order of the cells (donors first).

#include "terragrid/hydro/flow.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "flats.hpp"
#include "neighbours.hpp"

namespace terragrid::hydro {

namespace {

using detail::kFlat;
using detail::Shape;

/// Outlets get kNoReceiver, cells with a lower neighbour the steepest one, the rest kFlat.
/// Each row on its own: parallel, and the same bits for any thread count.
void steepestDescent(const Shape& shape, const Outlets& outlets, const std::vector<float>& z,
                     std::vector<std::uint32_t>& receiver) {
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y)
            for (std::int32_t x = 0; x < shape.width; ++x) {
                const auto i = static_cast<std::uint32_t>(std::int64_t{y} * shape.width + x);
                if (detail::isOutlet(shape, outlets, i, z[i])) {
                    receiver[i] = kNoReceiver;
                    continue;
                }
                const double h = z[i];
                double best = 0;
                std::uint32_t to = kFlat;
                shape.forEachNeighbour(x, y, [&](int k, std::uint32_t nb) {
                    const double slope = (h - double{z[nb]}) * detail::kInvDistance[k];
                    if (slope > best) {
                        best = slope;
                        to = nb;
                    }
                });
                receiver[i] = to;
            }
    });
}

/// The indices in [0, n) for which keep(i) holds, in increasing order: chunks scanned in
/// parallel, joined in chunk order.
template <class Keep>
std::vector<std::uint32_t> indicesWhere(std::size_t n, Keep keep) {
    constexpr std::size_t kChunk = std::size_t{1} << 16;
    std::vector<std::vector<std::uint32_t>> parts((n + kChunk - 1) / kChunk);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, parts.size(), 1), [&](const auto& r) {
        for (std::size_t p = r.begin(); p < r.end(); ++p)
            for (std::size_t i = p * kChunk; i < std::min(n, (p + 1) * kChunk); ++i)
                if (keep(i)) parts[p].push_back(static_cast<std::uint32_t>(i));
    });
    std::size_t total = 0;
    for (const auto& part : parts) total += part.size();
    std::vector<std::uint32_t> out;
    out.reserve(total);
    for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
    return out;
}

/// Kahn's algorithm, depth first: for each cell no one drains into (in index order), the cell,
/// then down its receivers as long as the cell reached has all its donors in. Walking down
/// the receivers keeps to neighbouring cells, which caches like; a queue of cells all over the
/// map does not. The donor counts and the starting cells are found in parallel; the walk is
/// serial. Any order with donors first gives every result the same bits (accumulate and the
/// erosion solver read only a cell's donors or receiver), so this one is a choice, fixed.
std::vector<std::uint32_t> donorsFirst(const Shape& shape, const std::vector<std::uint32_t>& receiver) {
    const std::size_t n = receiver.size();
    std::vector<std::uint8_t> donors(n);
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height), [&](const auto& rows) {
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y)
            for (std::int32_t x = 0; x < shape.width; ++x) {
                const auto i = static_cast<std::uint32_t>(std::int64_t{y} * shape.width + x);
                std::uint8_t count = 0;
                shape.forEachNeighbour(x, y, [&](int, std::uint32_t nb) { count += receiver[nb] == i; });
                donors[i] = count;
            }
    });
    const std::vector<std::uint32_t> sources = indicesWhere(n, [&](std::size_t i) { return donors[i] == 0; });
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (std::uint32_t c : sources) {
        order.push_back(c);
        for (std::uint32_t r = receiver[c]; r != kNoReceiver && --donors[r] == 0; r = receiver[r])
            order.push_back(r);
    }
    if (order.size() != n) throw std::logic_error("routeFlow: the receivers form a loop");
    return order;
}

}  // namespace

FlowRouting routeFlow(const Grid& filled, const Outlets& outlets) {
    const Shape shape = detail::checkedShape(filled, "routeFlow");
    if (!outlets.edges) {
        bool any = false;
        if (outlets.seaLevel)
            for (float h : filled.z) any |= h <= *outlets.seaLevel;
        if (!any)
            throw std::invalid_argument("routeFlow: the map has no outlet (no border outlet and no cell at or below the sea level)");
    }
    FlowRouting routing;
    routing.width = shape.width;
    routing.receiver.resize(shape.cells());
    steepestDescent(shape, outlets, filled.z, routing.receiver);
    detail::resolveFlats(shape, filled.z, routing.receiver);
    routing.order = donorsFirst(shape, routing.receiver);
    return routing;
}

}  // namespace terragrid::hydro

// D8 flow routing: steepest descent, flats drained by Barnes, Lehman & Mulla (2014), "An
// efficient assignment of drainage direction over flat surfaces in raster digital elevation
// models" (flats.cpp). No order of the cells: accumulate and strahlerOrder walk down from the
// sources in parallel and need none (a serial donors-first order took a quarter of the routing
// on one thread, and a third on two).

#include "terragrid/hydro/flow.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <vector>

#include "flats.hpp"
#include "neighbours.hpp"

namespace terragrid::hydro {

namespace {

using detail::kFlat;
using detail::Shape;

/// The receiver of cell (x, y) of height h, not an outlet: its steepest lower neighbour (drop
/// times kInvDistance, in double; ties to the first), kFlat without one.
std::uint32_t steepestAt(const Shape& shape, const std::vector<float>& z, std::int32_t x, std::int32_t y) {
    const std::size_t i = std::size_t(y) * std::size_t(shape.width) + std::size_t(x);
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
    return to;
}

/// steepestAt for the cells of an inner row but its first and last, from the row and its two
/// neighbours in double: every neighbour exists, and the same operations in the same order
/// (a straight step's factor 1 left out: x * 1 is x) become branch-free selects.
void steepestInRow(const Shape& shape, const double* above, const double* here, const double* below,
                   std::int32_t y, std::uint32_t* receiver) {
    constexpr double kDiagonal = detail::kInvDistance[0];
    const auto row = std::uint32_t(std::int64_t{y} * shape.width);
    for (std::int32_t x = 1; x < shape.width - 1; ++x) {
        const double h = here[x];
        double best = 0;
        int k = -1;
        const auto consider = [&](double slope, int direction) {
            const bool steeper = slope > best;
            best = steeper ? slope : best;
            k = steeper ? direction : k;
        };
        consider((h - above[x - 1]) * kDiagonal, 0);
        consider(h - above[x], 1);
        consider((h - above[x + 1]) * kDiagonal, 2);
        consider(h - here[x - 1], 3);
        consider(h - here[x + 1], 4);
        consider((h - below[x - 1]) * kDiagonal, 5);
        consider(h - below[x], 6);
        consider((h - below[x + 1]) * kDiagonal, 7);
        const std::uint32_t i = row + std::uint32_t(x);
        receiver[i] = k < 0 ? kFlat : std::uint32_t(std::int64_t(i) + shape.offset[k]);
    }
}

/// Outlets get kNoReceiver, cells with a lower neighbour the steepest one, the rest kFlat.
/// Each row on its own: parallel, and the same bits for any thread count.
void steepestDescent(const Shape& shape, const Outlets& outlets, const std::vector<float>& z,
                     std::vector<std::uint32_t>& receiver) {
    const std::size_t w = std::size_t(shape.width);
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, shape.height, 16), [&](const auto& rows) {
        std::vector<double> wide(3 * w);  // rows y - 1, y and y + 1 in double
        for (std::int32_t y = rows.begin(); y < rows.end(); ++y) {
            const std::size_t row = std::size_t(y) * w;
            const bool inner = y > 0 && y < shape.height - 1 && shape.width >= 3;
            if (inner) {
                std::copy(z.begin() + std::ptrdiff_t(row - w), z.begin() + std::ptrdiff_t(row + 2 * w), wide.begin());
                steepestInRow(shape, wide.data(), wide.data() + w, wide.data() + 2 * w, y, receiver.data());
            }
            // Outlets (detail::isOutlet, with the row known) and the cells steepestInRow left.
            const bool edgeRow = y == 0 || y == shape.height - 1;
            for (std::int32_t x = 0; x < shape.width; ++x) {
                const std::size_t i = row + std::size_t(x);
                const bool border = edgeRow || x == 0 || x == shape.width - 1;
                if ((outlets.seaLevel && z[i] <= *outlets.seaLevel) || (outlets.edges && border))
                    receiver[i] = kNoReceiver;
                else if (!inner || border)
                    receiver[i] = steepestAt(shape, z, x, y);
            }
        }
    });
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
    return routing;
}

}  // namespace terragrid::hydro

// Priority-Flood depression filling (Barnes, Lehman & Mulla 2014, "Priority-Flood: An optimal
// depression-filling and watershed-labeling algorithm for digital elevation models", the
// improved variant with a plain queue for cells inside depressions).

#include "terragrid/hydro/depressions.hpp"

#include <functional>
#include <queue>
#include <stdexcept>
#include <vector>

#include "neighbours.hpp"
#include "priority_key.hpp"

namespace terragrid::hydro {

namespace {

using detail::Shape;

using MinQueue =
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>>;

/// Closes every outlet and queues those that border a cell that is not one (an outlet inside
/// the sea cannot lead anywhere). Returns whether any outlet exists.
bool seedOutlets(const Shape& shape, const Outlets& outlets, const std::vector<float>& z,
                 std::vector<std::uint8_t>& closed, MinQueue& open) {
    const std::size_t n = shape.cells();
    bool any = false;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!detail::isOutlet(shape, outlets, i, z[i])) continue;
        closed[i] = 1;
        any = true;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!closed[i]) continue;
        bool inland = false;
        shape.forEachNeighbour(i, [&](int, std::uint32_t nb) { inland |= !closed[nb]; });
        if (inland) open.push(detail::priorityKey(z[i], i));
    }
    return any;
}

}  // namespace

std::vector<float> fillDepressions(const Grid& dem, const Outlets& outlets) {
    const Shape shape = detail::checkedShape(dem, "fillDepressions");
    std::vector<float> z = dem.z;
    std::vector<std::uint8_t> closed(shape.cells(), 0);
    MinQueue open;
    if (!seedOutlets(shape, outlets, z, closed, open))
        throw std::invalid_argument("fillDepressions: the map has no outlet (no border outlet and no cell at or below the sea level)");

    // Cells raised to the level of the cell that reached them (a depression's inside) go to a
    // plain FIFO: they are all at that level, so the priority order holds without the heap.
    std::vector<std::uint32_t> pit;
    std::size_t pitHead = 0;
    while (true) {
        std::uint32_t c;
        if (pitHead < pit.size()) {
            c = pit[pitHead++];
        } else {
            pit.clear();
            pitHead = 0;
            if (open.empty()) break;
            c = detail::cellOfKey(open.top());
            open.pop();
        }
        const float level = z[c];
        shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
            if (closed[nb]) return;
            closed[nb] = 1;
            if (z[nb] <= level) {
                z[nb] = level;
                pit.push_back(nb);
            } else {
                open.push(detail::priorityKey(z[nb], nb));
            }
        });
    }
    return z;
}

}  // namespace terragrid::hydro

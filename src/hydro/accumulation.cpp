// Flow accumulation, the river mask and Strahler order: passes over the donors-first order.

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "terragrid/hydro/flow.hpp"

namespace terragrid::hydro {

std::vector<float> accumulate(const FlowRouting& routing, const float* weight) {
    const std::size_t n = routing.receiver.size();
    if (routing.order.size() != n)
        throw std::invalid_argument("accumulate: the order must list every cell once");
    std::vector<float> acc(n, 1.0f);
    if (weight) std::copy(weight, weight + n, acc.begin());
    for (std::uint32_t c : routing.order) {
        const std::uint32_t r = routing.receiver[c];
        if (r != kNoReceiver) acc[r] += acc[c];
    }
    return acc;
}

std::vector<std::uint8_t> riverMask(const std::vector<float>& accumulation, float threshold) {
    std::vector<std::uint8_t> river(accumulation.size());
    std::transform(accumulation.begin(), accumulation.end(), river.begin(),
                   [threshold](float a) { return static_cast<std::uint8_t>(a > threshold); });
    return river;
}

std::vector<std::uint8_t> strahlerOrder(const FlowRouting& routing,
                                        const std::vector<std::uint8_t>& river) {
    const std::size_t n = routing.receiver.size();
    if (routing.order.size() != n || river.size() != n)
        throw std::invalid_argument("strahlerOrder: the order and the river mask must cover every cell");
    std::vector<std::uint8_t> order(n, 0);
    // Per cell: the highest order among its river donors so far (in `order`, until the cell
    // is visited), and how many donors have it.
    std::vector<std::uint8_t> highestCount(n, 0);
    for (std::uint32_t c : routing.order) {
        if (!river[c]) continue;
        const std::uint8_t highest = order[c];
        std::uint8_t own = 1;
        if (highest > 0) own = highestCount[c] >= 2 && highest < 255 ? highest + 1 : highest;
        order[c] = own;
        const std::uint32_t r = routing.receiver[c];
        if (r == kNoReceiver || !river[r]) continue;
        if (own > order[r]) {
            order[r] = own;
            highestCount[r] = 1;
        } else if (own == order[r] && highestCount[r] < 255) {
            ++highestCount[r];
        }
    }
    return order;
}

}  // namespace terragrid::hydro

// Flow accumulation (in parallel on D8 grids), the river mask and Strahler order.

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <vector>

#include "banded_walks.hpp"
#include "donor_masks.hpp"
#include "terragrid/hydro/flow.hpp"

namespace terragrid::hydro {

namespace {

/// A cell's accumulation: its own weight, then its donors' accumulations added in the order of
/// its mask's bits (increasing index).
struct AccumulationSum {
    const std::uint8_t* donors;
    const float* weight;  ///< nullptr: 1 per cell
    float* acc;
    const std::int64_t* offset;

    void operator()(std::uint32_t c) const {
        float sum = weight ? weight[c] : 1.0f;
        for (unsigned m = donors[c]; m; m &= m - 1) sum += acc[std::int64_t(c) + offset[std::countr_zero(m)]];
        acc[c] = sum;
    }
};

/// D8 routing: each cell pulls its donors' accumulations once all are done, in walks down from
/// the sources, in a band of rows per thread (banded_walks.hpp). Each sum has the same terms in
/// the same order whoever makes it.
std::vector<float> accumulateOnGrid(const FlowRouting& routing, const float* weight) {
    const std::vector<std::uint32_t>& receiver = routing.receiver;
    const std::size_t n = receiver.size();
    const detail::Shape shape(routing.width, static_cast<std::int32_t>(n / static_cast<std::size_t>(routing.width)));
    const std::vector<std::uint8_t> donors = detail::donorMasks(shape, receiver);
    std::vector<std::uint8_t> waiting(n);  // donors not finished yet
    detail::countDonors(donors.data(), waiting.data(), n);
    std::vector<float> acc(n);
    const detail::ReceiverWalks<AccumulationSum> walks{
        receiver.data(), donors.data(), AccumulationSum{donors.data(), weight, acc.data(), shape.offset}};
    detail::walkInBands(detail::bandsPerThread(shape), waiting.data(), nullptr, walks);
    return acc;
}

/// Any routing: the donors of each cell listed in index order (a counting sort), pulled in
/// `order`.
std::vector<float> accumulateByDonorLists(const FlowRouting& routing, const float* weight) {
    const std::size_t n = routing.receiver.size();
    std::vector<std::uint32_t> first(n + 1, 0), donors;
    for (std::uint32_t r : routing.receiver)
        if (r != kNoReceiver) ++first[r + 1];
    for (std::size_t i = 1; i <= n; ++i) first[i] += first[i - 1];
    donors.resize(first[n]);
    std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
    for (std::uint32_t c = 0; c < n; ++c)
        if (routing.receiver[c] != kNoReceiver) donors[next[routing.receiver[c]]++] = c;
    std::vector<float> acc(n);
    for (std::uint32_t c : routing.order) {
        float sum = weight ? weight[c] : 1.0f;
        for (std::uint32_t k = first[c]; k < first[c + 1]; ++k) sum += acc[donors[k]];
        acc[c] = sum;
    }
    return acc;
}

}  // namespace

std::vector<float> accumulate(const FlowRouting& routing, const float* weight) {
    const std::size_t n = routing.receiver.size();
    if (routing.order.size() != n)
        throw std::invalid_argument("accumulate: the order must list every cell once");
    if (routing.width > 0 && n % static_cast<std::size_t>(routing.width) == 0 && n > 0)
        return accumulateOnGrid(routing, weight);
    return accumulateByDonorLists(routing, weight);
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

// Flow accumulation and Strahler order, in parallel on D8 grids, and the river mask. Both visit
// each cell once its donors are done and pull from them, so a result does not depend on who
// visits a cell, in what order or on how many threads.

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <vector>

#include "banded_walks.hpp"
#include "donor_masks.hpp"
#include "terragrid/hydro/flow.hpp"

namespace terragrid::hydro {

namespace {

/// The donors of a cell of a D8 routing: its mask's bits (donorMasks), in increasing index.
struct MaskDonors {
    const std::uint8_t* mask;
    const std::int64_t* offset;

    template <class F>
    void operator()(std::uint32_t c, F&& f) const {
        for (unsigned m = mask[c]; m; m &= m - 1) f(std::uint32_t(std::int64_t(c) + offset[std::countr_zero(m)]));
    }
};

/// The donors of a cell of any routing, listed by a counting sort: in increasing index too.
struct ListedDonors {
    std::vector<std::uint32_t> first, donors;  ///< cell c's: donors[first[c], first[c + 1])

    explicit ListedDonors(const std::vector<std::uint32_t>& receiver) : first(receiver.size() + 1, 0) {
        const std::size_t n = receiver.size();
        for (const std::uint32_t r : receiver) {
            if (r == kNoReceiver) continue;
            if (r >= n) throw std::invalid_argument("a receiver is not a cell of the routing");
            ++first[r + 1];
        }
        for (std::size_t i = 1; i <= n; ++i) first[i] += first[i - 1];
        donors.resize(first[n]);
        std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
        for (std::uint32_t c = 0; c < n; ++c)
            if (receiver[c] != kNoReceiver) donors[next[receiver[c]]++] = c;
    }
    template <class F>
    void operator()(std::uint32_t c, F&& f) const {
        for (std::uint32_t k = first[c]; k < first[c + 1]; ++k) f(donors[k]);
    }
};

/// A cell's accumulation: its own weight, then its donors' accumulations added in increasing
/// index.
template <class Donors>
struct AccumulationSum {
    Donors donorsOf;
    const float* weight;  ///< nullptr: 1 per cell
    float* acc;

    void operator()(std::uint32_t c) const {
        float sum = weight ? weight[c] : 1.0f;
        donorsOf(c, [&](std::uint32_t d) { sum += acc[d]; });
        acc[c] = sum;
    }
};

/// A river cell's Strahler order from its river donors' (0 off the river): 1 without any,
/// k + 1 where two or more of the highest order k meet (saturating at 255), else k.
template <class Donors>
struct StrahlerSum {
    Donors donorsOf;
    const std::uint8_t* river;
    std::uint8_t* order;

    void operator()(std::uint32_t c) const {
        if (!river[c]) return;
        unsigned highest = 0, count = 0;
        donorsOf(c, [&](std::uint32_t d) {
            if (!river[d]) return;
            const unsigned o = order[d];
            count = o > highest ? 1 : count + unsigned(o == highest);
            highest = std::max(highest, o);
        });
        order[c] = std::uint8_t(highest == 0 ? 1 : count >= 2 && highest < 255 ? highest + 1 : highest);
    }
};

/// Whether the routing is routeFlow's, on a grid `width` cells wide (receivers: D8 neighbours).
bool onGrid(const FlowRouting& routing) {
    const std::size_t n = routing.receiver.size();
    return routing.width > 0 && n > 0 && n % static_cast<std::size_t>(routing.width) == 0;
}

/// Runs visit(c) for every cell of a routing on a grid once its donors' are done: walks down
/// from the sources, in a band of rows per thread (banded_walks.hpp), `make` giving the visit
/// its MaskDonors.
template <class Make>
void donorsFirstOnGrid(const FlowRouting& routing, Make&& make) {
    const std::size_t n = routing.receiver.size();
    const detail::Shape shape(routing.width, static_cast<std::int32_t>(n / static_cast<std::size_t>(routing.width)));
    const std::vector<std::uint8_t> donors = detail::donorMasks(shape, routing.receiver);
    std::vector<std::uint8_t> waiting(n);  // donors not done yet
    detail::countDonors(donors.data(), waiting.data(), n);
    const auto visit = make(MaskDonors{donors.data(), shape.offset});
    const detail::ReceiverWalks<decltype(visit)> walks{routing.receiver.data(), donors.data(), visit};
    detail::walkInBands(detail::bandsPerThread(shape), waiting.data(), nullptr, walks);
    // The cells of a loop, and those below one, keep a donor that never got done.
    if (std::any_of(waiting.begin(), waiting.end(), [](std::uint8_t left) { return left != 0; }))
        throw std::invalid_argument("the receivers form a loop");
}

/// Every cell once, each before its receiver, for a routing made by hand: Kahn's algorithm,
/// walking down from each cell no one drains into (in index order) as long as the cell reached
/// has all its donors in. Throws when the receivers form a loop.
std::vector<std::uint32_t> donorsFirst(const ListedDonors& lists, const std::vector<std::uint32_t>& receiver) {
    const std::size_t n = receiver.size();
    constexpr auto kListed = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> waiting(n);  // donors not listed yet, then kListed
    for (std::size_t c = 0; c < n; ++c) waiting[c] = lists.first[c + 1] - lists.first[c];
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (std::size_t source = 0; source < n; ++source) {
        if (waiting[source] != 0) continue;  // it has donors, or is listed already
        for (auto c = std::uint32_t(source);;) {
            waiting[c] = kListed;
            order.push_back(c);
            const std::uint32_t r = receiver[c];
            if (r == kNoReceiver || --waiting[r] != 0) break;
            c = r;
        }
    }
    if (order.size() != n) throw std::invalid_argument("the receivers form a loop");
    return order;
}

/// visit(c) for every cell once its donors' are done: on a grid in parallel, else in
/// donorsFirst's order. `make` builds the visit from the routing's donors (MaskDonors or
/// ListedDonors), so one rule serves both.
template <class Make>
void donorsFirstVisit(const FlowRouting& routing, Make&& make) {
    if (onGrid(routing)) return donorsFirstOnGrid(routing, make);
    const ListedDonors lists(routing.receiver);
    const auto visit = make(std::cref(lists));
    for (const std::uint32_t c : donorsFirst(lists, routing.receiver)) visit(c);
}

}  // namespace

std::vector<float> accumulate(const FlowRouting& routing, const float* weight) {
    std::vector<float> acc(routing.receiver.size());
    donorsFirstVisit(routing, [&](auto donors) { return AccumulationSum<decltype(donors)>{donors, weight, acc.data()}; });
    return acc;
}

std::vector<std::uint8_t> riverMask(const std::vector<float>& accumulation, float threshold) {
    std::vector<std::uint8_t> river(accumulation.size());
    std::transform(accumulation.begin(), accumulation.end(), river.begin(),
                   [threshold](float a) { return static_cast<std::uint8_t>(a > threshold); });
    return river;
}

std::vector<std::uint8_t> strahlerOrder(const FlowRouting& routing, const std::vector<std::uint8_t>& river) {
    if (river.size() != routing.receiver.size())
        throw std::invalid_argument("strahlerOrder: the river mask must cover every cell");
    std::vector<std::uint8_t> order(river.size(), 0);
    donorsFirstVisit(routing, [&](auto donors) { return StrahlerSum<decltype(donors)>{donors, river.data(), order.data()}; });
    return order;
}

}  // namespace terragrid::hydro

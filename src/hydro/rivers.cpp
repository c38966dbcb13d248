// River reaches between sources, confluences and outlets.

#include "terragrid/hydro/rivers.hpp"

#include <stdexcept>

namespace terragrid::hydro {

std::vector<RiverPolyline> riverPolylines(const FlowRouting& routing,
                                          const std::vector<std::uint8_t>& river,
                                          const std::vector<std::uint8_t>& strahler,
                                          const std::vector<float>& accumulation) {
    const std::size_t n = routing.receiver.size();
    if (river.size() != n || strahler.size() != n || accumulation.size() != n)
        throw std::invalid_argument("riverPolylines: the river, order and accumulation must cover every cell");
    const auto flowsOnInRiver = [&](std::uint32_t c) {
        const std::uint32_t r = routing.receiver[c];
        return r != kNoReceiver && river[r] ? r : kNoReceiver;
    };
    std::vector<std::uint8_t> donors(n, 0);  // river donors, saturating at 2 (a confluence)
    for (std::uint32_t c = 0; c < n; ++c)
        if (river[c]) {
            const std::uint32_t r = flowsOnInRiver(c);
            if (r != kNoReceiver && donors[r] < 2) ++donors[r];
        }
    std::vector<RiverPolyline> lines;
    for (std::uint32_t start = 0; start < n; ++start) {
        if (!river[start] || donors[start] == 1) continue;  // reaches start at sources and confluences
        RiverPolyline line;
        line.order = strahler[start];
        std::uint32_t c = start;
        line.cells.push_back(c);
        for (std::uint32_t r = flowsOnInRiver(c); r != kNoReceiver; r = flowsOnInRiver(c)) {
            line.cells.push_back(r);
            if (donors[r] != 1) {
                line.endsAtJoint = true;
                break;
            }
            c = r;
        }
        line.discharge = accumulation[c];
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace terragrid::hydro

#include "terragrid/hydro/slope_area.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "terragrid/hydro/erosion.hpp"
#include "hydro/erosion_routing.hpp"

namespace terragrid::hydro {

namespace {

struct Bin {
    double sumLogA = 0, sumLogS = 0;
    std::size_t count = 0;
};

}  // namespace

SlopeAreaFit fitSlopeArea(const Grid& surface, const std::vector<std::uint32_t>& receiver,
                          const std::vector<float>& accumulation, const SlopeAreaOptions& options) {
    const std::size_t n = surface.z.size();
    if (receiver.size() != n || accumulation.size() != n || !(options.binWidth > 0) ||
        !(options.minAccumulation > 0))
        throw std::invalid_argument("fitSlopeArea: sizes differ or options out of range");
    const std::size_t w = std::size_t(surface.width);
    const double diagonal = surface.cellSize * std::sqrt(2.0);
    std::map<long, Bin> bins;  // ordered: the sums below run in one order every time
    SlopeAreaFit fit;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t r = receiver[i];
        if (r == i || r == kNoReceiver || !(accumulation[i] >= options.minAccumulation)) continue;
        const bool straight = i % w == r % w || i / w == r / w;
        const double slope = (double(surface.z[i]) - double(surface.z[r])) /
                             (straight ? surface.cellSize : diagonal);
        if (!(slope > 0)) continue;
        const double logA = std::log10(double(accumulation[i]));
        Bin& bin = bins[long(std::floor(logA / options.binWidth))];
        bin.sumLogA += logA;
        bin.sumLogS += std::log10(slope);
        ++bin.count;
        ++fit.cells;
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    for (const auto& [key, bin] : bins) {
        if (bin.count < options.minCellsPerBin) continue;
        const double x = bin.sumLogA / double(bin.count), y = bin.sumLogS / double(bin.count);
        sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y;
        ++fit.bins;
    }
    if (fit.bins < 2) {
        fit.theta = fit.steepness = fit.r2 = std::numeric_limits<double>::quiet_NaN();
        return fit;
    }
    const double count = double(fit.bins);
    const double covariance = sxy - sx * sy / count, varianceX = sxx - sx * sx / count,
                 varianceY = syy - sy * sy / count;
    const double gradient = covariance / varianceX;
    fit.theta = -gradient;
    fit.steepness = std::pow(10.0, (sy - gradient * sx) / count);
    fit.r2 = varianceY > 0 ? covariance * covariance / (varianceX * varianceY) : 1.0;
    return fit;
}

SlopeAreaFit fitSlopeArea(const Grid& surface, const Outlets& outlets,
                          const SlopeAreaOptions& options) {
    detail::ErosionRouter router(surface.width, surface.height, baseLevelCells(surface, outlets));
    const std::vector<double> h(surface.z.begin(), surface.z.end());
    const detail::D8Routing& routing = router.route(h.data());
    std::vector<float> cells(h.size(), 1.0f);
    for (auto s = routing.stack.rbegin(); s != routing.stack.rend(); ++s)
        if (routing.receiver[*s] != *s) cells[routing.receiver[*s]] += cells[*s];
    return fitSlopeArea(surface, routing.receiver, cells, options);
}

}  // namespace terragrid::hydro

#include "terragrid/hydro/erosion.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "hydro/drainage_area.hpp"
#include "hydro/erosion_edges.hpp"
#include "hydro/erosion_flow.hpp"
#include "hydro/hillslope_diffusion.hpp"
#include "hydro/huge_pages.hpp"
#include "hydro/neighbours.hpp"
#include "hydro/stream_power.hpp"

namespace terragrid::hydro {

namespace {

void checkArguments(const Grid& terrain, const ErosionParams& p,
                    const std::vector<float>* upliftField) {
    const auto fail = [](const std::string& what) {
        throw std::invalid_argument("erode: " + what);
    };
    detail::checkedShape(terrain, "erode");
    if (!(terrain.cellSize > 0)) fail("cellSize must be > 0");
    if (p.steps < 0) fail("steps must be >= 0");
    if (!(p.k >= 0) || !(p.m > 0) || !(p.n > 0) || !(p.diffusion >= 0) || !(p.dt > 0) ||
        !(p.uplift >= 0) || !std::isfinite(p.k + p.m + p.n + p.diffusion + p.dt + p.uplift))
        fail("k, diffusion and uplift must be >= 0, m, n and dt > 0, all finite");
    if (upliftField && upliftField->size() != terrain.z.size())
        fail("the uplift field's size does not match the grid");
}

}  // namespace

std::vector<std::uint8_t> baseLevelCells(const Grid& terrain, const Outlets& outlets) {
    const detail::Shape shape = detail::checkedShape(terrain, "baseLevelCells");
    std::vector<std::uint8_t> fixed(terrain.z.size(), 0);
    bool any = false;
    for (std::uint32_t i = 0; i < fixed.size(); ++i)
        if (detail::isOutlet(shape, outlets, i, terrain.z[i])) fixed[i] = 1, any = true;
    if (!any)
        throw std::invalid_argument("erode: no outlet (no map edge, and no cell at or below the sea level)");
    return fixed;
}

ErosionSummary erode(Grid& terrain, const ErosionParams& params, const Outlets& outlets,
                     const std::vector<float>* upliftField, const ErosionStepFn& onStep) {
    checkArguments(terrain, params, upliftField);
    ErosionSummary summary;
    if (params.steps == 0) return summary;

    // Open edges: the grid inside a ring of cells at its border's own height (erosion_edges.hpp),
    // the ring the base level in place of the border; the map's own outlets are the sea's.
    const bool open = params.edges == ErosionEdges::Open && outlets.edges;
    const std::int32_t width = terrain.width + (open ? 2 : 0);
    const std::int32_t height = terrain.height + (open ? 2 : 0);
    detail::CellVector<double> h(terrain.z.begin(), terrain.z.end());
    std::vector<std::uint8_t> fixed;
    const std::vector<float>* field = upliftField;
    std::vector<float> ringedField;
    if (open) {
        Outlets sea = outlets;
        sea.edges = false;
        fixed = detail::withRing(sea.seaLevel ? baseLevelCells(terrain, sea)
                                              : std::vector<std::uint8_t>(terrain.z.size(), 0),
                                 terrain.width, terrain.height, std::uint8_t{1});
        h = detail::withRing(h, terrain.width, terrain.height, 0.0);
        if (upliftField) {
            ringedField = detail::withRing(*upliftField, terrain.width, terrain.height, 0.0f);
            field = &ringedField;
        }
    } else {
        fixed = baseLevelCells(terrain, outlets);
    }
    const detail::UpliftDt upliftDt{params.uplift * params.dt, field ? field->data() : nullptr};
    detail::ErosionFlow flow(width, height, fixed);
    detail::HillslopeDiffusion diffusion(
        width, height, std::move(fixed),
        params.diffusion * params.dt / (terrain.cellSize * terrain.cellSize));
    detail::DrainageArea area;
    detail::CellVector<double> next;  // the incision's new heights
    const detail::StreamPower power{params.k, params.m, params.n, params.dt};
    detail::Incision incision(power, terrain.cellSize);
    for (int step = 0; step < params.steps; ++step) {
        if (open) detail::levelRing(h, terrain.width, terrain.height);
        // The last step's walks, whose order labels the basins quicker (erosion_pits.cpp).
        detail::ErosionFlow::CellLists walked;
        if (step > 0) area.forEachWalked([&](const std::uint32_t* first, const std::uint32_t* last) { walked.emplace_back(first, last); });
        flow.route(h.data(), walked);
        if (step == 0) summary.firstPits = flow.pits();
        area.compute(flow, terrain.cellSize * terrain.cellSize);
        // Diffusion first: it fills valley floors from their sides, which along a gentle river
        // can lift a cell above the one downstream; incision after it restores every river
        // cell above its receiver, so a step never ends with pits along the rivers.
        diffusion.apply(h);
        incision.apply(h, next, flow, area, upliftDt);
        h.swap(next);
        if (onStep) onStep(step + 1, params.steps);
    }
    summary.steps = params.steps;
    summary.lastPits = flow.pits();
    if (open) h = detail::withoutRing(h, terrain.width, terrain.height);
    for (std::size_t i = 0; i < terrain.z.size(); ++i) terrain.z[i] = float(h[i]);
    return summary;
}

}  // namespace terragrid::hydro

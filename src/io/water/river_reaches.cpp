#include "io/water/river_reaches.hpp"

#include <algorithm>

namespace terragrid {

void forEachRiverReach(
    const HydrologyStage& s,
    const std::function<void(const std::vector<MapCellPoint>&, const hydro::RiverPolyline&)>&
        visit) {
    const auto point = [&](std::uint32_t cell) {
        const auto i = std::int64_t(cell) % s.gridWidth, j = std::int64_t(cell) / s.gridWidth;
        return MapCellPoint{hydrologySamplePoint(i, s.factor, s.mapWidth),
                            hydrologySamplePoint(j, s.factor, s.mapHeight)};
    };
    std::vector<std::uint8_t> river(s.strahler.size());
    for (std::size_t i = 0; i < river.size(); ++i) river[i] = s.strahler[i] != 0 ? 1 : 0;
    const hydro::FlowRouting routing{.receiver = s.receiver, .order = {}};
    std::vector<MapCellPoint> points;
    for (const hydro::RiverPolyline& reach :
         hydro::riverPolylines(routing, river, s.strahler, s.accumulation)) {
        points.clear();
        for (std::uint32_t cell : reach.cells) points.push_back(point(cell));
        // The cell the river flows into (a lake or the sea), so it visibly reaches it.
        const std::uint32_t last = reach.cells.back();
        if (!reach.endsAtJoint && s.receiver[last] != hydro::kNoReceiver)
            points.push_back(point(s.receiver[last]));
        if (points.size() < 2) points.push_back(points[0]);  // a one-cell river at the edge
        visit(points, reach);
    }
}

}  // namespace terragrid

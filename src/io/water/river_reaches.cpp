#include "io/water/river_reaches.hpp"

namespace terragrid {

void forEachRiverReach(
    const HydrologyStage& s,
    const std::function<void(const std::vector<MapCellPoint>&, const hydro::RiverPolyline&)>&
        visit) {
    const auto column = [&](std::uint32_t cell) { return std::int64_t(cell) % s.gridWidth; };
    const auto row = [&](std::uint32_t cell) { return std::int64_t(cell) / s.gridWidth; };
    const auto point = [&](std::uint32_t cell) {
        return MapCellPoint{double(hydrologySamplePoint(column(cell), s.factor, s.mapWidth)),
                            double(hydrologySamplePoint(row(cell), s.factor, s.mapHeight))};
    };
    const auto onBorder = [&](std::uint32_t cell) {
        const std::int64_t i = column(cell), j = row(cell);
        return i == 0 || j == 0 || i == s.gridWidth - 1 || j == s.gridHeight - 1;
    };
    // Outlets are the map's border and the sea (flow routing gives neither a receiver), so an
    // outlet inside the map is sea.
    std::vector<std::uint8_t> river(s.strahler.size());
    for (std::size_t i = 0; i < river.size(); ++i) {
        const auto cell = static_cast<std::uint32_t>(i);
        const bool sea = s.receiver[i] == hydro::kNoReceiver && !onBorder(cell);
        river[i] = s.strahler[i] != 0 && !sea ? 1 : 0;
    }
    // Where the water of a border outlet leaves the map: the edge beside its cell.
    const auto exit = [&](std::uint32_t cell) {
        MapCellPoint p = point(cell);
        if (column(cell) == 0) p.col = -0.5;
        else if (column(cell) == s.gridWidth - 1) p.col = double(s.mapWidth) - 0.5;
        if (row(cell) == 0) p.row = -0.5;
        else if (row(cell) == s.gridHeight - 1) p.row = double(s.mapHeight) - 0.5;
        return p;
    };
    const hydro::FlowRouting routing{.receiver = s.receiver};
    std::vector<MapCellPoint> points;
    for (const hydro::RiverPolyline& reach :
         hydro::riverPolylines(routing, river, s.strahler, s.accumulation)) {
        points.clear();
        for (std::uint32_t cell : reach.cells) points.push_back(point(cell));
        if (!reach.endsAtJoint) {
            const std::uint32_t last = reach.cells.back();
            const std::uint32_t to = s.receiver[last];
            points.push_back(to != hydro::kNoReceiver ? point(to) : exit(last));
        }
        visit(points, reach);
    }
}

}  // namespace terragrid

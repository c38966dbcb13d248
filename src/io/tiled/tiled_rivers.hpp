#pragma once
// The Tiled export's river layer: the hydrology stage's reaches (io/river_reaches, the lines
// of rivers.geojson) as polyline objects of an object layer "rivers", cut to each map file
// (one map, or each chunk of a split one) so the pieces of chunks meet at their borders.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/water/river_reaches.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// Every reach's line in cells of the exported map (whose top-left cell is the whole-map cell
/// (col0, row0): a window's), held while the map files are written. Immutable after
/// construction. Memory: 16 bytes per point and about 64 per reach.
class TiledRivers {
public:
    /// `cellArea`: one map cell's area in square world units (for upstream_area).
    TiledRivers(const HydrologyStage& stage, std::int64_t col0, std::int64_t row0,
                double cellArea);

    /// Writes, through `write` (pieces of up to about 1 MiB), the layer "rivers" (Tiled JSON objectgroup, id `layerId`, drawn in `colour`) of the map
    /// file that shows cells [col0, col0 + width) x [row0, row0 + height) of the export at
    /// `tilePixels` pixels a cell: each reach clipped to the file's rectangle of pixels, one
    /// polyline object (type "river") per piece inside it, its x, y the piece's first point
    /// and its points relative to them (Tiled's format), the point of a cell at its centre
    /// (a river leaving the map ends on the map's edge: forEachRiverReach);
    /// properties discharge_cells, strahler and upstream_area as rivers.geojson's. Object ids
    /// from `firstObjectId` in reach order. Returns the number of objects. Deterministic.
    std::int64_t writeLayer(std::int64_t layerId, std::int64_t firstObjectId,
                            std::int64_t col0, std::int64_t row0,
                            std::int64_t width, std::int64_t height, std::int64_t tilePixels,
                            const Rgb& colour,
                            const std::function<void(const std::string&)>& write) const;

    std::size_t reachCount() const noexcept { return m_reaches.size(); }

private:
    struct Reach {
        std::size_t first = 0, count = 0;  // in m_points
        std::uint8_t order = 0;
        float discharge = 0;
        double upstreamArea = 0;
        double minCol = 0, minRow = 0, maxCol = 0, maxRow = 0;
    };
    std::vector<MapCellPoint> m_points;
    std::vector<Reach> m_reaches;
};

}  // namespace terragrid

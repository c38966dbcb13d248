#pragma once
// The Tiled export's lake layer: the hydrology stage's lakes (the outlines of lakes.geojson,
// hydro::lakePolygons) as polygon objects of an object layer "lakes", cut to each map file.
// Tiled's polygons have no holes, so each object is a lake part's outer shore: islands in a
// lake lie under its polygon and show on the terrain layer.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "terragrid/hydro/lake_outlines.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// Every lake part's outer ring in cell corners of the exported map (whose top-left cell is
/// the whole-map cell (col0, row0): a window's). Immutable after construction. Memory: 8 bytes
/// per corner and about 40 per lake part.
class TiledLakes {
public:
    TiledLakes(const HydrologyStage& stage, std::int64_t col0, std::int64_t row0);

    /// Writes, through `write`, the layer "lakes" (Tiled JSON objectgroup, id `layerId`, drawn
    /// in `colour`) of the map file that shows cells [col0, col0 + width) x [row0, row0 +
    /// height) of the export at `tilePixels` pixels a cell: each lake part's outer ring
    /// clipped to the file's rectangle of pixels (Sutherland and Hodgman), one polygon object
    /// (type "lake") per part with any of it inside, x, y its first point and its points
    /// relative to them, not closed (Tiled closes polygons); properties lake_id and surface_m
    /// (as lakes.geojson's id and surface_m). Object ids from `firstObjectId` in lake order.
    /// Returns the number of objects. Deterministic.
    std::int64_t writeLayer(std::int64_t layerId, std::int64_t firstObjectId, std::int64_t col0,
                            std::int64_t row0, std::int64_t width, std::int64_t height,
                            std::int64_t tilePixels, const Rgb& colour,
                            const std::function<void(const std::string&)>& write) const;

private:
    struct Part {
        std::size_t first = 0, count = 0;  // in m_corners, the ring without its closing point
        std::uint32_t lake = 0;
        float surface = 0;
        std::int64_t minX = 0, minY = 0, maxX = 0, maxY = 0;  // export corners
    };
    std::int64_t m_factor = 1;
    std::int64_t m_mapWidth = 0, m_mapHeight = 0;  // whole-map cells, corners clamp to them
    std::int64_t m_col0 = 0, m_row0 = 0;
    std::vector<hydro::CornerPoint> m_corners;  // hydrology grid corners
    std::vector<Part> m_parts;
};

}  // namespace terragrid

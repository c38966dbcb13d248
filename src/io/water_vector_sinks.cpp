// rivers.geojson and lakes.geojson: the hydrology stage's rivers and lakes as vector features
// in the map's CRS (RFC 7946 layout; the CRS named in a "crs" member as GDAL writes it for
// projected data). They describe the whole map's water, also when a run writes a window or a
// shard (the stage is of the whole map; the files are small): every piece writes the same
// bytes, so any one of them serves. Written from the stage in finish(), not from the tiles.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "terragrid/hydro/lake_outlines.hpp"
#include "terragrid/hydro/rivers.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

/// World coordinates of whole-map cell corners and centres, for a config that may be a window.
struct WorldGrid {
    explicit WorldGrid(const Config& config)
        : geometry(TileLayout(config.map).geometry()),
          col0(config.map.fullCol0),
          row0(config.map.fullRow0) {}

    /// World x of the left edge of whole-map column `col`.
    double edgeX(std::int64_t col) const {
        return double(geometry.originCol + col - col0) * geometry.cellSize;
    }
    double edgeY(std::int64_t row) const {
        return double(geometry.originRow - (row - row0)) * geometry.cellSize;
    }
    double centreX(std::int64_t col) const { return geometry.cellX(col - col0); }
    double centreY(std::int64_t row) const { return geometry.cellY(row - row0); }

    GridGeometry geometry;
    std::int64_t col0, row0;
};

std::int64_t samplePoint(std::int64_t index, std::int64_t factor, std::int64_t cells) {
    return std::min(index * factor + factor / 2, cells - 1);
}

Json featureCollection(const Config& config, std::string_view name) {
    return {{"type", "FeatureCollection"},
            {"name", name},
            {"crs",
             {{"type", "name"},
              {"properties",
               {{"name", "urn:ogc:def:crs:EPSG::" + std::to_string(config.output.epsg)}}}}},
            {"features", Json::array()}};
}

/// One LineString per reach of river (hydro::riverPolylines: between sources, confluences and
/// mouths) through the sample points of its hydrology cells, ending on the cell it flows into
/// (a confluence, a lake, the sea), so reaches join.
Json riverFeatures(const Config& config, const HydrologyStage& s) {
    Json collection = featureCollection(config, "rivers");
    Json& features = collection["features"];
    const WorldGrid grid(config);
    const auto point = [&](std::uint32_t cell) {
        const auto i = std::int64_t(cell) % s.gridWidth, j = std::int64_t(cell) / s.gridWidth;
        return Json::array({grid.centreX(samplePoint(i, s.factor, s.mapWidth)),
                            grid.centreY(samplePoint(j, s.factor, s.mapHeight))});
    };
    std::vector<std::uint8_t> river(s.strahler.size());
    for (std::size_t i = 0; i < river.size(); ++i) river[i] = s.strahler[i] != 0 ? 1 : 0;
    const hydro::FlowRouting routing{.receiver = s.receiver, .order = {}};
    const double cellArea = config.map.groundCell() * config.map.groundCell();
    for (const hydro::RiverPolyline& reach :
         hydro::riverPolylines(routing, river, s.strahler, s.accumulation)) {
        Json line = Json::array();
        for (std::uint32_t cell : reach.cells) line.push_back(point(cell));
        // The cell the river flows into (a lake or the sea), so it visibly reaches it.
        const std::uint32_t last = reach.cells.back();
        if (!reach.endsAtJoint && s.receiver[last] != hydro::kNoReceiver)
            line.push_back(point(s.receiver[last]));
        if (line.size() < 2) line.push_back(line[0]);  // a one-cell river at the edge
        features.push_back(
            {{"type", "Feature"},
             {"properties",
              {{"strahler", reach.order},
               {"discharge_cells", reach.discharge},
               {"upstream_area", double(reach.discharge) * cellArea}}},
             {"geometry", {{"type", "LineString"}, {"coordinates", std::move(line)}}}});
    }
    return collection;
}

/// One MultiPolygon per lake (hydro::lakePolygons: rings along the hydrology cells' edges),
/// each corner at the edge of the map cells the hydrology cell stands for, with the lake's
/// surface height.
Json lakeFeatures(const Config& config, const HydrologyStage& s) {
    Json collection = featureCollection(config, "lakes");
    const WorldGrid grid(config);
    const std::uint32_t count = s.lakes.count();
    std::vector<Json> polygons(count + 1, Json::array());
    std::vector<std::int64_t> cellsOf(count + 1, 0);
    for (std::uint32_t id : s.lakes.id) cellsOf[id] += 1;
    const auto corner = [&](const hydro::CornerPoint& p) {
        return Json::array({grid.edgeX(std::min(std::int64_t(p.x) * s.factor, s.mapWidth)),
                            grid.edgeY(std::min(std::int64_t(p.y) * s.factor, s.mapHeight))});
    };
    for (const hydro::LakePolygon& polygon :
         hydro::lakePolygons(s.lakes, std::int32_t(s.gridWidth), std::int32_t(s.gridHeight))) {
        Json rings = Json::array();
        for (const auto& ring : polygon.rings) {
            Json points = Json::array();
            for (const hydro::CornerPoint& p : ring) points.push_back(corner(p));
            rings.push_back(std::move(points));
        }
        polygons[polygon.lake].push_back(std::move(rings));
    }
    const double cellArea = config.map.groundCell() * config.map.groundCell();
    for (std::uint32_t id = 1; id <= count; ++id) {
        if (cellsOf[id] == 0) continue;
        const double mapCells = double(cellsOf[id]) * double(s.factor * s.factor);
        collection["features"].push_back(
            {{"type", "Feature"},
             {"properties",
              {{"id", id}, {"surface_m", s.lakes.surface[id]}, {"area", mapCells * cellArea}}},
             {"geometry", {{"type", "MultiPolygon"}, {"coordinates", std::move(polygons[id])}}}});
    }
    return collection;
}

/// A GeoJSON file made from the stage in finish().
class GeoJsonSink final : public OutputSink {
public:
    GeoJsonSink(const Config& config, OutputFile file, const HydrologyStage& stage,
                Json (*features)(const Config&, const HydrologyStage&))
        : m_config(config), m_stage(stage), m_features(features),
          m_file(outputPath(config, file)) {}

    const std::string& path() const override { return m_file.targetPath(); }
    void begin(const TileLayout&) override {}
    void consume(const Tile&) override {}
    void finish() override { m_file.write(m_features(m_config, m_stage).dump() + "\n"); }
    void commit() override { m_file.commit(); }

private:
    const Config& m_config;
    const HydrologyStage& m_stage;
    Json (*m_features)(const Config&, const HydrologyStage&);
    AtomicFile m_file;
};

/// Hydrology cells of the whole map, known from the config alone.
std::uint64_t gridCells(const Config& config) {
    const std::int64_t f = hydrologyFactor(config);
    return std::uint64_t((config.map.wholeWidth() + f - 1) / f) *
           std::uint64_t((config.map.wholeHeight() + f - 1) / f);
}

// At most one feature and one point per hydrology cell (a stretch's points are distinct
// cells, plus the one it ends on): a feature's own text is below 200 bytes, a point's 60.
PlannedOutput riversBound(const Config& config) {
    return bounds::plannedFile(config, OutputFile::RiversGeojson, 1024 + gridCells(config) * 320,
                               false);
}
// At most one rectangle (5 points) and one feature per hydrology cell.
PlannedOutput lakesBound(const Config& config) {
    return bounds::plannedFile(config, OutputFile::LakesGeojson, 1024 + gridCells(config) * 520,
                               false);
}

// The document is built in memory: about the size of the file, a JSON tree several times the text, and the text itself.
WriterMemory vectorMemory(const Config& config, int) {
    return {MemoryGroup::Writers, 0, 4 * lakesBound(config).bytes};
}

}  // namespace

constexpr OutputDriver kRiversGeojsonDriver{
    .file = OutputFile::RiversGeojson,
    .name = "rivers.geojson",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        return std::make_unique<GeoJsonSink>(
            config, OutputFile::RiversGeojson,
            requiredInput(in.hydrology, OutputFile::RiversGeojson, "the hydrology stage"),
            riverFeatures);
    },
    .diskBound = riversBound,
    .memoryBound = vectorMemory,
};
static_assert(namedAsInTable(kRiversGeojsonDriver));
const DriverRegistration kRiversGeojsonRegistered{kRiversGeojsonDriver};

constexpr OutputDriver kLakesGeojsonDriver{
    .file = OutputFile::LakesGeojson,
    .name = "lakes.geojson",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        return std::make_unique<GeoJsonSink>(
            config, OutputFile::LakesGeojson,
            requiredInput(in.hydrology, OutputFile::LakesGeojson, "the hydrology stage"),
            lakeFeatures);
    },
    .diskBound = lakesBound,
    .memoryBound = vectorMemory,
};
static_assert(namedAsInTable(kLakesGeojsonDriver));
const DriverRegistration kLakesGeojsonRegistered{kLakesGeojsonDriver};

}  // namespace terragrid

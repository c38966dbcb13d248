// rivers.geojson and lakes.geojson: the hydrology stage's rivers and lakes as vector features,
// RFC 7946 GeoJSON in WGS 84 longitude and latitude by default, or in the map's CRS with a
// "crs" member as GDAL writes projected GeoJSON (output.geojson_crs; geojson_coordinates.hpp).
// Vertices lie where the GeoTIFFs put the cells they stand for. They describe the whole map's
// water, also when a run writes a window or a shard (the stage is of the whole map; the files
// are small): every piece writes the same bytes, so any one of them serves. Written from the
// stage in finish(), not from the tiles. Every geometry is valid (OGC simple features, as
// GEOS checks it): each line has two distinct points at least (forEachRiverReach), each ring
// is closed and simple, holes lie inside their shell (hydro::lakePolygons).

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/transaction/atomic_file.hpp"
#include "io/water/geojson_coordinates.hpp"
#include "io/water/river_reaches.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "terragrid/hydro/lake_outlines.hpp"
#include "terragrid/hydro/rivers.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

/// The text of a FeatureCollection before its first feature.
std::string collectionHead(const GeoJsonCoordinates& coordinates, std::string_view name) {
    return R"({"type":"FeatureCollection","name":)" + Json(name).dump() +
           coordinates.crsMember() + R"(,"features":[)";
}
/// ... and after its last.
constexpr std::string_view kCollectionTail = "]}\n";

/// One reach of river as a feature; the disk bound measures its text (riversBound).
Json riverFeature(std::uint8_t order, float discharge, double upstreamArea, Json line) {
    return {{"type", "Feature"},
            {"properties",
             {{"strahler", order},
              {"discharge_cells", discharge},
              {"upstream_area", upstreamArea}}},
            {"geometry", {{"type", "LineString"}, {"coordinates", std::move(line)}}}};
}

/// One lake as a feature; the disk bound measures its text (lakesBound).
Json lakeFeature(std::uint32_t id, float surface, double area, Json polygons) {
    return {{"type", "Feature"},
            {"properties", {{"id", id}, {"surface_m", surface}, {"area", area}}},
            {"geometry", {{"type", "MultiPolygon"}, {"coordinates", std::move(polygons)}}}};
}

/// A FeatureCollection written feature by feature (never the whole document in memory).
class FeatureWriter {
public:
    FeatureWriter(AtomicFile& file, const GeoJsonCoordinates& coordinates, std::string_view name)
        : m_file(file), m_buffer(collectionHead(coordinates, name)) {}
    void add(const Json& feature) {
        if (m_features++ > 0) m_buffer += ',';
        m_buffer += feature.dump();
        if (m_buffer.size() >= kFlushBytes) flush();
    }
    void close() {
        m_buffer += kCollectionTail;
        flush();
    }

private:
    static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
    void flush() {
        m_file.write(m_buffer);
        m_buffer.clear();
    }
    AtomicFile& m_file;
    std::string m_buffer;
    std::int64_t m_features = 0;
};

/// One LineString per reach of river (forEachRiverReach: between sources, confluences and
/// mouths) through the sample points of its hydrology cells, ending on the cell it flows into
/// (a confluence, a lake, the sea) or on the map's edge, so reaches join.
void riverFeatures(const Config& config, const HydrologyStage& s,
                   const GeoJsonCoordinates& coordinates, AtomicFile& file) {
    FeatureWriter features(file, coordinates, "rivers");
    const double cellArea = config.map.groundCell() * config.map.groundCell();
    forEachRiverReach(s, [&](const std::vector<MapCellPoint>& points,
                             const hydro::RiverPolyline& reach) {
        Json line = Json::array();
        for (const MapCellPoint& p : points) line.push_back(coordinates.point(p.col, p.row));
        features.add(riverFeature(reach.order, reach.discharge, double(reach.discharge) * cellArea,
                                  std::move(line)));
    });
    features.close();
}

/// One MultiPolygon per lake (hydro::lakePolygons: rings along the hydrology cells' edges),
/// each corner at the edge of the map cells the hydrology cell stands for, with the lake's
/// surface height.
void lakeFeatures(const Config& config, const HydrologyStage& s,
                  const GeoJsonCoordinates& coordinates, AtomicFile& file) {
    FeatureWriter features(file, coordinates, "lakes");
    std::vector<std::int64_t> cellsOf(s.lakes.count() + 1, 0);
    for (std::uint32_t id : s.lakes.id) cellsOf[id] += 1;
    // A corner is the top-left corner of map cell (x f, y f): half a cell before its centre.
    const auto corner = [&](const hydro::CornerPoint& p) {
        return coordinates.point(double(std::min(std::int64_t(p.x) * s.factor, s.mapWidth)) - 0.5,
                                 double(std::min(std::int64_t(p.y) * s.factor, s.mapHeight)) - 0.5);
    };
    const double cellArea = config.map.groundCell() * config.map.groundCell();
    // lakePolygons orders by lake: one lake's polygons are gathered, written, dropped.
    const std::vector<hydro::LakePolygon> outlines =
        hydro::lakePolygons(s.lakes, std::int32_t(s.gridWidth), std::int32_t(s.gridHeight));
    for (std::size_t first = 0; first < outlines.size();) {
        const std::uint32_t id = outlines[first].lake;
        Json polygons = Json::array();
        std::size_t end = first;
        for (; end < outlines.size() && outlines[end].lake == id; ++end) {
            Json rings = Json::array();
            for (const auto& ring : outlines[end].rings) {
                Json points = Json::array();
                for (const hydro::CornerPoint& p : ring) points.push_back(corner(p));
                rings.push_back(std::move(points));
            }
            polygons.push_back(std::move(rings));
        }
        const double mapCells = double(cellsOf[id]) * double(s.factor * s.factor);
        features.add(
            lakeFeature(id, s.lakes.surface[id], mapCells * cellArea, std::move(polygons)));
        first = end;
    }
    features.close();
}

using WriteFeatures = void (*)(const Config&, const HydrologyStage&, const GeoJsonCoordinates&,
                               AtomicFile&);

/// A GeoJSON file made from the stage in finish().
class GeoJsonSink final : public OutputSink {
public:
    GeoJsonSink(const Config& config, OutputFile file, const HydrologyStage& stage,
                WriteFeatures features)
        : m_config(config), m_stage(stage), m_features(features),
          m_coordinates(std::make_unique<GeoJsonCoordinates>(config)),
          m_file(outputPath(config, file)) {}

    const std::string& path() const override { return m_file.targetPath(); }
    void begin(const TileLayout&) override {}
    void consume(const Tile&) override {}
    void finish() override { m_features(m_config, m_stage, *m_coordinates, m_file); }
    void commit() override { m_file.commit(); }

private:
    const Config& m_config;
    const HydrologyStage& m_stage;
    WriteFeatures m_features;
    std::unique_ptr<GeoJsonCoordinates> m_coordinates;  // made first: PROJ's refusal, at once
    AtomicFile m_file;
};

/// The hydrology grid of the whole map, known from the config alone.
struct GridSize {
    explicit GridSize(const Config& config)
        : factor(hydrologyFactor(config)),
          mapWidth(config.map.wholeWidth()),
          mapHeight(config.map.wholeHeight()),
          width((mapWidth + factor - 1) / factor),
          height((mapHeight + factor - 1) / factor) {}
    std::uint64_t cells() const { return std::uint64_t(width) * std::uint64_t(height); }
    std::int64_t factor, mapWidth, mapHeight, width, height;
};

std::uint64_t gridCells(const Config& config) { return GridSize(config).cells(); }

// How much water there is is known only after the stage; the bounds are of the most water the
// grid can hold, from the text the writers write (the same feature functions), so they are
// true bounds for any map, and far above the files of real maps.

/// The longest text nlohmann writes for a number the properties hold: a sign, 17 significant
/// digits, the point and a three-digit exponent ("-1.2345678901234567e-308"), with a margin.
constexpr std::uint64_t kNumberText = 25;

/// The longest "[x,y]," of a point at any of the whole-map cell units `cols` x `rows`: in the
/// map's CRS the longest of their texts, in WGS 84 the longest a rounded coordinate can take.
std::uint64_t longestPoint(const Config& config, const std::vector<double>& cols,
                           const std::vector<double>& rows) {
    if (config.output.geojsonCrs == GeoJsonCrs::Wgs84)
        return 2 * GeoJsonCoordinates::longestWgs84Number(config) + 4;
    const GeoJsonCoordinates map(config);
    std::uint64_t x = 0, y = 0;
    for (double col : cols) x = std::max<std::uint64_t>(x, map.point(col, 0)[0].dump().size());
    for (double row : rows) y = std::max<std::uint64_t>(y, map.point(0, row)[1].dump().size());
    return x + y + 4;
}

/// The collection's head and tail, as the writer writes them.
std::uint64_t frameBytes(const Config& config, std::string_view name) {
    Config map = config;
    map.output.geojsonCrs = GeoJsonCrs::Map;  // the longer head: with the "crs" member
    return collectionHead(GeoJsonCoordinates(map), name).size() + kCollectionTail.size();
}

// Rivers: every reach has an own cell, so there are at most as many features as hydrology
// cells, and a reach's points are its own cells and the one it ends on (a cell, or the map's
// edge beside a border cell): at most two points a cell.
PlannedOutput riversBound(const Config& config) {
    const GridSize g(config);
    std::vector<double> cols{-0.5, double(g.mapWidth) - 0.5}, rows{-0.5, double(g.mapHeight) - 0.5};
    for (std::int64_t i = 0; i < g.width; ++i)
        cols.push_back(double(hydrologySamplePoint(i, g.factor, g.mapWidth)));
    for (std::int64_t j = 0; j < g.height; ++j)
        rows.push_back(double(hydrologySamplePoint(j, g.factor, g.mapHeight)));
    const std::uint64_t feature = riverFeature(0, 0, 0, Json::array()).dump().size() + 1 +
                                  3 * kNumberText;
    PlannedOutput bound = bounds::plannedFile(
        config, OutputFile::RiversGeojson,
        frameBytes(config, "rivers") +
            g.cells() * (feature + 2 * longestPoint(config, cols, rows)),
        false);
    bound.mostWater = true;
    return bound;
}

// Lakes: distinct lakes do not touch, not even at corners, so at most one in 2 x 2 cells is a
// feature. Each ring runs along lake cells' edges and keeps only its corners, and has four
// edges at least: at most four corners and one closing point a lake cell, and a ring (and a
// polygon) a cell, each in brackets with a comma. The corners lie on the grid's cell edges.
PlannedOutput lakesBound(const Config& config) {
    const GridSize g(config);
    std::vector<double> cols, rows;
    for (std::int64_t x = 0; x <= g.width; ++x)
        cols.push_back(double(std::min(x * g.factor, g.mapWidth)) - 0.5);
    for (std::int64_t y = 0; y <= g.height; ++y)
        rows.push_back(double(std::min(y * g.factor, g.mapHeight)) - 0.5);
    const std::uint64_t feature = lakeFeature(0, 0, 0, Json::array()).dump().size() + 1 +
                                  3 * kNumberText;
    const std::uint64_t lakes =
        std::uint64_t((g.width + 1) / 2) * std::uint64_t((g.height + 1) / 2);
    PlannedOutput bound = bounds::plannedFile(
        config, OutputFile::LakesGeojson,
        frameBytes(config, "lakes") + lakes * feature +
            g.cells() * (2 * 3 + 5 * longestPoint(config, cols, rows)),
        false);
    bound.mostWater = true;
    return bound;
}

// Features are written one by one: the vectorised reaches or outlines (cell indices or
// corners, at most a few per hydrology cell) and one lake's JSON tree at a time, plus the
// 1 MiB buffer, and the outlines (8-byte corners, at most four per hydrology cell).
WriterMemory vectorMemory(const Config& config, int) {
    return {MemoryGroup::Writers, 0, (std::uint64_t{1} << 21) + 48 * gridCells(config)};
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

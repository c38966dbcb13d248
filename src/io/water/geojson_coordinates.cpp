#include "io/water/geojson_coordinates.hpp"

#include <proj.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "terragrid/io/crs.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

constexpr int kWgs84 = 4326;
// A degree of latitude is at most this many metres, and one of longitude no more.
constexpr double kMetresPerDegree = 111700.0;

void quiet(void*, int, const char*) {}

}  // namespace

// One PROJ context and the operation from output.crs to WGS 84 longitude, latitude; none when
// the map is in WGS 84 already.
struct GeoJsonCoordinates::Transform {
    PJ_CONTEXT* context = nullptr;
    PJ* operation = nullptr;
    ~Transform() {
        if (operation != nullptr) proj_destroy(operation);
        if (context != nullptr) proj_context_destroy(context);
    }
};

namespace {

[[noreturn]] void noTransform(int epsg, const std::string& why) {
    throw OutputError("writing GeoJSON in WGS 84 (output.geojson_crs \"wgs84\"): PROJ cannot "
                      "transform output.crs EPSG:" + std::to_string(epsg) + " to it (" + why +
                      "); set output.geojson_crs to \"map\" for the map's own CRS");
}

// The most accurate operation PROJ lists that needs no grid file, so the coordinates are the
// same on every machine with this PROJ, whatever grids it has installed; with longitude and
// latitude in that order (and the source's x east, y north) whatever the CRSs' axis orders.
PJ* operationToWgs84(PJ_CONTEXT* ctx, int epsg) {
    PJ* source = proj_create_from_database(ctx, "EPSG", std::to_string(epsg).c_str(),
                                           PJ_CATEGORY_CRS, 0, nullptr);
    PJ* target = proj_create_from_database(ctx, "EPSG", std::to_string(kWgs84).c_str(),
                                           PJ_CATEGORY_CRS, 0, nullptr);
    PJ_OPERATION_FACTORY_CONTEXT* factory = proj_create_operation_factory_context(ctx, nullptr);
    PJ* chosen = nullptr;
    if (source != nullptr && target != nullptr && factory != nullptr) {
        proj_operation_factory_context_set_grid_availability_use(
            ctx, factory, PROJ_GRID_AVAILABILITY_IGNORED);
        PJ_OBJ_LIST* list = proj_create_operations(ctx, source, target, factory);
        const int count = list != nullptr ? proj_list_get_count(list) : 0;
        for (int i = 0; i < count && chosen == nullptr; ++i) {
            PJ* op = proj_list_get(ctx, list, i);
            if (op != nullptr && proj_coordoperation_get_grid_used_count(ctx, op) == 0)
                chosen = proj_normalize_for_visualization(ctx, op);
            if (op != nullptr) proj_destroy(op);
        }
        if (list != nullptr) proj_list_destroy(list);
    }
    if (factory != nullptr) proj_operation_factory_context_destroy(factory);
    if (target != nullptr) proj_destroy(target);
    if (source != nullptr) proj_destroy(source);
    return chosen;
}

}  // namespace

GeoJsonCoordinates::GeoJsonCoordinates(const Config& config)
    : m_originX(config.map.wholeOriginX()),
      m_originY(config.map.wholeOriginY()),
      m_cellSize(config.map.cellSize),
      m_epsg(config.output.crs.epsg) {
    if (config.output.geojsonCrs != GeoJsonCrs::Wgs84) return;
    for (int d = 0; d < wgs84Decimals(config); ++d) m_scale *= 10.0;  // exact to 10^22
    m_transform = std::make_unique<Transform>();
    if (m_epsg == kWgs84) return;  // longitude and latitude already: no operation
    m_transform->context = proj_context_create();
    if (m_transform->context == nullptr) noTransform(m_epsg, "PROJ failed to start");
    proj_log_func(m_transform->context, nullptr, quiet);
    m_transform->operation = operationToWgs84(m_transform->context, m_epsg);
    if (m_transform->operation == nullptr) noTransform(m_epsg, "no operation without grid files");
    // The whole map's corners, before any tile: a map outside the projection's domain fails
    // now rather than after the run.
    const double right = double(config.map.wholeWidth()) - 0.5;
    const double bottom = double(config.map.wholeHeight()) - 0.5;
    for (const auto& [col, row] : {std::pair{-0.5, -0.5}, {right, -0.5}, {-0.5, bottom},
                                   {right, bottom}})
        point(col, row);
}

GeoJsonCoordinates::~GeoJsonCoordinates() = default;

nlohmann::ordered_json GeoJsonCoordinates::point(double col, double row) const {
    // As the GeoTIFFs' geotransform places the cell: origin plus (col + 0.5) cells.
    const double x = m_originX + (col + 0.5) * m_cellSize;
    const double y = m_originY - (row + 0.5) * m_cellSize;
    if (!m_transform) return nlohmann::ordered_json::array({x, y});
    double lon = x, lat = y;
    if (m_transform->operation != nullptr) {
        PJ_COORD c = proj_coord(x, y, 0, 0);
        c = proj_trans(m_transform->operation, PJ_FWD, c);
        lon = c.xy.x;
        lat = c.xy.y;
        if (!std::isfinite(lon) || !std::isfinite(lat))
            noTransform(m_epsg, "the point " + std::to_string(x) + ", " + std::to_string(y) +
                                    " lies outside the area it is defined for");
    }
    const auto rounded = [&](double v) { return std::round(v * m_scale) / m_scale + 0.0; };
    return nlohmann::ordered_json::array({rounded(lon), rounded(lat)});
}

std::string GeoJsonCoordinates::crsMember() const {
    if (m_transform) return "";
    const nlohmann::ordered_json crs{
        {"type", "name"},
        {"properties", {{"name", "urn:ogc:def:crs:EPSG::" + std::to_string(m_epsg)}}}};
    return R"(,"crs":)" + crs.dump();
}

int GeoJsonCoordinates::wgs84Decimals(const Config& config) {
    const CellMetres cell = cellMetres(config.map, config.output.crs);
    const double keep = std::min(cell.x, cell.y) / 100.0;
    int decimals = 6;
    double step = kMetresPerDegree / 1e6;  // metres of one unit in the last decimal, at most
    while (step > keep && decimals < 15) {
        step /= 10.0;
        ++decimals;
    }
    return decimals;
}

std::uint64_t GeoJsonCoordinates::longestWgs84Number(const Config& config) {
    // A sign, three digits, the point and the decimals ("-179.1234567"); shorter forms
    // (exponents of small numbers, "12.0") are never longer. Two more as a margin.
    return 5 + std::uint64_t(wgs84Decimals(config)) + 2;
}

}  // namespace terragrid

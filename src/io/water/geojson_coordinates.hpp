#pragma once
// Where rivers.geojson and lakes.geojson put a point of the map (output.geojson_crs):
//   - wgs84 (the default): RFC 7946, longitude and latitude in WGS 84, transformed from
//     output.crs by PROJ and rounded to a hundredth of a cell or finer; no "crs" member;
//   - map: the map's own CRS, exact, named in a "crs" member as GDAL writes projected GeoJSON.
// A point is given in whole-map cell units (a cell's centre at (col, row)) and placed exactly
// where the map's GeoTIFFs place that cell: origin + (col + 0.5) x cell size, from the whole
// map's origin, so every window and shard writes the same coordinates. Internal to src/io.

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "terragrid/io/config.hpp"

namespace terragrid {

class GeoJsonCoordinates {
public:
    /// Throws OutputError naming the CRS when PROJ has no transformation to WGS 84 for it.
    explicit GeoJsonCoordinates(const Config& config);
    ~GeoJsonCoordinates();
    GeoJsonCoordinates(const GeoJsonCoordinates&) = delete;
    GeoJsonCoordinates& operator=(const GeoJsonCoordinates&) = delete;

    /// [x, y] (or [longitude, latitude]) of the point at whole-map cell units (col, row).
    /// Not thread-safe (PROJ's transformation object).
    nlohmann::ordered_json point(double col, double row) const;

    /// The members a FeatureCollection has before "features" besides "type" and "name": the
    /// "crs" member in the map's CRS, nothing in WGS 84 (RFC 7946 has none). JSON text that
    /// starts with ',' when not empty.
    std::string crsMember() const;

    /// Whether the coordinates are WGS 84 longitude and latitude.
    bool wgs84() const noexcept { return m_transform != nullptr; }

    /// Decimals of a WGS 84 coordinate: the fewest (at least 6, RFC 7946's 10 cm) that keep a
    /// hundredth of the map's cell; pure.
    static int wgs84Decimals(const Config& config);

    /// The longest text of one WGS 84 coordinate with wgs84Decimals(config) decimals.
    static std::uint64_t longestWgs84Number(const Config& config);

private:
    struct Transform;
    double m_originX, m_originY, m_cellSize;
    int m_epsg;
    double m_scale = 1;  ///< 10^decimals in WGS 84
    std::unique_ptr<Transform> m_transform;  ///< null: the map's CRS
};

}  // namespace terragrid

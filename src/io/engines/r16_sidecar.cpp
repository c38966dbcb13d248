#include "io/engines/r16_sidecar.hpp"

#include <string>

#include "io/engines/height16.hpp"
#include "terragrid/model/engine.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

// The hidden assumptions: which map edge the file's first row and column are, and how a value
// turns back into metres (where 0 m sits, for engines whose terrain starts at y = 0).
Json orientation(const Config& config) {
    const bool flip = config.output.r16FlipY;
    return {{"rows", flip ? "bottom-to-top" : "top-to-bottom"},
            {"first_row_edge", flip ? "south" : "north"},
            {"first_column_edge", "west"},
            {"north", "-y of the map image (height.tif row 0 is the north edge)"}};
}

Json levels(const HeightRange& r) {
    const double range = r.maxMeters - r.minMeters;
    return {{"value_0_m", r.minMeters},
            {"value_65535_m", r.maxMeters},
            {"metres_per_step", range / 65535.0},
            // Where sea level (0 m) falls on the 0..65535 scale; outside it when 0 m is
            // outside the range.
            {"value_of_0_m", -r.minMeters / range * 65535.0 + 0.0}};  // + 0.0: never -0
}

// Unity's Import Raw dialog (Terrain Settings > Import Raw), field by field, as its wizard
// (UnityCsReference, Modules/TerrainEditor/TerrainWizards.cs, ImportRawHeightmap) reads them.
// Flip Vertically is whatever puts north at +z: unticked for bottom-to-top rows.
Json unityImportRaw(const Config& config, const EngineScale& s) {
    return {{"depth", "Bit 16"},
            {"width", config.map.width},
            {"height", config.map.height},
            {"byte_order", "Windows"},
            {"flip_vertically", !config.output.r16FlipY},
            {"terrain_size", {{"x", s.unityTerrainWidthMeters},
                              {"y", s.unityTerrainHeightMeters},
                              {"z", s.unityTerrainLengthMeters}}}};
}

Json unity(const Config& config, const EngineScale& s, const HeightRange& range) {
    return {{"import_raw", unityImportRaw(config, s)},
            {"terrain_width_m", s.unityTerrainWidthMeters},
            {"terrain_length_m", s.unityTerrainLengthMeters},
            {"terrain_height_m", s.unityTerrainHeightMeters},
            {"position_y_m", range.minMeters},
            {"north", "+z"},
            {"east", "+x"}};
}

}  // namespace

const char* heightRangeSource(const HeightRange& range) noexcept {
    return range.eroded ? "the eroded heights (hydrology stage)" : "elevation.min..max";
}

Json r16Sidecar(const Config& config, const HeightRange& range) {
    // Engines take metres (cellMetres: a geographic map's degrees at its centre latitude, a
    // planet's configured ground size), never the CRS's degrees.
    const CellMetres cellM = cellMetres(config.map, config.output.crs);
    const EngineScale s = engineScale(range.minMeters, range.maxMeters, cellM.x, cellM.y,
                                      config.map.width, config.map.height);
    Json j;
    j["terragrid_version"] = kVersion;
    j["file"] = "height.r16";
    j["width"] = config.map.width;
    j["height"] = config.map.height;
    j["sample"] = "uint16";
    j["byte_order"] = "little-endian";
    j["rows"] = config.output.r16FlipY ? "bottom-to-top" : "top-to-bottom";
    j["orientation"] = orientation(config);
    // The mapped range: every height of the map lies in it, none is clipped.
    j["elevation"] = {{"min_m", range.minMeters},
                      {"max_m", range.maxMeters},
                      {"from", heightRangeSource(range)}};
    j["levels"] = levels(range);
    j["cell_size"] = config.map.cellSize;  // in output.crs units
    j["cell_size_m"] = {{"x", cellM.x}, {"y", cellM.y}};
    j["mapping"] = kHeight16Formula;
    j["unreal"] = {{"scale_x_percent", s.unrealScaleXPercent},
                   {"scale_y_percent", s.unrealScaleYPercent},
                   {"scale_z_percent", s.unrealScaleZPercent},
                   {"location_z_cm", s.unrealLocationZCm}};
    j["unity"] = unity(config, s, range);
    j["godot"] = {{"height_scale", s.godotHeightScale}, {"position_y_m", range.minMeters}};
    j["engine"] = std::string(kEngineNames[static_cast<std::size_t>(config.output.engine)]);
    j["seed"] = config.seed;
    j["noise_version"] = versionNumber(config.noiseVersion);
    j["config_hash"] = config.hash;
    return j;
}

}  // namespace terragrid

// height.exr (+ height.exr.json): the height in metres as a single-channel 32-bit float
// OpenEXR image, the heightmap Godot's terrain plugins take at full precision (Godot imports
// PNG at 8 bits per channel). EXR scanlines go out top row first, so the tiles of one tile row
// are gathered into a band of full-width rows, written once its last tile is in; nothing
// beyond one band is held.

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/transaction/atomic_file.hpp"
#include "io/engines/exr_writer.hpp"
#include "io/engines/r16_sidecar.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "io/tile_band.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

// Terrain3D's importer (addons/terrain_3d/tools/importer.tscn; its docs, import_export.md)
// stores heights as given ("full range values"), so metres go in unscaled; the map is centred
// on import_position, and vertex_spacing is the cell size in metres (cellMetres: a geographic
// map's degrees at its centre latitude, a planet's configured ground size). Terrain3D's
// spacing is one number: a geographic map's cells get the side of a square of their area.
nlohmann::ordered_json terrain3d(const Config& config) {
    return {{"importer", {{"height_file_name", "height.exr"},
                          {"import_position", {0, 0, 0}},
                          {"import_scale", 1.0},
                          {"height_offset", 0.0}}},
            {"vertex_spacing", cellMetres(config.map, config.output.crs).square()}};
}

// HTerrain (Zylann's godot_heightmap_plugin; its importer_dialog.gd and hterrain_data.gd). Its
// terrains are square with 2^n + 1 cells a side, 65 to 4097: the importer takes the smaller of
// the width's and the height's next such size and crops (or pads with 0 m) the image to it. An
// EXR's heights are used as they are: min_height and max_height scale only PNG and RAW files,
// and the dialog's fields accept -2000..2000 m. Cell spacing is the node's map_scale, x and z.
std::int64_t hterrainResolution(std::int64_t width, std::int64_t height) {
    constexpr std::int64_t kMin = 65, kMax = 4097;
    const auto nextSize = [](std::int64_t n) {
        std::int64_t p = 1;
        while (p < n - 1) p *= 2;
        return p + 1;
    };
    return std::clamp(std::min(nextSize(width), nextSize(height)), kMin, kMax);
}

nlohmann::ordered_json hterrain(const Config& config, const HeightRange& range) {
    const std::int64_t resolution = hterrainResolution(config.map.width, config.map.height);
    const bool exact = resolution == config.map.width && resolution == config.map.height;
    const double cell = config.map.groundCell();
    nlohmann::ordered_json j;
    j["import"] = {{"heightmap", "height.exr"},
                   {"min_height", range.minMeters},
                   {"max_height", range.maxMeters},
                   {"splatmap", std::string(config.wants(OutputFile::SplatPng) ? "splat_0.png" : "")},
                   {"colormap", ""}};
    j["heights"] = "EXR values are metres, used as they are; min_height and max_height "
                   "matter only for PNG and RAW files";
    j["resolution"] = resolution;
    j["size_fits"] = exact;
    if (!exact)
        j["size_note"] = "HTerrain terrains are square, 2^n + 1 cells a side (65 to 4097); it "
                         "crops or pads this " + std::to_string(config.map.width) + " x " +
                         std::to_string(config.map.height) + " map to " +
                         std::to_string(resolution) + " x " + std::to_string(resolution) +
                         ": set map.width and map.height to " + std::to_string(resolution) +
                         " (or another 2^n + 1) to import it whole";
    j["map_scale"] = {cell, 1.0, cell};
    return j;
}

nlohmann::ordered_json exrSidecar(const Config& config, const HeightRange& range) {
    nlohmann::ordered_json j;
    j["terragrid_version"] = kVersion;
    j["file"] = "height.exr";
    j["width"] = config.map.width;
    j["height"] = config.map.height;
    j["sample"] = "float32";
    j["channel"] = kExrChannel;
    j["compression"] =
        std::string(kExrCompressionNames[static_cast<std::size_t>(config.output.exrCompression)]);
    j["unit"] = "metre";
    j["orientation"] = {{"rows", "top-to-bottom"},
                        {"first_row_edge", "north"},
                        {"first_column_edge", "west"}};
    // The values are elevations, not a normalised 0..1 range: 0 is sea level.
    j["levels"] = {{"value_is", "elevation in metres"}, {"zero_m", "sea level"}};
    j["elevation"] = {{"min_m", range.minMeters},
                      {"max_m", range.maxMeters},
                      {"from", heightRangeSource(range)}};
    j["cell_size"] = config.map.cellSize;  // in output.crs units
    const CellMetres cellM = cellMetres(config.map, config.output.crs);
    j["cell_size_m"] = {{"x", cellM.x}, {"y", cellM.y}};
    // In Godot -z is north and +x east; a terrain's image row 0 is its -z edge.
    j["godot"] = {{"north", "-z"}, {"east", "+x"}, {"terrain3d", terrain3d(config)},
                  {"hterrain", hterrain(config, range)}};
    j["engine"] = std::string(kEngineNames[static_cast<std::size_t>(config.output.engine)]);
    j["seed"] = config.seed;
    j["noise_version"] = versionNumber(config.noiseVersion);
    j["config_hash"] = config.hash;
    return j;
}

std::vector<std::pair<std::string, std::string>> exrAttributes(const Config& config) {
    return {{"terragrid_version", std::string(kVersion)},
            {"terragrid_seed", std::to_string(config.seed)},
            {"terragrid_config_hash", config.hash},
            {"terragrid_noise_version", std::to_string(versionNumber(config.noiseVersion))},
            {"terragrid_unit", "metre"}};
}

class HeightExrSink final : public OutputSink {
public:
    HeightExrSink(const Config& config, const HeightRange& range)
        : m_width(config.map.width),
          m_height(config.map.height),
          m_sidecarText(exrSidecar(config, range).dump(2) + "\n"),
          m_writer(outputPath(config, OutputFile::HeightExr), m_width, m_height,
                   config.output.exrCompression, exrAttributes(config)),
          m_sidecar(m_writer.path() + ".json") {}

    const std::string& path() const override { return m_writer.path(); }
    std::vector<std::string> files() const override { return {path(), m_sidecar.targetPath()}; }

    void begin(const TileLayout& layout) override {
        checkMapSize(layout, m_width, m_height, path());
    }

    void consume(const Tile& tile) override {
        const TileRect& r = tile.rect;
        if (static_cast<std::int64_t>(tile.elevationMeters.size()) != r.cellCount())
            throw std::logic_error("sink for '" + path() + "': tile " + std::to_string(r.index) +
                                   " lacks elevations for some of its cells");
        const bool bandDone = m_band.place(r, path(), [&](std::int64_t y, float* to) {
            std::copy_n(tile.elevationMeters.begin() + y * r.width, r.width, to);
        });
        if (bandDone) m_writer.writeRows(m_band.data(), m_band.rows());
    }

    void finish() override {
        if (m_band.rowsDone() != m_height)
            throw OutputError("writing '" + path() + "': only " +
                              std::to_string(m_band.rowsDone()) +
                              " of " + std::to_string(m_height) + " rows arrived");
        m_writer.close();
        m_sidecar.write(m_sidecarText);
    }

    // The data first: a sidecar in place always describes a complete height.exr.
    void commit() override {
        m_writer.commit();
        m_sidecar.commit();
    }

private:
    std::int64_t m_width;
    std::int64_t m_height;
    std::string m_sidecarText;
    ExrWriter m_writer;
    AtomicFile m_sidecar;
    TileBand<float> m_band{m_width};
};

// Blocks of rows, each stored raw when its codec does not shrink it (OpenEXR keeps the
// smaller), with its row number, size and offset-table entry; the header and its attributes;
// the sidecar height.exr.json.
PlannedOutput exrDisk(const Config& config) {
    const bounds::Bytes blocks = bounds::ceilDiv(
        bounds::Bytes(config.map.height), bounds::Bytes(exrRowsPerBlock(config.output.exrCompression)));
    PlannedOutput out = bounds::plannedFile(
        config, OutputFile::HeightExr,
        4 * bounds::cells(config.map.width, config.map.height) + blocks * 16 + 8 * bounds::kKiB,
        true);
    out.files = 2;
    return out;
}

// A band of float rows, and OpenEXR's line buffers: one, or two per thread when its threads
// compress (exr_writer.cpp), each a block of rows, the compressor's working copy and its
// output (PIZ's up to 1.5 blocks), with the codec's state.
WriterMemory exrMemory(const Config& config, int threads) {
    const auto w = bounds::Bytes(config.map.width);
    const auto band = bounds::Bytes(std::min(config.map.tileSizeCells, config.map.height));
    const auto lineBuffers = bounds::Bytes(threads > 1 ? 2 * threads : 1);
    const auto block = bounds::Bytes(exrRowsPerBlock(config.output.exrCompression)) * 4 * w;
    return {MemoryGroup::Writers, w * band * 4 + lineBuffers * (4 * block + bounds::kCodecState),
            0};
}

}  // namespace

constexpr OutputDriver kHeightExrDriver{
    .file = OutputFile::HeightExr,
    .name = "height.exr",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range for the sidecar (height_range.hpp)
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        return std::make_unique<HeightExrSink>(config, mapHeightRange(config, in.hydrology));
    },
    .diskBound = exrDisk,
    .memoryBound = exrMemory,
};
static_assert(namedAsInTable(kHeightExrDriver));
const DriverRegistration kHeightExrRegistered{kHeightExrDriver};

}  // namespace terragrid

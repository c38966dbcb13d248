#pragma once
// The sinks behind makeSinks (outputs.hpp), one factory per output file, and what the files
// share: where they go and how a map raster is georeferenced, tiled and compressed. Internal to
// src/io; the files, each with its output drivers (output_drivers.hpp), are outputs.cpp
// (height.tif), class_sinks.cpp (classes.tif, walkable.tif), preview_sinks.cpp (preview.png,
// height.png), tiled_sink.cpp (the Tiled map) and engine_sinks.cpp (height.r16, height16.png,
// height16.tif); stats.json's driver is stats_json_driver.cpp.

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/geotiff/geotiff_writer.hpp"
#include "io/height_range.hpp"
#include "io/transaction/atomic_file.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// `*input`, or std::invalid_argument "makeSinks: <file> needs <what>" when it is null: a
/// driver's makeSink calls it for each input it needs (a missing one is the caller's mistake,
/// not a failed write).
template <typename T>
const T& requiredInput(const T* input, OutputFile file, const std::string& what) {
    if (input == nullptr) {
        throw std::invalid_argument(
            "makeSinks: " + std::string(kOutputFileNames[static_cast<std::size_t>(file)]) +
            " needs " + what);
    }
    return *input;
}

/// `<config.output.directory>/<the file's name>`.
std::string outputPath(const Config& config, OutputFile file);

/// The GeoTIFF options every map raster shares: the map's size and georeferencing, the TIFF
/// tile size, compression and BigTIFF mode from the config, and the run's metadata
/// (TERRAGRID_SEED, TERRAGRID_CONFIG_HASH, TERRAGRID_VERSION). Callers add their own
/// metadata items, unit and palette.
/// height.tif's nodata: -FLT_MAX. Every elevation lies in elevation.min..max, which config
/// keeps within +-1e5 m, so no cell takes it. A finite value, unlike NaN, which every tool's
/// equality test finds (numpy ==, gdal_calc, QGIS's raster calculator); it is also the float
/// nodata ArcGIS writes, and GDAL (gdalwarp) and QGIS honour it from the GDAL_NODATA tag.
inline constexpr double kHeightNodata = -std::numeric_limits<float>::max();

GeoTiffOptions mapGeoTiffOptions(const Config& config, SampleFormat format);

/// Throws std::logic_error when a sink made for a width x height map is handed `layout`.
void checkMapSize(const TileLayout& layout, std::int64_t width, std::int64_t height,
                  const std::string& path);

/// Throws OutputError when a width x height map exceeds PNG's limit (2^31 - 1) on a side.
void checkPngSize(std::int64_t width, std::int64_t height, const std::string& path);

/// A GeoTIFF fed one field of every tile (Tile::elevationMeters, Tile::classIndex) block by
/// block as the tiles stream past: height.tif and classes.tif.
template <typename T>
class TileRasterSink final : public OutputSink {
public:
    TileRasterSink(std::string path, GeoTiffOptions options, std::vector<T> CellValues::*field)
        : m_width(options.width),
          m_height(options.height),
          m_field(field),
          m_writer(std::move(path), std::move(options)) {}

    const std::string& path() const override { return m_writer.path(); }

    void begin(const TileLayout& layout) override {
        checkMapSize(layout, m_width, m_height, path());
    }

    void consume(const Tile& tile) override {
        const std::vector<T>& cells = tile.*m_field;
        if (static_cast<std::int64_t>(cells.size()) != tile.rect.cellCount())
            throw std::logic_error("sink for '" + path() + "': tile " +
                                   std::to_string(tile.rect.index) +
                                   " lacks values for some of its cells");
        m_writer.writeBlock(tile.rect.col0, tile.rect.row0, tile.rect.width, tile.rect.height,
                            cells.data());
    }

    void finish() override { m_writer.close(); }
    void commit() override { m_writer.commit(); }
    double parallelCpuSeconds() const override { return m_writer.parallelCpuSeconds(); }

private:
    std::int64_t m_width;
    std::int64_t m_height;
    std::vector<T> CellValues::*m_field;
    GeoTiffWriter m_writer;
};

/// A text file written beside an output: its path and its whole contents.
struct Sidecar {
    std::string path;
    std::string text;
};

/// Text files beside an output, in its transaction: each temporary file is created at once
/// (OutputError when it cannot be), write() fills them once the output is finished, commit()
/// publishes them after the output's own commit (a sidecar in place always describes a
/// complete file). For sinks that cannot be wrapped by withSidecars (they prepare tiles).
class SidecarFiles {
public:
    explicit SidecarFiles(std::vector<Sidecar> sidecars);
    void write();
    void commit();
    std::vector<std::string> paths() const;

private:
    std::vector<Sidecar> m_sidecars;
    std::deque<AtomicFile> m_files;  // AtomicFile cannot move: a deque keeps them in place
};

/// `main` with `sidecars` beside it (SidecarFiles: written once main's finish() has run,
/// committed after main). Throws OutputError when a sidecar's temporary file cannot be
/// created. `main` must not prepare tiles (TileSink::preparesTiles): the wrapper does not
/// pass prepare() on.
std::unique_ptr<OutputSink> withSidecars(std::unique_ptr<OutputSink> main,
                                         std::vector<Sidecar> sidecars);

/// `<config.output.directory>/<name>`, for files written beside an output.
std::string pathInOutput(const Config& config, const std::string& name);

/// height.tif: elevation in metres as Float32.
std::unique_ptr<OutputSink> makeHeightSink(const Config& config);

/// classes.tif: Tile::classIndex as UInt8 with the terrain's class colours as its palette,
/// with classes.tif.aux.xml (GDAL's category names and attribute table) beside it.
std::unique_ptr<OutputSink> makeClassesSink(const Config& config, const Terrain& terrain);

/// walkable.tif: regions.mask() as UInt8 0/1, written in finish(); `regions` must have
/// finished by then (come before this sink in the generator's list) and outlive the sink.
std::unique_ptr<OutputSink> makeWalkableSink(const Config& config,
                                             const WalkableRegions& regions);

/// preview.png: the terrain's class colours, hill-shaded, downsampled to
/// config.output.previewMaxSize. `terrain` must outlive the sink. `hydrology`: the whole map's
/// stage, required with erosion (mapHeightRange), else may be null.
std::unique_ptr<OutputSink> makePreviewSink(const Config& config, const Terrain& terrain,
                                            const HydrologyStage* hydrology = nullptr);

/// height.png: heightRamp(config, terrain, hydrology)'s colours (water by depth below the
/// water level, the hypsometric ramp above), hill-shaded, downsampled like preview.png.
/// `terrain` resolves a coverage lake threshold (heightRampNeedsTerrain), else may be null;
/// `hydrology` is required with erosion, else may be null.
std::unique_ptr<OutputSink> makeHeightPreviewSink(const Config& config, const Terrain* terrain,
                                                  const HydrologyStage* hydrology = nullptr);

/// The Tiled (mapeditor.org) export: terrain.tsj + terrain.png (a tile per class with its
/// `class` and `walkable` properties), with config.output.tiled.walkableLayer also
/// blocked.tsj + blocked.png, and either map.tmj or, when a side exceeds
/// config.output.tiled.chunkCells (> 0), chunk maps map_<cx>_<cy>.tmj placed by map.world
/// (then path() is map.world). The terrain layer streams from Tile::classIndex; the blocked
/// layer marks the cells that are not set in regions->mask(), the same cells walkable.tif
/// marks 0 (after the connectivity rule), and is written in finish(), so `regions` must have
/// finished by then (come before this sink in the generator's list) and outlive the sink. It
/// is required with config.output.tiled.walkableLayer (std::invalid_argument without) and
/// not read otherwise. Holds a band of rows, never the map. Throws OutputError when a file
/// cannot be created, the map is too large for Tiled, or its chunk maps would need more open
/// files than the process may have. `terrain` need not outlive the sink. With
/// config.hydrology.enabled, `hydrology` (the stage of the whole configured map, required then)
/// gives every map file an object layer "rivers" (io/tiled/tiled_rivers.hpp); it need not outlive
/// the sink.
std::unique_ptr<OutputSink> makeTiledSink(const Config& config, const Terrain& terrain,
                                          const WalkableRegions* regions,
                                          const HydrologyStage* hydrology = nullptr);

/// height.r16 and its sidecar height.r16.json: elevation as headerless little-endian uint16
/// (io/engines/height16.hpp's mapping over `range`, mapHeightRange), rows top to bottom or, with
/// config.output.r16FlipY, bottom to top; each tile's rows are written at their offsets as it
/// arrives. The sidecar holds the layout, the mapping and engineScale's figures. commit()
/// publishes both files. Throws OutputError when a file cannot be created.
std::unique_ptr<OutputSink> makeR16Sink(const Config& config, const HeightRange& range);

/// height16.png: the same 16-bit values as a linear 16-bit greyscale PNG, encoded one band of
/// tile rows at a time.
std::unique_ptr<OutputSink> makeHeight16PngSink(const Config& config, const HeightRange& range);

/// height16.tif: the same 16-bit values as a UInt16 GeoTIFF on height.tif's grid, with GDAL's
/// band offset and scale turning them back into metres.
std::unique_ptr<OutputSink> makeHeight16TifSink(const Config& config, const HeightRange& range);

/// The files of splat.png and weight.png (splat_sinks.cpp). Splat maps for `classCount`
/// classes: one RGBA image per four classes.
std::int64_t splatImageCount(std::int64_t classCount) noexcept;
/// "splat_0.png", "splat_1.png", ...
std::vector<std::string> splatFileNames(std::int64_t classCount);
/// "weight_<class>.png" per class, the name cut to letters, digits, '-' and '_' (others
/// become '_'); a name two classes would share gets "_<class index>" as well.
std::vector<std::string> weightFileNames(const std::vector<TerrainClass>& classes);
/// The same names in config.output.directory.
std::vector<std::string> splatPaths(const Config& config, const Terrain& terrain);
std::vector<std::string> weightPaths(const Config& config, const Terrain& terrain);

/// Writes `mask` into `writer` (a UInt8 raster of the mask's size) as 0/1 bytes, one block
/// of at most tileSize x tileSize cells at a time, so no more than one block is ever held
/// as bytes. Use the writer's TIFF tile size for `tileSize` so each block is encoded at once.
void writeMask(GeoTiffWriter& writer, const BitRaster& mask, std::int64_t tileSize);

}  // namespace terragrid

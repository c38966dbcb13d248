#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// One row per output file (GDAL's driver pattern): everything the rest of terragrid needs to
// know about an output, defined next to its writer in src/io. makeSinks, the run plan and
// whether a run needs classes or regions are loops over this table, so adding an output is one
// OutputFile value (with its name in kOutputFileNames) and one driver file; the README's
// Development section has the recipe.

#include <memory>
#include <span>
#include <string_view>

#include "terragrid/io/config.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "terragrid/pipeline/regions.hpp"

namespace terragrid {

struct GeoTiffOptions;  // io/geotiff/geotiff_writer.hpp

// What one output costs, known before the run: its files with an upper bound on their size on
// disk, and what its writer holds in memory. Each driver computes them next to the writer they
// describe, so a bound changes with its writer; the run plan (app/plan.hpp) adds them up.

/// One requested output: a file, or the files written together under one output.files name
/// (height.r16 with its sidecar, the Tiled export).
struct PlannedOutput {
    OutputFile file = OutputFile::HeightTif;
    std::string path;          ///< its main file (map.world for a chunked Tiled map)
    std::int64_t files = 1;    ///< how many files it writes
    std::uint64_t bytes = 0;   ///< upper bound on their total size
    bool compressed = false;   ///< bytes bounds compressed data by its uncompressed size
    /// bytes bounds the most water the map can hold (rivers.geojson, lakes.geojson: the
    /// stage finds how much there is only when the run makes it), usually far above the file
    bool mostWater = false;
};

/// The line of the memory estimate an output's writer is counted on.
enum class MemoryGroup : std::uint8_t {
    Writers,  ///< "writers": file encoders and their buffers
    Previews  ///< "previews": pictures accumulated while the tiles stream
};

/// What one output's writer holds at most. Sinks finish one after the other
/// (generator.hpp), so a group needs the sum of its writers' `streaming` memory plus the
/// largest `finishing` among them.
struct WriterMemory {
    MemoryGroup group = MemoryGroup::Writers;
    std::uint64_t streaming = 0;  ///< held from begin() until the sink is destroyed
    std::uint64_t finishing = 0;  ///< held besides, only while its finish() runs
    /// Held by a GeoTIFF's overview pyramid while the tiles stream (output.layout), counted
    /// on its own line, "overviews", beside `streaming`.
    std::uint64_t overviews = 0;
};

/// What the run hands a driver to make its sink with: only what the driver says it needs
/// (the other pointer is null), so a driver that reads more than it declares fails at once.
struct SinkInputs {
    const Terrain* terrain = nullptr;          ///< set when needsClasses(config)
    const WalkableRegions* regions = nullptr;  ///< set when needsRegions(config)
    const HydrologyStage* hydrology = nullptr;  ///< set when the driver needs or reads it
};

/// One output file's driver. Rows are constant and live for the whole program.
struct OutputDriver {
    OutputFile file = OutputFile::HeightTif;
    /// The name in output.files: kOutputFileNames[file] (see namedAsInTable).
    std::string_view name;
    /// Whether the output needs the terrain classes (Tile::classIndex and a Terrain).
    bool (*needsClasses)(const Config& config) = nullptr;
    /// Whether the output needs the WalkableRegions (the mask after the connectivity rule).
    bool (*needsRegions)(const Config& config) = nullptr;
    /// Whether the output shows hydrology (and so exists only with hydrology.enabled).
    bool needsHydrology = false;
    /// Whether the output shows the climate (and so exists only with climate.enabled).
    bool needsClimate = false;
    /// Whether the output also shows the hydrology stage when there is one, but exists
    /// without it (map.tmj's river layer): its sink gets the stage when hydrology is on.
    bool readsHydrology = false;
    /// Makes the sink writing the output into config.output.directory; null for an output
    /// the run writes itself (stats.json). Throws std::invalid_argument naming the file when
    /// an input it needs is null, OutputError when a file cannot be created.
    std::unique_ptr<OutputSink> (*makeSink)(const Config& config,
                                            const SinkInputs& inputs) = nullptr;
    /// For an output that is one GeoTIFF on the map's grid: the writer's options (size,
    /// georeferencing, metadata, nodata, unit, scale, palette) for `config`, with `terrain`
    /// when needsClasses(config). The sink writes with them, and `terragrid mosaic` writes its
    /// VRTs and merged files with them, so a mosaic describes its pieces as the run does. Null
    /// for every other output.
    GeoTiffOptions (*geoTiffOptions)(const Config& config, const Terrain* terrain) = nullptr;
    /// The files the output writes for `config` and an upper bound on their size: never
    /// below what the writer really writes (OutputDriversTest runs them). Pure.
    PlannedOutput (*diskBound)(const Config& config) = nullptr;
    /// What its writer holds at most with `threads` worker threads. Pure.
    WriterMemory (*memoryBound)(const Config& config, int threads) = nullptr;
};

/// Registers a driver row with outputDrivers(): one, at namespace scope, beside each row:
/// `const DriverRegistration kNameRegistered{kNameDriver};`.
struct DriverRegistration {
    explicit DriverRegistration(const OutputDriver& driver);
};

/// Every output's driver, in OutputFile order: outputDrivers()[i].file is OutputFile(i).
/// Throws std::logic_error on first use when an OutputFile has no driver or two, or a
/// driver's name is not its kOutputFileNames entry. Thread-safe.
std::span<const OutputDriver* const> outputDrivers();

/// The driver of `file`. Thread-safe.
const OutputDriver& driverFor(OutputFile file);

/// For a driver's needsClasses / needsRegions: the output needs the input whatever the config.
bool alwaysNeeded(const Config& config);
/// For a driver's needsClasses / needsRegions: the output never needs the input.
bool neverNeeded(const Config& config);

/// Whether `driver.name` is its file's entry in kOutputFileNames, so the two cannot drift:
/// static_assert it beside each (constexpr) row.
constexpr bool namedAsInTable(const OutputDriver& driver) {
    const auto i = static_cast<std::size_t>(driver.file);
    return i < kOutputFileNames.size() && kOutputFileNames[i] == driver.name;
}

}  // namespace terragrid

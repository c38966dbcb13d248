#pragma once
// The output files: tile sinks that write into a temporary file and rename it into place only
// when the whole run has succeeded (design.md principle 7).

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "terragrid/io/config.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/regions.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// A file could not be written. what() names the file and the cause.
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A sink that writes one file. Until commit() the data lives in a temporary file beside the
/// target; destroying an uncommitted sink removes it, leaving any older target intact.
class OutputSink : public TileSink {
public:
    /// The file this sink produces (its main file, when it writes several).
    virtual const std::string& path() const = 0;
    /// Every file this sink writes, path() first: a set's other images, sidecars. What a run
    /// reports it wrote.
    virtual std::vector<std::string> files() const { return {path()}; }
    /// Renames the finished temporary file onto path(). Call after finish().
    virtual void commit() = 0;
};

/// The sinks for every file in config.output.files, made by their drivers
/// (output_drivers.hpp), except stats.json (which the run writes from everything else),
/// writing into config.output.directory (which must exist).
/// `terrain` is required for classes.tif, preview.png and map.tmj; `regions` for walkable.tif
/// and, with config.output.tiled.walkableLayer, for map.tmj (its blocked layer), which are
/// written from regions->mask() in finish(), so `regions` must come before the returned sinks
/// in the list given to generateMap. Throws std::invalid_argument naming the file when one it
/// needs is null, OutputError if a temporary file cannot be created.
/// `hydrology` (the stage of the whole configured map) is required for the water outputs.
std::vector<std::unique_ptr<OutputSink>> makeSinks(const Config& config, const Terrain* terrain,
                                                   const WalkableRegions* regions,
                                                   const HydrologyStage* hydrology = nullptr);

}  // namespace terragrid

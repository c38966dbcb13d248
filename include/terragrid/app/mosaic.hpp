#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// `terragrid mosaic PIECE_DIR... --out-dir DIR`: the pieces of one map (runs with --shard or
// --region, each in its own directory with its manifest.json) made into the map again.
//
// First it checks, before anything is created: every piece has a manifest and is the output
// of a run (not of a mosaic); all are of one map (config hash, terragrid version, noise and
// hydrology algorithm versions, map size); together they cover the map exactly once; every
// file the mosaic reads is the one the piece's manifest lists (size and SHA-256). Then, as one
// output transaction with its own manifest: for each GeoTIFF raster a VRT (NAME.vrt) that
// references the pieces in place and keeps their nodata, colour table, category names, unit,
// scale and offset and metadata; with `merge` also one Cloud Optimized GeoTIFF per raster,
// byte-identical to the single run's with output.layout "cog"; each file that every piece has
// with the same bytes (rivers.geojson, lakes.geojson, styles) once; and stats.json combined
// (app/mosaic_stats.hpp). Files that differ from piece to piece and are not rasters (previews,
// engine exports) are pictures of each piece: left out, and the report says so.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace terragrid {

/// Pieces that do not make one map, or that are damaged: nothing was created. what() names the
/// piece and the rule (exit code 2).
class MosaicError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct MosaicRequest {
    std::vector<std::string> pieces;  ///< the pieces' output directories
    std::string outDir;               ///< created if missing
    bool merge = false;               ///< also one COG per raster
};

struct MosaicReport {
    std::vector<std::string> files;  ///< the files written, in order (manifest.json last)
    std::vector<std::string> notes;  ///< what was left out, and why
    std::int64_t width = 0;
    std::int64_t height = 0;
    double seconds = 0;
};

/// Runs the mosaic on the calling thread's TBB arena. Throws MosaicError (the pieces do not
/// make one map, or differ from their manifests) before anything is created, or OutputError
/// (nothing of the mosaic is left in place; older files in outDir as they were).
MosaicReport mosaicPieces(const MosaicRequest& request);

}  // namespace terragrid

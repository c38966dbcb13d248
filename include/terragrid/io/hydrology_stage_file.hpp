#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The hydrology stage in a file: `terragrid hydrology-stage` computes the whole-map stage once
// and writes it here, and the shards of a job array read it (--hydrology-stage) instead of
// each computing the same stage again (README, Running shards as a job array).
//
// The file is binary, little-endian: a header (a magic string, the format version, the hash of
// the settings the stage depends on, the terragrid version and the hydrology algorithm version
// (kHydrologyAlgorithmVersion) that made it, the grid's sizes, the
// whole map's figures for stats.json, and a table of sections with their element size, count
// and CRC-32) with its own CRC-32, then the sections' data (the stage's arrays) one after the
// other. A stage read back is the one written, bit for bit, so a run reading it writes the
// same bytes as a run computing it. The file holds no time, path or host: the same config
// gives the same bytes for any thread count. A file is refused unless it is, rule by rule, a
// stage this config could have (io/stage/hydrology_stage_rules.hpp): its checksums tell a
// damaged file, the rules a forged one.

#include <cstdint>
#include <stdexcept>
#include <string>

#include "terragrid/io/config.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// The stage file format this terragrid writes and reads. Version 1 also held the stage's step
/// times (so no two files of one stage were the same); version 3 added the climate's sections
/// (issue 29). A file of another version is refused, naming both versions, and made again
/// with `terragrid hydrology-stage`.
inline constexpr std::uint32_t kHydrologyStageFormatVersion = 3;

/// A stage file that cannot serve this config: unreadable, not a regular file, not a stage
/// file, another format version, made for another map, truncated, damaged, or breaking a rule
/// every stage obeys. what() is a sentence naming the file,
/// the rule and the value, without the option that named the file (the caller adds it).
class HydrologyStageFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Bytes the stage file of `world` takes at most: the header and every section at its
/// largest (a lake in every 2 x 2 hydrology cells, 255 Strahler orders).
std::uint64_t hydrologyStageFileBound(const World& world);

/// Writes `stage`, the stage of `config`'s whole map (computeHydrology), to `path` through an
/// AtomicFile: the file appears complete under its name, or not at all, and an older file
/// there stays as it was on any failure. Returns the bytes written. Throws OutputError.
std::uint64_t writeHydrologyStage(const Config& config, const HydrologyStage& stage,
                                  const std::string& path);

/// Reads the header of the stage file at `path` and checks it against `config` (magic,
/// format version, terragrid version, hydrology hash, grid sizes, hydrology algorithm
/// version, the file's length), without
/// reading the data: what --dry-run can tell cheaply. Throws HydrologyStageFileError.
void checkHydrologyStageFile(const Config& config, const std::string& path);

/// Reads the stage file at `path` for `config`: the header checks of checkHydrologyStageFile,
/// then every section's CRC-32, then every rule of a stage (receivers neighbours without
/// loops, flows that add up, level lakes apart from each other, Strahler orders that follow
/// from the rivers, finite values, the figures those of the cells), in time linear in the
/// cells. Holds the stage and, while it checks, hydrologyStageCheckBytes more. A FIFO or a
/// device is refused without blocking. Throws HydrologyStageFileError.
HydrologyStage readHydrologyStage(const Config& config, const std::string& path);

/// Bytes the rules' check of `world`'s stage holds beside the stage while it reads it.
std::uint64_t hydrologyStageCheckBytes(const World& world);

}  // namespace terragrid

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// `terragrid verify DIR`: checks an output directory against its manifest.json (every file the
// run wrote, with its size and SHA-256), so a copy, an archive or a shared disk can be trusted
// again later, and a damaged or changed file is named.

#include <cstdint>
#include <string>
#include <vector>

namespace terragrid {

struct VerifyReport {
    std::size_t files = 0;       ///< files the manifest lists
    std::uint64_t bytes = 0;     ///< their size, as listed
    std::vector<std::string> problems;  ///< one sentence per file that differs; empty: intact
};

/// Checks every file `directory`'s manifest.json lists (on the calling arena's threads): it
/// must be a regular file (never followed through a symlink) with the listed size and
/// SHA-256. Throws ManifestError (terragrid/io/manifest.hpp) when the manifest is missing or
/// cannot be read.
VerifyReport verifyDirectory(const std::string& directory);

}  // namespace terragrid

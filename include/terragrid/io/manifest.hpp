#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// manifest.json: what one run (or one mosaic) put into its output directory, so the directory
// can be checked later (`terragrid verify`) and pieces of a map can be checked to belong
// together before they are mosaicked (`terragrid mosaic`). It lists every file of the run with
// its size and SHA-256, and what made them: terragrid's version, the config hash and the
// resolved config, the noise and hydrology algorithm versions, and the window (or shard) of
// the configured map the run generated.
//
// The manifest is the last file of the run's transaction (output_transaction.hpp): its hashes
// are of the staged files, the exact bytes the commit renames into place, and it lands with
// them or not at all.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/model/window.hpp"

namespace terragrid {

class OutputTransaction;

inline constexpr std::string_view kManifestName = "manifest.json";
/// The layout of manifest.json; a reader refuses another.
inline constexpr int kManifestFormatVersion = 1;

/// A manifest.json that cannot be read or is not a terragrid manifest. what() is a sentence
/// naming the file and what is wrong.
class ManifestError : public std::runtime_error {
public:
    /// `missing`: the directory has no manifest at all (rather than a damaged one).
    explicit ManifestError(const std::string& what, bool missing = false)
        : std::runtime_error(what), m_missing(missing) {}
    bool missing() const noexcept { return m_missing; }

private:
    bool m_missing;
};

/// What a file is, as a manifest records it.
struct FileDigest {
    std::uint64_t bytes = 0;
    std::string sha256;  ///< 64 lower-case hex digits
    bool operator==(const FileDigest&) const = default;
};

struct ManifestFile {
    std::string name;  ///< relative to the output directory ("height.tif")
    FileDigest digest;
};

/// What made a directory's files: a run of the map (or of a window of it), or a mosaic.
enum class ManifestSource : std::uint8_t { Run, Mosaic };

struct Manifest {
    ManifestSource source = ManifestSource::Run;
    std::string terragridVersion;
    std::string configHash;
    int noiseVersion = 0;
    std::uint32_t hydrologyVersion = 0;  ///< kHydrologyAlgorithmVersion; 0 without hydrology
    std::int64_t mapWidth = 0;           ///< the configured map
    std::int64_t mapHeight = 0;
    CellWindow window;           ///< the cells generated: the whole map for a single run
    std::optional<Shard> shard;  ///< set when the window is a --shard
    std::vector<ManifestFile> files;
    std::string configJson;  ///< the resolved config, JSON text; empty when not known

    /// Whether the window is the whole configured map.
    bool wholeMap() const noexcept {
        return window == CellWindow{0, 0, mapWidth, mapHeight};
    }
    /// The entry of `name`, or null.
    const ManifestFile* find(std::string_view name) const noexcept;
};

/// manifest.json's text for `manifest`. Pure.
std::string manifestJson(const Manifest& manifest);

/// The most bytes manifestJson(header) can take once `files` files are listed in it: each with
/// the longest name a directory entry can have (NAME_MAX) and the largest size. What the run
/// plan reserves on disk for manifest.json. Pure.
std::uint64_t manifestJsonBound(Manifest header, std::int64_t files);

/// Reads `<directory>/manifest.json`. Throws ManifestError naming it when it is missing,
/// unreadable, not JSON or not a manifest of kManifestFormatVersion.
Manifest readManifest(const std::string& directory);

/// The digests of the files `transaction` has staged so far that `known` does not hold yet,
/// appended to it (hashed in parallel, on the calling arena). Throws OutputError.
void digestStaged(const OutputTransaction& transaction, std::vector<ManifestFile>& known);

/// Hashes every file `transaction` has staged so far that `known` (digestStaged's, of files
/// staged and not written since) does not hold, and stages `header` with them all as
/// `<directory>/manifest.json`, the transaction's last file. Throws OutputError.
void stageManifest(Manifest header, OutputTransaction& transaction, const std::string& directory,
                   std::vector<ManifestFile> known = {});

}  // namespace terragrid

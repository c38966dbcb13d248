#pragma once
// Helpers shared by the tests: scratch directories, running programs, collecting whole maps.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "terragrid/generator.hpp"

namespace terragrid::test {

/// A fresh, empty directory under the system temp dir, removed with everything in it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
    std::filesystem::path m_path;
};

/// What a finished command printed and returned.
struct CommandResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Runs `command` through /bin/sh, capturing stdout and stderr.
CommandResult runCommand(const std::string& command);

/// Quotes a string for /bin/sh.
std::string shellQuote(const std::string& s);

/// The terragrid CLI built alongside the tests, and the repository root.
std::string cliPath();
std::filesystem::path sourceDir();

/// Assembles every tile into one row-major elevation raster and checks the sink contract
/// (tile order, each cell exactly once).
class MapCollector : public TileSink {
public:
    void begin(const TileLayout& layout) override;
    void consume(const Tile& tile) override;
    void finish() override;

    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<float> elevation;
    std::vector<std::int64_t> tileOrder;
    std::vector<int> coverage;  ///< how often each cell was delivered
    bool begun = false;
    bool finished = false;
};

/// Reads a single-band Float32 tiled or stripped TIFF into a row-major vector. Throws
/// std::runtime_error when the file cannot be opened, is not single-band Float32, or a tile or
/// row does not decode in full.
std::vector<float> readFloatTiff(const std::filesystem::path& path, std::uint32_t* width = nullptr,
                                 std::uint32_t* height = nullptr);

/// The whole file as bytes.
std::string readFile(const std::filesystem::path& path);

/// The names of everything in `directory` (files and subdirectories alike), sorted.
std::vector<std::string> listDir(const std::filesystem::path& directory);

}  // namespace terragrid::test

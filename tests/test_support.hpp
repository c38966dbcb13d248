#pragma once
// Helpers shared by the tests: scratch directories, running programs, collecting whole maps.

#include <array>
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
    std::vector<std::uint8_t> classIndex;  ///< empty when the tiles carry no classes
    std::vector<std::uint8_t> walkable;
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

/// Reads a single-band 8-bit unsigned tiled TIFF into a row-major vector. Throws
/// std::runtime_error like readFloatTiff.
std::vector<std::uint8_t> readByteTiff(const std::filesystem::path& path,
                                       std::uint32_t* width = nullptr,
                                       std::uint32_t* height = nullptr);

/// A PNG as read back with libpng.
struct PngImage {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    int bitDepth = 0;    ///< from IHDR
    int colourType = 0;  ///< from IHDR: 2 is RGB
    std::vector<std::uint8_t> rgb;    ///< width x height pixels, 3 bytes each, row-major
    std::vector<std::string> chunks;  ///< chunk types in file order ("IHDR", "IDAT", ...)

    /// The pixel at (x, y) as {r, g, b}.
    std::array<std::uint8_t, 3> at(std::uint32_t x, std::uint32_t y) const;
};

/// Decodes `path` with libpng as 8-bit RGB. Throws std::runtime_error when it is not a PNG
/// libpng can read.
PngImage readPng(const std::filesystem::path& path);

/// A whole map held in memory, for feeding sinks by hand. Vectors are row-major,
/// width x height; classIndex and walkable may be empty.
struct SyntheticMap {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<float> elevation;
    std::vector<std::uint8_t> classIndex;
    std::vector<std::uint8_t> walkable;
};

/// Hands `map` to every sink as the generator would: begin, the tiles of `tileSize` in
/// row-major order, finish.
void feedTiles(const std::vector<TileSink*>& sinks, const SyntheticMap& map,
               std::int64_t tileSize);

/// The whole file as bytes.
std::string readFile(const std::filesystem::path& path);

/// The names of everything in `directory` (files and subdirectories alike), sorted.
std::vector<std::string> listDir(const std::filesystem::path& directory);

}  // namespace terragrid::test

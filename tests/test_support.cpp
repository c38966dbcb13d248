#include "terragrid/config/crs.hpp"
#include "test_support.hpp"

#include <fcntl.h>
#include <png.h>
#include <spawn.h>
#include <sys/wait.h>
#include <tiffio.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "io/geotiff/geotiff_writer.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/model/tiling.hpp"

namespace terragrid::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
    static std::atomic<int> counter{0};
    m_path = fs::temp_directory_path() /
             ("terragrid-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(m_path);
    fs::create_directories(m_path);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
}

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> listDir(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::map<std::string, std::string> snapshotDir(const fs::path& directory) {
    std::map<std::string, std::string> files;
    for (const std::string& name : listDir(directory)) files[name] = readFile(directory / name);
    return files;
}

std::map<std::string, std::string> withoutTimings(std::map<std::string, std::string> files) {
    auto stats = nlohmann::ordered_json::parse(files.at("stats.json"));
    stats.erase("timing_seconds");
    if (stats.contains("hydrology")) stats["hydrology"].erase("timing_seconds");
    if (stats.contains("climate")) stats["climate"].erase("timing_seconds");
    files["stats.json"] = stats.dump(2);
    // The manifest lists stats.json's size and hash, which its timings change.
    if (files.contains("manifest.json")) {
        auto manifest = nlohmann::ordered_json::parse(files.at("manifest.json"));
        for (auto& file : manifest["files"])
            if (file["name"] == "stats.json") file.erase("sha256"), file.erase("bytes");
        files["manifest.json"] = manifest.dump(2);
    }
    return files;
}

CommandResult runCommand(const std::string& command) {
    // stderr goes to a scratch file so stdout and stderr stay apart without threads.
    TempDir scratch;
    const fs::path errPath = scratch / "stderr";
    const std::string full = "(" + command + ") 2>" + shellQuote(errPath.string());
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed for: " + command);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    // The shell starts as from a terminal: every signal at its default action and none
    // blocked, whatever the test process does with them (it ignores SIGPIPE and SIGXFSZ, see
    // process_setup.cpp; a shell cannot undo a signal ignored when it started).
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const char* argv[] = {"/bin/sh", "-c", full.c_str(), nullptr};
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attributes,
                                      const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(out[1]);
    if (spawned != 0) {
        ::close(out[0]);
        throw std::runtime_error("cannot start /bin/sh for: " + command);
    }
    CommandResult result;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        result.out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.err = readFile(errPath);
    return result;
}

void MapCollector::begin(const TileLayout& layout) {
    begun = true;
    width = layout.mapWidth();
    height = layout.mapHeight();
    elevation.assign(static_cast<std::size_t>(width * height), 0.0f);
    coverage.assign(elevation.size(), 0);
}

void MapCollector::consume(const Tile& tile) {
    tileOrder.push_back(tile.rect.index);
    const TileRect& r = tile.rect;
    for (std::int64_t y = 0; y < r.height; ++y)
        for (std::int64_t x = 0; x < r.width; ++x) {
            const auto at = static_cast<std::size_t>((r.row0 + y) * width + r.col0 + x);
            const auto from = static_cast<std::size_t>(y * r.width + x);
            elevation[at] = tile.elevationMeters[from];
            if (!tile.classIndex.empty()) {
                classIndex.resize(elevation.size());
                walkable.resize(elevation.size());
                classIndex[at] = tile.classIndex[from];
                walkable[at] = tile.walkable[from];
            }
            ++coverage[at];
        }
}

void MapCollector::finish() { finished = true; }

namespace {

// Reads a single-band TIFF of samples T (sizeof(T) * 8 bits, sample format `format`, called
// `typeName` in errors) into a row-major vector, every tile or row decoded in full. Stripped
// files only where `stripsAllowed`.
template <typename T>
std::vector<T> readSingleBandTiff(const fs::path& path, std::uint16_t format,
                                  const std::string& typeName, bool stripsAllowed,
                                  std::uint32_t* widthOut, std::uint32_t* heightOut) {
    prepareLibTiff();  // registers the GeoTIFF tags, so libtiff reads them without warnings
    const std::unique_ptr<TIFF, void (*)(TIFF*)> tif(TIFFOpen(path.c_str(), "r"), &TIFFClose);
    if (!tif) throw std::runtime_error("cannot open " + path.string());
    const auto fail = [&](const std::string& what) {
        throw std::runtime_error(what + " in " + path.string());
    };
    std::uint32_t w = 0, h = 0;
    if (TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &w) != 1 ||
        TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &h) != 1)
        fail("no image size");
    std::uint16_t samples = 0, bits = 0, sampleFormat = 0;
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &sampleFormat);
    if (samples != 1 || bits != sizeof(T) * 8 || sampleFormat != format)
        fail("not a single-band " + typeName + " image");
    const bool tiled = TIFFIsTiled(tif.get());
    if (!tiled && !stripsAllowed) fail("not tiled");
    std::vector<T> pixels(std::size_t(w) * h);
    if (tiled) {
        std::uint32_t tw = 0, th = 0;
        if (TIFFGetField(tif.get(), TIFFTAG_TILEWIDTH, &tw) != 1 ||
            TIFFGetField(tif.get(), TIFFTAG_TILELENGTH, &th) != 1 || tw == 0 || th == 0)
            fail(stripsAllowed ? "no tile size" : "not tiled");
        std::vector<T> tile(std::size_t(tw) * th);
        const auto bytes = static_cast<tmsize_t>(tile.size() * sizeof(T));
        for (std::uint32_t y0 = 0; y0 < h; y0 += th)
            for (std::uint32_t x0 = 0; x0 < w; x0 += tw) {
                const std::uint32_t index = TIFFComputeTile(tif.get(), x0, y0, 0, 0);
                if (TIFFReadEncodedTile(tif.get(), index, tile.data(), bytes) != bytes)
                    fail("cannot read tile " + std::to_string(index));
                for (std::uint32_t y = y0; y < std::min(h, y0 + th); ++y)
                    std::copy_n(tile.data() + std::size_t(y - y0) * tw, std::min(tw, w - x0),
                                pixels.data() + std::size_t(y) * w + x0);
            }
    } else {
        if (TIFFScanlineSize(tif.get()) != static_cast<tmsize_t>(std::size_t(w) * sizeof(T)))
            fail("unexpected row size");
        for (std::uint32_t y = 0; y < h; ++y)
            if (TIFFReadScanline(tif.get(), pixels.data() + std::size_t(y) * w, y, 0) < 0)
                fail("cannot read row " + std::to_string(y));
    }
    if (widthOut) *widthOut = w;
    if (heightOut) *heightOut = h;
    return pixels;
}

}  // namespace

std::vector<float> readFloatTiff(const fs::path& path, std::uint32_t* widthOut,
                                 std::uint32_t* heightOut) {
    return readSingleBandTiff<float>(path, SAMPLEFORMAT_IEEEFP, "Float32",
                                     /*stripsAllowed=*/true, widthOut, heightOut);
}

std::vector<std::uint8_t> readByteTiff(const fs::path& path, std::uint32_t* widthOut,
                                       std::uint32_t* heightOut) {
    return readSingleBandTiff<std::uint8_t>(path, SAMPLEFORMAT_UINT, "UInt8",
                                            /*stripsAllowed=*/false, widthOut, heightOut);
}

std::vector<std::uint16_t> readUInt16Tiff(const fs::path& path, std::uint32_t* widthOut,
                                          std::uint32_t* heightOut) {
    return readSingleBandTiff<std::uint16_t>(path, SAMPLEFORMAT_UINT, "UInt16",
                                             /*stripsAllowed=*/false, widthOut, heightOut);
}

TiffReader::TiffReader(const fs::path& file) : path(file) {
    prepareLibTiff();  // so the GeoTIFF tags come back typed
    tif = TIFFOpen(file.c_str(), "r");
}

TiffReader::~TiffReader() {
    if (tif) TIFFClose(tif);
}

std::string TiffReader::stringField(std::uint32_t tag) const {
    const char* text = nullptr;
    if (TIFFGetField(tif, tag, &text) != 1 || text == nullptr) return {};
    return text;
}

std::vector<float> TiffReader::pixels() const {
    EXPECT_TRUE(TIFFIsTiled(tif)) << path.string() << " is not tiled";
    return readFloatTiff(path);
}

void TiffReader::expectColorMap(const std::vector<Rgb>& palette) const {
    std::uint16_t *red = nullptr, *green = nullptr, *blue = nullptr;
    ASSERT_EQ(TIFFGetField(tif, TIFFTAG_COLORMAP, &red, &green, &blue), 1);
    for (std::size_t i = 0; i < 256; ++i) {
        const Rgb expected = i < palette.size() ? palette[i] : Rgb{};
        ASSERT_EQ(red[i], expected.r * 257) << "entry " << i;
        ASSERT_EQ(green[i], expected.g * 257) << "entry " << i;
        ASSERT_EQ(blue[i], expected.b * 257) << "entry " << i;
    }
}

FileSizeLimit::FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &m_old);
    rlimit lowered = m_old;
    lowered.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lowered);
}

FileSizeLimit::~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &m_old);
}

std::array<std::uint8_t, 3> PngImage::at(std::uint32_t x, std::uint32_t y) const {
    const std::size_t i = (std::size_t(y) * width + x) * 3;
    return {rgb.at(i), rgb.at(i + 1), rgb.at(i + 2)};
}

std::array<std::uint8_t, 4> PngImage::rgbaAt(std::uint32_t x, std::uint32_t y) const {
    const std::size_t i = (std::size_t(y) * width + x) * 4;
    return {rgba.at(i), rgba.at(i + 1), rgba.at(i + 2), rgba.at(i + 3)};
}

std::string everyFileOverride() {
    std::string list;
    for (std::size_t i = 0; i < kOutputFileNames.size(); ++i) {
        const OutputDriver& driver = driverFor(static_cast<OutputFile>(i));
        if (driver.needsHydrology || driver.needsClimate) continue;
        list += (list.empty() ? "\"" : ",\"") + std::string(kOutputFileNames[i]) + "\"";
    }
    return "output.files=[" + list + "]";
}

std::string everyFileOption() { return " --set " + shellQuote(everyFileOverride()); }

std::string firstFileOf(std::string_view entry) {
    if (entry == "splat.png") return "splat_0.png";
    if (entry == "weight.png") return "weight_lake.png";
    return std::string(entry);
}

PngImage readPng(const fs::path& path) { return decodePng(readFile(path), path.string()); }

PngImage decodePng(const std::string& bytes, const std::string& name) {
    const fs::path path = name;  // for the messages
    const auto u32 = [&](std::size_t at) {
        const auto b = [&](std::size_t i) { return std::uint32_t(std::uint8_t(bytes.at(at + i))); };
        return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
    };
    PngImage image;
    if (bytes.size() < 33 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
        throw std::runtime_error("no PNG signature in " + path.string());
    // The chunk list as stored: length, type, data, CRC.
    for (std::size_t at = 8; at + 12 <= bytes.size(); at += 12 + u32(at))
        image.chunks.push_back(bytes.substr(at + 4, 4));
    image.bitDepth = std::uint8_t(bytes.at(24));
    image.colourType = std::uint8_t(bytes.at(25));

    // libpng's simplified API reports errors in the struct instead of by longjmp.
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size()))
        throw std::runtime_error("libpng cannot read " + path.string() + ": " + png.message);
    // Read as RGBA, then RGB taken from it: libpng would composite alpha onto a background.
    png.format = PNG_FORMAT_RGBA;
    image.width = png.width;
    image.height = png.height;
    image.rgba.resize(PNG_IMAGE_SIZE(png));
    if (!png_image_finish_read(&png, nullptr, image.rgba.data(), 0, nullptr)) {
        const std::string message = png.message;
        png_image_free(&png);
        throw std::runtime_error("libpng cannot decode " + path.string() + ": " + message);
    }
    for (std::size_t i = 0; i < image.rgba.size(); i += 4)
        image.rgb.insert(image.rgb.end(), image.rgba.begin() + i, image.rgba.begin() + i + 3);
    return image;
}

namespace {

// The PNG being read and the reader's words, for libpng's callbacks. Trivially destructible:
// libpng reports errors by longjmp, which skips destructors.
struct PngSource {
    const char* data = nullptr;
    std::size_t size = 0;
    std::size_t at = 0;
    char error[256] = {};
};

void readPngBytes(png_structp png, png_bytep out, std::size_t count) {
    auto* source = static_cast<PngSource*>(png_get_io_ptr(png));
    if (count > source->size - source->at) png_error(png, "the file ends early");
    std::memcpy(out, source->data + source->at, count);
    source->at += count;
}

void onReadError(png_structp png, png_const_charp message) {
    auto* source = static_cast<PngSource*>(png_get_error_ptr(png));
    std::snprintf(source->error, sizeof source->error, "%s", message);
    png_longjmp(png, 1);
}

void onReadWarning(png_structp, png_const_charp) {}

// Reads IHDR into `image` and, for 16-bit grey, every row as stored (big-endian) into
// `bytes`. False after a libpng error (its words in source.error). `image` and `bytes` belong
// to the caller, so the jump skips no destructor.
bool decodePng(PngSource& source, png_structp png, png_infop info, Grey16Png& image,
               std::vector<std::uint8_t>& bytes) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_read_fn(png, &source, readPngBytes);
    png_read_info(png, info);
    image.width = png_get_image_width(png, info);
    image.height = png_get_image_height(png, info);
    image.bitDepth = png_get_bit_depth(png, info);
    image.colourType = png_get_color_type(png, info);
    if (image.bitDepth != 16 || image.colourType != PNG_COLOR_TYPE_GRAY) return true;
    const std::size_t rowBytes = png_get_rowbytes(png, info);
    bytes.resize(rowBytes * image.height);
    for (std::uint32_t y = 0; y < image.height; ++y) png_read_row(png, &bytes[y * rowBytes], nullptr);
    png_read_end(png, nullptr);
    return true;
}

}  // namespace

Grey16Png readGrey16Png(const fs::path& path) {
    const std::string file = readFile(path);
    Grey16Png image;
    if (file.size() < 8 || file.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
        throw std::runtime_error("no PNG signature in " + path.string());
    const auto u32 = [&](std::size_t at) {
        const auto b = [&](std::size_t i) { return std::uint32_t(std::uint8_t(file.at(at + i))); };
        return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
    };
    for (std::size_t at = 8; at + 12 <= file.size(); at += 12 + u32(at))
        image.chunks.push_back(file.substr(at + 4, 4));

    const auto source = std::make_unique<PngSource>();
    source->data = file.data();
    source->size = file.size();
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source.get(), onReadError,
                                             onReadWarning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw std::runtime_error("libpng could not start");
    }
    std::vector<std::uint8_t> bytes;
    const bool ok = decodePng(*source, png, info, image, bytes);
    png_destroy_read_struct(&png, &info, nullptr);
    if (!ok) throw std::runtime_error("libpng cannot read " + path.string() + ": " + source->error);
    if (image.bitDepth != 16 || image.colourType != PNG_COLOR_TYPE_GRAY)
        throw std::runtime_error(path.string() + " is not 16-bit greyscale");
    image.values.resize(bytes.size() / 2);
    for (std::size_t i = 0; i < image.values.size(); ++i)
        image.values[i] = std::uint16_t(bytes[2 * i] << 8 | bytes[2 * i + 1]);
    return image;
}

void feedTiles(const std::vector<TileSink*>& sinks, const SyntheticMap& map,
               std::int64_t tileSize) {
    MapConfig config;
    config.width = map.width;
    config.height = map.height;
    config.tileSizeCells = tileSize;
    config.cellSize = 1;
    const TileLayout layout(config);
    for (TileSink* sink : sinks) sink->begin(layout);
    Tile tile;
    for (std::int64_t index = 0; index < layout.tileCount(); ++index) {
        tile.rect = layout.tile(index);
        const TileRect& r = tile.rect;
        tile.elevationMeters.clear();
        tile.classIndex.clear();
        tile.walkable.clear();
        for (std::int64_t y = r.row0; y < r.row0 + r.height; ++y) {
            const auto first = static_cast<std::size_t>(y * map.width + r.col0);
            const auto last = first + static_cast<std::size_t>(r.width);
            tile.elevationMeters.insert(tile.elevationMeters.end(), map.elevation.begin() + first,
                                        map.elevation.begin() + last);
            if (!map.classIndex.empty())
                tile.classIndex.insert(tile.classIndex.end(), map.classIndex.begin() + first,
                                       map.classIndex.begin() + last);
            if (!map.walkable.empty())
                tile.walkable.insert(tile.walkable.end(), map.walkable.begin() + first,
                                     map.walkable.begin() + last);
        }
        for (TileSink* sink : sinks) sink->consume(tile);
    }
    for (TileSink* sink : sinks) sink->finish();
}

SyntheticMap elevationMap(std::int64_t width, std::int64_t height,
                          const CellFunction<float>& elevation) {
    SyntheticMap map;
    map.width = width;
    map.height = height;
    for (std::int64_t r = 0; r < height; ++r)
        for (std::int64_t c = 0; c < width; ++c) map.elevation.push_back(elevation(c, r));
    return map;
}

SyntheticMap classifiedMap(std::int64_t width, std::int64_t height,
                           const CellFunction<float>& elevation,
                           const CellFunction<std::uint8_t>& classAt, const Terrain& terrain) {
    SyntheticMap map = elevationMap(width, height, elevation);
    for (std::int64_t r = 0; r < height; ++r) {
        for (std::int64_t c = 0; c < width; ++c) {
            const std::uint8_t cls = classAt(c, r);
            map.classIndex.push_back(cls);
            map.walkable.push_back(terrain.walkable(cls) ? 1 : 0);
        }
    }
    return map;
}

void feedElevationTiles(TileSink& sink, const MapConfig& map,
                        const CellFunction<float>& elevationAt) {
    sink.begin(TileLayout(map));
    const std::int64_t t = map.tileSizeCells;
    std::int64_t index = 0;
    for (std::int64_t row0 = 0; row0 < map.height; row0 += t) {
        for (std::int64_t col0 = 0; col0 < map.width; col0 += t) {
            Tile tile;
            tile.rect = {index++, col0, row0, std::min(t, map.width - col0),
                         std::min(t, map.height - row0)};
            for (std::int64_t r = row0; r < row0 + tile.rect.height; ++r)
                for (std::int64_t c = col0; c < col0 + tile.rect.width; ++c)
                    tile.elevationMeters.push_back(elevationAt(c, r));
            sink.consume(tile);
        }
    }
    sink.finish();
}

std::vector<TileSink*> sinkPointers(const std::vector<std::unique_ptr<OutputSink>>& sinks,
                                    std::vector<TileSink*> before) {
    for (const auto& sink : sinks) before.push_back(sink.get());
    return before;
}

std::vector<std::string> writeOutputs(const Config& config, const Terrain* terrain,
                                      WalkableRegions* regions, const SyntheticMap& map,
                                      std::int64_t tileSize) {
    const auto sinks = makeSinks(config, terrain, regions);
    std::vector<TileSink*> before;
    if (regions) before.push_back(regions);
    feedTiles(sinkPointers(sinks, std::move(before)), map, tileSize);
    std::vector<std::string> paths;
    for (const auto& sink : sinks) {
        sink->commit();
        paths.push_back(sink->path());
    }
    return paths;
}

Config outputConfig(const std::string& directory, std::vector<OutputFile> files) {
    Config config;
    config.seed = 42;
    config.map.width = 100;
    config.map.height = 70;
    config.map.tileSizeCells = 32;
    config.output.geotiffBlockSize = 32;  // TIFF tiles as the generator's: encoded straight
    config.map.cellSize = 30.0;
    config.map.originX = 600000.0;
    config.map.originY = 5400000.0;
    config.output.directory = directory;
    config.output.files = std::move(files);
    config.output.crs = crsFromEpsg(3857);
    config.output.compression = Compression::Deflate;
    config.hash = "0123456789abcdef";
    return config;
}

Terrain testTerrain(const std::string& catchAll) {
    return Terrain({
        {"lake", {58, 110, 165}, false, 0.0, 0.3, 0.0, 1.0},
        {"forest", {46, 110, 52}, true, 0.0, 1.0, 0.6, 1.0},
        {catchAll, {128, 170, 90}, true, 0.0, 1.0, 0.0, 1.0},
    });
}

Terrain tiledTerrain() {
    return Terrain({
        {"lake", {58, 110, 165}, false, 0.0, 0.3, 0.0, 1.0},
        {"mountain", {140, 130, 120}, false, 0.8, 1.0, 0.0, 1.0},
        {"tall grass", {46, 150, 52}, true, 0.0, 1.0, 0.0, 1.0},
    });
}

Config tiledConfig(const fs::path& directory, std::int64_t chunkCells) {
    Config config;
    config.seed = kTiledSeed;
    config.noiseVersion = NoiseVersion::V2;
    config.map.width = 45;
    config.map.height = 37;
    config.map.tileSizeCells = 16;
    config.map.cellSize = 1.0;
    config.output.directory = directory.string();
    config.output.files = {OutputFile::TiledMap};
    config.output.tiled.tilePixels = 16;
    config.output.tiled.walkableLayer = true;
    config.output.tiled.chunkCells = chunkCells;
    config.hash = "0123456789abcdef";
    return config;
}

SyntheticMap tiledMap(const Config& config, const Terrain& terrain) {
    return classifiedMap(
        config.map.width, config.map.height, [](std::int64_t, std::int64_t) { return 0.0f; },
        [](std::int64_t c, std::int64_t r) {
            return static_cast<std::uint8_t>((c / 4 + r / 3 + (c * r) % 5 / 4) % 3);
        },
        terrain);
}

std::string decodeBase64(std::string_view text) {
    std::string bytes;
    std::uint32_t group = 0;
    int inGroup = 0;
    int padding = 0;
    for (const char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        std::uint32_t value = 0;
        if (c >= 'A' && c <= 'Z') value = std::uint32_t(c - 'A');
        else if (c >= 'a' && c <= 'z') value = std::uint32_t(c - 'a' + 26);
        else if (c >= '0' && c <= '9') value = std::uint32_t(c - '0' + 52);
        else if (c == '+') value = 62;
        else if (c == '/') value = 63;
        else if (c == '=' && inGroup >= 2) ++padding;
        else throw std::runtime_error(std::string("not base64: character '") + c + "'");
        if (padding > 0 && c != '=') throw std::runtime_error("base64 text after its padding");
        group = group << 6 | value;
        if (++inGroup == 4) {
            const char three[3] = {char(group >> 16), char(group >> 8 & 0xff), char(group & 0xff)};
            bytes.append(three, std::size_t(3 - padding));
            group = 0;
            inGroup = 0;
        }
    }
    if (inGroup != 0) throw std::runtime_error("base64 text ends inside a group");
    return bytes;
}

std::string inflateZlib(std::string_view compressed) {
    z_stream zs{};
    // 15 + 32: a 32 KiB window, zlib or gzip header detected automatically.
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw std::runtime_error("inflateInit2 failed");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    zs.avail_in = static_cast<uInt>(compressed.size());
    std::string out;
    char buffer[1 << 14];
    int status = Z_OK;
    while (status == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(buffer);
        zs.avail_out = sizeof buffer;
        status = inflate(&zs, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - zs.avail_out);
    }
    const uInt left = zs.avail_in;
    inflateEnd(&zs);
    if (status != Z_STREAM_END) {
        throw std::runtime_error("not a complete zlib stream (inflate returned " +
                                 std::to_string(status) + ")");
    }
    if (left != 0) {
        throw std::runtime_error(std::to_string(left) + " bytes after the end of the zlib stream");
    }
    return out;
}

std::vector<std::uint32_t> decodeTiledLayerData(std::string_view base64,
                                                std::string_view compression) {
    std::string bytes = decodeBase64(base64);
    if (compression == "zlib" || compression == "gzip") {
        bytes = inflateZlib(bytes);
    } else if (!compression.empty()) {
        throw std::runtime_error("unexpected layer compression '" + std::string(compression) +
                                 "'");
    }
    if (bytes.size() % 4 != 0) {
        throw std::runtime_error("layer data of " + std::to_string(bytes.size()) +
                                 " bytes is not a whole number of gids");
    }
    std::vector<std::uint32_t> gids(bytes.size() / 4);
    for (std::size_t i = 0; i < gids.size(); ++i) {
        const auto b = [&](std::size_t k) { return std::uint32_t(std::uint8_t(bytes[i * 4 + k])); };
        gids[i] = b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
    }
    return gids;
}

}  // namespace terragrid::test

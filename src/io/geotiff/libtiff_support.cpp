#include "io/geotiff/libtiff_support.hpp"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "terragrid/io/tiff_options.hpp"

namespace terragrid {
namespace {

// One row per SampleFormat value. DEFLATE's level is named, not left to libtiff's default (6),
// which took twice the CPU for 1 % less: on the default 4096 x 4096 map's height.tif (libtiff
// with libdeflate) level 6 took 2.3 s for 41.39 MB, level 3 1.05 s for 41.81 MB. The Float32
// heights are mostly noise in their low mantissa bits, which no level shrinks and every level
// searches for matches: level 1 (libdeflate's fastest matcher) wrote the full resolution plus
// overviews in 0.13 s less CPU than level 3 (0.55 s instead of 0.68 s, 2026-11-24) for 0.9 %
// more bytes (57.8 MB instead of 57.3). height16.tif's 16-bit heights differ from cell to
// cell by small, noisy steps, which level 1 packs faster and even smaller (0.42 s instead of
// 0.51 s of a height16.tif-only run, 34.25 MB instead of 34.49, 2026-11-25). The 8-bit rasters
// (classes, masks) are long runs, which level 3 packs smaller and, on classes.tif, also faster
// than level 1.
constexpr std::array<SampleFormatInfo, 3> kSampleFormats{{
    {32, SAMPLEFORMAT_IEEEFP, PREDICTOR_FLOATINGPOINT, 1},  // Float32
    {8, SAMPLEFORMAT_UINT, PREDICTOR_HORIZONTAL, 3},        // UInt8
    {16, SAMPLEFORMAT_UINT, PREDICTOR_HORIZONTAL, 1},       // UInt16
}};
static_assert(kSampleFormats.size() == static_cast<std::size_t>(SampleFormat::UInt16) + 1);

// TIFF's code for each Compression value (names: kCompressionNames).
constexpr std::array<std::uint16_t, 4> kTiffCompressions{
    COMPRESSION_NONE, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_LZW, COMPRESSION_ZSTD};
static_assert(kTiffCompressions.size() == kCompressionNames.size());

// ZSTD's level: libtiff's default (9) took more CPU than DEFLATE level 3 for a smaller gain.
constexpr int kZstdLevel = 1;

// libtiff reports problems through process-wide handlers, on the thread that made the failing
// call. Collecting them per thread lets each caller read the words of its own failure right
// after the call, whichever thread it runs on (tiles are encoded on TBB workers).
struct TiffMessages {
    std::string errors;
    std::string warnings;  // not failures, but they may explain one that follows
};
thread_local TiffMessages t_tiffMessages;

void collect(std::string& into, const char* module, const char* format, va_list args) {
    constexpr std::size_t kMaxCollected = 2000;  // a runaway loop must not grow it unbounded
    if (into.size() > kMaxCollected) return;
    char text[1024];
    std::vsnprintf(text, sizeof text, format, args);
    if (!into.empty()) into += "; ";
    if (module && *module) {
        into += module;
        into += ": ";
    }
    into += text;
}

}  // namespace

const SampleFormatInfo& sampleFormatInfo(SampleFormat format) noexcept {
    return kSampleFormats[static_cast<std::size_t>(format)];
}

std::uint16_t tiffCompressionCode(Compression compression) noexcept {
    return kTiffCompressions[static_cast<std::size_t>(compression)];
}

void collectTiffError(const char* module, const char* format, va_list args) {
    collect(t_tiffMessages.errors, module, format, args);
}

void collectTiffWarning(const char* module, const char* format, va_list args) {
    collect(t_tiffMessages.warnings, module, format, args);
}

void clearTiffMessages() noexcept {
    t_tiffMessages.errors.clear();
    t_tiffMessages.warnings.clear();
}

bool tiffErrorCollected() noexcept { return !t_tiffMessages.errors.empty(); }

std::string tiffFailureText(const char* call, int error) {
    std::string cause = !t_tiffMessages.errors.empty()     ? t_tiffMessages.errors
                        : !t_tiffMessages.warnings.empty() ? t_tiffMessages.warnings
                                                           : std::string(call) + " failed";
    clearTiffMessages();
    if (error != 0) cause += std::string(" (") + std::strerror(error) + ")";
    return cause;
}

void setEncodingTags(TIFF* tif, const GeoTiffOptions& options, std::uint32_t width,
                     std::uint32_t height, bool palette, bool withPredictor) {
    const SampleFormatInfo& format = sampleFormatInfo(options.sampleFormat);
    setTag(tif, TIFFTAG_IMAGEWIDTH, width);
    setTag(tif, TIFFTAG_IMAGELENGTH, height);
    setTag(tif, TIFFTAG_TILEWIDTH, static_cast<std::uint32_t>(options.tileSize));
    setTag(tif, TIFFTAG_TILELENGTH, static_cast<std::uint32_t>(options.tileSize));
    // libtiff reads 16-bit tag values from varargs as int.
    setTag(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    setTag(tif, TIFFTAG_BITSPERSAMPLE, static_cast<int>(format.bitsPerSample));
    setTag(tif, TIFFTAG_SAMPLEFORMAT, static_cast<int>(format.tiffSampleFormat));
    setTag(tif, TIFFTAG_PHOTOMETRIC,
           static_cast<int>(palette ? PHOTOMETRIC_PALETTE : PHOTOMETRIC_MINISBLACK));
    setTag(tif, TIFFTAG_PLANARCONFIG, static_cast<int>(PLANARCONFIG_CONTIG));
    // The predictor tag exists only once a compressing codec is selected, so order matters.
    setTag(tif, TIFFTAG_COMPRESSION, static_cast<int>(tiffCompressionCode(options.compression)));
    if (options.compression != Compression::None && withPredictor) {
        setTag(tif, TIFFTAG_PREDICTOR, static_cast<int>(format.predictor));
    }
    if (options.compression == Compression::Deflate) {
        setTag(tif, TIFFTAG_ZIPQUALITY, static_cast<int>(format.deflateLevel));
    }
    if (options.compression == Compression::Zstd) {
        setTag(tif, TIFFTAG_ZSTD_LEVEL, kZstdLevel);
    }
}

}  // namespace terragrid

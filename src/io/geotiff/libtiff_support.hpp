#pragma once
// What the two files that drive libtiff share (geotiff_writer.cpp writes the file,
// tiff_tile_encoder.cpp compresses tiles for it on other threads): how each SampleFormat and
// Compression is spelled in TIFF tags, the tags that decide how a tile is encoded, and
// libtiff's messages, collected per thread. Internal to src/io; includes tiffio.h, so only
// those two files include it.

#include <tiffio.h>

#include <cstdarg>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "io/geotiff/geotiff_writer.hpp"

namespace terragrid {

/// How one SampleFormat is stored.
struct SampleFormatInfo {
    std::uint16_t bitsPerSample;
    std::uint16_t tiffSampleFormat;
    std::uint16_t predictor;  ///< PREDICTOR_FLOATINGPOINT for floats, HORIZONTAL for integers
    std::uint16_t deflateLevel;  ///< libdeflate's level with output.compression deflate
};

/// The row of `format` in the table of sample formats.
const SampleFormatInfo& sampleFormatInfo(SampleFormat format) noexcept;

/// TIFF's code for `compression` (COMPRESSION_ADOBE_DEFLATE, ...).
std::uint16_t tiffCompressionCode(Compression compression) noexcept;

/// A libtiff call failed; what() is libtiff's words (or the call's name when it said nothing).
class TiffError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// libtiff's error and warning handlers (prepareLibTiff installs them): they collect the
/// messages of the calling thread instead of printing them.
void collectTiffError(const char* module, const char* format, va_list args);
void collectTiffWarning(const char* module, const char* format, va_list args);

/// Forgets this thread's collected messages; call before a libtiff call whose failure is
/// reported with tiffFailureText.
void clearTiffMessages() noexcept;

/// Why the libtiff call `call` just failed on this thread: its errors, else its warnings, else
/// "<call> failed"; with `error` (an errno value, 0 for none) added as the system's words,
/// since libtiff's ("Write error at scanline 0") do not say why. Clears the messages.
std::string tiffFailureText(const char* call, int error = 0);

/// Whether this thread collected an error since clearTiffMessages().
bool tiffErrorCollected() noexcept;

/// TIFFSetField, checked: a rejected tag would otherwise vanish from the file. Throws TiffError
/// with libtiff's words.
template <typename... Args>
void setTag(TIFF* tif, std::uint32_t tag, Args... args) {
    clearTiffMessages();
    if (TIFFSetField(tif, tag, args...) != 1) throw TiffError(tiffFailureText("TIFFSetField"));
}

/// Sets the tags that decide how the tiles of a width x height image are laid out and encoded:
/// size, tile size, samples, photometric (palette or grey), compression and predictor (the
/// predictor only once a compressing codec is set, as libtiff requires; never with
/// `withPredictor` false, for a scratch TIFF whose caller applies the predictor itself). The
/// ColorMap of a palette image is the caller's. Throws TiffError when libtiff refuses a tag.
void setEncodingTags(TIFF* tif, const GeoTiffOptions& options, std::uint32_t width,
                     std::uint32_t height, bool palette, bool withPredictor = true);

}  // namespace terragrid

// terragrid's TIFF predictors (io/geotiff/tiff_predictor.hpp) give libtiff's bytes: TiffTileEncoder,
// which applies them itself, against libtiff applying its own predictor to the same tile in a
// real file, for every sample format and every compressing codec, on smooth and on random
// samples (special floats included).

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "io/geotiff/libtiff_support.hpp"
#include "io/geotiff/tiff_predictor.hpp"
#include "io/geotiff/tiff_tile_encoder.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

constexpr std::int64_t kTile = 64;

GeoTiffOptions optionsFor(SampleFormat format, Compression compression) {
    GeoTiffOptions o;
    o.width = kTile;
    o.height = kTile;
    o.tileSize = kTile;
    o.sampleFormat = format;
    o.compression = compression;
    return o;
}

/// A tile of samples in host byte order: a smooth ramp with a little noise, or noise alone
/// (floats: any bit pattern but NaNs, plus infinities, zeros of both signs and denormals).
std::vector<std::byte> tileOf(SampleFormat format, bool random, unsigned seed) {
    std::mt19937 rng(seed);
    const std::size_t n = kTile * kTile;
    std::vector<std::byte> tile(n * bytesPerSample(format));
    for (std::size_t i = 0; i < n; ++i) {
        const double smooth = 100.0 * std::sin(double(i % kTile) / 9.0) + double(i / kTile) +
                              double(rng() % 3);
        switch (format) {
            case SampleFormat::Float32: {
                float v = static_cast<float>(smooth);
                if (random) {
                    std::uint32_t bits = rng();
                    std::memcpy(&v, &bits, 4);
                    if (std::isnan(v)) v = std::numeric_limits<float>::infinity();
                    if (i % 97 == 0) v = -0.0f;
                    if (i % 89 == 0) v = std::numeric_limits<float>::denorm_min();
                }
                std::memcpy(tile.data() + 4 * i, &v, 4);
                break;
            }
            case SampleFormat::UInt8: {
                const auto v = static_cast<std::uint8_t>(random ? rng() : unsigned(smooth + 100.0) / 8);
                std::memcpy(tile.data() + i, &v, 1);
                break;
            }
            case SampleFormat::UInt16: {
                const auto v = static_cast<std::uint16_t>(random ? rng() : unsigned((smooth + 100.0) * 50));
                std::memcpy(tile.data() + 2 * i, &v, 2);
                break;
            }
        }
    }
    return tile;
}

/// The bytes libtiff itself writes for `tile` as tile 0 of a file with `options` (its own
/// predictor), read back raw.
std::vector<std::byte> libtiffBytes(const GeoTiffOptions& options, std::vector<std::byte> tile,
                                    const std::string& path) {
    prepareLibTiff();
    TIFF* out = TIFFOpen(path.c_str(), "wl");
    EXPECT_NE(out, nullptr);
    if (out == nullptr) return {};
    setEncodingTags(out, options, kTile, kTile, false);
    EXPECT_EQ(TIFFWriteEncodedTile(out, 0, tile.data(), static_cast<tmsize_t>(tile.size())),
              static_cast<tmsize_t>(tile.size()));
    TIFFClose(out);
    TIFF* in = TIFFOpen(path.c_str(), "r");
    EXPECT_NE(in, nullptr);
    if (in == nullptr) return {};
    std::uint64_t* byteCounts = nullptr;
    EXPECT_EQ(TIFFGetField(in, TIFFTAG_TILEBYTECOUNTS, &byteCounts), 1);
    std::vector<std::byte> raw(byteCounts != nullptr ? byteCounts[0] : 0);
    EXPECT_EQ(TIFFReadRawTile(in, 0, raw.data(), static_cast<tmsize_t>(raw.size())),
              static_cast<tmsize_t>(raw.size()));
    TIFFClose(in);
    return raw;
}

class TiffPredictorTest
    : public ::testing::TestWithParam<std::tuple<SampleFormat, Compression, bool>> {};

TEST_P(TiffPredictorTest, EncoderGivesLibtiffsBytes) {
    if (!tiffPredictorApplies()) GTEST_SKIP() << "libtiff predicts on big-endian hosts";
    const auto [format, compression, random] = GetParam();
    const GeoTiffOptions options = optionsFor(format, compression);
    const test::TempDir dir;
    TiffTileEncoder encoder(options);
    // Several tiles through one encoder: its reused row buffer must not leak between them.
    for (unsigned seed = 1; seed <= 3; ++seed) {
        std::vector<std::byte> tile = tileOf(format, random, seed);
        const std::vector<std::byte> expected =
            libtiffBytes(options, tile, (dir.path() / "libtiff.tif").string());
        std::vector<std::byte> encoded;
        encoder.encode(tile.data(), tile.size(), encoded);
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(encoded, expected) << "seed " << seed;
    }
}

std::string caseName(const std::tuple<SampleFormat, Compression, bool>& param) {
    static const char* const kFormats[] = {"Float32", "UInt8", "UInt16"};
    return std::string(kFormats[static_cast<int>(std::get<0>(param))]) +
           std::string(kCompressionNames[static_cast<std::size_t>(std::get<1>(param))]) +
           (std::get<2>(param) ? "Random" : "Smooth");
}

INSTANTIATE_TEST_SUITE_P(
    FormatsAndCodecs, TiffPredictorTest,
    ::testing::Combine(::testing::Values(SampleFormat::Float32, SampleFormat::UInt8,
                                         SampleFormat::UInt16),
                       ::testing::Values(Compression::Deflate, Compression::Lzw,
                                         Compression::Zstd),
                       ::testing::Bool()),
    [](const auto& info) { return caseName(info.param); });

TEST(TiffPredictorTest, EncoderRefusesAPartialTile) {
    TiffTileEncoder encoder(optionsFor(SampleFormat::Float32, Compression::Deflate));
    std::vector<std::byte> half(kTile * kTile * 2);
    {
        // Gone before the encoder, as a caller's buffer may be: the refusal must leave the
        // encoder holding nothing of it (AddressSanitizer catches a write into it).
        std::vector<std::byte> out;
        EXPECT_THROW(encoder.encode(half.data(), half.size(), out), TiffError);
    }
    // And the encoder still works.
    std::vector<std::byte> whole = tileOf(SampleFormat::Float32, false, 1);
    std::vector<std::byte> out;
    encoder.encode(whole.data(), whole.size(), out);
    EXPECT_FALSE(out.empty());
}

}  // namespace
}  // namespace terragrid

// Tests for the Paeth filter's SIMD row (src/io/png/png_filter_kernels.hpp): on every Highway
// target this CPU runs, every byte equals the PNG specification's predictor subtracted from
// it, for every triple of neighbours and for random rows of every pixel size and length up to
// a few vectors (the whole vectors and the scalar rest).

#include "io/png/png_filter_kernels.hpp"

#include <gtest/gtest.h>

#include <hwy/targets.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sanitizer_build.hpp"
#include "simd_test_support.hpp"

namespace terragrid {
namespace {

using png_filter::paeth;
using test::OnlyTarget;

TEST(PngFilterKernelsTest, EveryNeighbourTriplePredictsAsTheSpecificationOnEveryTarget) {
    // Pixels of 64 bytes: the row's first pixel holds the left neighbours a of its second, the
    // row above holds their up-left c and up b, so one row checks 64 triples at once.
    constexpr std::size_t kBpp = 64;
    std::vector<std::uint8_t> row(2 * kBpp), up(2 * kBpp), out(2 * kBpp);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        // Under ASan every 61st block of triples (every a, b and c still meets others): the
        // same code on other bytes, in a sixtieth of the sweep's time.
        const std::uint32_t stride = test::kAddressSanitizer ? 61 * kBpp : kBpp;
        for (std::uint32_t first = 0; first < (1u << 24); first += stride) {
            for (std::size_t i = 0; i < kBpp; ++i) {
                const std::uint32_t abc = first + std::uint32_t(i);
                row[i] = std::uint8_t(abc >> 16);     // a
                up[kBpp + i] = std::uint8_t(abc >> 8);  // b
                up[i] = std::uint8_t(abc);            // c
                row[kBpp + i] = std::uint8_t(abc * 7);
            }
            png_filter::paethRow(row.data(), up.data(), row.size(), kBpp, out.data());
            for (std::size_t x = kBpp; x < row.size(); ++x) {
                const auto want = std::uint8_t(row[x] - paeth(row[x - kBpp], up[x], up[x - kBpp]));
                ASSERT_EQ(out[x], want) << "a " << int(row[x - kBpp]) << ", b " << int(up[x])
                                        << ", c " << int(up[x - kBpp]);
            }
        }
    }
}

TEST(PngFilterKernelsTest, RowsOfEveryPixelSizeAndLengthAreTheReferenceOnEveryTarget) {
    std::mt19937 random(7);
    std::uniform_int_distribution<int> byte(0, 255), smooth(-3, 3);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (std::size_t bpp = 1; bpp <= 4; ++bpp) {
            for (std::size_t bytes = 0; bytes <= 150; ++bytes) {
                // Half the rows noise, half a gentle gradient (where the predictor's ties are).
                std::vector<std::uint8_t> row(bytes), up(bytes), out(bytes + 1, 7);
                const bool gentle = bytes % 2 == 0;
                for (std::size_t x = 0; x < bytes; ++x) {
                    up[x] = std::uint8_t(gentle ? 100 + int(x / bpp) + smooth(random)
                                                : byte(random));
                    row[x] = std::uint8_t(gentle ? up[x] + smooth(random) : byte(random));
                }
                png_filter::paethRow(row.data(), up.data(), bytes, bpp, out.data());
                for (std::size_t x = 0; x < bytes; ++x) {
                    const std::uint8_t left = x < bpp ? 0 : row[x - bpp];
                    const std::uint8_t upLeft = x < bpp ? 0 : up[x - bpp];
                    ASSERT_EQ(out[x], std::uint8_t(row[x] - paeth(left, up[x], upLeft)))
                        << "byte " << x << " of " << bytes << ", " << bpp << " per pixel";
                }
                ASSERT_EQ(out.back(), 7) << "wrote beyond the row";
            }
        }
    }
}

}  // namespace
}  // namespace terragrid

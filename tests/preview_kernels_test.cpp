// Tests for the preview pictures' SIMD loops (src/io/png/preview_kernels.hpp): on every Highway
// target this CPU runs, a row of rounded heights equals HeightQuantum's rounding, a row of
// shaded colours equals shadeColour pixel by pixel and a row of hill shade equals hornShade of
// each pixel's clamped 3x3 neighbourhood, bit for bit, over random inputs (NaN, infinities and
// values beyond the ranges among them) and every row length up to a few vectors, so the whole
// vectors and the scalar rest are both checked.

#include "io/png/preview_kernels.hpp"

#include <gtest/gtest.h>

#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "io/png/preview.hpp"
#include "simd_test_support.hpp"

namespace terragrid {
namespace {

using test::OnlyTarget;

constexpr std::size_t kLongestRow = 41;  // five AVX-512 vectors and a rest

/// Mostly ordinary values in [lo, hi], some from the edges of what doubles hold.
std::vector<double> randomValues(std::mt19937_64& random, std::size_t count, double lo,
                                 double hi) {
    std::uniform_real_distribution<double> value(lo, hi);
    std::uniform_int_distribution<int> pick(0, 39);
    std::vector<double> out(count);
    for (double& v : out) {
        switch (pick(random)) {
            case 0: v = std::numeric_limits<double>::quiet_NaN(); break;
            case 1: v = std::numeric_limits<double>::infinity(); break;
            case 2: v = -std::numeric_limits<double>::infinity(); break;
            case 3: v = -0.0; break;
            case 4: v = lo; break;
            case 5: v = hi; break;
            // A whole number and a half: rounding's ties.
            case 6: v = std::floor(value(random)) + 0.5; break;
            default: v = value(random);
        }
    }
    return out;
}

/// Floats of every magnitude and sign, and the ones rounding treats apart.
std::vector<float> randomHeights(std::mt19937_64& random, std::size_t count) {
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    std::uniform_int_distribution<int> exponent(-40, 127);
    std::uniform_int_distribution<int> pick(0, 29);
    constexpr float kSpecial[] = {std::numeric_limits<float>::quiet_NaN(),
                                  -std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(),
                                  0.0f, -0.0f, std::numeric_limits<float>::max(),
                                  std::numeric_limits<float>::denorm_min()};
    std::vector<float> out(count);
    for (float& v : out) {
        const int p = pick(random);
        if (p < 8) v = kSpecial[p];
        else v = std::ldexp(mantissa(random), p < 20 ? exponent(random) % 12 : exponent(random)) *
                 (p % 2 ? -1.0f : 1.0f);
    }
    return out;
}

TEST(PreviewKernelsTest, RoundedRowsAreHeightQuantumOnEveryTarget) {
    std::mt19937_64 random(9);
    // Steps from 2^-44 (a small range at one pixel per cell) to 2^63 (beyond int64).
    const HeightQuantum quanta[] = {{1000.0, 1}, {1000.0, 16}, {8848.0, 4096}, {1e12, 64},
                                    {1e30, 1000}, {0.0, 1}};
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (const HeightQuantum& quantum : quanta) {
            for (std::size_t count = 0; count <= kLongestRow; ++count) {
                const std::vector<float> meters = randomHeights(random, count);
                std::vector<double> out(count + 1, 7.0);
                quantum.round(meters.data(), count, out.data());
                for (std::size_t i = 0; i < count; ++i)
                    ASSERT_EQ(std::bit_cast<std::uint64_t>(out[i]),
                              std::bit_cast<std::uint64_t>(quantum(meters[i])))
                        << meters[i] << " with step 2^" << quantum.exponent() << ": " << out[i]
                        << " vs " << quantum(meters[i]);
                ASSERT_EQ(out.back(), 7.0) << "wrote beyond the row";
            }
        }
    }
}

TEST(PreviewKernelsTest, ShadedRowsAreShadeColourOnEveryTarget) {
    std::mt19937_64 random(2024);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (int round = 0; round < 20; ++round) {
            for (std::size_t count = 0; count <= kLongestRow; ++count) {
                const auto r = randomValues(random, count, -20.0, 280.0);
                const auto g = randomValues(random, count, 0.0, 255.0);
                const auto b = randomValues(random, count, 0.0, 255.0);
                const auto shade = randomValues(random, count, -0.2, 1.2);
                for (const std::size_t channels : {std::size_t{3}, std::size_t{4}}) {
                    std::vector<std::uint8_t> out(count * channels + 1, 7);
                    preview_kernels::shadeRow(
                        {r.data(), g.data(), b.data(), shade.data(), count}, out.data(), channels);
                    for (std::size_t i = 0; i < count; ++i) {
                        const Rgb want = shadeColour({r[i], g[i], b[i]}, shade[i]);
                        const std::uint8_t* p = &out[i * channels];
                        ASSERT_EQ((Rgb{p[0], p[1], p[2]}), want)
                            << "pixel " << i << " of " << count << ": " << r[i] << ", " << g[i]
                            << ", " << b[i] << " shade " << shade[i];
                        if (channels == 4) {
                            ASSERT_EQ(p[3], 255);
                        }
                    }
                    ASSERT_EQ(out.back(), 7) << "wrote beyond the row";
                }
            }
        }
    }
}

TEST(PreviewKernelsTest, ShadedRowsRoundEveryChannelValueAsShadeColour) {
    // Every whole channel value times shades whose factors make halves and near-halves.
    std::vector<double> value(256);
    for (std::size_t v = 0; v < value.size(); ++v) value[v] = double(v);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (const double s : {0.0, 1.0 / 11.0, 0.5, 0.9, 1.0, 0.123456789, 0.7777777}) {
            const std::vector<double> shade(value.size(), s);
            std::vector<std::uint8_t> out(value.size() * 3);
            preview_kernels::shadeRow(
                {value.data(), value.data(), value.data(), shade.data(), value.size()}, out.data(),
                3);
            for (std::size_t v = 0; v < value.size(); ++v)
                ASSERT_EQ(out[3 * v], shadeColour({value[v], 0, 0}, s).r) << v << " shade " << s;
        }
    }
}

/// hornShade of column x with the row's ends reusing their own column.
double referenceShade(const std::vector<double>& above, const std::vector<double>& row,
                      const std::vector<double>& below, std::size_t x,
                      const preview_kernels::Light& light) {
    const std::size_t l = x == 0 ? 0 : x - 1, r = std::min(x + 1, row.size() - 1);
    return preview_kernels::hornShade(above[l], above[x], above[r], row[l], row[r], below[l],
                                      below[x], below[r], light);
}

TEST(PreviewKernelsTest, HillshadeRowsAreHornShadeOnEveryTarget) {
    std::mt19937_64 random(26);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        SCOPED_TRACE(hwy::TargetName(target));
        const OnlyTarget only(target);
        for (int round = 0; round < 20; ++round) {
            const double up = 0.2 + 0.8 * std::abs(unit(random));
            const preview_kernels::Light light{
                .east = unit(random), .south = unit(random), .up = up,
                .run = 8.0 * (1.0 + 100.0 * std::abs(unit(random)))};
            for (std::size_t width = 1; width <= kLongestRow; ++width) {
                const auto above = randomValues(random, width, -200.0, 3000.0);
                const auto row = randomValues(random, width, -200.0, 3000.0);
                const auto below = randomValues(random, width, -200.0, 3000.0);
                std::vector<double> out(width + 1, 7.0);
                preview_kernels::hillshadeRow(above.data(), row.data(), below.data(), width,
                                              light, out.data());
                for (std::size_t x = 0; x < width; ++x) {
                    const double want = referenceShade(above, row, below, x, light);
                    ASSERT_EQ(std::bit_cast<std::uint64_t>(out[x]),
                              std::bit_cast<std::uint64_t>(want))
                        << "column " << x << " of " << width << ": " << out[x] << " vs " << want;
                }
                ASSERT_EQ(out.back(), 7.0) << "wrote beyond the row";
            }
        }
    }
}

}  // namespace
}  // namespace terragrid

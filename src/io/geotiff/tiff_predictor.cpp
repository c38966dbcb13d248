#include "io/geotiff/tiff_predictor.hpp"

#include <bit>
#include <cstring>

namespace terragrid {
namespace {

// Each sample minus the one to its left, read from a copy of the row so the loop has no
// dependence between iterations and the compiler vectorises it.
template <typename T>
void horizontalRow(std::byte* row, std::size_t samples, std::byte* copy) {
    std::memcpy(copy, row, samples * sizeof(T));
    for (std::size_t i = 1; i < samples; ++i) {
        T here, left;
        std::memcpy(&here, copy + i * sizeof(T), sizeof(T));
        std::memcpy(&left, copy + (i - 1) * sizeof(T), sizeof(T));
        const T difference = static_cast<T>(here - left);
        std::memcpy(row + i * sizeof(T), &difference, sizeof(T));
    }
}

// A row of 32-bit floats: the byte planes (most significant first) into `planes`, then the
// byte differences back into the row.
void floatingPointRow(std::byte* row, std::size_t samples, std::byte* planes) {
    auto* p = reinterpret_cast<std::uint8_t*>(planes);
    for (std::size_t i = 0; i < samples; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, row + 4 * i, 4);
        p[i] = static_cast<std::uint8_t>(bits >> 24);
        p[samples + i] = static_cast<std::uint8_t>(bits >> 16);
        p[2 * samples + i] = static_cast<std::uint8_t>(bits >> 8);
        p[3 * samples + i] = static_cast<std::uint8_t>(bits);
    }
    auto* out = reinterpret_cast<std::uint8_t*>(row);
    out[0] = p[0];
    for (std::size_t i = 1; i < 4 * samples; ++i)
        out[i] = static_cast<std::uint8_t>(p[i] - p[i - 1]);
}

}  // namespace

bool tiffPredictorApplies() noexcept { return std::endian::native == std::endian::little; }

void applyTiffPredictor(SampleFormat format, std::byte* tile, std::size_t tileSize,
                        std::vector<std::byte>& scratch) {
    const std::size_t rowBytes = tileSize * bytesPerSample(format);
    scratch.resize(rowBytes);
    for (std::size_t r = 0; r < tileSize; ++r) {
        std::byte* row = tile + r * rowBytes;
        switch (format) {
            case SampleFormat::Float32: floatingPointRow(row, tileSize, scratch.data()); break;
            case SampleFormat::UInt8:
                horizontalRow<std::uint8_t>(row, tileSize, scratch.data());
                break;
            case SampleFormat::UInt16:
                horizontalRow<std::uint16_t>(row, tileSize, scratch.data());
                break;
        }
    }
}

}  // namespace terragrid

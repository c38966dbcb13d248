#pragma once
// TIFF's predictors, applied by terragrid before a tile reaches libtiff's codec
// (tiff_tile_encoder.hpp): the same bytes as libtiff's own (tif_predict.c), which copies each
// tile and then each row into fresh buffers and moves the bytes of a float one at a time.
// That was 8 % of the default run's CPU, most of it in the heights' floating-point predictor.
//
// Both work row by row on a little-endian file (the only byte order terragrid writes):
// - horizontal (2): each sample becomes its difference from the sample to its left, modulo
//   2^bits; the first sample of a row stays;
// - floating point (3): a row's bytes are regrouped into planes, most significant byte of
//   every sample first, then each byte becomes its difference from the byte before it
//   (modulo 256), across the planes; the first byte of a row stays.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/geotiff/geotiff_writer.hpp"

namespace terragrid {

/// Applies `format`'s predictor (floating point for Float32, horizontal for the integers) in
/// place to a tileSize x tileSize tile of samples in host byte order. `scratch` is a buffer
/// the call may resize and overwrite (one row), so a caller encoding many tiles allocates
/// once. Only on little-endian hosts (tiffPredictorApplies()), where the result is exactly
/// libtiff's.
void applyTiffPredictor(SampleFormat format, std::byte* tile, std::size_t tileSize,
                        std::vector<std::byte>& scratch);

/// Whether applyTiffPredictor gives libtiff's bytes on this host: little-endian hosts, whose
/// samples are already in the file's byte order.
bool tiffPredictorApplies() noexcept;

}  // namespace terragrid

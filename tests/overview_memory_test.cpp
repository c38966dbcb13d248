// What a GeoTIFF writer with overviews really holds stays within the bounds the run plan counts
// (size_bounds.hpp): the overview tiles waiting for quarters (overviewMemory) and the encoded
// tiles waiting for the tiles before them in row-major order (geoTiffMemory), for generator
// tiles smaller than, unaligned with, equal to and larger than the TIFF blocks.

#include <gtest/gtest.h>

#include <vector>

#include "io/geotiff/geotiff_writer.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

struct OverviewCase {
    std::int64_t width, height, tileSize, blockSize;
};

TEST(OverviewMemoryTest, PyramidAndWaitingTilesStayWithinThePlannedBounds) {
    for (const OverviewCase& k : {OverviewCase{1000, 700, 100, 32}, OverviewCase{1000, 700, 256, 64},
                          OverviewCase{777, 555, 17, 16}, OverviewCase{1024, 1024, 32, 32},
                          OverviewCase{600, 900, 1000, 32}, OverviewCase{2048, 300, 128, 16}}) {
        test::TempDir dir;
        for (const TiffLayout layout : {TiffLayout::Overviews, TiffLayout::Cog}) {
            Config c = test::outputConfig(dir.path().string(), {OutputFile::HeightTif});
            c.map.width = k.width;
            c.map.height = k.height;
            c.map.tileSizeCells = k.tileSize;
            c.output.geotiffBlockSize = k.blockSize;
            c.output.layout = layout;
            GeoTiffOptions options = mapGeoTiffOptions(c, SampleFormat::Float32);
            options.tileJobs = 1;
            GeoTiffWriter writer((dir / "h.tif").string(), options);
            // The generator's tiles in its order: row-major.
            std::vector<float> block;
            for (std::int64_t row0 = 0; row0 < k.height; row0 += k.tileSize) {
                for (std::int64_t col0 = 0; col0 < k.width; col0 += k.tileSize) {
                    const std::int64_t w = std::min(k.tileSize, k.width - col0);
                    const std::int64_t h = std::min(k.tileSize, k.height - row0);
                    block.assign(static_cast<std::size_t>(w * h), float(row0 + col0));
                    writer.writeBlock(col0, row0, w, h, block.data());
                }
            }
            writer.close();
            const std::string what = std::to_string(k.width) + "x" + std::to_string(k.height) +
                                     " tiles " + std::to_string(k.tileSize) + " blocks " +
                                     std::to_string(k.blockSize);
            EXPECT_GT(writer.peakOverviewBytes(), 0u) << what;
            EXPECT_LE(writer.peakOverviewBytes(), bounds::overviewMemory(c, SampleFormat::Float32))
                << what;
            EXPECT_LE(writer.peakWaitingBytes(), bounds::geoTiffMemory(c, SampleFormat::Float32, 1))
                << what;
            if (k.tileSize == k.blockSize) {
                EXPECT_EQ(writer.peakWaitingBytes(), 0u) << what;
            }
        }
    }
}

}  // namespace
}  // namespace terragrid

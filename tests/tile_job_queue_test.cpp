// TileJobQueue: jobs run on TBB workers, results come back in submission order, a bounded
// number at a time, and a job's exception surfaces in its turn.

#include "io/geotiff/tile_job_queue.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "test_support.hpp"

namespace terragrid {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

using test::inArena;

// A tile of `index`: a few bytes naming it, and work that differs from tile to tile, so jobs
// finish in another order than they started.
std::vector<std::byte> rawTile(std::int64_t index) {
    std::vector<std::byte> raw(static_cast<std::size_t>(1 + (index * 7919) % 13) * 1000);
    for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::byte>(index + i);
    return raw;
}

// The "encoding": a checksum of the bytes, recomputed a few times to take a while (tiles of 1
// to 13 kB: jobs take up to 13 times as long as others). Few passes: the test file compiles at
// -O0, and under ASan 20 passes made this suite 32 s of the sanitizer run.
void encode(std::vector<std::byte>& raw, std::vector<std::byte>& out) {
    std::uint32_t sum = 0;
    for (int pass = 0; pass < 3; ++pass) {
        for (std::byte b : raw) sum = sum * 31 + static_cast<std::uint32_t>(b) + pass;
    }
    out.assign(4, std::byte{0});
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(sum >> (8 * i));
}

std::vector<std::byte> encoded(std::int64_t index) {
    std::vector<std::byte> raw = rawTile(index);
    std::vector<std::byte> out;
    encode(raw, out);
    return out;
}

struct Written {
    std::vector<std::int64_t> order;
    std::vector<std::vector<std::byte>> bytes;
};

TEST(TileJobQueueTest, WritesEveryResultInSubmissionOrderWithinItsLimit) {
    std::vector<std::vector<std::byte>> expectedBytes;
    for (std::int64_t i = 0; i < 100; ++i) expectedBytes.push_back(encoded(i));
    for (const int threads : {1, 2, 8}) {
        for (const std::size_t limit : {1u, 2u, 5u, 16u}) {
            SCOPED_TRACE(std::to_string(threads) + " threads, " + std::to_string(limit) + " jobs");
            Written written;
            std::size_t peak = 0;
            inArena(threads, [&] {
                TileJobQueue queue(limit, encode,
                                   [&](std::int64_t index, const std::vector<std::byte>& b) {
                                       written.order.push_back(index);
                                       written.bytes.push_back(b);
                                   });
                for (std::int64_t i = 0; i < 100; ++i) queue.submit(i, rawTile(i));
                queue.finish();
                peak = queue.peakInFlight();
            });
            std::vector<std::int64_t> expected(100);
            std::iota(expected.begin(), expected.end(), 0);
            EXPECT_THAT(written.order, ElementsAreArray(expected));
            for (std::int64_t i = 0; i < 100; ++i) {
                ASSERT_EQ(written.bytes[static_cast<std::size_t>(i)],
                          expectedBytes[static_cast<std::size_t>(i)])
                    << "tile " << i;
            }
            EXPECT_LE(peak, limit);
        }
    }
}

TEST(TileJobQueueTest, FailedJobSurfacesInItsTurnAndStopsTheWrites) {
    Written written;
    inArena(8, [&] {
        TileJobQueue queue(
            4,
            [](std::vector<std::byte>& raw, std::vector<std::byte>& out) {
                if (raw.size() == rawTile(5).size() && raw[0] == rawTile(5)[0]) {
                    throw std::runtime_error("tile 5 cannot be encoded");
                }
                encode(raw, out);
            },
            [&](std::int64_t index, const std::vector<std::byte>&) {
                written.order.push_back(index);
            });
        EXPECT_THAT(
            [&] {
                for (std::int64_t i = 0; i < 40; ++i) queue.submit(i, rawTile(i));
                queue.finish();
            },
            ThrowsMessage<std::runtime_error>(HasSubstr("tile 5 cannot be encoded")));
    });
    EXPECT_THAT(written.order, ElementsAreArray({0, 1, 2, 3, 4}));
}

TEST(TileJobQueueTest, DroppedQueueWaitsForItsJobsAndWritesNoMore) {
    Written written;
    inArena(8, [&] {
        TileJobQueue queue(64, encode, [&](std::int64_t index, const std::vector<std::byte>&) {
            written.order.push_back(index);
        });
        for (std::int64_t i = 0; i < 50; ++i) queue.submit(i, rawTile(i));
    });
    // Whatever was written on the way is a prefix, in order.
    for (std::size_t i = 0; i < written.order.size(); ++i) {
        EXPECT_EQ(written.order[i], static_cast<std::int64_t>(i));
    }
}

TEST(TileJobQueueTest, BuffersOfWrittenJobsAreReused) {
    inArena(2, [&] {
        TileJobQueue queue(2, encode, [](std::int64_t, const std::vector<std::byte>&) {});
        EXPECT_TRUE(queue.takeBuffer().empty());
        queue.submit(0, std::vector<std::byte>(5000));
        queue.finish();
        EXPECT_EQ(queue.takeBuffer().size(), 5000u);
    });
}

}  // namespace
}  // namespace terragrid

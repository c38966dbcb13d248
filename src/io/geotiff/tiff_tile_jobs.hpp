#pragma once
// TIFF tiles compressed on TBB workers, each worker with its own libtiff encoder, and handed
// back in submission order (TileJobQueue): what the GeoTIFF writer's full resolution and its
// overview pyramid share. Owning the encoders beside the queue keeps their order of
// destruction right in one place: the queue, declared last, waits for the running jobs before
// the encoders they use go.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "io/geotiff/geotiff_writer.hpp"
#include "io/geotiff/tile_job_queue.hpp"
#include "io/geotiff/tiff_tile_encoder.hpp"

namespace terragrid {

class TiffTileJobs {
public:
    /// Tiles of rasters with `options` (TiffTileEncoder reads their encoding); `write` gets
    /// each submitted tile's encoded bytes, in submission order (TileJobQueue::Write).
    TiffTileJobs(const GeoTiffOptions& options, TileJobQueue::Write write);

    /// Whether tiles go to workers: when there is more than one (tileJobsFor) and something
    /// to compress. Decided at the first call, which must come from the thread that submits
    /// (the workers are those of its arena).
    bool parallel();
    /// After parallel() said yes: starts encoding `raw` as job `key`; `raw` becomes a spare
    /// buffer for the next tile. Throws as TileJobQueue::submit.
    void submit(std::int64_t key, std::vector<std::byte>& raw);
    /// Replaces `out` with `raw` encoded on this thread (spoiling `raw`), with its encoder.
    void encodeHere(std::vector<std::byte>& raw, std::vector<std::byte>& out);
    /// Waits for every job and writes them all (nothing to do unless parallel).
    void finish();
    /// Drops the jobs that have not started and waits for the others; writes nothing more.
    void cancel() noexcept { m_queue.reset(); }

    /// CPU seconds the workers spent encoding so far.
    double cpuSeconds() const noexcept { return m_queue ? m_queue->jobCpuSeconds() : 0; }

private:
    GeoTiffOptions m_options;
    TileJobQueue::Write m_write;
    bool m_decided = false;
    tbb::enumerable_thread_specific<std::unique_ptr<TiffTileEncoder>> m_encoders;
    std::optional<TileJobQueue> m_queue;  // last: destroyed first, see above
};

}  // namespace terragrid

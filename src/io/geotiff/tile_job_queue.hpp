#pragma once
// Encodes tiles on TBB workers while the caller goes on, and hands the results back in the
// order the tiles were submitted, so a file written from them has the same bytes whatever the
// number of threads (design.md principle 6).
//
// The caller is a sink's consume(), in the serial stage of the generator's pipeline: jobs run
// in the caller's task arena, beside the tile generation. At most maxInFlight jobs exist at
// once (the caller waits for the oldest beyond that), so memory grows with the tile size and
// the thread count, never with the map.

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

namespace terragrid {

/// How many tiles a writer keeps in the hands of TBB workers: `configured` when not 0
/// (GeoTiffOptions::tileJobs), else twice the calling thread's arena concurrency, or 1 (encode
/// in the calling thread) when the arena has one thread. Call from the thread that will submit.
std::size_t tileJobsFor(std::size_t configured);

class TileJobQueue {
public:
    /// Turns a tile's raw bytes (which it may spoil) into its encoded bytes; runs on any
    /// worker thread, several at once, so it must be thread-safe.
    using Encode = std::function<void(std::vector<std::byte>& raw, std::vector<std::byte>& out)>;
    /// Receives each tile's encoded bytes, in submission order, on the thread that called
    /// submit() or finish().
    using Write = std::function<void(std::int64_t index, const std::vector<std::byte>& bytes)>;

    /// maxInFlight >= 1.
    TileJobQueue(std::size_t maxInFlight, Encode encode, Write write);
    /// Cancels the jobs that have not started and waits for the others; writes nothing more.
    /// Never throws.
    ~TileJobQueue();

    TileJobQueue(const TileJobQueue&) = delete;
    TileJobQueue& operator=(const TileJobQueue&) = delete;

    /// A buffer for the raw bytes of the next tile: one a written job no longer needs, or a
    /// new one. Its contents are unspecified.
    std::vector<std::byte> takeBuffer();

    /// Writes every finished job at the front of the queue, waiting for the oldest while
    /// maxInFlight are in flight; then starts encoding `raw`, tile `index`, in the calling
    /// thread's arena. An exception thrown by a job's Encode is rethrown here (or
    /// by finish()) when that job's turn to be written comes, as is any from Write; the queue
    /// then writes nothing more.
    void submit(std::int64_t index, std::vector<std::byte> raw);

    /// Waits for every job and writes them all, in order. Rethrows as submit() does.
    void finish();

    /// The most jobs that existed at once (memory, for tests).
    std::size_t peakInFlight() const noexcept { return m_peakInFlight; }
    /// CPU seconds the jobs' Encode calls have taken so far, summed over threads (for the
    /// run's timings: this work is on workers, beside the tile generation).
    double jobCpuSeconds() const noexcept { return double(m_jobCpuNanos.load()) * 1e-9; }

private:
    struct Job;

    void writeFront();
    void writeFinished();

    std::size_t m_maxInFlight;
    Encode m_encode;
    Write m_write;
    std::deque<std::unique_ptr<Job>> m_jobs;  // oldest first
    std::vector<std::vector<std::byte>> m_spareBuffers;
    std::size_t m_peakInFlight = 0;
    std::atomic<long long> m_jobCpuNanos{0};
};

}  // namespace terragrid

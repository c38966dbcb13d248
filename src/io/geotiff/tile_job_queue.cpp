#include "io/geotiff/tile_job_queue.hpp"

#include "pipeline/stopwatch.hpp"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <utility>

namespace terragrid {

std::size_t tileJobsFor(std::size_t configured) {
    if (configured != 0) return configured;
    const auto threads = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
    return threads > 1 ? 2 * threads : 1;
}

struct TileJobQueue::Job {
    std::int64_t index = 0;
    std::vector<std::byte> raw;
    std::vector<std::byte> encoded;
    std::exception_ptr error;
    std::atomic<bool> done{false};
    // One group per job, so the caller can wait for the oldest job alone; while it waits,
    // the thread helps with other work of the arena instead of idling.
    tbb::task_group group;
};

TileJobQueue::TileJobQueue(std::size_t maxInFlight, Encode encode, Write write)
    : m_maxInFlight(maxInFlight < 1 ? 1 : maxInFlight),
      m_encode(std::move(encode)),
      m_write(std::move(write)) {}

TileJobQueue::~TileJobQueue() {
    for (auto& job : m_jobs) job->group.cancel();
    for (auto& job : m_jobs) {
        try {
            job->group.wait();
        } catch (...) {  // the jobs catch their own exceptions; nothing else may escape here
        }
    }
}

std::vector<std::byte> TileJobQueue::takeBuffer() {
    if (m_spareBuffers.empty()) return {};
    std::vector<std::byte> buffer = std::move(m_spareBuffers.back());
    m_spareBuffers.pop_back();
    return buffer;
}

void TileJobQueue::submit(std::int64_t index, std::vector<std::byte> raw) {
    // Room first, so no more than maxInFlight jobs ever exist.
    writeFinished();
    while (m_jobs.size() >= m_maxInFlight) writeFront();
    auto job = std::make_unique<Job>();
    job->index = index;
    job->raw = std::move(raw);
    Job* j = job.get();
    m_jobs.push_back(std::move(job));
    m_peakInFlight = std::max(m_peakInFlight, m_jobs.size());
    j->group.run([this, j] {
        const long long start = threadCpuNanos();
        try {
            m_encode(j->raw, j->encoded);
        } catch (...) {
            j->error = std::current_exception();
        }
        m_jobCpuNanos += threadCpuNanos() - start;
        j->done.store(true, std::memory_order_release);
    });
}

void TileJobQueue::finish() {
    while (!m_jobs.empty()) writeFront();
}

void TileJobQueue::writeFinished() {
    while (!m_jobs.empty() && m_jobs.front()->done.load(std::memory_order_acquire)) writeFront();
}

void TileJobQueue::writeFront() {
    Job& job = *m_jobs.front();
    job.group.wait();
    if (job.error) std::rethrow_exception(job.error);  // the job stays: ~TileJobQueue waits
    m_write(job.index, job.encoded);
    if (m_spareBuffers.size() < m_maxInFlight) m_spareBuffers.push_back(std::move(job.raw));
    m_jobs.pop_front();
}

}  // namespace terragrid

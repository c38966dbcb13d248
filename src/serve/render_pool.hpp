#pragma once
// The threads that do the explorer's slow work (tiles, configs, statistics): `threads` of
// them, each job alone on its thread (a tile's hill shade runs in a one-thread arena), so a
// burst of requests queues instead of oversubscribing the cores. Private to src/serve.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace terragrid::serve {

class RenderPool {
public:
    explicit RenderPool(int threads);
    /// Finishes the queued jobs, then joins the threads.
    ~RenderPool();
    RenderPool(const RenderPool&) = delete;
    RenderPool& operator=(const RenderPool&) = delete;

    /// Queues `job`; it runs on one of the pool's threads. Thread-safe. A job must not throw.
    void submit(std::function<void()> job);
    /// Jobs queued and not yet started.
    std::size_t queued() const;

private:
    void work();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

}  // namespace terragrid::serve

#include "serve/export_job.hpp"

#include <tbb/task_arena.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <thread>

#include "terragrid/app/run.hpp"

namespace terragrid::serve {

std::string_view nameOf(ExportStatus::State state) noexcept {
    switch (state) {
        case ExportStatus::State::Idle: return "idle";
        case ExportStatus::State::Running: return "running";
        case ExportStatus::State::Done: return "done";
        case ExportStatus::State::Failed: return "failed";
    }
    return "idle";
}

ExportJob::ExportJob(std::string directory, int threads)
    : m_directory(std::filesystem::absolute(directory).lexically_normal().string()),
      m_threads(threads),
      m_shared(std::make_shared<Shared>()) {}

bool ExportJob::start(const Config& config) {
    Config job = config;
    job.output.directory = m_directory;
    {
        const std::lock_guard lock(m_shared->mutex);
        if (m_shared->status.state == ExportStatus::State::Running) return false;
        m_shared->status = {ExportStatus::State::Running, job.hash, 0, 0, {}, {}, 0};
    }
    std::thread([shared = m_shared, job = std::move(job), threads = m_threads] {
        const auto start = std::chrono::steady_clock::now();
        const auto seconds = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        try {
            tbb::task_arena arena(threads);
            arena.execute([&] {
                runMap(
                    job,
                    [&](std::int64_t done, std::int64_t total) {
                        const std::lock_guard lock(shared->mutex);
                        shared->status.tilesDone = done;
                        shared->status.tilesTotal = total;
                    },
                    [&](const std::string& path, std::uint64_t) {
                        const std::lock_guard lock(shared->mutex);
                        shared->status.files.push_back(
                            std::filesystem::path(path).filename().string());
                    });
            });
            const std::lock_guard lock(shared->mutex);
            shared->status.state = ExportStatus::State::Done;
            shared->status.seconds = seconds();
        } catch (const std::exception& e) {
            const std::lock_guard lock(shared->mutex);
            shared->status.state = ExportStatus::State::Failed;
            shared->status.error = e.what();
            shared->status.files.clear();  // nothing of a failed export is in place
            shared->status.seconds = seconds();
        }
    }).detach();
    return true;
}

ExportStatus ExportJob::status() const {
    const std::lock_guard lock(m_shared->mutex);
    return m_shared->status;
}

}  // namespace terragrid::serve

#pragma once
// The explorer's export button: the batch run of the current config into the directory given
// at start (--out-dir), in the background, through the same output transaction as any run
// (app/run.hpp): every file of the export in place, or the older ones as they were. One
// export at a time. Private to src/serve.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "terragrid/io/config.hpp"

namespace terragrid::serve {

struct ExportStatus {
    enum class State : std::uint8_t { Idle, Running, Done, Failed };
    State state = State::Idle;
    std::string configHash;           ///< the config being (or last) exported
    std::int64_t tilesDone = 0;
    std::int64_t tilesTotal = 0;
    std::vector<std::string> files;   ///< written so far (names in the directory)
    std::string error;
    double seconds = 0;
};
std::string_view nameOf(ExportStatus::State state) noexcept;

class ExportJob {
public:
    /// Exports go into `directory` (made absolute now); runs use `threads` threads.
    ExportJob(std::string directory, int threads);

    const std::string& directory() const noexcept { return m_directory; }
    /// Starts exporting `config` (its output.directory replaced by the export directory);
    /// false when an export is running already.
    bool start(const Config& config);
    ExportStatus status() const;

private:
    struct Shared {
        std::mutex mutex;
        ExportStatus status;
    };
    std::string m_directory;
    int m_threads;
    std::shared_ptr<Shared> m_shared;
};

}  // namespace terragrid::serve

#include "cli_runs.hpp"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace terragrid::bench {

ProcessCost runTimed(const std::string& program, const std::vector<std::string>& args) {
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (const int err = posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ))
        throw std::runtime_error("cannot start '" + program + "': " + std::strerror(err));
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0)
        if (errno != EINTR) throw std::runtime_error("waiting for '" + program + "' failed");
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("'" + program + "' failed (status " + std::to_string(status) +
                                 ")");
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * t.tv_usec; };
    return {wall.count(), seconds(usage.ru_utime) + seconds(usage.ru_stime)};
}

StageTimes readStageTimes(const std::filesystem::path& statsJson) {
    std::ifstream in(statsJson);
    if (!in) throw std::runtime_error("cannot read '" + statsJson.string() + "'");
    const nlohmann::json j = nlohmann::json::parse(in);
    if (!j.contains("timing_seconds"))
        throw std::runtime_error("'" + statsJson.string() + "' has no timing_seconds");
    const nlohmann::json& t = j.at("timing_seconds");
    StageTimes s;
    s.terrain = t.value("terrain", 0.0);
    s.generateCpu = t.value("generate_cpu", 0.0);
    s.outputsStreaming = t.value("outputs_streaming", 0.0);
    s.outputsParallelCpu = t.value("outputs_parallel_cpu", 0.0);
    s.outputsFinish = t.value("outputs_finish", 0.0);
    s.regions = t.value("regions", 0.0);
    s.generationWall = t.value("generation_wall", 0.0);
    s.commit = t.value("commit", 0.0);
    s.totalWall = t.value("total_wall", 0.0);
    return s;
}

TempDir::TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "terragrid-bench-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot create a temporary directory: " +
                                 std::string(std::strerror(errno)));
    m_path = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;  // cleaning up must not throw from a destructor
    std::filesystem::remove_all(m_path, ignored);
}

}  // namespace terragrid::bench

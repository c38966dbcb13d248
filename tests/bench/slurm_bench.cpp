// docs/shards.md's Slurm recipe against the single run, measured on a real Slurm cluster on this
// machine (the test suite's, tests/tools/slurm_cluster.hpp): the recipe's map.json scaled to
// --size cells a side (16384 for the figures docs/shards.md gives), run once as one process and
// once as the recipe's three jobs (the stage, the 16-task shard array with
// --dependency=afterok, the mosaic), the scripts taken from the page itself. The mosaic is
// checked against the single run (`terragrid verify`, and every raster byte for byte) before
// any figure is printed, so the figures are of a correct result.
//
// Usage: terragrid_slurm_bench [--size=16384] [--node-cpus=16]
// Everything is written under $TMPDIR (a 16384^2 map's three copies take several GiB: point it
// at a disk with room) and removed at the end.

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runs.hpp"
#include "report_text.hpp"
#include "test_support.hpp"
#include "tools/shards_recipe.hpp"
#include "tools/slurm_cluster.hpp"

namespace terragrid::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Options {
    std::int64_t size = 16384;
    int nodeCpus = 16;  ///< the node's configured CPUs: the tasks' 8 each run two at a time
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.starts_with("--size="))
            o.size = std::stoll(arg.substr(7));
        else if (arg.starts_with("--node-cpus="))
            o.nodeCpus = std::stoi(arg.substr(12));
        else
            throw std::runtime_error("unknown argument '" + arg +
                                     "' (usage: terragrid_slurm_bench [--size=N] [--node-cpus=N])");
    }
    // 16 shards need 16 tile rows; the recipe's scripts ask for 8 CPUs per task.
    if (o.size < 256) throw std::runtime_error("--size must be at least 256");
    if (o.nodeCpus < 8) throw std::runtime_error("--node-cpus must be at least 8 (the recipe's --cpus-per-task)");
    return o;
}

/// The recipe's map at `size` x `size`: tiles of 256 (fewer where 16 tile rows need it), and
/// the river threshold kept at the same number of hydrology cells. The auto resolution makes
/// a hydrology cell k x k map cells (k = ceil(size / 4096)), so the threshold, an area, grows
/// by k^2; else a 4096^2 grid would draw a river wherever 12 of its cells drain.
json scaledMap(std::int64_t size) {
    json map = test::recipeMap();
    const std::int64_t k = std::max<std::int64_t>(1, (size + 4095) / 4096);
    map["map"]["width"] = size;
    map["map"]["height"] = size;
    map["map"]["tile_size"] = std::min<std::int64_t>(256, size / 16);
    map["hydrology"]["river_threshold"] = map["hydrology"]["river_threshold"].get<double>() * k * k;
    return map;
}

double seconds(const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); }

/// The slurmstepd children of this process: pid, state letter ('Z': ended, not yet reaped) and
/// command line ("slurmstepd: [9.batch]"; empty for a zombie).
struct StepProcess {
    pid_t pid;
    char state;
    std::string commandLine;
};

std::vector<StepProcess> stepChildren() {
    std::vector<StepProcess> found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string stat;
        std::getline(in, stat);
        const auto open = stat.find('('), close = stat.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close + 2 > stat.size())
            continue;
        std::istringstream rest(stat.substr(close + 2));
        char state = 0;
        pid_t parent = 0;
        rest >> state >> parent;
        if (parent != ::getpid() || stat.substr(open + 1, close - open - 1) != "slurmstepd")
            continue;
        std::ifstream cmdline(entry.path() / "cmdline");
        std::string line;
        std::getline(cmdline, line, '\0');
        found.push_back({std::stoi(name), state, line});
    }
    return found;
}

/// The CPU of each job, from its slurmstepd. slurmd starts a job's slurmstepd by a double
/// fork, so with this process a subreaper (PR_SET_CHILD_SUBREAPER) they become its children;
/// slurmstepd waits for the job's processes, so the rusage wait4 gives for it when it ends
/// holds the CPU of the whole job, terragrid included. No accounting daemon needed.
class StepReaper {
public:
    StepReaper() {
        if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
            throw std::runtime_error("PR_SET_CHILD_SUBREAPER failed");
    }

    /// Learns the job of each running step and reaps those that ended; true when none runs.
    bool poll() {
        bool idle = true;
        for (const StepProcess& step : stepChildren()) {
            if (step.state != 'Z') {
                idle = false;
                // "slurmstepd: [9.batch]": job 9's batch step.
                const auto open = step.commandLine.find('['), dot = step.commandLine.find('.');
                if (open != std::string::npos && dot != std::string::npos && dot > open)
                    m_jobOf[step.pid] = step.commandLine.substr(open + 1, dot - open - 1);
                continue;
            }
            rusage usage{};
            if (::wait4(step.pid, nullptr, 0, &usage) != step.pid) continue;
            const auto job = m_jobOf.find(step.pid);
            m_cpuByJob[job == m_jobOf.end() ? "" : job->second] +=
                seconds(usage.ru_utime) + seconds(usage.ru_stime);
        }
        return idle;
    }

    /// Polls until no step runs (the last ones end just after Slurm says COMPLETED), at most
    /// 30 s.
    void finish() {
        const auto deadline = Clock::now() + std::chrono::seconds(30);
        while (!poll() && Clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        poll();
    }

    /// CPU seconds by Slurm job id (the raw id, an array task's own); "" for steps reaped
    /// before their job was learnt.
    const std::map<std::string, double>& cpuByJob() const { return m_cpuByJob; }

private:
    std::map<pid_t, std::string> m_jobOf;
    std::map<std::string, double> m_cpuByJob;
};

/// Seconds since the epoch of Slurm's "2026-11-26T14:40:01" (local time, as squeue prints).
std::optional<std::time_t> slurmTime(const std::string& text) {
    std::tm tm{};
    if (!::strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return std::nullopt;
    tm.tm_isdst = -1;
    return std::mktime(&tm);
}

/// What squeue last said about one job or array task.
struct JobRecord {
    std::string rawId;  ///< an array task's own job id, as slurmstepd names it
    std::string name, state, reason;
    std::optional<std::time_t> start, end;
};

/// The recipe on the cluster, from the first sbatch to the mosaic's completion.
struct RecipeRun {
    double wallSeconds = 0;
    std::map<std::string, JobRecord> jobs;  ///< by job or task id
    std::map<std::string, double> cpuByJob;  ///< by raw job id (StepReaper)
};

class RecipeRunner {
public:
    RecipeRunner(const test::SlurmCluster& cluster, StepReaper& steps, fs::path work)
        : m_cluster(cluster), m_steps(steps), m_work(std::move(work)) {}

    RecipeRun run() {
        RecipeRun r;
        const auto start = Clock::now();
        const auto submitted = m_cluster.run(m_work, "sh submit.sh");
        if (submitted.exitCode != 0) throw std::runtime_error("submit.sh failed: " + submitted.err);
        // Every half second: the polls cost CPU of their own, and the recipe's parts take
        // minutes at the sizes measured.
        for (;;) {
            poll(r);
            m_steps.poll();
            if (done(r)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
        r.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
        m_steps.finish();
        r.cpuByJob = m_steps.cpuByJob();
        return r;
    }

private:
    void poll(RecipeRun& r) const {
        const auto listed = m_cluster.run(m_work, "squeue --array -h -t all -o '%i %A %j %T %r %S %e'");
        std::istringstream lines(listed.out);
        for (std::string line; std::getline(lines, line);) {
            std::istringstream words(line);
            std::string id, start, end;
            JobRecord job;
            if (!(words >> id >> job.rawId >> job.name >> job.state >> job.reason >> start >> end)) continue;
            job.start = slurmTime(start);
            job.end = slurmTime(end);
            // A finished job leaves squeue after MinJobAge (300 s): keep what it said last.
            r.jobs[id] = job;
        }
    }

    /// Whether the mosaic completed; throws with the cluster's logs when a job failed or waits
    /// on a dependency that can no longer be met.
    bool done(const RecipeRun& r) const {
        bool mosaicDone = false;
        for (const auto& [id, job] : r.jobs) {
            const bool failed = job.state != "PENDING" && job.state != "RUNNING" &&
                                job.state != "COMPLETING" && job.state != "COMPLETED" &&
                                job.state != "CONFIGURING";
            if (failed || job.reason == "DependencyNeverSatisfied")
                throw std::runtime_error("job " + id + " (" + job.name + ") is " + job.state + " " +
                                         job.reason + "; its log: " +
                                         test::readFile(m_work / ("slurm-" + id + ".out")) +
                                         m_cluster.logs());
            mosaicDone = mosaicDone || (job.name == "mosaic.sh" && job.state == "COMPLETED");
        }
        return mosaicDone;
    }

    const test::SlurmCluster& m_cluster;
    StepReaper& m_steps;
    fs::path m_work;
};

/// Seconds from the first start to the last end of the jobs named `name` (an array's tasks
/// together); -1 when squeue did not say.
double span(const RecipeRun& r, const std::string& name) {
    std::optional<std::time_t> first, last;
    for (const auto& [id, job] : r.jobs) {
        if (job.name != name || !job.start || !job.end) continue;
        first = first ? std::min(*first, *job.start) : *job.start;
        last = last ? std::max(*last, *job.end) : *job.end;
    }
    return first && last ? double(*last - *first) : -1;
}

/// CPU seconds of the jobs named `name` ("" for every job); -1 when a step could not be
/// attributed to its job.
double cpuOf(const RecipeRun& r, const std::string& name) {
    if (r.cpuByJob.contains("")) return -1;
    double cpu = 0;
    std::map<std::string, std::string> nameOf;
    for (const auto& [id, job] : r.jobs) nameOf[job.rawId] = job.name;
    for (const auto& [rawId, seconds] : r.cpuByJob)
        if (name.empty() || nameOf[rawId] == name) cpu += seconds;
    return cpu;
}

bool sameBytes(const fs::path& a, const fs::path& b) {
    std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
    if (!x || !y) return false;
    std::vector<char> p(1 << 20), q(1 << 20);
    for (;;) {
        x.read(p.data(), std::streamsize(p.size()));
        y.read(q.data(), std::streamsize(q.size()));
        if (x.gcount() != y.gcount() || !std::equal(p.begin(), p.begin() + x.gcount(), q.begin()))
            return false;
        if (x.gcount() == 0) return true;
    }
}

/// The mosaic in work/map is the single run's (work/single): every file the recipe mosaics,
/// byte for byte, `terragrid verify map` content, and the 16 pieces the 16 shards. Throws
/// naming what differs.
void checkMosaic(const test::SlurmCluster& cluster, const fs::path& work) {
    for (const std::string& file : test::recipeMosaickedFiles())
        if (!sameBytes(work / "map" / file, work / "single" / file))
            throw std::runtime_error("the mosaic's " + file + " is not the single run's");
    const auto verified = cluster.run(work, "terragrid verify map");
    if (verified.exitCode != 0) throw std::runtime_error("terragrid verify map: " + verified.err);
    for (int k = 0; k < 16; ++k) {
        const json manifest =
            json::parse(test::readFile(work / "shards" / std::to_string(k) / "manifest.json"));
        if (manifest["shard"] != json{{"index", k}, {"count", 16}})
            throw std::runtime_error("shards/" + std::to_string(k) + " is not shard " +
                                     std::to_string(k) + "/16");
    }
}

/// The shards' own CPU, as their stats.json say (the mosaic adds them up).
double shardsOwnCpu(const fs::path& work) {
    const json stats = json::parse(test::readFile(work / "map" / "stats.json"));
    return stats["timing_seconds"]["pieces_process_cpu"].get<double>();
}

std::string duration(double s) {
    if (s < 0) return "n/a";
    if (s < 120) return format("%.1f s", s);
    return format("%.0f min %.0f s", std::floor(s / 60), std::fmod(s, 60));
}

int run(const Options& options) {
    std::cout << "slurm bench: " << options.size << " x " << options.size
              << " with hydrology, the single run against docs/shards.md's recipe on a "
              << options.nodeCpus << "-CPU Slurm node\n";
    const std::string loadBefore = loadAverage();
    TempDir dir;
    // munged, run as nobody, refuses a socket below a directory it cannot traverse.
    fs::permissions(dir.path(), fs::perms(0755));
    const fs::path work = dir.path() / "work";
    fs::create_directories(work);
    // Three copies of the map (the single run, the shards, the merged mosaic) of about 10
    // bytes a cell each, with room to spare.
    const auto space = fs::space(dir.path());
    const double needed = 40.0 * double(options.size) * double(options.size);
    if (double(space.available) < needed)
        throw std::runtime_error(format("%.1f GiB free under ", double(space.available) / (1 << 30)) +
                                 dir.path().string() + format(", and the run needs about %.1f GiB: set TMPDIR to a disk with room", needed / (1 << 30)));
    std::ofstream(work / "map.json") << scaledMap(options.size).dump(2);
    for (const auto& [name, text] : test::recipeScripts()) std::ofstream(work / name) << text;

    std::cout << "single run ..." << std::endl;
    const ProcessCost single =
        runTimed(test::cliPath(), {"--config", (work / "map.json").string(), "--set",
                                   "output.layout=cog", "-q", "--out-dir", (work / "single").string()});

    std::cout << "Slurm recipe ..." << std::endl;
    StepReaper steps;
    test::SlurmCluster cluster(dir.path() / "cluster", options.nodeCpus);
    const RecipeRun recipe = RecipeRunner(cluster, steps, work).run();
    const double jobsCpu = cpuOf(recipe, "");
    checkMosaic(cluster, work);
    const double shardsCpu = shardsOwnCpu(work);
    const std::string loadAfter = loadAverage();

    std::cout << "\n================================ slurm summary ================================\n"
              << "machine: " << machine() << "\n"
              << "map: " << options.size << " x " << options.size
              << ", docs/shards.md's recipe map (tests/tools/shards_recipe.cpp) scaled: "
              << scaledMap(options.size)["hydrology"].dump() << "\n"
              << "load average before " << loadBefore << ", after " << loadAfter << "\n"
              << "checked: the mosaic's " << test::recipeMosaickedFiles().size()
              << " files are the single run's byte for byte, terragrid verify passes, 16 shards\n"
              << format("single run (output.layout cog, all threads):  wall %8.1f s  CPU %8.1f s\n",
                        single.wallSeconds, single.cpuSeconds)
              << format("Slurm recipe (stage, 16-task array, mosaic):  wall %8.1f s  CPU %8.1f s\n",
                        recipe.wallSeconds, jobsCpu)
              << format("  ratio Slurm / single:                        wall %8.2f    CPU %8.2f\n",
                        recipe.wallSeconds / single.wallSeconds, jobsCpu / single.cpuSeconds)
              << "  parts, wall from Slurm's start and end times (1 s resolution), CPU of each job:\n";
    for (const char* part : {"stage.sh", "shards.sh", "mosaic.sh"})
        std::cout << "    " << part << std::string(10 - std::strlen(part), ' ') << " wall "
                  << duration(span(recipe, part)) << ", CPU " << duration(cpuOf(recipe, part)) << "\n";
    std::cout << format("  the jobs' CPU is that of %.0f job steps (each slurmstepd with the job it waited "
                        "for);\n  of it, the shards' own stats.json say %.1f s\n",
                        double(recipe.cpuByJob.size()), shardsCpu);
    return 0;
}

}  // namespace
}  // namespace terragrid::bench

int main(int argc, char** argv) {
    try {
        return terragrid::bench::run(terragrid::bench::parseOptions(argc, argv));
    } catch (const std::exception& e) {
        std::cerr << "slurm bench: " << e.what() << "\n";
        return 1;
    }
}

// terragrid_serve_bench [--seconds=S] [--clients=N] [--samples=N] [--summary-file=FILE]
// The explorer's speed targets (issue 26), printed as figures with PASS or MISS:
//   1. one 256 x 256 preview tile, PNG included, on one thread (in process): the default map
//      at 16384 x 16384 cells at its highest zoom (random tiles) and at zoom 0, and at its own
//      1024 x 1024 for comparison: median <= 5 ms, p99 <= 15 ms;
//   2. a 1920 x 1080 view (8 x 5 = 40 tiles at the highest zoom) from a cold cache through the
//      real `terragrid serve --threads 2`, fetched over 6 connections as a browser does:
//      <= 150 ms (five views at different places, the median and the slowest);
//   3. N clients (64) each on its own connection fetching distinct tiles (four layers, every
//      zoom of the 16384^2 map, no tile twice) for S seconds (30) from `serve --threads 2
//      --cache-mb 64`: no error, p99 <= 100 ms, the server's peak memory (VmHWM) within its
//      bound (cache + 64 MiB), and a cache hit served in < 0.5 ms (median of 200).
// Every figure comes with the load average: other work on the machine slows all of them.

#include <fcntl.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "build_paths.hpp"
#include "http_client.hpp"
#include "report_text.hpp"
#include "serve/tile_memory.hpp"
#include "serve/tile_renderer.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kTileMedianMs = 5, kTileP99Ms = 15, kViewMs = 150, kLoadP99Ms = 100,
                 kHitMs = 0.5;

struct Options {
    double seconds = 30;
    int clients = 64;
    int samples = 200;
    std::string summaryFile;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.starts_with("--seconds=")) o.seconds = std::stod(std::string(a.substr(10)));
        else if (a.starts_with("--clients=")) o.clients = std::stoi(std::string(a.substr(10)));
        else if (a.starts_with("--samples=")) o.samples = std::stoi(std::string(a.substr(10)));
        else if (a.starts_with("--summary-file=")) o.summaryFile = a.substr(15);
        else throw std::invalid_argument("unknown option '" + std::string(a) + "'");
    }
    return o;
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

/// This thread's CPU time in ms: what a tile costs whatever else the machine runs (the wall
/// time, which the targets are about, grows with the load of other work).
double threadCpuMs() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// The q-quantile of `values` (nearest rank).
double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(q * double(values.size())));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

/// Part 1: tiles rendered and encoded in this process, one at a time, on this thread.
std::vector<std::string> tilesInProcess(const Options& o) {
    std::vector<std::string> out;
    std::mt19937_64 random(26);
    for (const int side : {16384, 1024}) {
        const serve::ExploredMap map(defaultConfig(
            {"map.width=" + std::to_string(side), "map.height=" + std::to_string(side)}));
        const serve::TilePyramid& p = map.pyramid();
        for (const int zoom : {p.maxZoom(), 0}) {
            std::vector<double> times, cpu;
            for (int i = 0; i < o.samples; ++i) {
                std::uniform_int_distribution<std::int64_t> x(0, p.tilesAcross(zoom) - 1);
                std::uniform_int_distribution<std::int64_t> y(0, p.tilesDown(zoom) - 1);
                const serve::TileAddress a{serve::TileLayer::Preview, zoom, x(random), y(random)};
                const auto start = Clock::now();
                const double cpuStart = threadCpuMs();
                const auto png = serve::renderTilePng(map, nullptr, a);
                cpu.push_back(threadCpuMs() - cpuStart);
                times.push_back(ms(Clock::now() - start));
                if (png.size() < 100) throw std::runtime_error("empty tile");
            }
            const double median = quantile(times, 0.5), p99 = quantile(times, 0.99);
            const bool target = side == 16384;
            char head[160];
            std::snprintf(head, sizeof head, "preview tile, %d^2 default map, zoom %d%s, 1 thread: ",
                          side, zoom, zoom == p.maxZoom() ? " (highest)" : "");
            out.push_back(std::string(head) +
                          format("median %.2f ms (<= %g), p99 %.2f ms (<= %g)", median,
                                 kTileMedianMs, p99, kTileP99Ms) +
                          (target ? "   " + verdict(median <= kTileMedianMs && p99 <= kTileP99Ms)
                                  : "   (reference)") +
                          format("   CPU median %.2f ms, p99 %.2f ms", quantile(cpu, 0.5),
                                 quantile(cpu, 0.99)) +
                          "   load " + loadAverage());
            std::cout << out.back() << std::endl;
        }
        if (side != 16384) continue;
        // Every other layer at the highest zoom, for what each costs (no target of its own).
        for (const serve::TileLayer layer : {serve::TileLayer::Height, serve::TileLayer::Classes,
                                             serve::TileLayer::Walkable, serve::TileLayer::Terrarium}) {
            std::vector<double> cpu;
            double bytes = 0;
            const int zoom = p.maxZoom();
            for (int i = 0; i < o.samples; ++i) {
                std::uniform_int_distribution<std::int64_t> x(0, p.tilesAcross(zoom) - 1);
                std::uniform_int_distribution<std::int64_t> y(0, p.tilesDown(zoom) - 1);
                const double cpuStart = threadCpuMs();
                const auto png = serve::renderTilePng(map, nullptr, {layer, zoom, x(random), y(random)});
                cpu.push_back(threadCpuMs() - cpuStart);
                bytes += double(png.size());
            }
            out.push_back("  " + std::string(serve::kTileLayerNames[std::size_t(layer)]) +
                          format(" tile, same map and zoom: CPU median %.2f ms, p99 %.2f ms, %.0f KB",
                                 quantile(cpu, 0.5), quantile(cpu, 0.99), bytes / o.samples / 1000) +
                          "   (reference)");
            std::cout << out.back() << std::endl;
        }
    }
    return out;
}

/// The real server on a free port, stopped (SIGTERM) when this goes.
class Server {
public:
    explicit Server(const std::vector<std::string>& args) {
        int pipeFds[2];
        if (::pipe(pipeFds) != 0) throw std::runtime_error("pipe failed");
        std::vector<std::string> words{test::cliPath(), "serve", "--port", "0", "--quiet"};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(pipeFds[1], STDOUT_FILENO);
            ::close(pipeFds[0]);
            ::close(pipeFds[1]);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(pipeFds[1]);
        std::string out;
        char c;
        while (::read(pipeFds[0], &c, 1) == 1 && c != '\n') out += c;
        ::close(pipeFds[0]);
        const auto colon = out.rfind(':');
        if (colon == std::string::npos) throw std::runtime_error("terragrid serve printed no URL");
        m_port = std::stoi(out.substr(colon + 1));
    }
    ~Server() {
        ::kill(m_pid, SIGTERM);
        int status = 0;
        ::waitpid(m_pid, &status, 0);
    }
    int port() const { return m_port; }
    /// A line of /proc/PID/status ("VmHWM") in MiB.
    double statusMiB(const std::string& key) const {
        std::ifstream in("/proc/" + std::to_string(m_pid) + "/status");
        for (std::string l; std::getline(in, l);)
            if (l.starts_with(key + ":")) return std::stod(l.substr(key.size() + 1)) / 1024.0;
        return 0;
    }

private:
    pid_t m_pid = -1;
    int m_port = 0;
};

/// GET `target` on `socket` (kept alive): the status and the milliseconds it took.
std::pair<int, double> get(test::Socket& socket, const std::string& target) {
    const auto start = Clock::now();
    socket.send("GET " + target + " HTTP/1.1\r\nHost: bench\r\n\r\n");
    const test::HttpReply r = socket.readReply(60);
    return {r.status, ms(Clock::now() - start)};
}

/// Part 2: a 1920 x 1080 view from a cold cache, 40 tiles over 6 connections.
std::string coldView() {
    const Server server({"--width", "16384", "--height", "16384", "--threads", "2"});
    std::vector<double> walls;
    for (int view = 0; view < 5; ++view) {
        std::vector<std::string> targets;
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 8; ++x)
                targets.push_back("/tiles/preview/6/" + std::to_string(view * 9 + x) + "/" +
                                  std::to_string(view * 6 + y) + ".png");
        std::atomic<std::size_t> next{0};
        std::atomic<int> errors{0};
        const auto start = Clock::now();
        std::vector<std::thread> connections;
        for (int c = 0; c < 6; ++c)
            connections.emplace_back([&] {
                test::Socket socket(server.port());
                for (std::size_t i; (i = next++) < targets.size();)
                    if (get(socket, targets[i]).first != 200) ++errors;
            });
        for (std::thread& t : connections) t.join();
        walls.push_back(ms(Clock::now() - start));
        if (errors) throw std::runtime_error("a tile of the view failed");
    }
    const double median = quantile(walls, 0.5), slowest = quantile(walls, 1.0);
    return format("1920x1080 view, 40 tiles cold, serve --threads 2, 6 connections: median %.1f ms, "
                  "slowest %.1f ms (<= %g)",
                  median, slowest, kViewMs) +
           "   " + verdict(median <= kViewMs) + "   load " + loadAverage();
}

/// Part 3: N clients fetching distinct tiles for S seconds, then cache hits.
std::vector<std::string> underLoad(const Options& o) {
    constexpr int kCacheMiB = 64;
    const Server server({"--width", "16384", "--height", "16384", "--threads", "2", "--cache-mb",
                         std::to_string(kCacheMiB), "--max-connections", "1024"});
    std::vector<std::string> targets;
    for (const char* layer : {"preview", "height", "classes", "terrarium"})
        for (int z = 0; z <= 6; ++z)
            for (int y = 0; y < (1 << z); ++y)
                for (int x = 0; x < (1 << z); ++x)
                    targets.push_back(std::string("/tiles/") + layer + "/" + std::to_string(z) + "/" +
                                      std::to_string(x) + "/" + std::to_string(y) + ".png");
    std::shuffle(targets.begin(), targets.end(), std::mt19937_64(30));
    std::atomic<std::size_t> next{0};
    std::atomic<int> errors{0};
    std::vector<std::vector<double>> latencies(std::size_t(o.clients));
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double>(o.seconds);
    const std::string loadBefore = loadAverage();
    std::vector<std::thread> clients;
    for (int c = 0; c < o.clients; ++c)
        clients.emplace_back([&, c] {
            test::Socket socket(server.port());
            while (Clock::now() < end) {
                const std::size_t i = next++;
                if (i >= targets.size()) break;
                const auto [status, took] = get(socket, targets[i]);
                if (status != 200) ++errors;
                latencies[std::size_t(c)].push_back(took);
            }
        });
    for (std::thread& t : clients) t.join();
    // The clients stop early when every distinct tile has been fetched: the rate is over the
    // time they took.
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const bool ranOut = next.load() >= targets.size();
    std::vector<double> all;
    for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
    const double p50 = quantile(all, 0.5), p99 = quantile(all, 0.99);
    const double peak = server.statusMiB("VmHWM");
    const double bound = kCacheMiB + 64;
    std::vector<std::string> out;
    out.push_back(format("%.0f clients x %.0f s, distinct tiles: %.0f requests, %.0f errors", o.clients,
                         o.seconds, double(all.size()), double(errors.load())) +
                  "   " + verdict(errors == 0) + "   load " + loadBefore + " -> " + loadAverage());
    out.push_back(format("  latency median %.1f ms, p99 %.1f ms (<= %g), %.0f tiles/s", p50, p99,
                         kLoadP99Ms, double(all.size()) / elapsed) +
                  (ranOut ? format(" (every distinct tile fetched in %.1f s)", elapsed) : std::string()) +
                  "   " + verdict(p99 <= kLoadP99Ms));
    out.push_back(format("  server peak memory (VmHWM) %.0f MiB, bound %.0f MiB (cache %.0f + 64)",
                         peak, bound, kCacheMiB) +
                  "   " + verdict(peak <= bound));
    // Cache hits: the same tile again on one connection.
    test::Socket socket(server.port());
    get(socket, targets[0]);
    std::vector<double> hits;
    for (int i = 0; i < 200; ++i) hits.push_back(get(socket, targets[0]).second);
    out.push_back(format("  cache hit: median %.3f ms, p99 %.3f ms (< %g)", quantile(hits, 0.5),
                         quantile(hits, 0.99), kHitMs) +
                  "   " + verdict(quantile(hits, 0.5) < kHitMs) + "   load " + loadAverage());
    for (const auto& l : out) std::cout << l << std::endl;
    return out;
}

}  // namespace
}  // namespace terragrid::bench

int main(int argc, char** argv) {
    using namespace terragrid::bench;
    try {
        const Options o = parseOptions(argc, argv);
        std::vector<std::string> summary{"== explorer (terragrid serve), " +
                                         std::to_string(std::thread::hardware_concurrency()) +
                                         " cores, load " + loadAverage() + " =="};
        std::cout << "-- 1. one tile on one thread\n";
        terragrid::serve::keepFreedTileMemory();  // as `terragrid serve` does before its first tile
        for (const auto& l : tilesInProcess(o)) summary.push_back(l);
        std::cout << "-- 2. a view from a cold cache\n";
        summary.push_back(coldView());
        std::cout << summary.back() << std::endl;
        std::cout << "-- 3. under load\n";
        for (const auto& l : underLoad(o)) summary.push_back(l);
        if (!o.summaryFile.empty()) {
            std::ofstream out(o.summaryFile, std::ios::app);
            for (const auto& l : summary) out << l << "\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "terragrid_serve_bench: " << e.what() << "\n";
        return 1;
    }
}

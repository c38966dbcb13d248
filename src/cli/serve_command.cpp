#include "cli/serve_command.hpp"

#include <cmath>
#include <cstdint>

namespace po = boost::program_options;

namespace terragrid::cli {

void addServeOptions(po::options_description& d) {
    d.add_options()
        ("port", po::value<std::string>()->value_name("N"),
         "TCP port to listen on (default 8080; 0: any free port, the URL printed says which)")
        ("host", po::value<std::string>()->value_name("ADDR"),
         "address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 or :: expose "
         "the explorer to the network, with a warning)")
        ("cache-mb", po::value<std::string>()->value_name("N"),
         "megabytes of encoded tiles kept in memory (default 256)")
        ("request-timeout", po::value<std::string>()->value_name("SECONDS"),
         "seconds a client has to send a whole request (default 10); slower and idle clients "
         "get 408 and are closed")
        ("max-connections", po::value<std::string>()->value_name("N"),
         "open connections at most (default 4096, fewer if the descriptor limit is lower); "
         "further ones get 503 and are closed");
}

namespace {

/// A whole number in [lo, hi], or a problem naming `option`.
std::int64_t wholeIn(const po::variables_map& vm, const char* option, std::int64_t lo,
                     std::int64_t hi, std::int64_t fallback, std::vector<std::string>& problems) {
    if (!vm.count(option)) return fallback;
    const std::string text = vm[option].as<std::string>();
    std::size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || value < lo || value > hi) {
        problems.push_back("'--" + std::string(option) + "' must be a whole number from " +
                           std::to_string(lo) + " to " + std::to_string(hi) + " (got '" + text +
                           "')");
        return fallback;
    }
    return value;
}

}  // namespace

ServeOptions serveOptionsFrom(const po::variables_map& vm, int threads,
                              std::vector<std::string>& problems) {
    ServeOptions o;
    o.threads = threads;
    o.port = static_cast<int>(wholeIn(vm, "port", 0, 65535, o.port, problems));
    if (vm.count("host")) o.host = vm["host"].as<std::string>();
    o.cacheBytes = static_cast<std::size_t>(
                       wholeIn(vm, "cache-mb", 1, 1 << 20, std::int64_t(o.cacheBytes >> 20), problems))
                   << 20;
    if (vm.count("request-timeout")) {
        const std::string text = vm["request-timeout"].as<std::string>();
        std::size_t used = 0;
        double seconds = 0;
        try {
            seconds = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != text.size() || !(seconds >= 0.1 && seconds <= 3600))
            problems.push_back("'--request-timeout' must be a number of seconds from 0.1 to 3600 "
                               "(got '" + text + "')");
        else
            o.requestSeconds = seconds;
    }
    o.maxConnections = static_cast<std::size_t>(
        wholeIn(vm, "max-connections", 1, 1 << 20, std::int64_t(o.maxConnections), problems));
    if (vm.count("out-dir")) o.outDir = vm["out-dir"].as<std::string>();
    return o;
}

const char* const kServeHelp =
    "\nServes a map explorer for the config the options describe (the built-in default without\n"
    "any) and prints its URL: open it in a browser to pan and zoom the map tile by tile, switch\n"
    "layers, inspect cells, edit the config with every change shown within a second, view the\n"
    "terrain in 3D and export the current config. Tiles at the highest zoom are the batch\n"
    "pictures' pixels. The API and the layers: docs/serve.md.\n\n"
    "Listens on 127.0.0.1 (this machine only) unless --host says otherwise. With --out-dir DIR\n"
    "the page's Export button writes the current config's files into DIR, through the same\n"
    "output transaction as a run; without it, exporting is off and nothing is ever written.\n"
    "Runs until stopped by a signal (Ctrl-C: SIGINT), which removes an unfinished export's\n"
    "temporary files.\n";

}  // namespace terragrid::cli

#include "terragrid/serve/serve.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "serve/explorer.hpp"
#include "serve/http_server.hpp"
#include "serve/render_pool.hpp"
#include "serve/tile_memory.hpp"

namespace terragrid {
namespace {

/// Descriptors the process may open, raised to the hard limit: every connection holds one,
/// and a soft limit of 1024 (a common default) would refuse the 1,000 idle connections of a
/// careless client long before memory runs short.
std::size_t raiseDescriptorLimit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? std::size_t{1} << 20 : std::size_t(limit.rlim_cur);
}

void checkExportDirectory(const std::string& directory) {
    std::error_code ec;
    const auto status = std::filesystem::status(directory, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_directory(status))
        throw ServeError("'--out-dir' must be a directory (got '" + directory +
                         "', which is not one)");
}

}  // namespace

void serveExplorer(const LoadedConfig& config, const ServeOptions& options,
                   const std::function<void(const std::string&)>& listening) {
    if (options.outDir) checkExportDirectory(*options.outDir);
    serve::ExplorerSettings settings;
    settings.threads = std::max(1, options.threads);
    settings.outDir = options.outDir;
    settings.cacheBytes = options.cacheBytes;
    serve::keepFreedTileMemory();
    serve::Explorer explorer(config, settings);
    serve::RenderPool pool(settings.threads);
    serve::ServerLimits limits;
    limits.request = std::chrono::milliseconds(
        static_cast<std::int64_t>(std::llround(options.requestSeconds * 1000.0)));
    // A few descriptors stay for the export's files, the stage and the program itself.
    const std::size_t descriptors = raiseDescriptorLimit();
    limits.maxConnections =
        std::min(options.maxConnections, descriptors > 128 ? descriptors - 64 : descriptors / 2);
    limits.maxBodyBytes = options.maxBodyBytes;
    serve::HttpServer server(explorer, pool, limits);
    const std::string url = server.listen(options.host, options.port);
    if (listening) listening(url);
    server.run();
}

}  // namespace terragrid

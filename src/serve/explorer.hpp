#pragma once
// The explorer's routes: the page, the tiles and the API, answering plain HttpRequests
// (http_types.hpp) from the current map and the maps of recent configs. No socket in here:
// http_server.cpp carries requests and responses; routes that take more than a moment are
// handed back as work for a renderer thread. Private to src/serve.
//
//   GET  /, /app.js, /vendor/...     the page (embedded assets)
//   GET  /tiles/LAYER/Z/X/Y.png[?config=HASH]
//   GET  /api/info                   the map, its zoom levels, layers, legend, jobs
//   GET  /api/config, PUT /api/config, GET /api/schema
//   GET  /api/cell?x=COL&y=ROW       one cell's values
//   GET  /api/stats                  stats.json's figures on the coverage sample
//   GET  /api/hydrology              the background stage's progress
//   GET  /api/export, POST /api/export

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "serve/explored_map.hpp"
#include "serve/export_job.hpp"
#include "serve/http_types.hpp"
#include "serve/tile_cache.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::serve {

struct ExplorerSettings {
    int threads = 1;                     ///< background jobs' arenas
    std::optional<std::string> outDir;   ///< the export directory; none: no export
    std::size_t cacheBytes = std::size_t{256} << 20;
};

class Explorer {
public:
    /// Shows `config` first. Throws ConfigError as ExploredMap does.
    Explorer(const LoadedConfig& config, const ExplorerSettings& settings);

    /// Answers `request` at once, or hands back the work that answers it (thread-safe).
    RouteResult handle(const HttpRequest& request);

    TileCache& cache() noexcept { return m_cache; }
    std::shared_ptr<ExploredMap> current() const;

private:
    HttpResponse asset(const HttpRequest& request, std::string_view path) const;
    RouteResult tile(const HttpRequest& request, std::string_view path, std::string_view query);
    RouteResult putConfig(const HttpRequest& request);
    RouteResult cell(std::string_view query);
    RouteResult stats();
    HttpResponse info() const;
    HttpResponse exportRequest(const HttpRequest& request);

    /// The map of `hash`: the current one or a recent one; null when neither.
    std::shared_ptr<ExploredMap> mapOf(std::string_view hash) const;
    /// Makes `map` current (cancelling the stage of the one it replaces) and starts its
    /// hydrology stage.
    void makeCurrent(std::shared_ptr<ExploredMap> map);

    ExplorerSettings m_settings;
    TileCache m_cache;
    std::optional<ExportJob> m_export;
    mutable std::mutex m_mutex;
    std::shared_ptr<ExploredMap> m_current;
    /// Recently replaced maps, newest first, so tiles asked for by hash while the page
    /// switches configs (and after an undo) are still answered.
    std::deque<std::shared_ptr<ExploredMap>> m_recent;
};

}  // namespace terragrid::serve

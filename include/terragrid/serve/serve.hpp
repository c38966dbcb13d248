#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// `terragrid serve`: the map explorer, an HTTP server for one browser page and its API, on top
// of the same pipeline as a run (design.md, "Serving tiles"). The CLI parses the options and
// calls serveExplorer; everything else lives in src/serve.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "terragrid/config/loader.hpp"

namespace terragrid {

/// How the explorer listens and what it may use.
struct ServeOptions {
    std::string host = "127.0.0.1";  ///< the address to bind: loopback unless asked otherwise
    int port = 8080;                 ///< 0: any free port (the URL printed says which)
    int threads = 1;                 ///< tile renderers, and the arena of background jobs
    /// The export directory (absolute or relative to the working directory); none: export
    /// is off. The server writes nowhere else.
    std::optional<std::string> outDir;
    std::size_t cacheBytes = std::size_t{256} << 20;  ///< the tile cache's bound
    /// Seconds a client has to send a whole request (headers and body) once it connected or
    /// once its previous response went out; then it gets 408 and is closed (slow or idle
    /// clients).
    double requestSeconds = 10;
    /// Open connections at most; further ones get 503 and are closed at once.
    std::size_t maxConnections = 4096;
    std::size_t maxBodyBytes = std::size_t{1} << 20;  ///< a PUT's body at most (413 beyond)
};

/// The explorer could not start (the address is in use, the export directory is not one).
class ServeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Serves `config` (the map shown first) until the process is stopped by a signal
/// (stop_signals.hpp). Calls `listening(url)` once the socket is bound (the CLI prints it).
/// Throws ServeError when it cannot listen.
void serveExplorer(const LoadedConfig& config, const ServeOptions& options,
                   const std::function<void(const std::string& url)>& listening);

}  // namespace terragrid

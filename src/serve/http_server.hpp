#pragma once
// The explorer's sockets: HTTP/1.1 on Boost.Beast over Asio, one I/O thread for every
// connection, the routes' slow work on the RenderPool. Hardened for a hostile network (design
// "Serving tiles"): each request must arrive whole within a deadline (slow and idle clients
// get 408 and are closed), headers and bodies are bounded (431, 413), malformed requests get
// 400, connections beyond a bound get 503 at once, and responses that are not read in time
// are dropped. An idle connection costs a socket and a few kilobytes, not a thread. Private
// to src/serve; only http_server.cpp includes Beast.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "serve/explorer.hpp"
#include "serve/render_pool.hpp"

namespace terragrid::serve {

struct ServerLimits {
    std::chrono::milliseconds request{10000};  ///< a whole request, from its first wait
    std::chrono::milliseconds write{30000};    ///< a whole response
    std::size_t maxConnections = 4096;
    std::size_t maxBodyBytes = std::size_t{1} << 20;
    std::size_t maxHeaderBytes = 16 * 1024;
};

class HttpServer {
public:
    HttpServer(Explorer& explorer, RenderPool& pool, const ServerLimits& limits);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds `host`:`port` (0: a free port) and listens. Returns the URL it serves.
    /// Throws ServeError when it cannot.
    std::string listen(const std::string& host, int port);
    /// Serves on the calling thread until stop().
    void run();
    void stop();

    class Impl;  ///< the sockets' state (http_server.cpp), shared with its connections

private:
    std::unique_ptr<Impl> m_impl;
};

}  // namespace terragrid::serve

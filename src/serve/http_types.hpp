#pragma once
// A request and a response as the explorer's routes see them: plain values, free of the HTTP
// library (the socket side, http_server.cpp, converts), so the routes are tested and compiled
// without it. Private to src/serve.

#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace terragrid::serve {

struct HttpRequest {
    std::string method;       ///< "GET", "PUT", ...
    std::string target;       ///< the request target as sent: path and query
    std::string body;
    std::string ifNoneMatch;  ///< the If-None-Match header, "" when absent
};

struct HttpResponse {
    int status = 200;
    std::string contentType = "text/plain; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  ///< beyond Content-Type/Length

    /// `text` as plain text, a line of its own.
    static HttpResponse text(int status, std::string text);
    /// `json` (already serialised) as application/json, never cached.
    static HttpResponse json(int status, std::string json);
    /// An error as JSON: {"status": N, "error": message}.
    static HttpResponse error(int status, const std::string& message);
};

/// Work that takes more than a moment (a tile, a new config, statistics): run off the
/// connection's thread, on a renderer.
using DeferredResponse = std::function<HttpResponse()>;
using RouteResult = std::variant<HttpResponse, DeferredResponse>;

}  // namespace terragrid::serve

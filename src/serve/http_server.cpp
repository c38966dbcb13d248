#include "serve/http_server.hpp"

#include <array>
#include <atomic>
#include <exception>
#include <iostream>
#include <optional>
#include <utility>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "terragrid/serve/serve.hpp"

namespace terragrid::serve {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using ErrorCode = beast::error_code;

/// The body of an error response, as the routes write theirs.
std::string errorJson(int status, const std::string& message) {
    return HttpResponse::error(status, message).body;
}

}  // namespace

class HttpServer::Impl {
public:
    Impl(Explorer& explorer, RenderPool& pool, const ServerLimits& limits)
        : explorer(explorer), pool(pool), limits(limits), acceptor(io), retry(io) {}

    void accept();

    Explorer& explorer;
    RenderPool& pool;
    ServerLimits limits;
    net::io_context io{1};
    tcp::acceptor acceptor;
    net::steady_timer retry;  ///< waits before accepting again when descriptors ran out
    std::atomic<std::size_t> connections{0};
    bool toldOfDescriptors = false;
};

namespace {

/// One connection: read a request within the deadline, answer it (at once, or after the
/// pool did the work), and again while the client keeps the connection alive.
class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket socket, HttpServer::Impl& server)
        : m_stream(std::move(socket)),
          m_server(server),
          m_deadline(m_server.io),
          // Room for the largest header allowed and then some: a smaller buffer would refuse a
          // long header as a buffer overflow (400) before the parser's header limit (431).
          m_buffer(server.limits.maxHeaderBytes + 8192) {
        ++m_server.connections;
    }
    ~Session() { --m_server.connections; }

    void start() { read(); }

private:
    void read() {
        m_parser.emplace();
        m_parser->header_limit(static_cast<std::uint32_t>(m_server.limits.maxHeaderBytes));
        m_parser->body_limit(m_server.limits.maxBodyBytes);
        // One deadline for the whole request: a client that trickles a byte at a time
        // (slowloris) runs out of it as surely as one that sends nothing. Its own timer, not
        // the stream's (which would close the socket): at the deadline the read is cancelled
        // and the client still gets its 408.
        m_stream.expires_never();
        m_timedOut = false;
        m_deadline.expires_after(m_server.limits.request);
        m_deadline.async_wait([weak = weak_from_this()](ErrorCode ec) {
            const auto self = weak.lock();
            if (ec || !self) return;
            self->m_timedOut = true;
            ErrorCode ignored;
            self->m_stream.socket().cancel(ignored);
        });
        http::async_read_header(
            m_stream, m_buffer, *m_parser,
            beast::bind_front_handler(&Session::onHeader, shared_from_this()));
    }

    /// The header is in: a client that waits for "100 Continue" before its body (curl, for
    /// bodies over a kilobyte) is told to go on; then the body, within the same deadline.
    void onHeader(ErrorCode ec, std::size_t) {
        if (ec) return onRead(ec, 0);
        const auto& header = m_parser->get();
        const auto expect = header.find(http::field::expect);
        if (expect != header.end() && beast::iequals(expect->value(), "100-continue") &&
            !m_parser->is_done()) {
            m_continue = {http::status::continue_, 11};
            return http::async_write(m_stream, m_continue,
                                     [self = shared_from_this()](ErrorCode ec, std::size_t) {
                                         if (ec) return self->close();
                                         self->readBody();
                                     });
        }
        readBody();
    }

    void readBody() {
        http::async_read(m_stream, m_buffer, *m_parser,
                         beast::bind_front_handler(&Session::onRead, shared_from_this()));
    }

    void onRead(ErrorCode ec, std::size_t) {
        m_deadline.cancel();
        if (ec == http::error::end_of_stream) return shutdown();
        if (ec && m_timedOut) {
            const double seconds = double(m_server.limits.request.count()) / 1000.0;
            char text[128];
            std::snprintf(text, sizeof text,
                          "request timeout: a request must arrive whole within %g s", seconds);
            return refuse(408, text);
        }
        if (ec == http::error::body_limit)
            return refuse(413, "request body too large: at most " +
                                   std::to_string(m_server.limits.maxBodyBytes) + " bytes");
        if (ec == http::error::header_limit)
            return refuse(431, "request header too large: at most " +
                                   std::to_string(m_server.limits.maxHeaderBytes) + " bytes");
        if (ec && ec.category() == http::make_error_code(http::error::bad_method).category())
            return refuse(400, "malformed request: " + ec.message());
        if (ec) return close();  // reset, aborted: nobody to answer
        const auto& message = m_parser->get();
        HttpRequest request;
        request.method = std::string(message.method_string());
        request.target = std::string(message.target());
        request.body = message.body();
        if (const auto it = message.find(http::field::if_none_match); it != message.end())
            request.ifNoneMatch = std::string(it->value());
        m_keepAlive = message.keep_alive();
        m_head = message.method() == http::verb::head;
        RouteResult result;
        try {
            result = m_server.explorer.handle(request);
        } catch (const std::exception& e) {
            result = HttpResponse::error(500, e.what());
        }
        if (auto* response = std::get_if<HttpResponse>(&result)) return write(std::move(*response));
        // The work runs on a renderer; the answer comes back to this connection's thread.
        // No read deadline meanwhile: the client waits for us, not we for it.
        m_stream.expires_never();
        auto self = shared_from_this();
        m_server.pool.submit([self, work = std::move(std::get<DeferredResponse>(result))] {
            HttpResponse response;
            try {
                response = work();
            } catch (const std::exception& e) {
                response = HttpResponse::error(500, e.what());
            }
            net::post(self->m_stream.get_executor(),
                      [self, response = std::move(response)]() mutable {
                          self->write(std::move(response));
                      });
        });
    }

    void write(HttpResponse r, bool closeAfter = false) {
        m_response = {};
        m_response.version(11);
        m_response.result(static_cast<unsigned>(r.status));
        if (!r.contentType.empty()) m_response.set(http::field::content_type, r.contentType);
        m_response.set(http::field::server, "terragrid");
        for (const auto& [name, value] : r.headers) m_response.set(name, value);
        m_response.keep_alive(m_keepAlive && !closeAfter);
        const std::size_t size = r.body.size();
        m_response.body() = std::move(r.body);
        m_response.prepare_payload();
        if (m_head) {
            m_response.body().clear();
            m_response.content_length(size);
        }
        m_stream.expires_after(m_server.limits.write);
        http::async_write(m_stream, m_response,
                          beast::bind_front_handler(&Session::onWrite, shared_from_this(),
                                                    closeAfter || !m_keepAlive));
    }

    void onWrite(bool closeAfter, ErrorCode ec, std::size_t) {
        if (ec) return close();
        if (closeAfter) return shutdown();
        read();
    }

    /// A request that cannot be served: the status and why, then the connection closes.
    void refuse(int status, const std::string& message) {
        m_keepAlive = false;
        m_head = false;
        write(HttpResponse::error(status, message), true);
    }

    /// Ends the connection after a response: no more sends, and what the client still sends
    /// (a body too large to take) is read and dropped for a moment, so the client reads the
    /// response before the connection closes rather than a reset.
    void shutdown() {
        ErrorCode ignored;
        m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
        m_stream.expires_after(std::chrono::seconds(1));
        drain();
    }

    void drain() {
        m_stream.async_read_some(
            net::buffer(m_scratch),
            [self = shared_from_this()](ErrorCode ec, std::size_t n) {
                self->m_drained += n;
                if (ec || self->m_drained > (std::size_t{4} << 20)) return self->close();
                self->drain();
            });
    }

    void close() {
        ErrorCode ignored;
        m_stream.socket().close(ignored);
    }

    beast::tcp_stream m_stream;
    HttpServer::Impl& m_server;
    net::steady_timer m_deadline;  ///< the current request's
    bool m_timedOut = false;
    beast::flat_buffer m_buffer;
    std::optional<http::request_parser<http::string_body>> m_parser;
    http::response<http::string_body> m_response;
    http::response<http::empty_body> m_continue;
    bool m_keepAlive = false;
    bool m_head = false;
    std::array<char, 16384> m_scratch{};
    std::size_t m_drained = 0;
};

/// A connection beyond the bound: 503 and closed, without a session.
void turnAway(tcp::socket socket) {
    struct Refusal {
        tcp::socket socket;
        std::string text;
    };
    const std::string body =
        errorJson(503, "too many connections: try again when others have closed");
    auto refusal = std::make_shared<Refusal>(Refusal{
        std::move(socket),
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        "Connection: close\r\nRetry-After: 1\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body});
    net::async_write(refusal->socket, net::buffer(refusal->text),
                     [refusal](ErrorCode, std::size_t) {
                         ErrorCode ignored;
                         refusal->socket.shutdown(tcp::socket::shutdown_both, ignored);
                         refusal->socket.close(ignored);
                     });
}

}  // namespace

void HttpServer::Impl::accept() {
    acceptor.async_accept(io, [this](ErrorCode ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted) return;
        if (ec) {
            // Out of descriptors (EMFILE, ENFILE) or memory: wait a moment rather than spin;
            // closing connections free them.
            if (!toldOfDescriptors) {
                std::cerr << "terragrid: warning: serve cannot accept connections: "
                          << ec.message() << "; retrying\n";
                toldOfDescriptors = true;
            }
            retry.expires_after(std::chrono::milliseconds(50));
            retry.async_wait([this](ErrorCode) { accept(); });
            return;
        }
        if (connections.load() >= limits.maxConnections)
            turnAway(std::move(socket));
        else
            std::make_shared<Session>(std::move(socket), *this)->start();
        accept();
    });
}

HttpServer::HttpServer(Explorer& explorer, RenderPool& pool, const ServerLimits& limits)
    : m_impl(std::make_unique<Impl>(explorer, pool, limits)) {}

HttpServer::~HttpServer() = default;

std::string HttpServer::listen(const std::string& host, int port) {
    ErrorCode ec;
    const net::ip::address address = net::ip::make_address(host, ec);
    if (ec)
        throw ServeError("'--host' must be an IP address such as 127.0.0.1 or :: (got '" + host +
                         "')");
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
    tcp::acceptor& a = m_impl->acceptor;
    const auto check = [&](const char* step) {
        if (ec)
            throw ServeError(std::string("cannot listen on ") + host + " port " +
                             std::to_string(port) + ": " + step + ": " + ec.message());
    };
    a.open(endpoint.protocol(), ec);
    check("open");
    a.set_option(net::socket_base::reuse_address(true), ec);
    check("set_option");
    a.bind(endpoint, ec);
    check("bind");
    a.listen(net::socket_base::max_listen_connections, ec);
    check("listen");
    const unsigned short bound = a.local_endpoint().port();
    const std::string shown = address.is_v6() ? "[" + host + "]" : host;
    m_impl->accept();
    return "http://" + shown + ":" + std::to_string(bound) + "/";
}

void HttpServer::run() { m_impl->io.run(); }

void HttpServer::stop() { m_impl->io.stop(); }

}  // namespace terragrid::serve

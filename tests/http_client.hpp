#pragma once
// A plain HTTP/1.1 client over real sockets, for the tests (and the bench) that talk to
// `terragrid serve` as a browser, or an attacker, would. Free of GoogleTest.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace terragrid::test {

struct HttpReply {
    int status = 0;  ///< 0: no complete reply (closed, reset or timed out first)
    std::map<std::string, std::string> headers;  ///< names in lower case
    std::string body;
    std::string header(const std::string& name) const;
};

/// A TCP connection to 127.0.0.1:port.
class Socket {
public:
    explicit Socket(int port);
    ~Socket();
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    /// Sends all of `bytes`; false when the connection is gone.
    bool send(std::string_view bytes);
    /// Reads one reply (framed by Content-Length) within `seconds`.
    HttpReply readReply(double seconds = 20);
    /// Whether the server closed the connection (end of file or reset) within `seconds`;
    /// any bytes it sends first are kept for readReply.
    bool closedWithin(double seconds);

private:
    /// Reads what is there within `seconds` into m_pending: false at end of file or error.
    bool fill(double seconds);

    int m_fd = -1;
    std::string m_pending;
    bool m_closed = false;
};

/// One request on a connection of its own ("Connection: close").
HttpReply httpRequest(int port, const std::string& method, const std::string& target,
                      const std::string& body = {}, const std::vector<std::string>& headers = {});

/// Raises this process's descriptor limit to its hard limit (tests that open many sockets).
void raiseDescriptorLimit();

}  // namespace terragrid::test

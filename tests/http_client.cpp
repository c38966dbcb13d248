#include "http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

namespace terragrid::test {

std::string HttpReply::header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

Socket::Socket(int port) {
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0) throw std::runtime_error("socket() failed");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(m_fd);
        throw std::runtime_error("cannot connect to port " + std::to_string(port));
    }
}

Socket::~Socket() {
    if (m_fd >= 0) ::close(m_fd);
}

bool Socket::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            return false;
        }
        bytes.remove_prefix(std::size_t(n));
    }
    return true;
}

bool Socket::fill(double seconds) {
    if (m_closed) return false;
    pollfd p{m_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(seconds * 1000));
    if (ready <= 0) return true;  // nothing yet
    char buffer[65536];
    const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
        m_closed = true;
        return false;
    }
    m_pending.append(buffer, std::size_t(n));
    return true;
}

HttpReply Socket::readReply(double seconds) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    const auto left = [&] {
        return std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
    };
    HttpReply reply;
    std::size_t headerEnd;
    while ((headerEnd = m_pending.find("\r\n\r\n")) == std::string::npos) {
        if (left() <= 0 || (!fill(left()) && m_pending.find("\r\n\r\n") == std::string::npos))
            return reply;
    }
    const std::string head = m_pending.substr(0, headerEnd);
    std::size_t lineEnd = head.find("\r\n");
    const std::string status = head.substr(0, lineEnd);
    if (status.size() < 12 || !status.starts_with("HTTP/1.")) return reply;
    const int code = std::stoi(status.substr(9, 3));
    while (lineEnd != std::string::npos && lineEnd < head.size()) {
        const std::size_t next = head.find("\r\n", lineEnd + 2);
        const std::string line = head.substr(lineEnd + 2, next == std::string::npos ? std::string::npos : next - lineEnd - 2);
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            reply.headers[name] = value;
        }
        lineEnd = next;
    }
    const std::size_t length =
        reply.headers.count("content-length") ? std::stoul(reply.headers["content-length"]) : 0;
    while (m_pending.size() < headerEnd + 4 + length) {
        if (left() <= 0 || !fill(left())) {
            if (m_pending.size() < headerEnd + 4 + length) return HttpReply{};
        }
    }
    reply.body = m_pending.substr(headerEnd + 4, length);
    m_pending.erase(0, headerEnd + 4 + length);
    reply.status = code;
    return reply;
}

bool Socket::closedWithin(double seconds) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < deadline) {
        if (!fill(std::chrono::duration<double>(deadline - Clock::now()).count())) return true;
    }
    return false;
}

HttpReply httpRequest(int port, const std::string& method, const std::string& target,
                      const std::string& body, const std::vector<std::string>& headers) {
    Socket socket(port);
    std::string request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Connection: close\r\n";
    for (const std::string& h : headers) request += h + "\r\n";
    if (!body.empty() || method == "PUT" || method == "POST")
        request += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    request += "\r\n" + body;
    socket.send(request);
    return socket.readReply();
}

void raiseDescriptorLimit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

}  // namespace terragrid::test

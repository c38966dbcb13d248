// `terragrid serve` against hostile clients, through real sockets (issue 26): bad tile
// coordinates and layers, paths that try to climb out, a 100 MB body, a config nested 10,000
// deep, malformed requests, slow clients that never finish, 1,000 idle connections, more
// connections than the bound. Each gets a clear 4xx (or is closed at its deadline) and the
// server keeps serving everyone else; nothing is read or written outside the embedded page.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_client.hpp"
#include "serve_process.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

/// The server still answers a plain request.
void expectServing(int port) {
    const auto r = test::httpRequest(port, "GET", "/tiles/classes/0/0/0.png");
    EXPECT_EQ(r.status, 200) << "the server stopped serving";
}

/// A reply whose body is the explorer's JSON error, naming what was wrong.
void expectError(const test::HttpReply& r, int status, const std::string& what) {
    EXPECT_EQ(r.status, status) << what << ": " << r.body;
    if (r.status == 0) return;
    const auto body = nlohmann::json::parse(r.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << what << ": " << r.body;
    EXPECT_FALSE(body.value("error", "").empty()) << what;
}

TEST(ServeHostileTest, BadTileAddressesLayersAndPathsGetA4xxAndNothingIsRead) {
    test::TempDir dir;
    // A file beside the server that a path climbing out would reach.
    std::ofstream(dir / "secret.txt") << "not for the web";
    test::ServeProcess serve(dir.path(), {"--width", "300", "--height", "200"});
    struct Case {
        const char* method;
        const char* target;
        int status;
    };
    const Case cases[] = {
        {"GET", "/tiles/preview/1/2/0.png", 404},            // beyond the map's tiles
        {"GET", "/tiles/preview/1/0/1.png", 404},
        {"GET", "/tiles/preview/2/0/0.png", 404},            // beyond the highest zoom
        {"GET", "/tiles/preview/0/-1/0.png", 400},           // negative
        {"GET", "/tiles/preview/-1/0/0.png", 400},
        {"GET", "/tiles/preview/0/4611686018427387904/0.png", 400},  // 2^62
        {"GET", "/tiles/preview/62/4611686018427387/0.png", 404},
        {"GET", "/tiles/preview/0/abc/0.png", 400},          // not a number
        {"GET", "/tiles/preview/0/0/0x0.png", 400},
        {"GET", "/tiles/preview/0/0/0", 400},
        {"GET", "/tiles/nosuch/0/0/0.png", 404},             // unknown layer
        {"GET", "/tiles/preview/0/0/0.png?config=../../secret", 404},
        {"GET", "/tiles/../secret.txt", 400},                 // climbing out: no tile path
        {"GET", "/../secret.txt", 404},
        {"GET", "/vendor/leaflet/../../secret.txt", 404},
        {"GET", "/%2e%2e/secret.txt", 400},                   // escaped dots and slashes
        {"GET", "/tiles/preview%2F0%2F0%2F0.png", 400},
        {"GET", "/vendor%2fleaflet%2fleaflet.js", 400},
        {"GET", "/secret.txt", 404},
        {"GET", "//etc/passwd", 404},
        {"GET", "/api/cell?x=-1&y=0", 400},
        {"GET", "/api/cell?x=1e3&y=0", 400},
        {"GET", "/api/cell?x=99999999999999999999&y=0", 400},
        {"GET", "/api/cell?x=300&y=0", 404},
        {"GET", "/api/cell", 400},
        {"GET", "/api/nothing", 404},
        {"DELETE", "/api/config", 405},
        {"POST", "/tiles/preview/0/0/0.png", 405},
        {"PUT", "/", 405},
    };
    for (const Case& c : cases)
        expectError(test::httpRequest(serve.port(), c.method, c.target), c.status,
                    std::string(c.method) + " " + c.target);
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/api/nothing").header("cache-control"), "no-store");
    EXPECT_EQ(test::httpRequest(serve.port(), "DELETE", "/api/config").header("allow"), "GET, HEAD, PUT");
    // Targets that are not paths at all.
    for (const char* target : {"http://127.0.0.1/../secret.txt", "*", "secret.txt"}) {
        test::Socket s(serve.port());
        s.send(std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
        const auto r = s.readReply();
        EXPECT_GE(r.status, 400) << target;
        EXPECT_LT(r.status, 500) << target;
        EXPECT_THAT(r.body, ::testing::Not(HasSubstr("not for the web")));
    }
    expectServing(serve.port());
    // Nothing was written beside the server.
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"secret.txt"});
}

TEST(ServeHostileTest, AHundredMegabyteBodyGets413WithoutBeingRead) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {});
    {
        test::Socket s(serve.port());
        s.send("PUT /api/config HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n");
        s.send(std::string(64 * 1024, '['));
        const auto r = s.readReply();
        expectError(r, 413, "100 MB body");
        EXPECT_THAT(r.body, HasSubstr("too large"));
        EXPECT_TRUE(s.closedWithin(10));
    }
    {
        // The same without a length: chunks until the bound is passed.
        test::Socket s(serve.port());
        s.send("PUT /api/config HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
        const std::string chunk = "100000\r\n" + std::string(0x100000, ' ') + "\r\n";
        // Two megabytes, all of it read (the second half dropped after the answer).
        for (int i = 0; i < 2 && s.send(chunk); ++i) {
        }
        expectError(s.readReply(), 413, "chunked body");
    }
    expectServing(serve.port());
}

TEST(ServeHostileTest, AConfigTenThousandLevelsDeepGets400) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {});
    const std::string deep = "{\"seed\": " + std::string(10000, '[') + std::string(10000, ']') + "}";
    const auto r = test::httpRequest(serve.port(), "PUT", "/api/config", deep);
    expectError(r, 400, "deep config");
    EXPECT_THAT(r.body, HasSubstr("deep"));
    const std::string objects = [] {
        std::string s;
        for (int i = 0; i < 10000; ++i) s += "{\"a\":";
        s += "1";
        for (int i = 0; i < 10000; ++i) s += "}";
        return s;
    }();
    expectError(test::httpRequest(serve.port(), "PUT", "/api/config", objects), 400, "deep objects");
    expectServing(serve.port());
}

TEST(ServeHostileTest, MalformedRequestsGet400AndHugeHeaders431) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {});
    for (const std::string& request :
         {std::string("GARBAGE\r\n\r\n"), std::string("GET / HTTP/1.1\r\nNo colon here\r\n\r\n"),
          std::string("GET / HTTP/1.1\r\nContent-Length: -5\r\n\r\n"),
          std::string("GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"),
          std::string("G\0T / HTTP/1.1\r\n\r\n", 19)}) {
        test::Socket s(serve.port());
        s.send(request);
        expectError(s.readReply(), 400, "malformed request");
    }
    test::Socket s(serve.port());
    s.send("GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + std::string(64 * 1024, 'a') + "\r\n\r\n");
    expectError(s.readReply(), 431, "huge header");
    expectServing(serve.port());
}

// Slowloris: a request trickling in a byte at a time never completes; the server answers 408
// at its deadline and closes, while other clients are served as usual meanwhile.
TEST(ServeHostileTest, ASlowClientGets408AtItsDeadlineAndOthersAreServedMeanwhile) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {"--request-timeout", "1.5"});
    test::Socket slow(serve.port());
    const std::string request = "GET /api/info HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    const auto start = std::chrono::steady_clock::now();
    bool closed = false;
    for (std::size_t i = 0; i < 200 && !closed; ++i) {
        if (!slow.send(std::string(1, i < request.size() ? request[i] : 'z'))) break;
        if (i == 5) expectServing(serve.port());
        closed = slow.closedWithin(0.1);
    }
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(closed);
    EXPECT_GE(waited, 1.4);
    EXPECT_LT(waited, 15.0);
    expectError(slow.readReply(1), 408, "slowloris");
    expectServing(serve.port());
}

// A thousand connections opened and left idle hold a socket each, not a thread: others are
// served at once, and the idle ones are closed at their deadline.
TEST(ServeHostileTest, AThousandIdleConnectionsDoNotStopOthers) {
    test::raiseDescriptorLimit();
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {"--request-timeout", "2"});
    std::vector<std::unique_ptr<test::Socket>> idle;
    for (int i = 0; i < 1000; ++i) idle.push_back(std::make_unique<test::Socket>(serve.port()));
    for (int i = 0; i < 3; ++i) expectServing(serve.port());
    // Their deadline passes: each is told (408) and closed.
    int closed = 0;
    for (std::size_t i = 0; i < idle.size(); i += 50) {
        if (idle[i]->closedWithin(20)) ++closed;
    }
    EXPECT_EQ(closed, 20);
    expectError(idle[0]->readReply(1), 408, "idle connection");
    idle.clear();
    expectServing(serve.port());
}

TEST(ServeHostileTest, ConnectionsBeyondTheBoundGet503) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {"--max-connections", "8", "--request-timeout", "30"});
    std::vector<std::unique_ptr<test::Socket>> held;
    for (int i = 0; i < 8; ++i) held.push_back(std::make_unique<test::Socket>(serve.port()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    test::Socket extra(serve.port());
    extra.send("GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n");
    expectError(extra.readReply(), 503, "beyond the bound");
    // Once some close, others get in.
    held.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    expectServing(serve.port());
}

}  // namespace
}  // namespace terragrid

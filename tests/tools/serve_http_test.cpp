// `terragrid serve` through real sockets, as a browser and as an attacker use it: the page
// from any directory, the API against the CLI's own answers (print-config, schema, validate,
// a run's files), tiles equal to the batch pictures and cached by ETag, hydrology in the
// background, the export through the output transaction, a signal stopping it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdlib>
#include <map>
#include <sstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "http_client.hpp"
#include "serve_process.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Json = nlohmann::json;

Json jsonOf(const test::HttpReply& r) { return Json::parse(r.body); }

/// The CLI's stdout for `args`, run in `dir`.
std::string cli(const test::TempDir& dir, const std::string& args) {
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    test::shellQuote(test::cliPath()) + " " + args);
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    return r.out;
}

/// The entries of `dir`, by name.
std::vector<std::string> entriesOf(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(ServeApiTest, ThePageAndItsLibrariesComeFromTheBinaryInAnyDirectory) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {});
    const auto page = test::httpRequest(serve.port(), "GET", "/");
    ASSERT_EQ(page.status, 200);
    EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
    EXPECT_THAT(page.body, HasSubstr("terragrid"));
    for (const char* asset : {"/app.js", "/style.css", "/vendor/leaflet/leaflet.js",
                              "/vendor/leaflet/leaflet.css", "/vendor/leaflet/images/layers.png",
                              "/vendor/maplibre-gl/maplibre-gl.js"}) {
        const auto r = test::httpRequest(serve.port(), "GET", asset);
        EXPECT_EQ(r.status, 200) << asset;
        EXPECT_GT(r.body.size(), 100u) << asset;
        const std::string tag = r.header("etag");
        ASSERT_FALSE(tag.empty()) << asset;
        const auto again = test::httpRequest(serve.port(), "GET", asset, {}, {"If-None-Match: " + tag});
        EXPECT_EQ(again.status, 304) << asset;
        EXPECT_TRUE(again.body.empty());
    }
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/vendor/maplibre-gl/maplibre-gl.js").header("content-type"),
              "text/javascript; charset=utf-8");
    EXPECT_TRUE(entriesOf(dir.path()).empty()) << "serving writes nothing";
}

TEST(ServeApiTest, ConfigAndSchemaAreTheCommandLinesOwn) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {"--seed", "12", "--set", "height.octaves=5"});
    const auto config = test::httpRequest(serve.port(), "GET", "/api/config");
    ASSERT_EQ(config.status, 200);
    EXPECT_EQ(config.header("content-type"), "application/json");
    EXPECT_EQ(jsonOf(config), Json::parse(cli(dir, "--print-config --seed 12 --set height.octaves=5")));
    const auto schema = test::httpRequest(serve.port(), "GET", "/api/schema");
    EXPECT_EQ(jsonOf(schema), Json::parse(cli(dir, "schema")));
    const Json info = jsonOf(test::httpRequest(serve.port(), "GET", "/api/info"));
    EXPECT_EQ(info["map"]["width"], 1024);
    EXPECT_EQ(info["zoom"]["max"], 2);
    EXPECT_EQ(info["seed"], 12);
    EXPECT_EQ(info["classes"].size(), 5u);
    EXPECT_EQ(info["legend"]["preview"].size(), 5u);
    EXPECT_EQ(info["export"]["available"], false);
}

TEST(ServeApiTest, AnInvalidConfigGetsEveryProblemAsValidateWordsItAndChangesNothing) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {});
    const std::string before = test::httpRequest(serve.port(), "GET", "/api/config").body;
    const std::string bad = R"({"seed": -1, "height": {"octaves": 40}, "map": {"widht": 5}})";
    const auto r = test::httpRequest(serve.port(), "PUT", "/api/config", bad);
    ASSERT_EQ(r.status, 400);
    const Json body = jsonOf(r);
    ASSERT_EQ(body["problems"].size(), 3u);
    // The same sentences `terragrid validate` prints for the same text.
    std::ofstream(dir / "bad.json") << bad;
    const auto validate = test::runCommand(test::shellQuote(test::cliPath()) + " validate " +
                                           test::shellQuote((dir / "bad.json").string()));
    EXPECT_EQ(validate.exitCode, 2);
    for (const auto& problem : body["problems"]) {
        const std::string p = problem.get<std::string>();
        EXPECT_THAT(validate.err, HasSubstr(p.substr(p.find('\''))));
    }
    EXPECT_THAT(body["error"].get<std::string>(), HasSubstr("'height.octaves' must be between 1 and 16 (got 40)"));
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/api/config").body, before);
    // Not JSON at all, and a coverage target no map can reach: 400 too.
    EXPECT_EQ(test::httpRequest(serve.port(), "PUT", "/api/config", "{seed: 3").status, 400);
    const auto coverage = test::httpRequest(
        serve.port(), "PUT", "/api/config",
        R"({"map": {"width": 64, "height": 64}, "terrain": {"lake_below": {"coverage": 0.7}, "mountain_above": {"coverage": 0.5}}})");
    EXPECT_EQ(coverage.status, 400);
    EXPECT_THAT(coverage.body, HasSubstr("terrain."));
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/api/config").body, before);
}

TEST(ServeApiTest, ANewConfigGivesNewTilesAndTheOldOnesStayAddressable) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(), {"--width", "300", "--height", "200"});
    const std::string oldHash = jsonOf(test::httpRequest(serve.port(), "GET", "/api/info"))["hash"];
    const auto oldTile = test::httpRequest(serve.port(), "GET", "/tiles/preview/0/0/0.png?config=" + oldHash);
    ASSERT_EQ(oldTile.status, 200);
    const auto put = test::httpRequest(serve.port(), "PUT", "/api/config",
                                       R"({"seed": 42, "map": {"width": 300, "height": 200}})");
    ASSERT_EQ(put.status, 200) << put.body;
    const std::string newHash = jsonOf(put)["hash"];
    EXPECT_NE(newHash, oldHash);
    const auto newTile = test::httpRequest(serve.port(), "GET", "/tiles/preview/0/0/0.png");
    ASSERT_EQ(newTile.status, 200);
    EXPECT_NE(newTile.body, oldTile.body);
    // A tile of the replaced config, still asked for by its hash (an undo, a page catching up).
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/tiles/preview/0/0/0.png?config=" + oldHash).body,
              oldTile.body);
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/tiles/preview/0/0/0.png?config=0123456789abcdef").status, 404);
}

TEST(ServeApiTest, TilesAreTheBatchPictureAndAreCachedByEtag) {
    test::TempDir dir;
    const std::string args = "--width 300 --height 200 --seed 4 --set output.preview_max_size=4096 "
                             "--set output.preview_legend=off";
    cli(dir, "-q --out-dir ref " + args + " --set 'output.files=[\"preview.png\"]'");
    const test::PngImage batch = test::readPng(dir / "ref" / "preview.png");
    test::ServeProcess serve(dir.path(), {"--width", "300", "--height", "200", "--seed", "4"});
    const std::string hash = jsonOf(test::httpRequest(serve.port(), "GET", "/api/info"))["hash"];
    for (int tx = 0; tx < 2; ++tx) {
        const auto r = test::httpRequest(serve.port(), "GET", "/tiles/preview/1/" + std::to_string(tx) + "/0.png");
        ASSERT_EQ(r.status, 200);
        EXPECT_EQ(r.header("content-type"), "image/png");
        EXPECT_EQ(r.header("cache-control"), "no-cache");
        const test::PngImage tile = test::decodePng(r.body, "tile");
        for (std::uint32_t y = 0; y < 200; ++y)
            for (std::uint32_t x = 0; x < 256 && tx * 256 + x < 300; ++x)
                ASSERT_EQ(tile.at(x, y), batch.at(tx * 256 + x, y)) << tx * 256 + x << "," << y;
        // Asked for again with its tag: 304, no body.
        const auto again = test::httpRequest(serve.port(), "GET", "/tiles/preview/1/" + std::to_string(tx) + "/0.png",
                                             {}, {"If-None-Match: " + r.header("etag")});
        EXPECT_EQ(again.status, 304);
        EXPECT_TRUE(again.body.empty());
        EXPECT_EQ(again.header("etag"), r.header("etag"));
    }
    // Addressed by the config's hash, a tile never changes.
    const auto byHash = test::httpRequest(serve.port(), "GET", "/tiles/preview/1/0/0.png?config=" + hash);
    EXPECT_EQ(byHash.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(test::httpRequest(serve.port(), "HEAD", "/tiles/preview/1/0/0.png").body, "");
}

TEST(ServeApiTest, CellsAndStatisticsAreTheBatchRunsValues) {
    test::TempDir dir;
    cli(dir, "-q --out-dir ref --width 96 --height 64 --seed 8");
    std::uint32_t w = 0, h = 0;
    const auto heights = test::readFloatTiff(dir / "ref" / "height.tif", &w, &h);
    const auto classes = test::readByteTiff(dir / "ref" / "classes.tif");
    const Json stats = Json::parse(test::readFile(dir / "ref" / "stats.json"));
    test::ServeProcess serve(dir.path(), {"--width", "96", "--height", "64", "--seed", "8"});
    for (const auto& [x, y] : {std::pair{0, 0}, {95, 63}, {40, 17}, {3, 60}}) {
        const auto r = test::httpRequest(serve.port(), "GET",
                                         "/api/cell?x=" + std::to_string(x) + "&y=" + std::to_string(y));
        ASSERT_EQ(r.status, 200) << r.body;
        const Json cell = jsonOf(r);
        EXPECT_EQ(cell["height_m"].get<float>(), heights[std::size_t(y) * w + std::size_t(x)]);
        EXPECT_EQ(cell["class"]["index"], classes[std::size_t(y) * w + std::size_t(x)]);
        EXPECT_EQ(cell["class"]["name"], stats["classes"][cell["class"]["index"].get<int>()]["name"]);
    }
    const Json sample = jsonOf(test::httpRequest(serve.port(), "GET", "/api/stats"));
    EXPECT_EQ(sample["sample"]["whole_map"], true);
    EXPECT_EQ(sample["elevation"]["min_m"], stats["elevation"]["min_m"]);
    EXPECT_EQ(sample["elevation"]["max_m"], stats["elevation"]["max_m"]);
    for (std::size_t i = 0; i < stats["classes"].size(); ++i)
        EXPECT_EQ(sample["classes"][i]["cells"], stats["classes"][i]["cells"]) << i;
    EXPECT_EQ(sample["walkable"]["cells"], stats["walkable"]["cells_before_connectivity"]);
}

TEST(ServeApiTest, HydrologyRunsInTheBackgroundAndTheWaterFollows) {
    test::TempDir dir;
    test::ServeProcess serve(dir.path(),
                             {"--width", "256", "--height", "256", "--seed", "11", "--set",
                              "hydrology.enabled=true", "--set", "hydrology.river_threshold=180000",
                              "--set", "hydrology.erosion.enabled=true", "--set",
                              "hydrology.erosion.steps=150"});
    // The layers without water are served at once, before the stage is done.
    const auto early = test::httpRequest(serve.port(), "GET", "/tiles/classes/0/0/0.png");
    EXPECT_EQ(early.status, 200);
    Json info = jsonOf(test::httpRequest(serve.port(), "GET", "/api/info"));
    EXPECT_EQ(info["hydrology"]["enabled"], true);
    if (info["hydrology"]["state"] == "running") {
        EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/tiles/water/0/0/0.png").status, 503);
        EXPECT_EQ(early.header("cache-control"), "no-store") << "a tile before its water is not kept";
    }
    double progress = 0;
    for (int i = 0; i < 1200 && info["hydrology"]["state"] == "running"; ++i) {
        EXPECT_GE(info["hydrology"]["progress"].get<double>(), progress);
        progress = info["hydrology"]["progress"];
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        info = jsonOf(test::httpRequest(serve.port(), "GET", "/api/hydrology"));
        info = Json{{"hydrology", info}};
    }
    ASSERT_EQ(info["hydrology"]["state"], "done");
    const auto water = test::httpRequest(serve.port(), "GET", "/tiles/water/0/0/0.png");
    EXPECT_EQ(water.status, 200);
    const auto late = test::httpRequest(serve.port(), "GET", "/tiles/classes/0/0/0.png");
    EXPECT_NE(late.header("etag"), early.header("etag"));
    const Json cell = jsonOf(test::httpRequest(serve.port(), "GET", "/api/cell?x=128&y=128"));
    EXPECT_TRUE(cell.contains("water"));
    // Without hydrology there is no water layer at all.
    ASSERT_EQ(test::httpRequest(serve.port(), "PUT", "/api/config", "{}").status, 200);
    EXPECT_EQ(test::httpRequest(serve.port(), "GET", "/tiles/water/0/0/0.png").status, 404);
}

/// CPU seconds (user + system) process `pid` has used so far, from /proc/PID/stat.
double cpuSecondsOf(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // after "pid (comm) "
    std::vector<std::string> f{std::istream_iterator<std::string>(fields), {}};
    return double(std::stoll(f.at(11)) + std::stoll(f.at(12))) / double(::sysconf(_SC_CLK_TCK));
}

// A stage that would erode for many minutes is dropped when the config changes: the server
// goes idle at once (its CPU time stops growing), and coming back to that config starts the
// stage again.
TEST(ServeApiTest, ANewConfigCancelsTheRunningHydrologyStage) {
    test::TempDir dir;
    const std::string slow = R"({"map": {"width": 256, "height": 256}, "hydrology": {"enabled": true,
        "erosion": {"enabled": true, "steps": 100000}}})";
    test::ServeProcess serve(dir.path(), {"--width", "64", "--height", "64", "--threads", "1"});
    ASSERT_EQ(test::httpRequest(serve.port(), "PUT", "/api/config", slow).status, 200);
    Json stage;
    for (int i = 0; i < 300; ++i) {
        stage = jsonOf(test::httpRequest(serve.port(), "GET", "/api/hydrology"));
        if (stage["phase"] == "erosion") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(stage["phase"], "erosion") << stage.dump();
    ASSERT_EQ(stage["state"], "running");
    // Working: the stage's thread burns CPU.
    const pid_t pid = serve.child().pid();
    double before = cpuSecondsOf(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    EXPECT_GT(cpuSecondsOf(pid) - before, 0.1) << "the stage is not running";
    ASSERT_EQ(test::httpRequest(serve.port(), "PUT", "/api/config", "{}").status, 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the step in progress ends
    before = cpuSecondsOf(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    EXPECT_LT(cpuSecondsOf(pid) - before, 0.05) << "the replaced config's stage kept running";
    // Back to that config (an undo): its stage runs again.
    ASSERT_EQ(test::httpRequest(serve.port(), "PUT", "/api/config", slow).status, 200);
    EXPECT_EQ(jsonOf(test::httpRequest(serve.port(), "GET", "/api/hydrology"))["state"], "running");
}

TEST(ServeExportTest, ExportWritesARunsFilesIntoTheExportDirectoryOnly) {
    test::TempDir dir;
    const std::string args = "--width 128 --height 96 --seed 6";
    cli(dir, "-q --out-dir ref " + args);
    {
        test::TempDir other;
        test::ServeProcess off(other.path(), {});
        EXPECT_EQ(test::httpRequest(off.port(), "POST", "/api/export").status, 409);
    }
    test::ServeProcess serve(dir.path(), {"--width", "128", "--height", "96", "--seed", "6",
                                          "--out-dir", "exported"});
    const auto started = test::httpRequest(serve.port(), "POST", "/api/export");
    ASSERT_EQ(started.status, 202) << started.body;
    Json status = jsonOf(started);
    for (int i = 0; i < 600 && status["state"] == "running"; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        status = jsonOf(test::httpRequest(serve.port(), "GET", "/api/export"));
    }
    ASSERT_EQ(status["state"], "done") << status.dump();
    EXPECT_EQ(status["directory"], fs::canonical(dir / "exported").string());
    EXPECT_EQ(entriesOf(dir / "exported"), entriesOf(dir / "ref"));
    // Every file the same bytes but stats.json's timings (and with them its size and hash in
    // manifest.json).
    const auto exported = test::withoutTimings(test::snapshotDir(dir / "exported"));
    const auto ref = test::withoutTimings(test::snapshotDir(dir / "ref"));
    for (const auto& [name, bytes] : ref) EXPECT_EQ(exported.at(name), bytes) << name;
    EXPECT_EQ(entriesOf(dir.path()), (std::vector<std::string>{"exported", "ref"}));
}

// Stopped in the middle of an export, the server leaves the export directory as it was: the
// older files intact, no temporary file, as any run stopped by a signal.
TEST(ServeExportTest, ASignalDuringAnExportLeavesTheOlderFilesAsTheyWere) {
    test::TempDir dir;
    cli(dir, "-q --out-dir exported --width 64 --height 64");
    std::map<std::string, std::string> older;
    for (const std::string& name : entriesOf(dir / "exported"))
        older[name] = test::readFile(dir / "exported" / name);
    test::ServeProcess serve(dir.path(), {"--width", "2048", "--height", "2048", "--threads", "2",
                                          "--out-dir", "exported"});
    ASSERT_EQ(test::httpRequest(serve.port(), "POST", "/api/export").status, 202);
    Json status;
    for (int i = 0; i < 3000; ++i) {
        status = jsonOf(test::httpRequest(serve.port(), "GET", "/api/export"));
        if (status["tiles_done"].get<int>() > 0 || status["state"] != "running") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(status["state"], "running") << "the export ended before the signal";
    serve.child().signal(SIGINT);
    EXPECT_EQ(serve.child().wait().shellCode(), 130);
    std::map<std::string, std::string> after;
    for (const std::string& name : entriesOf(dir / "exported"))
        after[name] = test::readFile(dir / "exported" / name);
    EXPECT_EQ(after, older);
}

TEST(ServeSignalTest, SigintAndSigtermStopTheServer) {
    for (const int sig : {SIGINT, SIGTERM}) {
        test::TempDir dir;
        test::ServeProcess serve(dir.path(), {});
        ASSERT_EQ(test::httpRequest(serve.port(), "GET", "/api/info").status, 200);
        serve.child().signal(sig);
        const test::ChildExit exit = serve.child().wait();
        EXPECT_EQ(exit.shellCode(), 128 + sig);
        EXPECT_THAT(serve.child().err(), HasSubstr("stopped by"));
    }
}

}  // namespace
}  // namespace terragrid

namespace terragrid {
namespace {

/// Starts `terragrid serve ARGS` (not --quiet) in `dir` and waits for the line with its URL.
std::unique_ptr<test::Child> startedServe(const test::TempDir& dir, std::vector<std::string> args) {
    args.insert(args.begin(), {"serve", "--port", "0"});
    auto child = std::make_unique<test::Child>(test::ChildSetup(dir.path(), args));
    for (int i = 0; i < 600 && child->out().find('\n') == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return child;
}

/// The port at the end of the URL `line` prints ("...http://HOST:PORT/").
int portOf(const std::string& line) {
    const auto colon = line.rfind(':');
    return colon == std::string::npos ? 0 : std::atoi(line.c_str() + colon + 1);
}

TEST(ServeCliTest, ListensOnLoopbackByDefaultAndWarnsWhenAHostExposesIt) {
    test::TempDir dir;
    {
        const auto serve = startedServe(dir, {"--width", "128", "--height", "128"});
        EXPECT_THAT(serve->out(), ::testing::StartsWith("terragrid: serving the explorer at "
                                                        "http://127.0.0.1:"));
        EXPECT_EQ(serve->err(), "") << "no warning on loopback";
        EXPECT_EQ(test::httpRequest(portOf(serve->out()), "GET", "/api/info").status, 200);
    }
    {
        const auto serve = startedServe(dir, {"--width", "128", "--height", "128", "--host",
                                              "0.0.0.0"});
        EXPECT_THAT(serve->out(), HasSubstr("http://0.0.0.0:"));
        EXPECT_THAT(serve->err(), HasSubstr("warning: serving on 0.0.0.0, reachable from other "
                                            "machines"));
        EXPECT_EQ(test::httpRequest(portOf(serve->out()), "GET", "/api/info").status, 200);
    }
    const test::ChildResult bad =
        test::runChild(test::ChildSetup(dir.path(), {"serve", "--host", "example.org"}));
    EXPECT_EQ(bad.exit.shellCode(), 2);
    EXPECT_THAT(bad.err, HasSubstr("'--host' must be an IP address"));
    EXPECT_THAT(bad.err, HasSubstr("example.org"));
    const test::ChildResult port =
        test::runChild(test::ChildSetup(dir.path(), {"serve", "--port", "70000"}));
    EXPECT_EQ(port.exit.shellCode(), 2);
    EXPECT_THAT(port.err, HasSubstr("'--port' must be a whole number from 0 to 65535 (got '70000')"));
    EXPECT_TRUE(entriesOf(dir.path()).empty()) << "serving writes nothing";
}

TEST(ServeCliTest, TheUsageNamesServeAndItsHelpItsOptions) {
    test::TempDir dir;
    const std::string help = cli(dir, "--help");
    EXPECT_THAT(help, HasSubstr("terragrid serve [OPTION...]"));
    // Its line in the commands' table (cli/commands.hpp).
    EXPECT_THAT(help, HasSubstr("\n  serve             run the map explorer: a local web server"));
    const std::string serveHelp = cli(dir, "serve --help");
    for (const char* option : {"--port", "--host", "--out-dir", "--threads", "--config", "--set",
                               "--cache-mb", "--request-timeout", "--max-connections"})
        EXPECT_THAT(serveHelp, HasSubstr(option)) << option;
    EXPECT_THAT(serveHelp, HasSubstr("127.0.0.1"));
}

}  // namespace
}  // namespace terragrid

#include "serve/explorer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>
#include <tbb/task_arena.h>

#include "serve/assets.hpp"
#include "serve/hydrology_job.hpp"
#include "serve/tile_renderer.hpp"
#include "terragrid/version.hpp"

namespace terragrid::serve {
namespace {

using Json = nlohmann::ordered_json;

/// Recent configs kept besides the current one.
constexpr std::size_t kRecentMaps = 4;

std::string dump(const Json& json) {
    return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// The value of `key` in a query string ("a=1&b=2"), or nullopt.
std::optional<std::string_view> queryValue(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        const auto eq = pair.find('=');
        if (pair.substr(0, eq) == key)
            return eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

/// A cell index: plain digits, at most 18 of them.
std::optional<std::int64_t> indexOf(std::string_view text) {
    if (text.empty() || text.size() > 18) return std::nullopt;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text[0] == '-' || text[0] == '+')
        return std::nullopt;
    return value;
}

HttpResponse methodNotAllowed(std::string_view allowed) {
    HttpResponse r = HttpResponse::error(405, "method not allowed here; use " + std::string(allowed));
    r.headers.emplace_back("Allow", std::string(allowed));
    return r;
}

Json hydrologyJson(const ExploredMap& map) {
    const HydrologyStatus s = map.hydrologyStatus();
    Json j{{"enabled", map.hydrologyEnabled()}, {"state", nameOf(s.state)},
           {"phase", s.phase},                  {"progress", s.progress}};
    if (!s.error.empty()) j["error"] = s.error;
    return j;
}

Json legendJson(const PreviewPainter& painter) {
    Json list = Json::array();
    for (const LegendEntry& e : painter.legend())
        list.push_back({{"colour", hexColour(e.colour)}, {"label", e.label}});
    return list;
}

/// Why a tile of `layer` cannot be made now, or "" when it can.
std::string unavailable(const ExploredMap& map, TileLayer layer, bool wet) {
    if (layer != TileLayer::Water) return {};
    if (!map.hydrologyEnabled())
        return "layer 'water' needs hydrology.enabled true (got false)";
    if (wet) return {};
    const HydrologyStatus s = map.hydrologyStatus();
    if (s.state == HydrologyStatus::State::Failed)
        return "the hydrology stage failed: " + s.error;
    char progress[64];
    std::snprintf(progress, sizeof progress, "%.0f %%", 100.0 * s.progress);
    return "the hydrology stage is running (" + s.phase + ", " + progress +
           "); water tiles follow when it is done";
}

/// The ETag of a tile: what its bytes are a function of.
std::string tileTag(const ExploredMap& map, const TileAddress& a, bool wet) {
    return "\"" + map.hash() + "-" + (map.hydrologyEnabled() ? (wet ? "w" : "d") : "n") + "-" +
           std::string(nameOf(a.layer)) + "-" + std::to_string(a.zoom) + "-" +
           std::to_string(a.x) + "-" + std::to_string(a.y) + "-" + kVersion + "\"";
}

bool matches(std::string_view ifNoneMatch, std::string_view tag) {
    if (ifNoneMatch == "*") return true;
    // A list of tags, any of them weak ("W/").
    return ifNoneMatch.find(tag) != std::string_view::npos;
}

/// /api/stats: stats.json's figures for the cells of the coverage sample (every cell up to
/// 2^20, else a regular sub-grid of about that many), evaluated through generateCells.
std::string statsJson(const ExploredMap& map, const MapWater* water) {
    const MapFields& fields = water ? water->fields : map.dryFields();
    const CellGrid sample = coverageSampleGrid(map.config().map);
    const auto& classes = map.terrain().classes();
    std::vector<std::int64_t> classCells(classes.size(), 0);
    std::int64_t cells = 0, walkable = 0, lakeCells = 0, riverCells = 0;
    double sum = 0;
    float low = std::numeric_limits<float>::infinity(), high = -low;
    CellValues values;
    CellGrid band;
    band.cols = sample.cols;
    constexpr std::size_t kBandRows = 32;
    tbb::task_arena single(1);
    for (std::size_t r0 = 0; r0 < sample.rows.size(); r0 += kBandRows) {
        const std::size_t r1 = std::min(sample.rows.size(), r0 + kBandRows);
        band.rows.assign(sample.rows.begin() + std::ptrdiff_t(r0),
                         sample.rows.begin() + std::ptrdiff_t(r1));
        single.execute([&] { generateCells(fields, band, values); });
        for (std::size_t i = 0; i < values.elevationMeters.size(); ++i) {
            const float e = values.elevationMeters[i];
            low = std::min(low, e);
            high = std::max(high, e);
            sum += e;
            ++classCells[values.classIndex[i]];
            walkable += values.walkable[i];
            if (!values.water.empty()) {
                lakeCells += values.water[i] == std::uint8_t(Water::Lake);
                riverCells += values.water[i] == std::uint8_t(Water::River);
            }
        }
        cells += static_cast<std::int64_t>(values.elevationMeters.size());
    }
    const auto share = [&](std::int64_t n) { return cells == 0 ? 0.0 : double(n) / double(cells); };
    const std::int64_t step = sample.cols.size() > 1 ? sample.cols[1] - sample.cols[0] : 1;
    Json j;
    j["config_hash"] = map.hash();
    j["sample"] = {{"cells", cells},
                   {"step", step},
                   {"whole_map", step == 1},
                   {"note", step == 1 ? "every cell of the map"
                                      : "the centre cell of every " + std::to_string(step) +
                                            " x " + std::to_string(step) +
                                            " block (the coverage sample); a run's stats.json "
                                            "counts every cell"}};
    j["elevation"] = {{"min_m", low}, {"max_m", high}, {"mean_m", cells ? sum / double(cells) : 0.0}};
    Json list = Json::array();
    for (std::size_t i = 0; i < classes.size(); ++i)
        list.push_back({{"index", i},
                        {"name", classes[i].name},
                        {"colour", hexColour(classes[i].colour)},
                        {"walkable", classes[i].walkable},
                        {"cells", classCells[i]},
                        {"share", share(classCells[i])}});
    j["classes"] = list;
    j["walkable"] = {{"cells", walkable},
                     {"share", share(walkable)},
                     {"note", "by class and fords, before terrain.connectivity"}};
    if (water) {
        const HydrologyFacts& f = water->stage->facts;
        j["hydrology"] = {{"lakes", f.lakes},
                          {"lake_cells", f.lakeCells},
                          {"sea_cells", f.seaCells},
                          {"river_grid_cells", f.riverCells},
                          {"sample_lake_share", share(lakeCells)},
                          {"sample_river_share", share(riverCells)},
                          {"seconds", f.totalSeconds}};
    }
    return dump(j);
}

}  // namespace

HttpResponse HttpResponse::text(int status, std::string text) {
    HttpResponse r;
    r.status = status;
    r.body = std::move(text);
    if (r.body.empty() || r.body.back() != '\n') r.body += '\n';
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

HttpResponse HttpResponse::json(int status, std::string json) {
    HttpResponse r;
    r.status = status;
    r.contentType = "application/json";
    r.body = std::move(json);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

HttpResponse HttpResponse::error(int status, const std::string& message) {
    return json(status, dump(Json{{"status", status}, {"error", message}}));
}

Explorer::Explorer(const LoadedConfig& config, const ExplorerSettings& settings)
    : m_settings(settings), m_cache(settings.cacheBytes) {
    if (settings.outDir) m_export.emplace(*settings.outDir, settings.threads);
    makeCurrent(std::make_shared<ExploredMap>(config));
}

std::shared_ptr<ExploredMap> Explorer::current() const {
    const std::lock_guard lock(m_mutex);
    return m_current;
}

std::shared_ptr<ExploredMap> Explorer::mapOf(std::string_view hash) const {
    const std::lock_guard lock(m_mutex);
    if (m_current->hash() == hash) return m_current;
    for (const auto& map : m_recent)
        if (map->hash() == hash) return map;
    return nullptr;
}

void Explorer::makeCurrent(std::shared_ptr<ExploredMap> map) {
    std::shared_ptr<ExploredMap> replaced;
    {
        const std::lock_guard lock(m_mutex);
        if (m_current && m_current->hash() == map->hash()) return;  // the same map: keep it
        // An undo brings a recent map back, with its stage if it finished.
        const auto again = std::find_if(m_recent.begin(), m_recent.end(),
                                        [&](const auto& m) { return m->hash() == map->hash(); });
        if (again != m_recent.end()) {
            map = *again;
            m_recent.erase(again);
        }
        replaced = m_current;
        m_current = map;
        if (replaced) {
            m_recent.push_front(replaced);
            if (m_recent.size() > kRecentMaps) m_recent.pop_back();
        }
    }
    if (replaced) replaced->cancelHydrology();
    if (map->hydrologyEnabled() && !map->water() &&
        map->hydrologyStatus().state != HydrologyStatus::State::Running)
        startHydrologyJob(map, m_settings.threads);
}

RouteResult Explorer::handle(const HttpRequest& request) {
    const std::string_view target = request.target;
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    const std::string_view query = q == std::string_view::npos ? "" : target.substr(q + 1);
    if (path.empty() || path[0] != '/') return HttpResponse::error(400, "the request target must be a path");
    // Every path the explorer serves is plain ASCII: an escape can only be an attempt to name
    // something else ("%2e%2e", "%2f").
    if (path.find('%') != std::string_view::npos)
        return HttpResponse::error(400, "percent escapes are not accepted in paths");
    const bool get = request.method == "GET" || request.method == "HEAD";
    if (path.starts_with("/tiles/")) {
        if (!get) return methodNotAllowed("GET, HEAD");
        return tile(request, path.substr(7), query);
    }
    if (path == "/api/info") return get ? info() : methodNotAllowed("GET, HEAD");
    if (path == "/api/config") {
        if (get) return HttpResponse::json(200, current()->config().resolvedJson);
        if (request.method == "PUT") return putConfig(request);
        return methodNotAllowed("GET, HEAD, PUT");
    }
    if (path == "/api/schema")
        return get ? HttpResponse::json(200, configSchemaJson()) : methodNotAllowed("GET, HEAD");
    if (path == "/api/cell") return get ? cell(query) : RouteResult(methodNotAllowed("GET, HEAD"));
    if (path == "/api/stats") return get ? stats() : RouteResult(methodNotAllowed("GET, HEAD"));
    if (path == "/api/hydrology")
        return get ? HttpResponse::json(200, dump(hydrologyJson(*current())))
                   : methodNotAllowed("GET, HEAD");
    if (path == "/api/export") return exportRequest(request);
    if (path.starts_with("/api/")) return HttpResponse::error(404, "no API endpoint " + std::string(path.substr(0, 64)));
    if (!get) return methodNotAllowed("GET, HEAD");
    return asset(request, path);
}

HttpResponse Explorer::asset(const HttpRequest& request, std::string_view path) const {
    const EmbeddedAsset* found = findAsset(path);
    if (!found) return HttpResponse::error(404, "nothing is served at " + std::string(path.substr(0, 64)));
    HttpResponse r;
    r.headers.emplace_back("ETag", std::string(found->etag));
    r.headers.emplace_back("Cache-Control", "no-cache");
    if (matches(request.ifNoneMatch, found->etag)) {
        r.status = 304;
        r.contentType.clear();
        return r;
    }
    r.contentType = std::string(found->contentType);
    r.body = std::string(found->bytes);
    return r;
}

RouteResult Explorer::tile(const HttpRequest& request, std::string_view path,
                           std::string_view query) {
    const TilePathResult parsed = parseTilePath(path);
    if (!parsed.address) return HttpResponse::error(parsed.status, parsed.message);
    const TileAddress address = *parsed.address;
    const auto hash = queryValue(query, "config");
    std::shared_ptr<ExploredMap> map = hash ? mapOf(*hash) : current();
    if (!map)
        return HttpResponse::error(404, "config " + std::string(hash->substr(0, 32)) +
                                            " is not loaded (GET /api/config for the current one)");
    const TilePyramid& pyramid = map->pyramid();
    if (!pyramid.contains(address)) {
        std::string where = "zoom " + std::to_string(address.zoom) + " is not in this map (0.." +
                            std::to_string(pyramid.maxZoom()) + ")";
        if (address.zoom <= pyramid.maxZoom())
            where = "tile " + std::to_string(address.x) + "," + std::to_string(address.y) +
                    " is outside the map at zoom " + std::to_string(address.zoom) + " (x 0.." +
                    std::to_string(pyramid.tilesAcross(address.zoom) - 1) + ", y 0.." +
                    std::to_string(pyramid.tilesDown(address.zoom) - 1) + ")";
        return HttpResponse::error(404, where);
    }
    std::shared_ptr<const MapWater> water = map->water();
    const bool wet = water != nullptr;
    if (const std::string why = unavailable(*map, address.layer, wet); !why.empty()) {
        HttpResponse r = HttpResponse::error(map->hydrologyEnabled() ? 503 : 404, why);
        if (r.status == 503) r.headers.emplace_back("Retry-After", "1");
        return r;
    }
    const bool final = !map->hydrologyEnabled() || wet;
    const std::string tag = tileTag(*map, address, wet);
    // Tiles addressed by their config's hash never change; the current config's tiles are
    // checked again each time (a 304 when unchanged); tiles still waiting for the stage's water
    // are not kept at all.
    const std::string cacheControl = !final ? "no-store"
                                     : hash ? "public, max-age=31536000, immutable"
                                            : "no-cache";
    const auto respond = [tag, cacheControl](const TileCache::Bytes& bytes) {
        HttpResponse r;
        r.contentType = "image/png";
        r.body = *bytes;
        r.headers.emplace_back("ETag", tag);
        r.headers.emplace_back("Cache-Control", cacheControl);
        return r;
    };
    if (matches(request.ifNoneMatch, tag)) {
        HttpResponse r;
        r.status = 304;
        r.contentType.clear();
        r.headers.emplace_back("ETag", tag);
        r.headers.emplace_back("Cache-Control", cacheControl);
        return r;
    }
    if (const TileCache::Bytes hit = m_cache.find(tag)) return respond(hit);
    return DeferredResponse([this, map, water, address, tag, respond] {
        const std::vector<std::uint8_t> png = renderTilePng(*map, water.get(), address);
        auto bytes = std::make_shared<const std::string>(png.begin(), png.end());
        m_cache.insert(tag, bytes);
        return respond(bytes);
    });
}

RouteResult Explorer::putConfig(const HttpRequest& request) {
    return DeferredResponse([this, body = request.body] {
        std::shared_ptr<ExploredMap> map;
        try {
            map = std::make_shared<ExploredMap>(parseConfig(body, "PUT /api/config"));
        } catch (const ConfigError& e) {
            Json problems = Json::array();
            for (const std::string& p : e.problems()) problems.push_back(p);
            return HttpResponse::json(
                400, dump(Json{{"status", 400}, {"error", e.what()}, {"problems", problems}}));
        }
        makeCurrent(std::move(map));
        return info();
    });
}

RouteResult Explorer::cell(std::string_view query) {
    const auto xText = queryValue(query, "x");
    const auto yText = queryValue(query, "y");
    const auto x = xText ? indexOf(*xText) : std::nullopt;
    const auto y = yText ? indexOf(*yText) : std::nullopt;
    if (!x || !y)
        return HttpResponse::error(400, "/api/cell takes x (column) and y (row) as whole numbers "
                                        "from 0, e.g. /api/cell?x=10&y=20");
    std::shared_ptr<ExploredMap> map = current();
    const MapConfig& m = map->config().map;
    if (*x >= m.width || *y >= m.height)
        return HttpResponse::error(404, "cell (" + std::to_string(*x) + ", " + std::to_string(*y) +
                                            ") is outside the " + std::to_string(m.width) + " x " +
                                            std::to_string(m.height) + " map");
    return DeferredResponse([map, col = *x, row = *y] {
        const std::shared_ptr<const MapWater> water = map->water();
        const MapFields& fields = water ? water->fields : map->dryFields();
        CellValues v;
        generateCells(fields, CellGrid{{col}, {row}}, v);
        const TerrainClass& c = map->terrain().classes()[v.classIndex[0]];
        Json j{{"x", col},
               {"y", row},
               {"config_hash", map->hash()},
               {"height_m", v.elevationMeters[0]},
               {"moisture", fields.moisture.sample(col, row)},
               {"class", {{"index", v.classIndex[0]}, {"name", c.name}, {"colour", hexColour(c.colour)}}},
               {"walkable", v.walkable[0] != 0}};
        if (water) {
            static constexpr const char* kKinds[] = {"land", "lake", "river"};
            j["water"] = {{"kind", kKinds[std::min<std::size_t>(v.water[0], 2)]},
                          {"depth_m", v.waterDepth[0]},
                          {"flow", v.flow[0]},
                          {"strahler", v.riverOrder[0]}};
        }
        j["hydrology"] = hydrologyJson(*map);
        return HttpResponse::json(200, dump(j));
    });
}

RouteResult Explorer::stats() {
    std::shared_ptr<ExploredMap> map = current();
    const std::shared_ptr<const MapWater> water = map->water();
    if (auto cached = map->cachedStats(water != nullptr)) return HttpResponse::json(200, *cached);
    return DeferredResponse([map, water] {
        auto json = std::make_shared<const std::string>(statsJson(*map, water.get()));
        map->cacheStats(water != nullptr, json);
        return HttpResponse::json(200, *json);
    });
}

HttpResponse Explorer::info() const {
    const std::shared_ptr<ExploredMap> map = current();
    const Config& config = map->config();
    const std::shared_ptr<const MapWater> water = map->water();
    const bool wet = water != nullptr;
    Json layers = Json::array();
    for (std::size_t i = 0; i < kTileLayerNames.size(); ++i) {
        const auto layer = static_cast<TileLayer>(i);
        const std::string why = unavailable(*map, layer, wet);
        Json l{{"name", kTileLayerNames[i]}, {"ready", why.empty()},
               {"final", why.empty() && (!map->hydrologyEnabled() || wet)}};
        if (!why.empty()) l["reason"] = why;
        layers.push_back(l);
    }
    Json classes = Json::array();
    for (std::size_t i = 0; i < map->terrain().classes().size(); ++i) {
        const TerrainClass& c = map->terrain().classes()[i];
        classes.push_back({{"index", i}, {"name", c.name}, {"colour", hexColour(c.colour)},
                           {"walkable", c.walkable}});
    }
    Json j;
    j["version"] = kVersion;
    j["hash"] = map->hash();
    j["seed"] = config.seed;
    j["map"] = {{"width", config.map.width},
                {"height", config.map.height},
                {"cell_size", config.map.cellSize},
                {"cell_meters", map->cellMeters()}};
    j["zoom"] = {{"min", 0}, {"max", map->pyramid().maxZoom()}, {"tile_size", kTilePixels}};
    j["elevation"] = {{"min_m", config.elevation.minMeters}, {"max_m", config.elevation.maxMeters}};
    j["layers"] = layers;
    j["classes"] = classes;
    // height.png's ramp spans the eroded heights once the stage is done (MapWater).
    j["legend"] = {{"preview", legendJson(map->previewPainter())},
                   {"height", legendJson(water ? water->heightPainter : map->heightPainter())}};
    j["hydrology"] = hydrologyJson(*map);
    Json exporting{{"available", m_export.has_value()}};
    if (m_export) exporting["directory"] = m_export->directory();
    j["export"] = exporting;
    j["cache"] = {{"bytes", m_cache.bytes()}, {"capacity", m_cache.capacity()},
                  {"entries", m_cache.entries()}};
    return HttpResponse::json(200, dump(j));
}

HttpResponse Explorer::exportRequest(const HttpRequest& request) {
    const bool get = request.method == "GET" || request.method == "HEAD";
    if (!get && request.method != "POST") return methodNotAllowed("GET, HEAD, POST");
    if (!m_export)
        return HttpResponse::error(409, "export is off: start terragrid serve with --out-dir DIR "
                                        "to export into DIR");
    if (request.method == "POST" && !m_export->start(current()->config()))
        return HttpResponse::error(409, "an export is running already");
    const ExportStatus s = m_export->status();
    Json j{{"state", nameOf(s.state)},
           {"directory", m_export->directory()},
           {"config_hash", s.configHash},
           {"tiles_done", s.tilesDone},
           {"tiles_total", s.tilesTotal},
           {"files", s.files},
           {"seconds", s.seconds}};
    if (!s.error.empty()) j["error"] = s.error;
    return HttpResponse::json(request.method == "POST" ? 202 : 200, dump(j));
}

}  // namespace terragrid::serve

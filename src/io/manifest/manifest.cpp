#include "terragrid/io/manifest.hpp"

#include "io/manifest/sha256.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>

#include "io/transaction/atomic_file.hpp"
#include "io/transaction/output_transaction.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kFormatName = "terragrid-manifest";
constexpr std::string_view kSourceNames[] = {"run", "mosaic"};

Json windowJson(const CellWindow& w) {
    return {{"col", w.col0}, {"row", w.row0}, {"width", w.width}, {"height", w.height}};
}

/// The value at `key` of `object`, or ManifestError naming the key.
const Json& field(const Json& object, const char* key, const std::string& path) {
    if (!object.is_object() || !object.contains(key))
        throw ManifestError("'" + path + "' is not a terragrid manifest: it has no '" + key + "'");
    return object.at(key);
}

template <typename T>
T valueOf(const Json& object, const char* key, const std::string& path) {
    try {
        return field(object, key, path).get<T>();
    } catch (const Json::exception&) {
        throw ManifestError("'" + path + "' is not a terragrid manifest: '" + key +
                            "' has the wrong type (got " + object.at(key).dump() + ")");
    }
}

CellWindow windowFrom(const Json& j, const std::string& path) {
    return {valueOf<std::int64_t>(j, "col", path), valueOf<std::int64_t>(j, "row", path),
            valueOf<std::int64_t>(j, "width", path), valueOf<std::int64_t>(j, "height", path)};
}

/// A file name as the manifest may list it: a plain name or a relative path inside the
/// directory, never one that leaves it.
bool isInside(const std::string& name) {
    if (name.empty() || name.front() == '/') return false;
    for (const auto& part : std::filesystem::path(name))
        if (part == ".." || part == ".") return false;
    return true;
}

Manifest manifestFrom(const Json& j, const std::string& path) {
    if (!j.is_object() || j.value("format", "") != kFormatName)
        throw ManifestError("'" + path + "' is not a terragrid manifest (no \"format\": \"" +
                            std::string(kFormatName) + "\")");
    const int version = valueOf<int>(j, "format_version", path);
    if (version != kManifestFormatVersion)
        throw ManifestError("'" + path + "' is a manifest of format version " +
                            std::to_string(version) + ", and this terragrid reads version " +
                            std::to_string(kManifestFormatVersion));
    Manifest m;
    const std::string source = valueOf<std::string>(j, "made_by", path);
    m.source = source == kSourceNames[1] ? ManifestSource::Mosaic : ManifestSource::Run;
    m.terragridVersion = valueOf<std::string>(j, "terragrid_version", path);
    m.configHash = valueOf<std::string>(j, "config_hash", path);
    m.noiseVersion = valueOf<int>(j, "noise_version", path);
    const Json& hydrology = field(j, "hydrology_version", path);
    m.hydrologyVersion = hydrology.is_null() ? 0 : valueOf<std::uint32_t>(j, "hydrology_version", path);
    const Json& map = field(j, "map", path);
    m.mapWidth = valueOf<std::int64_t>(map, "width", path);
    m.mapHeight = valueOf<std::int64_t>(map, "height", path);
    m.window = windowFrom(field(j, "window", path), path);
    if (j.contains("shard") && !j.at("shard").is_null())
        m.shard = Shard{valueOf<std::int64_t>(j.at("shard"), "index", path),
                        valueOf<std::int64_t>(j.at("shard"), "count", path)};
    const Json& files = field(j, "files", path);
    if (!files.is_array())
        throw ManifestError("'" + path + "' is not a terragrid manifest: 'files' is not a list");
    for (const Json& f : files) {
        ManifestFile file{valueOf<std::string>(f, "name", path),
                          {valueOf<std::uint64_t>(f, "bytes", path),
                           valueOf<std::string>(f, "sha256", path)}};
        if (!isInside(file.name))
            throw ManifestError("'" + path + "' lists a file outside its directory: '" +
                                file.name + "'");
        m.files.push_back(std::move(file));
    }
    if (j.contains("config") && j.at("config").is_object()) m.configJson = j.at("config").dump();
    return m;
}

}  // namespace

const ManifestFile* Manifest::find(std::string_view name) const noexcept {
    const auto it = std::find_if(files.begin(), files.end(),
                                 [&](const ManifestFile& f) { return f.name == name; });
    return it == files.end() ? nullptr : &*it;
}

std::string manifestJson(const Manifest& m) {
    Json j;
    j["format"] = kFormatName;
    j["format_version"] = kManifestFormatVersion;
    j["made_by"] = kSourceNames[static_cast<std::size_t>(m.source)];
    j["terragrid_version"] = m.terragridVersion;
    j["config_hash"] = m.configHash;
    j["noise_version"] = m.noiseVersion;
    j["hydrology_version"] = m.hydrologyVersion == 0 ? Json(nullptr) : Json(m.hydrologyVersion);
    j["map"] = {{"width", m.mapWidth}, {"height", m.mapHeight}};
    j["window"] = windowJson(m.window);
    j["shard"] = m.shard ? Json{{"index", m.shard->index}, {"count", m.shard->count}}
                         : Json(nullptr);
    Json files = Json::array();
    for (const ManifestFile& f : m.files)
        files.push_back({{"name", f.name}, {"bytes", f.digest.bytes}, {"sha256", f.digest.sha256}});
    j["files"] = std::move(files);
    j["config"] = m.configJson.empty() ? Json(nullptr) : Json::parse(m.configJson);
    return j.dump(2) + "\n";
}

std::uint64_t manifestJsonBound(Manifest header, std::int64_t files) {
    header.files.assign(static_cast<std::size_t>(std::max<std::int64_t>(files, 0)),
                        ManifestFile{std::string(NAME_MAX, 'x'),
                                     FileDigest{UINT64_MAX, std::string(64, 'f')}});
    return manifestJson(header).size();
}

Manifest readManifest(const std::string& directory) {
    const std::string path = (std::filesystem::path(directory) / kManifestName).string();
    std::error_code error;
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, error)))
        throw ManifestError("'" + directory + "' has no " + std::string(kManifestName) +
                            " (a regular file): it is not the output of a terragrid run, or of "
                            "one older than manifests",
                            true);
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) throw ManifestError("cannot read '" + path + "'");
    Json j;
    try {
        j = Json::parse(text.str());
    } catch (const Json::parse_error& e) {
        throw ManifestError("'" + path + "' is not valid JSON: " + e.what());
    }
    return manifestFrom(j, path);
}

void digestStaged(const OutputTransaction& transaction, std::vector<ManifestFile>& known) {
    std::vector<StagedFile> staged;
    for (StagedFile& file : transaction.stagedFiles()) {
        const auto same = [&](const ManifestFile& f) { return f.name == file.name; };
        if (std::none_of(known.begin(), known.end(), same)) staged.push_back(std::move(file));
    }
    const std::size_t first = known.size();
    known.resize(first + staged.size());
    tbb::parallel_for(std::size_t{0}, staged.size(), [&](std::size_t i) {
        try {
            known[first + i] = {staged[i].name,
                                digestFile(transaction.stagingFd(), staged[i].stagedName,
                                           transaction.stagingPath() + "/" + staged[i].stagedName)};
        } catch (const std::system_error& e) {
            throw OutputError("writing '" + staged[i].name + "' into the manifest: " + e.what());
        }
    });
}

void stageManifest(Manifest header, OutputTransaction& transaction, const std::string& directory,
                   std::vector<ManifestFile> known) {
    digestStaged(transaction, known);
    header.files = std::move(known);
    std::sort(header.files.begin(), header.files.end(),
              [](const ManifestFile& a, const ManifestFile& b) { return a.name < b.name; });
    AtomicFile file((std::filesystem::path(directory) / kManifestName).string());
    file.write(manifestJson(header));
    file.commit();
}

}  // namespace terragrid

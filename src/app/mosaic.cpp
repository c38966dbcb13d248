#include "terragrid/app/mosaic.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <system_error>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>

#include "app/mosaic_coverage.hpp"
#include "app/mosaic_stats.hpp"
#include "io/geotiff/geotiff_reader.hpp"
#include "io/geotiff/raster_styles.hpp"
#include "io/manifest/sha256.hpp"
#include "io/mosaic/vrt.hpp"
#include "io/sinks.hpp"
#include "io/transaction/atomic_file.hpp"
#include "io/transaction/output_transaction.hpp"
#include "pipeline/stopwatch.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/io/manifest.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct Piece {
    std::string dir;
    Manifest manifest;

    std::string path(const std::string& name) const { return (fs::path(dir) / name).string(); }
};

std::vector<Piece> readPieces(const std::vector<std::string>& dirs) {
    if (dirs.empty()) throw MosaicError("give the pieces' directories to mosaic");
    std::vector<Piece> pieces;
    for (const std::string& dir : dirs) {
        try {
            pieces.push_back({dir, readManifest(dir)});
        } catch (const ManifestError& e) {
            throw MosaicError(e.what());
        }
        if (pieces.back().manifest.source != ManifestSource::Run)
            throw MosaicError("'" + dir + "' is the output of a mosaic, not a piece of a map");
    }
    return pieces;
}

/// The pieces are of one map: the first piece's, in every fact that decides the cells.
void checkOneMap(const std::vector<Piece>& pieces) {
    const Manifest& first = pieces.front().manifest;
    const auto differ = [&](const Piece& p, const std::string& what, const std::string& its,
                            const std::string& firsts) {
        throw MosaicError("'" + p.dir + "' is a piece of another map: its " + what + " is " +
                          its + ", '" + pieces.front().dir + "' has " + firsts);
    };
    for (const Piece& p : pieces) {
        const Manifest& m = p.manifest;
        if (m.configHash != first.configHash) differ(p, "config hash", m.configHash, first.configHash);
        if (m.terragridVersion != first.terragridVersion)
            differ(p, "terragrid version", m.terragridVersion, first.terragridVersion);
        if (m.noiseVersion != first.noiseVersion)
            differ(p, "noise version", std::to_string(m.noiseVersion),
                   std::to_string(first.noiseVersion));
        if (m.hydrologyVersion != first.hydrologyVersion)
            differ(p, "hydrology algorithm version", std::to_string(m.hydrologyVersion),
                   std::to_string(first.hydrologyVersion));
        if (m.mapWidth != first.mapWidth || m.mapHeight != first.mapHeight)
            differ(p, "map", std::to_string(m.mapWidth) + " x " + std::to_string(m.mapHeight),
                   std::to_string(first.mapWidth) + " x " + std::to_string(first.mapHeight));
    }
}

void checkCoverage(const std::vector<Piece>& pieces) {
    const Manifest& first = pieces.front().manifest;
    std::vector<CoveragePiece> windows;
    for (const Piece& p : pieces) {
        const CellWindow& w = p.manifest.window;
        if (w.col0 < 0 || w.row0 < 0 || w.width < 1 || w.height < 1 ||
            w.col0 + w.width > first.mapWidth || w.row0 + w.height > first.mapHeight)
            throw MosaicError("the manifest of '" + p.dir + "' gives a window outside its map");
        windows.push_back({p.dir, w});
    }
    const auto problems = coverageProblems(windows, first.mapWidth, first.mapHeight);
    if (problems.empty()) return;
    std::string text = "the pieces do not cover the " + std::to_string(first.mapWidth) + " x " +
                       std::to_string(first.mapHeight) + " map exactly once: ";
    for (std::size_t i = 0; i < problems.size(); ++i) text += (i ? "; " : "") + problems[i];
    throw MosaicError(text);
}

/// Every file of every piece is the one its manifest lists (read in parallel).
void checkFiles(const std::vector<Piece>& pieces) {
    std::vector<std::pair<std::string, const FileDigest*>> files;
    for (const Piece& p : pieces)
        for (const ManifestFile& f : p.manifest.files) files.emplace_back(p.path(f.name), &f.digest);
    std::vector<std::string> problems(files.size());
    tbb::parallel_for(std::size_t{0}, files.size(), [&](std::size_t i) {
        problems[i] = fileProblem(files[i].first, *files[i].second);
    });
    std::string text;
    for (const std::string& problem : problems)
        if (!problem.empty()) text += (text.empty() ? "" : "; ") + problem;
    if (!text.empty()) throw MosaicError("a piece is not as its run left it: " + text);
}

/// The pieces' config, writing into `outDir` (and with merge, as COGs). Its hash must be the
/// one the pieces' manifests carry, or the config would not be the one that made them.
LoadedConfig piecesConfig(const Piece& piece, const std::string& outDir, bool merge) {
    const Manifest& m = piece.manifest;
    if (m.configJson.empty())
        throw MosaicError("the manifest of '" + piece.dir + "' has no config");
    const std::string source = "the config in '" + piece.path(std::string(kManifestName)) + "'";
    std::vector<std::string> overrides{"output.directory=" + Json(outDir).dump()};
    try {
        if (parseConfig(m.configJson, source, overrides).hash != m.configHash)
            throw MosaicError(source + " does not have the config hash the manifest gives (" +
                              m.configHash + ")");
        if (merge) overrides.push_back("output.layout=\"cog\"");
        return parseConfig(m.configJson, source, overrides);
    } catch (const ConfigError& e) {
        throw MosaicError(e.what());
    }
}

void createDirectory(const std::string& directory) {
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec) throw OutputError("cannot create output directory '" + directory + "': " + ec.message());
}

/// How the VRT in `outDir` names a piece's file: relative to it when both are on one path.
VrtSource vrtSource(const Piece& piece, const std::string& name, const std::string& outDir) {
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(fs::absolute(piece.path(name)), ec);
    const fs::path base = fs::weakly_canonical(fs::absolute(outDir), ec);
    const fs::path relative = target.lexically_relative(base);
    const bool useRelative = !ec && !relative.empty();
    return {useRelative ? relative.string() : target.string(), useRelative, piece.manifest.window};
}

void writeText(const std::string& path, const std::string& text) {
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

template <typename T>
void writeBlock(GeoTiffWriter& writer, const CellWindow& w, std::int64_t row, std::int64_t rows,
                const std::vector<std::byte>& cells) {
    writer.writeBlock(w.col0, row, w.width, rows, reinterpret_cast<const T*>(cells.data()));
}

/// The pieces' cells of one raster into one GeoTIFF written with `options`: a band of TIFF
/// tile rows at a time, each piece's reader open only while the band crosses it.
void mergeRaster(const std::vector<const Piece*>& byRow, const std::string& name,
                 const GeoTiffOptions& options, const std::string& path) {
    GeoTiffWriter writer(path, options);
    std::map<const Piece*, std::unique_ptr<GeoTiffReader>> open;
    std::vector<std::byte> cells;
    for (std::int64_t band0 = 0; band0 < options.height; band0 += options.tileSize) {
        const std::int64_t band1 = std::min(options.height, band0 + options.tileSize);
        for (const Piece* p : byRow) {
            const CellWindow& w = p->manifest.window;
            const std::int64_t r0 = std::max(band0, w.row0), r1 = std::min(band1, w.row0 + w.height);
            if (r0 >= r1) continue;
            auto& reader = open[p];
            if (!reader)
                reader = std::make_unique<GeoTiffReader>(p->path(name), w.width, w.height,
                                                         options.sampleFormat);
            cells.resize(static_cast<std::size_t>((r1 - r0) * w.width) *
                         bytesPerSample(options.sampleFormat));
            reader->readRows(r0 - w.row0, r1 - r0, cells.data());
            switch (options.sampleFormat) {
                case SampleFormat::Float32: writeBlock<float>(writer, w, r0, r1 - r0, cells); break;
                case SampleFormat::UInt8: writeBlock<std::uint8_t>(writer, w, r0, r1 - r0, cells); break;
                case SampleFormat::UInt16: writeBlock<std::uint16_t>(writer, w, r0, r1 - r0, cells); break;
            }
            if (r1 == w.row0 + w.height) open.erase(p);
        }
    }
    writer.close();
    writer.commit();
}

void copyFile(const std::string& from, const std::string& to) {
    std::ifstream in(from, std::ios::binary);
    AtomicFile file(to);
    std::vector<char> chunk(std::size_t{1} << 20);
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
        file.write(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
    if (in.bad()) throw OutputError("reading '" + from + "': read error");
    file.commit();
}

Json readJson(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    try {
        return Json::parse(in);
    } catch (const Json::exception& e) {
        throw MosaicError("'" + path + "' is not valid JSON: " + e.what());
    }
}

/// Whether `name` is a file of `raster` ("classes.tif.aux.xml" of "classes.tif").
bool belongsTo(const std::string& name, const std::string& raster) {
    return name.size() > raster.size() && name.starts_with(raster + ".");
}

class Mosaic {
public:
    Mosaic(const MosaicRequest& request, std::vector<Piece> pieces)
        : m_request(request),
          m_pieces(std::move(pieces)),
          m_config(piecesConfig(m_pieces.front(), request.outDir, request.merge)) {
        for (const Piece& p : m_pieces) m_byRow.push_back(&p);
        std::stable_sort(m_byRow.begin(), m_byRow.end(), [](const Piece* a, const Piece* b) {
            const CellWindow &x = a->manifest.window, &y = b->manifest.window;
            return std::pair(x.row0, x.col0) < std::pair(y.row0, y.col0);
        });
        for (OutputFile file : m_config.output.files)
            if (driverFor(file).geoTiffOptions && driverFor(file).needsClasses(m_config))
                m_terrain.emplace(makeTerrain(m_config));
    }

    MosaicReport write() {
        MosaicReport report;
        createDirectory(m_request.outDir);
        OutputTransaction transaction(m_request.outDir);
        std::set<std::string> rasters;
        for (OutputFile file : m_config.output.files) {
            const OutputDriver& driver = driverFor(file);
            if (!driver.geoTiffOptions) continue;
            rasters.insert(std::string(driver.name));
            writeRaster(file, driver, report);
        }
        copyWholeMapFiles(rasters, report);
        if (m_config.wants(OutputFile::StatsJson)) {
            std::vector<Json> stats;
            for (const Piece* p : m_byRow) stats.push_back(readJson(p->path("stats.json")));
            const std::string path = outputPath(m_config, OutputFile::StatsJson);
            try {
                Json combined = combinedStats(stats);
                combined["config_hash"] = m_config.hash;  // the merged files' (layout "cog")
                writeText(path, combined.dump(2) + "\n");
            } catch (const std::invalid_argument& e) {
                throw MosaicError(std::string("cannot combine the pieces' stats.json: ") + e.what());
            }
            report.files.push_back(path);
        }
        stageManifest(mosaicManifest(), transaction, m_request.outDir);
        report.files.push_back(pathInOutput(m_config, std::string(kManifestName)));
        transaction.commit();
        report.width = m_config.map.width;
        report.height = m_config.map.height;
        return report;
    }

private:
    void writeRaster(OutputFile file, const OutputDriver& driver, MosaicReport& report) {
        const std::string name(driver.name);
        const GeoTiffOptions options =
            driver.geoTiffOptions(m_config, m_terrain ? &*m_terrain : nullptr);
        std::vector<VrtSource> sources;
        for (const Piece* p : m_byRow) sources.push_back(vrtSource(*p, name, m_request.outDir));
        const std::string bandXml =
            file == OutputFile::ClassesTif ? classesBandXml(m_terrain->classes()) : std::string();
        const std::string vrt = pathInOutput(m_config, fs::path(name).stem().string() + ".vrt");
        writeText(vrt, vrtXml(options, sources, bandXml));
        report.files.push_back(vrt);
        if (!m_request.merge) return;
        const std::string merged = outputPath(m_config, file);
        mergeRaster(m_byRow, name, options, merged);
        report.files.push_back(merged);
    }

    /// Files every piece has with the same bytes (the whole map's vectors, styles, a raster's
    /// sidecar): once. The others are pictures of each piece.
    void copyWholeMapFiles(const std::set<std::string>& rasters, MosaicReport& report) {
        std::vector<std::string> perPiece;
        for (const ManifestFile& f : m_pieces.front().manifest.files) {
            if (rasters.contains(f.name) || f.name == "stats.json") continue;
            const bool rasterFile = std::any_of(rasters.begin(), rasters.end(), [&](const auto& r) {
                return belongsTo(f.name, r);
            });
            if (rasterFile && !m_request.merge) continue;  // the VRT carries what it says
            const bool same = std::all_of(m_pieces.begin(), m_pieces.end(), [&](const Piece& p) {
                const ManifestFile* mine = p.manifest.find(f.name);
                return mine && mine->digest == f.digest;
            });
            if (!same) {
                perPiece.push_back(f.name);
                continue;
            }
            const std::string to = pathInOutput(m_config, f.name);
            copyFile(m_pieces.front().path(f.name), to);
            report.files.push_back(to);
        }
        if (!perPiece.empty()) {
            std::string names;
            for (const std::string& n : perPiece) names += (names.empty() ? "" : ", ") + n;
            report.notes.push_back(names + ": a picture or export of each piece, different in "
                                           "each, not part of the mosaic");
        }
    }

    Manifest mosaicManifest() const {
        Manifest m = m_pieces.front().manifest;
        m.source = ManifestSource::Mosaic;
        m.terragridVersion = kVersion;
        m.configHash = m_config.hash;
        m.window = wholeMap(m_config.map);
        m.shard.reset();
        m.files.clear();
        m.configJson = m_config.hashedJson;
        return m;
    }

    const MosaicRequest& m_request;
    std::vector<Piece> m_pieces;
    std::vector<const Piece*> m_byRow;
    LoadedConfig m_config;
    std::optional<Terrain> m_terrain;
};

}  // namespace

MosaicReport mosaicPieces(const MosaicRequest& request) {
    const auto start = Clock::now();
    std::vector<Piece> pieces = readPieces(request.pieces);
    checkOneMap(pieces);
    // A merged file is written by this terragrid's writer: it is the single run's bytes only
    // when this terragrid made the pieces.
    if (request.merge && pieces.front().manifest.terragridVersion != kVersion)
        throw MosaicError("'--merge' writes the rasters with terragrid " + std::string(kVersion) +
                          ", and '" + pieces.front().dir + "' was made by terragrid " +
                          pieces.front().manifest.terragridVersion +
                          ": mosaic them with that version, or without --merge");
    checkCoverage(pieces);
    checkFiles(pieces);
    MosaicReport report = Mosaic(request, std::move(pieces)).write();
    report.seconds = secondsSince(start);
    return report;
}

}  // namespace terragrid

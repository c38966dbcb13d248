// splat_N.png and weight_<class>.png: the terrain classes as the texture weights engines paint
// terrain with (splat_weights.hpp). Splat maps hold four classes each in R, G, B and A, in
// class-table order (Unity terrain layers, Terrain3D and HTerrain take RGBA splat maps);
// Unreal takes one 8-bit grey weightmap per landscape layer. Both are the map's size with its
// north row first, like height16.png. The sinks gather each tile row into full-width rows of
// class indices and hand them to SplatWeights, which keeps only the rows its blending square
// needs; each weight row is encoded as soon as it is known.

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/png/png_georef.hpp"
#include "io/png/png_writer.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "io/engines/splat_weights.hpp"
#include "io/tile_band.hpp"

namespace terragrid {
namespace {

// What both sinks share: the check of each tile's place, the band of class rows being
// gathered, the weights, and one PNG writer per file.
class WeightMapSink : public OutputSink {
public:
    WeightMapSink(const Config& config, const Terrain& terrain, std::vector<std::string> paths,
                  PngFormat format)
        : m_width(config.map.width),
          m_height(config.map.height),
          m_format(format),
          m_weights(config.map.width, config.map.height,
                    static_cast<int>(terrain.classes().size()), config.output.splatBlendCells) {
        for (std::string& path : paths) m_writers.push_back(std::make_unique<PngWriter>(std::move(path)));
    }

    const std::string& path() const override { return m_writers.front()->path(); }
    std::vector<std::string> files() const override {
        std::vector<std::string> all;
        for (const auto& writer : m_writers) all.push_back(writer->path());
        return all;
    }

    void begin(const TileLayout& layout) override {
        checkMapSize(layout, m_width, m_height, path());
        checkPngSize(m_width, m_height, path());
        for (auto& writer : m_writers)
            writer->start(static_cast<std::uint32_t>(m_width), static_cast<std::uint32_t>(m_height),
                          m_format);
    }

    void consume(const Tile& tile) override {
        const TileRect& r = tile.rect;
        if (static_cast<std::int64_t>(tile.classIndex.size()) != r.cellCount())
            throw std::logic_error("sink for '" + path() + "': tile " + std::to_string(r.index) +
                                   " lacks classes for some of its cells");
        const bool bandDone = m_band.place(r, path(), [&](std::int64_t y, std::uint8_t* to) {
            std::copy_n(tile.classIndex.begin() + y * r.width, r.width, to);
        });
        if (!bandDone) return;
        try {
            m_weights.addRows(m_band.data(), m_band.rows(),
                              [&](std::int64_t, const std::vector<std::uint8_t>& w) { writeRow(w); });
        } catch (const std::out_of_range& e) {
            throw std::logic_error("sink for '" + path() + "': " + e.what());
        }
    }

    void finish() override {
        if (m_weights.rowsOut() != m_height)
            throw OutputError("writing '" + path() + "': only " +
                              std::to_string(m_weights.rowsOut()) + " of " +
                              std::to_string(m_height) + " rows arrived");
        for (auto& writer : m_writers) writer->close();
    }

    void commit() override {
        for (auto& writer : m_writers) writer->commit();
    }

    double parallelCpuSeconds() const override {
        double seconds = 0;
        for (const auto& writer : m_writers) seconds += writer->parallelCpuSeconds();
        return seconds;
    }

protected:
    /// Encodes one row of weights (width x classes, cell by cell) into the files.
    virtual void writeRow(const std::vector<std::uint8_t>& weights) = 0;

    std::int64_t m_width;
    std::int64_t m_height;
    std::vector<std::unique_ptr<PngWriter>> m_writers;

private:
    PngFormat m_format;
    SplatWeights m_weights;
    TileBand<std::uint8_t> m_band{m_width};
};

/// splat_0.png, splat_1.png, ...: classes 4i .. 4i + 3 in R, G, B, A of splat_i.png; the
/// channels past the last class are 0.
class SplatSink final : public WeightMapSink {
public:
    SplatSink(const Config& config, const Terrain& terrain)
        : WeightMapSink(config, terrain, splatPaths(config, terrain), PngFormat::Rgba8),
          m_classes(static_cast<std::int64_t>(terrain.classes().size())),
          m_row(static_cast<std::size_t>(m_width * 4)) {}

private:
    void writeRow(const std::vector<std::uint8_t>& weights) override {
        for (std::size_t image = 0; image < m_writers.size(); ++image) {
            std::fill(m_row.begin(), m_row.end(), 0);
            for (std::int64_t x = 0; x < m_width; ++x) {
                for (std::int64_t channel = 0; channel < 4; ++channel) {
                    const auto c = static_cast<std::int64_t>(image) * 4 + channel;
                    if (c < m_classes)
                        m_row[static_cast<std::size_t>(x * 4 + channel)] =
                            weights[static_cast<std::size_t>(x * m_classes + c)];
                }
            }
            m_writers[image]->writeRows(m_row.data(), 1);
        }
    }

    std::int64_t m_classes;
    std::vector<std::uint8_t> m_row;  // one RGBA row
};

/// weight_<class>.png: one 8-bit grey weightmap per class.
class WeightSink final : public WeightMapSink {
public:
    WeightSink(const Config& config, const Terrain& terrain)
        : WeightMapSink(config, terrain, weightPaths(config, terrain), PngFormat::Grey8),
          m_classes(static_cast<std::int64_t>(terrain.classes().size())),
          m_row(static_cast<std::size_t>(m_width)) {}

private:
    void writeRow(const std::vector<std::uint8_t>& weights) override {
        for (std::int64_t c = 0; c < m_classes; ++c) {
            for (std::int64_t x = 0; x < m_width; ++x)
                m_row[static_cast<std::size_t>(x)] = weights[static_cast<std::size_t>(x * m_classes + c)];
            m_writers[static_cast<std::size_t>(c)]->writeRows(m_row.data(), 1);
        }
    }

    std::int64_t m_classes;
    std::vector<std::uint8_t> m_row;  // one grey row
};

}  // namespace

std::int64_t splatImageCount(std::int64_t classCount) noexcept { return (classCount + 3) / 4; }

std::vector<std::string> splatFileNames(std::int64_t classCount) {
    std::vector<std::string> names;
    for (std::int64_t i = 0; i < splatImageCount(classCount); ++i)
        names.push_back("splat_" + std::to_string(i) + ".png");
    return names;
}

std::vector<std::string> weightFileNames(const std::vector<TerrainClass>& classes) {
    std::vector<std::string> names;
    std::set<std::string> taken;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        // Letters, digits, '-' and '_' only, so any class name makes a portable file name;
        // a name two classes would share gets the class index as well.
        std::string safe;
        for (char ch : classes[i].name) {
            const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                               (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
            safe += plain ? ch : '_';
        }
        std::string name = "weight_" + safe + ".png";
        if (!taken.insert(name).second) {
            name = "weight_" + safe + "_" + std::to_string(i) + ".png";
            taken.insert(name);
        }
        names.push_back(name);
    }
    return names;
}

std::vector<std::string> splatPaths(const Config& config, const Terrain& terrain) {
    std::vector<std::string> paths;
    for (const std::string& name : splatFileNames(std::ssize(terrain.classes())))
        paths.push_back((std::filesystem::path(config.output.directory) / name).string());
    return paths;
}

std::vector<std::string> weightPaths(const Config& config, const Terrain& terrain) {
    std::vector<std::string> paths;
    for (const std::string& name : weightFileNames(terrain.classes()))
        paths.push_back((std::filesystem::path(config.output.directory) / name).string());
    return paths;
}

namespace {

// The images with their georeferencing (png_georef.hpp): they lie on the map's grid.
std::unique_ptr<OutputSink> georeferenced(std::unique_ptr<OutputSink> sink,
                                          const Config& config) {
    std::vector<Sidecar> sidecars;
    for (const std::string& image : sink->files())
        for (Sidecar& s : pngGeoSidecars(config, image, 1)) sidecars.push_back(std::move(s));
    return withSidecars(std::move(sink), std::move(sidecars));
}

// splat_N.png (RGBA, a file per four classes) or weight_<class>.png (grey, a file per class),
// each of the map's size with its two georeferencing sidecars; shown under its first file's
// name.
PlannedOutput weightMapsDisk(const Config& config, OutputFile file) {
    // The run's table: with hydrology, lake and river come at its end.
    const std::vector<TerrainClass> table = withWaterClasses(config, config.terrain.classes);
    const auto classes = static_cast<std::int64_t>(table.size());
    const bool splat = file == OutputFile::SplatPng;
    const std::int64_t images = splat ? splatImageCount(classes) : classes;
    PlannedOutput out = bounds::plannedFile(
        config, file,
        bounds::Bytes(images) *
            (bounds::pngBound(config.map.width, config.map.height, splat ? 4 : 1) +
             pngGeoSidecarBytes()),
        true);
    out.files = images * (1 + kPngGeoSidecarFiles);
    const std::string first =
        splat ? splatFileNames(classes).front() : weightFileNames(table).front();
    out.path = (std::filesystem::path(config.output.directory) / first).string();
    return out;
}

// A band of class rows, the rows the blending square spans, per class a count per column and
// a weight per cell of one row, and each file's row and PNG codec.
WriterMemory weightMapsMemory(const Config& config, OutputFile file) {
    using bounds::Bytes;
    const Bytes w = Bytes(config.map.width);
    const Bytes band = Bytes(std::min(config.map.tileSizeCells, config.map.height));
    const auto classes =
        static_cast<Bytes>(withWaterClasses(config, config.terrain.classes).size());
    const Bytes files = file == OutputFile::SplatPng ? bounds::ceilDiv(classes, 4) : classes;
    const Bytes square = 2 * Bytes(config.output.splatBlendCells) + 1;
    return {MemoryGroup::Writers,
            w * (band + square) + w * classes * 3 + files * (4 * w + bounds::kCodecState), 0};
}

}  // namespace

constexpr OutputDriver kSplatPngDriver{
    .file = OutputFile::SplatPng,
    .name = "splat.png",
    .needsClasses = alwaysNeeded,
    .needsRegions = neverNeeded,
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        return georeferenced(
            std::make_unique<SplatSink>(
                config, requiredInput(in.terrain, OutputFile::SplatPng, "a Terrain")),
            config);
    },
    .diskBound = [](const Config& config) { return weightMapsDisk(config, OutputFile::SplatPng); },
    .memoryBound = [](const Config& config, int) {
        return weightMapsMemory(config, OutputFile::SplatPng);
    },
};
static_assert(namedAsInTable(kSplatPngDriver));
const DriverRegistration kSplatPngRegistered{kSplatPngDriver};

constexpr OutputDriver kWeightPngDriver{
    .file = OutputFile::WeightPng,
    .name = "weight.png",
    .needsClasses = alwaysNeeded,
    .needsRegions = neverNeeded,
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        return georeferenced(
            std::make_unique<WeightSink>(
                config, requiredInput(in.terrain, OutputFile::WeightPng, "a Terrain")),
            config);
    },
    .diskBound = [](const Config& config) { return weightMapsDisk(config, OutputFile::WeightPng); },
    .memoryBound = [](const Config& config, int) {
        return weightMapsMemory(config, OutputFile::WeightPng);
    },
};
static_assert(namedAsInTable(kWeightPngDriver));
const DriverRegistration kWeightPngRegistered{kWeightPngDriver};

}  // namespace terragrid

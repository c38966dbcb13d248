// preview.png and height.png: pictures of the map for people, downsampled while the tiles
// stream past and hill-shaded once the last tile is in.

#include <algorithm>
#include <any>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <tbb/parallel_for.h>

#include "io/png/legend.hpp"
#include "io/png/png_georef.hpp"
#include "io/png/png_writer.hpp"
#include "io/png/preview.hpp"
#include "io/png/preview_painter.hpp"
#include "io/png/preview_water.hpp"
#include "io/geotiff/raster_styles.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "terragrid/io/crs.hpp"

namespace terragrid {
namespace {

/// One picture: the class colours (preview.png) or the hypsometric ramp (height.png), both
/// shaded by the same hillshade of the downsampled heights.
class PreviewSink final : public OutputSink {
public:
    /// `terrain` null: height.png, coloured by `ramp`. `range`: the map's heights
    /// (mapHeightRange), which bound the sums of the downsampling.
    PreviewSink(const Config& config, const Terrain* terrain, const HeightRamp& ramp,
                const HeightRange& range)
        : m_mapWidth(config.map.width),
          m_mapHeight(config.map.height),
          m_painter(config, terrain, ramp),
          m_legend(config.output.previewLegend),
          m_downsampler(config.map.width, config.map.height, config.output.previewMaxSize,
                        range.magnitudeMeters(),
                        terrain != nullptr),
          m_pixelSizeMeters(pixelSizeMeters(config, m_downsampler.geometry())),
          m_writer(outputPath(config, terrain ? OutputFile::PreviewPng : OutputFile::HeightPng)),
          // Where the picture lies: each pixel `scale` cells a side (png_georef.hpp).
          m_georef(pngGeoSidecars(config, m_writer.path(), m_downsampler.geometry().scale)) {
        // With hydrology: rivers widened by order and lakes as level water (preview_water).
        if (config.hydrology.enabled) {
            m_rivers.emplace(config.map.width, config.map.height, m_downsampler.geometry());
            if (terrain == nullptr)
                m_lakes.emplace(config.map.width, config.map.height, m_downsampler.geometry());
        }
    }

    const std::string& path() const override { return m_writer.path(); }
    std::vector<std::string> files() const override {
        std::vector<std::string> all{path()};
        for (std::string& p : m_georef.paths()) all.push_back(std::move(p));
        return all;
    }

    void begin(const TileLayout& layout) override {
        if (layout.mapWidth() != m_mapWidth || layout.mapHeight() != m_mapHeight) {
            throw std::logic_error("preview sink for '" + path() +
                                   "' was made for another map size");
        }
    }

    void consume(const Tile& tile) override {
        const auto cells = static_cast<std::size_t>(tile.rect.cellCount());
        if (tile.elevationMeters.size() != cells ||
            (m_painter.paintsClasses() && tile.classIndex.size() != cells)) {
            throw std::logic_error("preview sink for '" + path() + "': tile " +
                                   std::to_string(tile.rect.index) +
                                   " lacks values for some of its cells");
        }
        const std::uint8_t* classes = m_painter.paintsClasses() ? tile.classIndex.data() : nullptr;
        const std::any* prepared = tile.preparedFor(this);
        if (prepared != nullptr && prepared->has_value()) {
            const auto& done = std::any_cast<const PreparedTile&>(*prepared);
            m_downsampler.addSums(done.sums, classes);
            if (m_rivers) m_rivers->add(done.rivers);
        } else {
            const PreparedTile done = prepareTile(tile);
            m_downsampler.addSums(done.sums, classes);
            if (m_rivers) m_rivers->add(done.rivers);
        }
        if (m_lakes) m_lakes->add(tile.rect, tile.water.data(), tile.waterDepth.data());
    }

    // The per-cell part of downsampling, on the generating worker: consume() then adds one
    // sum per pixel instead of touching every cell in the serial stage.
    bool preparesTiles() const override { return true; }
    std::any prepare(const Tile& tile) const override {
        if (tile.elevationMeters.size() != static_cast<std::size_t>(tile.rect.cellCount()) ||
            (m_rivers && !hasWater(tile)))
            return {};  // consume() says what is wrong
        return prepareTile(tile);
    }

    void finish() override {
        const PreviewGeometry& g = m_downsampler.geometry();
        const std::vector<double> heights = m_downsampler.meanHeights();
        std::vector<double> shade = hillshade(heights, g.width, g.height, m_pixelSizeMeters);
        const std::vector<std::uint8_t> rivers = m_rivers ? m_rivers->drawn()
                                                          : std::vector<std::uint8_t>{};
        std::vector<std::uint8_t> rgb(heights.size() * 3);
        // Rows in parallel (the caller's TBB arena); each pixel is its own.
        tbb::parallel_for(std::int64_t{0}, g.height, [&](std::int64_t y) {
            const auto i = static_cast<std::size_t>(y * g.width);
            PreviewRow row{.count = static_cast<std::size_t>(g.width),
                           .surfaceMeters = &heights[i], .shade = &shade[i]};
            if (m_painter.paintsClasses()) row.classIndex = &m_downsampler.classes()[i];
            if (m_lakes) row.lakeDepthMeters = &m_lakes->depths()[i];
            if (!rivers.empty()) row.river = &rivers[i];
            m_painter.paintRow(row, &rgb[3 * i], 3);
        });
        if (m_legend == PreviewLegend::On ||
            (m_legend == PreviewLegend::Auto && g.width >= kLegendMinWidth)) {
            drawLegend(rgb, g.width, g.height, m_painter.legend());
        }
        m_writer.write(static_cast<std::uint32_t>(g.width), static_cast<std::uint32_t>(g.height),
                       rgb);
        m_georef.write();
    }

    void commit() override {
        m_writer.commit();
        m_georef.commit();
    }
    double parallelCpuSeconds() const override { return m_writer.parallelCpuSeconds(); }

private:
    // Hill shading needs metres: a geographic map's degrees are measured at its centre
    // latitude (cellMetres), a planet's cells by their configured ground size.
    static double pixelSizeMeters(const Config& config, const PreviewGeometry& geometry) {
        return cellMetres(config.map, config.output.crs).square() *
               static_cast<double>(geometry.scale);
    }

    // The parts of a tile's downsampling that need the tile alone (see prepare()).
    struct PreparedTile {
        PreviewDownsampler::TileSums sums;
        PreviewRivers::TileOrders rivers;
    };

    bool hasWater(const Tile& tile) const {
        const auto cells = static_cast<std::size_t>(tile.rect.cellCount());
        return tile.riverOrder.size() == cells && tile.waterDepth.size() == cells &&
               tile.water.size() == cells;
    }

    PreparedTile prepareTile(const Tile& tile) const {
        PreparedTile done;
        if (!m_rivers) {
            done.sums = m_downsampler.sums(tile.rect, tile.elevationMeters.data());
            return done;
        }
        if (!hasWater(tile)) {
            throw std::logic_error("preview sink for '" + path() + "': tile " +
                                   std::to_string(tile.rect.index) + " has no water");
        }
        // The water's surface, not the lake bed, so lakes and their shores shade as level
        // water meeting the land.
        std::vector<float> surface(tile.elevationMeters.size());
        for (std::size_t i = 0; i < surface.size(); ++i)
            surface[i] = tile.elevationMeters[i] + tile.waterDepth[i];
        done.sums = m_downsampler.sums(tile.rect, surface.data());
        done.rivers = m_rivers->gather(tile.rect, tile.riverOrder.data());
        return done;
    }

    std::int64_t m_mapWidth;
    std::int64_t m_mapHeight;
    PreviewPainter m_painter;
    PreviewLegend m_legend;
    PreviewDownsampler m_downsampler;
    double m_pixelSizeMeters;
    std::optional<PreviewRivers> m_rivers;          // with hydrology
    std::optional<PreviewLakes> m_lakes;            // height.png with hydrology
    PngWriter m_writer;
    SidecarFiles m_georef;  // its world file and PAM sidecar
};

}  // namespace

std::unique_ptr<OutputSink> makePreviewSink(const Config& config, const Terrain& terrain,
                                            const HydrologyStage* hydrology) {
    return std::make_unique<PreviewSink>(config, &terrain, HeightRamp{},
                                         mapHeightRange(config, hydrology));
}

std::unique_ptr<OutputSink> makeHeightPreviewSink(const Config& config, const Terrain* terrain,
                                                  const HydrologyStage* hydrology) {
    return std::make_unique<PreviewSink>(config, nullptr, heightRamp(config, terrain, hydrology),
                                         mapHeightRange(config, hydrology));
}

namespace {

PreviewGeometry previewOf(const Config& config) {
    return previewGeometry(config.map.width, config.map.height, config.output.previewMaxSize);
}

// One 8-bit RGB PNG of the preview's size, and its two georeferencing sidecars.
PlannedOutput previewDisk(const Config& config, OutputFile file) {
    const PreviewGeometry g = previewOf(config);
    PlannedOutput out = bounds::plannedFile(
        config, file, bounds::pngBound(g.width, g.height, 3) + pngGeoSidecarBytes(), true);
    out.files += kPngGeoSidecarFiles;
    return out;
}

// While the tiles stream, a preview holds per pixel a sum and a count (16 bytes) and
// preview.png also a class (1 byte); with hydrology (`waterBytesPerPixel`) a river order
// (1 byte) and height.png a lake depth (4 bytes). finish() adds the means, the shade and the
// RGB bytes (and the widened rivers, 1 byte) and one PNG stream.
WriterMemory previewMemory(const Config& config, bounds::Bytes bytesPerPixel,
                           bounds::Bytes waterBytesPerPixel) {
    if (config.hydrology.enabled) bytesPerPixel += waterBytesPerPixel;
    const PreviewGeometry g = previewOf(config);
    const bounds::Bytes pixels = bounds::cells(g.width, g.height);
    return {MemoryGroup::Previews, pixels * bytesPerPixel, pixels * 20 + bounds::kCodecState};
}

}  // namespace

constexpr OutputDriver kPreviewPngDriver{
    .file = OutputFile::PreviewPng,
    .name = "preview.png",
    .needsClasses = alwaysNeeded,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range (height_range.hpp)
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makePreviewSink(config,
                               requiredInput(in.terrain, OutputFile::PreviewPng, "a Terrain"),
                               in.hydrology);
    },
    .diskBound = [](const Config& config) { return previewDisk(config, OutputFile::PreviewPng); },
    .memoryBound = [](const Config& config, int) {
        return previewMemory(config, 17, 1);
    },
};
static_assert(namedAsInTable(kPreviewPngDriver));
const DriverRegistration kPreviewPngRegistered{kPreviewPngDriver};

constexpr OutputDriver kHeightPngDriver{
    .file = OutputFile::HeightPng,
    .name = "height.png",
    // The water level needs the resolved Terrain when it is a coverage target.
    .needsClasses = heightRampNeedsTerrain,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range (height_range.hpp)
    .makeSink = [](const Config& config, const SinkInputs& in) {
        return makeHeightPreviewSink(config, in.terrain, in.hydrology);
    },
    .diskBound = [](const Config& config) { return previewDisk(config, OutputFile::HeightPng); },
    .memoryBound = [](const Config& config, int) { return previewMemory(config, 16, 5); },
};
static_assert(namedAsInTable(kHeightPngDriver));
const DriverRegistration kHeightPngRegistered{kHeightPngDriver};

}  // namespace terragrid

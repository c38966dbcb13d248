// water_mask.png: the water as an 8-bit grey PNG the map's size, for engines to splat wet
// textures with (the same orientation as height16.png and the splat maps: row 0 the north
// edge). 0 land, 128 river, 255 lake or sea: a mask by threshold (> 0 wet, > 128 standing
// water), or a weight. Only with hydrology on.

#include <algorithm>
#include <memory>
#include <string>

#include "io/png/png_georef.hpp"
#include "io/png/png_writer.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"
#include "io/tile_band.hpp"

namespace terragrid {
namespace {

constexpr std::uint8_t kMaskOf[3] = {0, 255, 128};  // Water::Land, Lake, River

class WaterMaskSink final : public OutputSink {
public:
    explicit WaterMaskSink(const Config& config)
        : m_width(config.map.width),
          m_height(config.map.height),
          m_writer(outputPath(config, OutputFile::WaterMaskPng)),
          m_band(config.map.width) {}

    const std::string& path() const override { return m_writer.path(); }

    void begin(const TileLayout& layout) override {
        checkMapSize(layout, m_width, m_height, path());
        checkPngSize(m_width, m_height, path());
        m_writer.start(static_cast<std::uint32_t>(m_width), static_cast<std::uint32_t>(m_height),
                       PngFormat::Grey8);
    }

    void consume(const Tile& tile) override {
        const TileRect& r = tile.rect;
        if (static_cast<std::int64_t>(tile.water.size()) != r.cellCount())
            throw std::logic_error("sink for '" + path() + "': tile " + std::to_string(r.index) +
                                   " has no water (hydrology is off)");
        const bool bandDone = m_band.place(r, path(), [&](std::int64_t y, std::uint8_t* to) {
            const std::uint8_t* from = tile.water.data() + y * r.width;
            std::transform(from, from + r.width, to, [](std::uint8_t w) { return kMaskOf[w]; });
        });
        if (bandDone)
            m_writer.writeRows(m_band.data(), static_cast<std::uint32_t>(m_band.rows()));
    }

    void finish() override { m_writer.close(); }
    void commit() override { m_writer.commit(); }

private:
    std::int64_t m_width;
    std::int64_t m_height;
    PngWriter m_writer;
    TileBand<std::uint8_t> m_band;
};

}  // namespace

constexpr OutputDriver kWaterMaskPngDriver{
    .file = OutputFile::WaterMaskPng,
    .name = "water_mask.png",
    .needsClasses = neverNeeded,
    .needsRegions = neverNeeded,
    .needsHydrology = true,
    .makeSink = [](const Config& config, const SinkInputs&) -> std::unique_ptr<OutputSink> {
        return withSidecars(
            std::make_unique<WaterMaskSink>(config),
            pngGeoSidecars(config, outputPath(config, OutputFile::WaterMaskPng), 1));
    },
    .diskBound = [](const Config& config) {  // and its two georeferencing sidecars
        PlannedOutput out = bounds::plannedFile(
            config, OutputFile::WaterMaskPng,
            bounds::pngBound(config.map.width, config.map.height, 1) + pngGeoSidecarBytes(),
            true);
        out.files += kPngGeoSidecarFiles;
        return out;
    },
    // One band of full-width rows (a tile high) and the encoder.
    .memoryBound = [](const Config& config, int) {
        const auto w = bounds::Bytes(config.map.width);
        const auto rows = bounds::Bytes(std::min(config.map.tileSizeCells, config.map.height));
        return WriterMemory{MemoryGroup::Writers, w * rows + 4 * w + bounds::kCodecState, 0};
    },
};
static_assert(namedAsInTable(kWaterMaskPngDriver));
const DriverRegistration kWaterMaskPngRegistered{kWaterMaskPngDriver};

}  // namespace terragrid

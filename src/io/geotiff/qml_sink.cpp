// classes.qml and height.qml: QGIS style files (raster_styles.hpp) written beside classes.tif
// and height.tif, which QGIS loads as those layers' default styles. Their text depends on the
// config, the resolved classes and the height range (with erosion, the stage's) alone, so it
// is made with the sink and written at finish().

#include <utility>

#include "io/transaction/atomic_file.hpp"
#include "io/geotiff/raster_styles.hpp"
#include "io/sinks.hpp"
#include "io/size_bounds.hpp"

namespace terragrid {
namespace {

class TextFileSink final : public OutputSink {
public:
    TextFileSink(std::string path, std::string text)
        : m_text(std::move(text)), m_file(std::move(path)) {}

    const std::string& path() const override { return m_file.targetPath(); }
    void begin(const TileLayout&) override {}
    void consume(const Tile&) override {}
    void finish() override { m_file.write(m_text); }
    void commit() override { m_file.commit(); }

private:
    std::string m_text;
    AtomicFile m_file;
};

// A style is a few hundred bytes of frame and a line per palette entry or ramp stop.
PlannedOutput qmlDisk(const Config& config, OutputFile file) {
    return bounds::plannedFile(config, file, 4 * bounds::kKiB + bounds::classNamesBytes(config, 160),
                               false);
}

WriterMemory qmlMemory(const Config& config, int) {
    return {MemoryGroup::Writers, 8 * bounds::kKiB + bounds::classNamesBytes(config, 160), 0};
}

}  // namespace

constexpr OutputDriver kClassesQmlDriver{
    .file = OutputFile::ClassesQml,
    .name = "classes.qml",
    .needsClasses = alwaysNeeded,
    .needsRegions = neverNeeded,
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        const Terrain& terrain = requiredInput(in.terrain, OutputFile::ClassesQml, "a Terrain");
        return std::make_unique<TextFileSink>(outputPath(config, OutputFile::ClassesQml),
                                              classesQml(terrain.classes()));
    },
    .diskBound = [](const Config& config) { return qmlDisk(config, OutputFile::ClassesQml); },
    .memoryBound = qmlMemory,
};
static_assert(namedAsInTable(kClassesQmlDriver));
const DriverRegistration kClassesQmlRegistered{kClassesQmlDriver};

// The water level needs the resolved Terrain when the lake threshold is a coverage target.
constexpr OutputDriver kHeightQmlDriver{
    .file = OutputFile::HeightQml,
    .name = "height.qml",
    .needsClasses = heightRampNeedsTerrain,
    .needsRegions = neverNeeded,
    .readsHydrology = true,  // the eroded heights' range (height_range.hpp)
    .makeSink = [](const Config& config, const SinkInputs& in) -> std::unique_ptr<OutputSink> {
        return std::make_unique<TextFileSink>(
            outputPath(config, OutputFile::HeightQml),
            heightQml(heightRamp(config, in.terrain, in.hydrology)));
    },
    .diskBound = [](const Config& config) { return qmlDisk(config, OutputFile::HeightQml); },
    .memoryBound = qmlMemory,
};
static_assert(namedAsInTable(kHeightQmlDriver));
const DriverRegistration kHeightQmlRegistered{kHeightQmlDriver};

}  // namespace terragrid

// The stage file (hydrology_stage_file.hpp). Layout of format version 3, every number
// little-endian, no padding:
//
//   magic            16 bytes  "TGHYDROSTAGE\r\n\x1a\n" (the line ends and ^Z catch text-mode
//                              transfers, as PNG's signature does)
//   format version   u32       kHydrologyStageFormatVersion
//   byte order       u32       0x01020304
//   hydrology hash   16 bytes  Config::hydrologyHash of the config the stage was made for
//   made by          16 bytes  the terragrid version, zero-padded
//   factor, map width, map height, grid width, grid height       5 x i64
//   sea level (m)    f64;  has sea, theta valid: 2 x u8;  6 bytes zero
//   lakes, lake cells, sea cells, river cells                    4 x i64 (HydrologyFacts)
//   theta                                                        f64
//   section count    u32 (kSections.size());  hydrology algorithm version u32
//                    (kHydrologyAlgorithmVersion; 0 in files made before it was recorded)
//   per section: element bytes u32, 4 bytes zero, count u64, CRC-32 u32, 4 bytes zero
//   header CRC-32    u32 of everything above
//   the sections' data, in kSections order
//
// The stage is a pure function of the settings the hydrology hash covers and of terragrid's
// algorithms, so the file records both (the terragrid version, and the hydrology algorithm
// version, which tells development builds of one terragrid version apart) and a run refuses a
// file made for another map or by other algorithms: its water would not be this map's.
//
// The file holds nothing else: no time, no path, no host. So the same config gives the same
// bytes, whatever the threads and whenever it runs (format version 1 also held the stage's step
// times, which made every file differ, and version 2 had no climate sections; a file of another
// version is refused as any other version is,
// and `hydrology-stage` makes it again). A file that passes its checksums is then checked
// against every rule a stage obeys (hydrology_stage_rules.hpp): a checksum tells a damaged
// file, not a forged one.

#include "terragrid/io/hydrology_stage_file.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <vector>

#include "io/safe_open.hpp"
#include "io/stage/hydrology_stage_rules.hpp"
#include "io/transaction/atomic_file.hpp"
#include "terragrid/hydro/grid.hpp"
#include "terragrid/version.hpp"

namespace terragrid {
namespace {

// The sections' data are the stage's arrays as they lie in memory.
static_assert(std::endian::native == std::endian::little,
              "the stage file is little-endian; a big-endian build must swap the sections");

constexpr std::string_view kMagic{"TGHYDROSTAGE\r\n\x1a\n", 16};
constexpr std::uint32_t kByteOrder = 0x01020304;
constexpr std::size_t kTextField = 16;

/// The stage's arrays, in file order.
enum class Section : std::uint8_t {
    ErosionDelta,
    ErodedHeight,
    LakeSurface,
    LakeId,
    LakeLevel,
    LakeOutlet,
    Receiver,
    Accumulation,
    Strahler,
    RiverLength,
    ClimatePrecipitation,  ///< format 2: the climate's precipitation per cell (climate on)
    ClimateFacts,          ///< format 2: its figures (kClimateFactCount of them)
};
struct SectionInfo {
    std::string_view name;
    std::uint32_t elementBytes;
};
constexpr std::array<SectionInfo, 12> kSections{{
    {"erosion delta", 4},
    {"eroded height", 4},
    {"lake surface", 4},
    {"lake ids", 4},
    {"lake levels", 4},
    {"lake outlets", 4},
    {"receivers", 4},
    {"accumulation", 4},
    {"Strahler orders", 1},
    {"river lengths", 8},
    {"climate precipitation", 4},
    {"climate figures", 8},
}};
static_assert(kSections.size() == std::size_t(Section::ClimateFacts) + 1);

/// ClimateFacts' figures in the file (its time is the run's, not the stage's).
constexpr std::size_t kClimateFactCount = 6;

/// The climate's figures as the file's section holds them; none without a climate.
std::vector<double> climateFigures(const HydrologyStage& s) {
    if (s.climate.precipitation.empty()) return {};
    const ClimateFacts& f = s.climate.facts;
    return {f.precipitationMean, f.precipitationMin, f.precipitationMax,
            f.temperatureMean,   f.temperatureMin,   f.temperatureMax};
}

constexpr std::size_t kSectionEntryBytes = 24;
constexpr std::size_t kHeaderBytes = 16 + 4 + 4 + 16 + 16 + 5 * 8 + 8 + 8 + 4 * 8 + 8 + 8 +
                                     kSections.size() * kSectionEntryBytes + 4;

/// Little-endian fields appended to a string.
class FieldWriter {
public:
    template <typename T>
    void put(T value) {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &value, sizeof(T));
        text.append(bytes, sizeof(T));
    }
    void putText(std::string_view value, std::size_t size) {
        std::string field(size, '\0');
        value.copy(field.data(), std::min(size, value.size()));
        text += field;
    }
    void zeros(std::size_t count) { text.append(count, '\0'); }
    std::string text;
};

/// Fields read in turn from a header.
class FieldReader {
public:
    explicit FieldReader(std::string_view bytes) : m_bytes(bytes) {}
    template <typename T>
    T get() {
        T value;
        std::memcpy(&value, m_bytes.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        return value;
    }
    std::string getText(std::size_t size) {
        std::string value(m_bytes.substr(m_at, size));
        value.erase(std::find(value.begin(), value.end(), '\0'), value.end());
        m_at += size;
        return value;
    }
    void skip(std::size_t count) { m_at += count; }
    std::size_t position() const { return m_at; }

private:
    std::string_view m_bytes;
    std::size_t m_at = 0;
};

std::uint32_t crc32Of(const void* data, std::size_t size) {
    return static_cast<std::uint32_t>(
        crc32_z(crc32_z(0, nullptr, 0), static_cast<const Bytef*>(data), size));
}

/// One section's place in the file.
struct SectionEntry {
    std::uint64_t count = 0;
    std::uint32_t crc = 0;
};

template <typename T>
std::span<const char> bytesOf(const std::vector<T>& values) {
    return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

/// The stage's arrays in file order, as bytes (`figures`: climateFigures(s), which must
/// outlive the spans).
std::array<std::span<const char>, kSections.size()> sectionBytes(const HydrologyStage& s,
                                                                 const std::vector<double>& figures) {
    return {bytesOf(s.erosionDelta), bytesOf(s.erodedHeight), bytesOf(s.lakeSurface),
            bytesOf(s.lakes.id),     bytesOf(s.lakes.surface), bytesOf(s.lakes.outlet),
            bytesOf(s.receiver),     bytesOf(s.accumulation), bytesOf(s.strahler),
            bytesOf(s.facts.riverLengthByOrder), bytesOf(s.climate.precipitation),
            bytesOf(figures)};
}

std::string header(const Config& config, const HydrologyStage& s) {
    const HydrologyFacts& f = s.facts;
    FieldWriter w;
    w.text.reserve(kHeaderBytes);
    w.putText(kMagic, kMagic.size());
    w.put(kHydrologyStageFormatVersion);
    w.put(kByteOrder);
    w.putText(config.hydrologyHash, kTextField);
    w.putText(kVersion, kTextField);
    for (std::int64_t v : {s.factor, s.mapWidth, s.mapHeight, s.gridWidth, s.gridHeight}) w.put(v);
    w.put(s.seaLevelMeters);
    w.put(std::uint8_t(s.hasSea));
    w.put(std::uint8_t(f.thetaValid));
    w.zeros(6);
    for (std::int64_t v : {f.lakes, f.lakeCells, f.seaCells, f.riverCells}) w.put(v);
    w.put(f.theta);
    w.put(std::uint32_t(kSections.size()));
    w.put(kHydrologyAlgorithmVersion);
    const std::vector<double> figures = climateFigures(s);
    const auto sections = sectionBytes(s, figures);
    for (std::size_t i = 0; i < kSections.size(); ++i) {
        w.put(kSections[i].elementBytes);
        w.zeros(4);
        w.put(std::uint64_t(sections[i].size() / kSections[i].elementBytes));
        w.put(crc32Of(sections[i].data(), sections[i].size()));
        w.zeros(4);
    }
    w.put(crc32Of(w.text.data(), w.text.size()));
    return std::move(w.text);
}

std::string quoted(const std::string& path) { return "'" + path + "'"; }

/// "a sea at 300 m", or "no sea (level 0 m)".
std::string seaText(bool hasSea, double levelMeters) {
    char text[64];
    std::snprintf(text, sizeof text, hasSea ? "a sea at %.9g m" : "no sea (level %.9g m)",
                  levelMeters);
    return text;
}

std::string hex32(std::uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

/// An open stage file, read with pread.
class StageFile {
public:
    /// A FIFO without a writer or a device is refused without blocking (safe_open.hpp); so is
    /// a pipe, which pread cannot read.
    explicit StageFile(const std::string& path) : m_path(path) {
        std::string reason;
        m_file = openForReading(path, Pipes::Refuse, reason);
        if (!m_file) fail("cannot be read: " + reason);
        struct stat st {};
        if (::fstat(m_file.get(), &st) != 0)
            fail("cannot be read: " + std::generic_category().message(errno));
        m_size = std::uint64_t(st.st_size);
    }

    std::uint64_t size() const { return m_size; }

    /// Reads `size` bytes at `offset` into `out`; a file shorter than that is truncated.
    void read(void* out, std::size_t size, std::uint64_t offset, std::string_view what) const {
        auto* bytes = static_cast<char*>(out);
        std::size_t done = 0;
        while (done < size) {
            const ssize_t got =
                ::pread(m_file.get(), bytes + done, size - done, off_t(offset + done));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0)
                fail("cannot be read (" + std::string(what) +
                     "): " + std::generic_category().message(errno));
            if (got == 0)
                fail("is truncated: it ends at byte " + std::to_string(offset + done) +
                     ", inside the " + std::string(what));
            done += std::size_t(got);
        }
    }

    [[noreturn]] void fail(const std::string& problem) const {
        throw HydrologyStageFileError("hydrology stage file " + quoted(m_path) + " " + problem);
    }

private:
    std::string m_path;
    FileHandle m_file;
    std::uint64_t m_size = 0;
};

/// What the header says.
struct StageHeader {
    HydrologyStage shape;  ///< the sizes and facts; no arrays
    std::array<SectionEntry, kSections.size()> sections;
    std::uint64_t dataBytes = 0;
};

std::string sizes(const HydrologyStage& s) {
    return std::to_string(s.gridWidth) + " x " + std::to_string(s.gridHeight) +
           " hydrology cells (factor " + std::to_string(s.factor) + ") for a " +
           std::to_string(s.mapWidth) + " x " + std::to_string(s.mapHeight) + " map";
}

/// How many elements section `i` must hold, or -1 when the count depends on the water (lakes
/// and river orders: mostCount).
std::int64_t requiredCount(std::size_t i, const HydrologyStage& s, bool eroded, bool climate) {
    const std::int64_t cells = s.gridWidth * s.gridHeight;
    switch (Section(i)) {
        case Section::ClimatePrecipitation: return climate ? cells : 0;
        case Section::ClimateFacts: return climate ? std::int64_t(kClimateFactCount) : 0;
        case Section::ErosionDelta:
        case Section::ErodedHeight: return eroded ? cells : 0;
        case Section::LakeSurface:
        case Section::LakeId:
        case Section::Receiver:
        case Section::Accumulation:
        case Section::Strahler: return cells;
        case Section::LakeLevel:
        case Section::LakeOutlet:
        case Section::RiverLength: return -1;
    }
    return -1;
}

/// The most elements section `i` can hold: its required count, else one level and outlet per
/// lake and an unused entry 0 (distinct lakes do not touch, not even at corners, so at most
/// one lies in each 2 x 2 cells), 255 Strahler orders.
std::uint64_t mostCount(std::size_t i, const HydrologyStage& s, bool eroded, bool climate) {
    if (const std::int64_t required = requiredCount(i, s, eroded, climate); required >= 0)
        return std::uint64_t(required);
    if (Section(i) == Section::RiverLength) return 255;
    return std::uint64_t((s.gridWidth + 1) / 2) * std::uint64_t((s.gridHeight + 1) / 2) + 1;
}

StageHeader readHeader(const Config& config, const StageFile& file) {
    std::string bytes(kHeaderBytes, '\0');
    const std::size_t start = std::size_t(std::min<std::uint64_t>(file.size(), 24));
    file.read(bytes.data(), start, 0, "header");
    const std::size_t known = std::min(start, kMagic.size());
    if (std::string_view(bytes).substr(0, known) != kMagic.substr(0, known) || start == 0)
        file.fail("is not a hydrology stage file (it does not begin with terragrid's stage "
                  "signature; make one with 'terragrid hydrology-stage')");
    if (start < 24)
        file.fail("is truncated: it holds " + std::to_string(file.size()) + " bytes, and its " +
                  "header alone takes " + std::to_string(kHeaderBytes));
    FieldReader r(bytes);
    r.skip(kMagic.size());
    const auto version = r.get<std::uint32_t>();
    if (version != kHydrologyStageFormatVersion)
        file.fail("has stage format version " + std::to_string(version) + ", and this terragrid " +
                  "reads version " + std::to_string(kHydrologyStageFormatVersion) +
                  " only; make the stage again with this terragrid's 'hydrology-stage'");
    if (r.get<std::uint32_t>() != kByteOrder)
        file.fail("was written with another byte order than this machine's");
    file.read(bytes.data() + start, kHeaderBytes - start, start, "header");
    const std::uint32_t headerCrc = crc32Of(bytes.data(), kHeaderBytes - 4);
    FieldReader tail(std::string_view(bytes).substr(kHeaderBytes - 4));
    if (const auto stored = tail.get<std::uint32_t>(); stored != headerCrc)
        file.fail("is damaged: its header fails its CRC-32 check (stored " + hex32(stored) +
                  ", computed " + hex32(headerCrc) + ")");

    StageHeader h;
    HydrologyStage& s = h.shape;
    const std::string hash = r.getText(kTextField);
    const std::string madeBy = r.getText(kTextField);
    if (hash != config.hydrologyHash)
        file.fail("was made for another map: its hydrology hash is " + hash +
                  ", this config's is " + config.hydrologyHash +
                  " (the stage depends on every setting but output, terrain and "
                  "map.tile_size: give the run the config the stage was made with)");
    if (madeBy != kVersion)
        file.fail("was made by terragrid " + madeBy + ", and this is terragrid " + kVersion +
                  ", whose hydrology may differ; make the stage again with this version");
    s.factor = r.get<std::int64_t>();
    s.mapWidth = r.get<std::int64_t>();
    s.mapHeight = r.get<std::int64_t>();
    s.gridWidth = r.get<std::int64_t>();
    s.gridHeight = r.get<std::int64_t>();
    const HydrologyStage expected = hydrologyStageShape(config);
    if (s.factor != expected.factor || s.mapWidth != expected.mapWidth ||
        s.mapHeight != expected.mapHeight || s.gridWidth != expected.gridWidth ||
        s.gridHeight != expected.gridHeight)
        file.fail("holds " + sizes(s) + ", and this config's stage is " + sizes(expected));
    s.seaLevelMeters = r.get<double>();
    const auto hasSea = r.get<std::uint8_t>();
    const auto thetaValid = r.get<std::uint8_t>();
    // The sea is the config's: a file that says otherwise was not made for it.
    if (hasSea != std::uint8_t(expected.hasSea) ||
        std::memcmp(&s.seaLevelMeters, &expected.seaLevelMeters, sizeof(double)) != 0)
        file.fail("holds " + seaText(hasSea, s.seaLevelMeters) + ", and this config's stage has " +
                  seaText(expected.hasSea, expected.seaLevelMeters));
    s.hasSea = expected.hasSea;
    if (thetaValid > 1) file.fail("has " + std::to_string(thetaValid) + " for a yes-or-no field "
                                  "(theta valid) that format version " + std::to_string(kHydrologyStageFormatVersion) + " writes as 0 or 1");
    HydrologyFacts& f = s.facts;
    f.thetaValid = thetaValid != 0;
    for (int i = 0; i < 6; ++i)
        if (r.get<std::uint8_t>() != 0)
            file.fail("has bytes in its header where format version " + std::to_string(kHydrologyStageFormatVersion) + " writes zeros");
    f.factor = s.factor;
    f.gridWidth = s.gridWidth;
    f.gridHeight = s.gridHeight;
    for (std::int64_t* v : {&f.lakes, &f.lakeCells, &f.seaCells, &f.riverCells})
        *v = r.get<std::int64_t>();
    f.theta = r.get<double>();
    if (r.get<std::uint32_t>() != kSections.size())
        file.fail("has another number of sections than format version " +
                  std::to_string(kHydrologyStageFormatVersion) + "'s " +
                  std::to_string(kSections.size()));
    if (const auto algorithm = r.get<std::uint32_t>(); algorithm != kHydrologyAlgorithmVersion)
        file.fail("was made by hydrology algorithm version " + std::to_string(algorithm) +
                  ", and this terragrid's is " + std::to_string(kHydrologyAlgorithmVersion) +
                  " (another terragrid build, whose lakes and rivers may differ for the same "
                  "settings); make the stage again with this terragrid's 'hydrology-stage'");
    const bool eroded = config.hydrology.erosion.enabled;
    const bool climate = config.climate.enabled;
    for (std::size_t i = 0; i < kSections.size(); ++i) {
        const auto elementBytes = r.get<std::uint32_t>();
        const auto zeros = r.get<std::uint32_t>();
        SectionEntry& e = h.sections[i];
        e.count = r.get<std::uint64_t>();
        e.crc = r.get<std::uint32_t>();
        if ((zeros | r.get<std::uint32_t>()) != 0)
            file.fail("has bytes in its header where format version " + std::to_string(kHydrologyStageFormatVersion) + " writes zeros");
        const std::string name(kSections[i].name);
        if (elementBytes != kSections[i].elementBytes)
            file.fail("has " + std::to_string(elementBytes) + "-byte " + name + " (format " +
                      "version " + std::to_string(kHydrologyStageFormatVersion) + " has " +
                      std::to_string(kSections[i].elementBytes) + ")");
        const std::int64_t required = requiredCount(i, s, eroded, climate);
        const std::uint64_t most = mostCount(i, s, eroded, climate);
        if ((required >= 0 && e.count != std::uint64_t(required)) || e.count > most)
            file.fail("holds " + std::to_string(e.count) + " " + name + ", and " + sizes(s) +
                      (eroded ? " with erosion" : " without erosion") +
                      (climate ? " and climate" : "") + " needs " +
                      (required >= 0 ? std::to_string(required)
                                     : "at most " + std::to_string(most)));
        h.dataBytes += e.count * elementBytes;
    }
    // Entry 0 of the lake table stands for "no lake": there is always one.
    if (h.sections[std::size_t(Section::LakeLevel)].count == 0)
        file.fail("holds no lake table (not even its entry 0, which stands for no lake)");
    if (h.sections[std::size_t(Section::LakeLevel)].count !=
        h.sections[std::size_t(Section::LakeOutlet)].count)
        file.fail("holds " + std::to_string(h.sections[std::size_t(Section::LakeLevel)].count) +
                  " lake levels but " +
                  std::to_string(h.sections[std::size_t(Section::LakeOutlet)].count) +
                  " lake outlets; every lake has one of each");
    const std::uint64_t length = kHeaderBytes + h.dataBytes;
    if (file.size() < length)
        file.fail("is truncated: it holds " + std::to_string(file.size()) + " bytes, and its " +
                  "header describes " + std::to_string(length));
    if (file.size() > length)
        file.fail("holds " + std::to_string(file.size()) + " bytes, and its header describes " +
                  std::to_string(length) + ": something was appended to it");
    return h;
}

template <typename T>
void readSection(const StageFile& file, const StageHeader& h, Section section,
                 std::uint64_t& offset, std::vector<T>& out) {
    const SectionEntry& e = h.sections[std::size_t(section)];
    const std::string_view name = kSections[std::size_t(section)].name;
    out.resize(std::size_t(e.count));
    const std::size_t bytes = out.size() * sizeof(T);
    file.read(out.data(), bytes, offset, name);
    offset += bytes;
    if (const std::uint32_t crc = crc32Of(out.data(), bytes); crc != e.crc)
        file.fail("is damaged: its " + std::string(name) + " fail their CRC-32 check (stored " +
                  hex32(e.crc) + ", computed " + hex32(crc) + ")");
}

}  // namespace

std::uint64_t hydrologyStageFileBound(const World& world) {
    const HydrologyStage s = hydrologyStageShape(world);
    std::uint64_t bytes = kHeaderBytes;
    for (std::size_t i = 0; i < kSections.size(); ++i)
        bytes += mostCount(i, s, world.hydrology.erosion.enabled, world.climate.enabled) *
                 kSections[i].elementBytes;
    return bytes;
}

std::uint64_t writeHydrologyStage(const Config& config, const HydrologyStage& stage,
                                  const std::string& path) {
    AtomicFile file(path);
    std::uint64_t bytes = 0;
    const std::string head = header(config, stage);
    file.write(head);
    bytes += head.size();
    if (head.size() != kHeaderBytes)
        throw std::logic_error("hydrology stage file: the header takes " +
                               std::to_string(head.size()) + " bytes, not " +
                               std::to_string(kHeaderBytes));
    const std::vector<double> figures = climateFigures(stage);
    for (const std::span<const char> section : sectionBytes(stage, figures)) {
        file.write(std::string_view(section.data(), section.size()));
        bytes += section.size();
    }
    file.commit();
    return bytes;
}

std::uint64_t hydrologyStageCheckBytes(const World& world) {
    const HydrologyStage s = hydrologyStageShape(world);
    return std::uint64_t(s.gridWidth * s.gridHeight) * kStageCheckBytesPerCell;
}

void checkHydrologyStageFile(const Config& config, const std::string& path) {
    const StageFile file(path);
    readHeader(config, file);
}

HydrologyStage readHydrologyStage(const Config& config, const std::string& path) {
    const StageFile file(path);
    const StageHeader h = readHeader(config, file);
    HydrologyStage s = h.shape;
    std::uint64_t offset = kHeaderBytes;
    readSection(file, h, Section::ErosionDelta, offset, s.erosionDelta);
    readSection(file, h, Section::ErodedHeight, offset, s.erodedHeight);
    readSection(file, h, Section::LakeSurface, offset, s.lakeSurface);
    readSection(file, h, Section::LakeId, offset, s.lakes.id);
    readSection(file, h, Section::LakeLevel, offset, s.lakes.surface);
    readSection(file, h, Section::LakeOutlet, offset, s.lakes.outlet);
    readSection(file, h, Section::Receiver, offset, s.receiver);
    readSection(file, h, Section::Accumulation, offset, s.accumulation);
    readSection(file, h, Section::Strahler, offset, s.strahler);
    readSection(file, h, Section::RiverLength, offset, s.facts.riverLengthByOrder);
    readSection(file, h, Section::ClimatePrecipitation, offset, s.climate.precipitation);
    std::vector<double> figures;
    readSection(file, h, Section::ClimateFacts, offset, figures);
    if (!figures.empty()) {
        s.climate.factor = s.factor;
        s.climate.mapWidth = s.mapWidth;
        s.climate.mapHeight = s.mapHeight;
        s.climate.gridWidth = s.gridWidth;
        s.climate.gridHeight = s.gridHeight;
        ClimateFacts& f = s.climate.facts;
        f.precipitationMean = figures[0];
        f.precipitationMin = figures[1];
        f.precipitationMax = figures[2];
        f.temperatureMean = figures[3];
        f.temperatureMin = figures[4];
        f.temperatureMax = figures[5];
    }
    if (const auto broken = firstBrokenStageRule(s, config))
        file.fail("breaks a rule every stage obeys, that " + broken->rule + ": " + broken->where);
    return s;
}

}  // namespace terragrid

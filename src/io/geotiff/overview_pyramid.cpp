#include "io/geotiff/overview_pyramid.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "io/geotiff/tiff_tile_encoder.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {

std::vector<RasterSize> overviewSizes(std::int64_t width, std::int64_t height,
                                      std::int64_t tileSize) {
    std::vector<RasterSize> sizes;
    RasterSize size{width, height};
    while (size.width > tileSize || size.height > tileSize) {
        size = {(size.width + 1) / 2, (size.height + 1) / 2};
        sizes.push_back(size);
    }
    return sizes;
}

// ---------------------------------------------------------------------------------------------

TileStore::TileStore(const std::string& outputPath, std::int64_t tileCount)
    : m_file(outputPath), m_places(static_cast<std::size_t>(tileCount)) {}

void TileStore::put(std::int64_t index, const std::vector<std::byte>& bytes) {
    Place& place = m_places.at(static_cast<std::size_t>(index));
    m_file.writeAt(bytes.data(), bytes.size(), m_end);
    place = {m_end, bytes.size(), true};
    m_end += bytes.size();
}

void TileStore::get(std::int64_t index, std::vector<std::byte>& out) const {
    const Place& place = m_places.at(static_cast<std::size_t>(index));
    if (!place.stored) {
        throw std::logic_error("TileStore: tile " + std::to_string(index) + " of '" +
                               m_file.targetPath() + "' was never stored");
    }
    out.resize(place.bytes);
    std::uint64_t done = 0;
    while (done < place.bytes) {
        const ::ssize_t n = ::pread(m_file.fd(), out.data() + done, place.bytes - done,
                                    static_cast<off_t>(place.offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            throw OutputError("writing '" + m_file.targetPath() +
                              "': reading back its overview tiles: " +
                              (n < 0 ? std::strerror(errno) : "the scratch file is short"));
        }
        done += static_cast<std::uint64_t>(n);
    }
}

// ---------------------------------------------------------------------------------------------
// The 2:1 reductions. Each output cell reads the up to 2x2 cells of the level below that lie
// inside the raster, in reading order (top-left, top-right, bottom-left, bottom-right), so the
// result is a function of those cells alone.

namespace {

template <typename T>
T averageOf(const std::array<T, 4>& v, int n) {
    if constexpr (std::is_floating_point_v<T>) {
        // In double, summed in reading order, then rounded once to float.
        double sum = 0;
        for (int i = 0; i < n; ++i) sum += static_cast<double>(v[static_cast<std::size_t>(i)]);
        return static_cast<T>(sum / n);
    } else {
        // Rounded half up, in integers.
        std::uint64_t sum = 0;
        for (int i = 0; i < n; ++i) sum += v[static_cast<std::size_t>(i)];
        return static_cast<T>((sum + static_cast<std::uint64_t>(n) / 2) /
                              static_cast<std::uint64_t>(n));
    }
}

template <typename T>
T modeOf(const std::array<T, 4>& v, int n) {
    if (n == 4) {
        // The loop below without branches: each value's count of the others equal to it, and
        // only a strictly larger count displaces the value met first.
        const auto [a, b, c, d] = v;
        const int ca = (a == b) + (a == c) + (a == d);
        const int cb = (b == a) + (b == c) + (b == d);
        const int cc = (c == a) + (c == b) + (c == d);
        const int cd = (d == a) + (d == b) + (d == c);
        T best = a;
        int bestCount = ca;
        best = cb > bestCount ? b : best;
        bestCount = cb > bestCount ? cb : bestCount;
        best = cc > bestCount ? c : best;
        bestCount = cc > bestCount ? cc : bestCount;
        return cd > bestCount ? d : best;
    }
    T best = v[0];
    int bestCount = 0;
    for (int i = 0; i < n; ++i) {
        int count = 0;
        for (int j = 0; j < n; ++j) count += v[static_cast<std::size_t>(j)] == v[static_cast<std::size_t>(i)];
        if (count > bestCount) {  // strictly more: a tie keeps the value met first
            best = v[static_cast<std::size_t>(i)];
            bestCount = count;
        }
    }
    return best;
}

template <typename T>
T load(const std::byte* at) {
    T value;
    std::memcpy(&value, at, sizeof(T));
    return value;
}

// Reduces the valid validCols x validRows cells of a t x t tile into `out`, a block of
// ceil(validCols / 2) x ceil(validRows / 2) cells. The output cells whose 2x2 cells are all
// inside come first, in a loop without bounds checks (they are nearly all of them, and this
// runs on every cell of every GeoTIFF with overviews); the last column and row, when the
// valid size is odd, take the general path. Both read the cells in reading order, so the
// values are the same.
template <typename T>
void reduceTile(const std::byte* raw, std::int64_t t, std::int64_t validCols,
                std::int64_t validRows, Resampling resampling, std::byte* out) {
    const std::int64_t cols = (validCols + 1) / 2;
    const std::int64_t rows = (validRows + 1) / 2;
    const auto cell = [&](std::int64_t c, std::int64_t r) {
        return load<T>(raw + static_cast<std::size_t>(r * t + c) * sizeof(T));
    };
    const auto put = [&](std::int64_t c, std::int64_t r, T value) {
        std::memcpy(out + static_cast<std::size_t>(r * cols + c) * sizeof(T), &value, sizeof(T));
    };
    const auto combine = [resampling](const std::array<T, 4>& v, int n) {
        return resampling == Resampling::Average ? averageOf(v, n) : modeOf(v, n);
    };
    const std::int64_t fullCols = validCols / 2, fullRows = validRows / 2;
    for (std::int64_t r = 0; r < fullRows; ++r) {
        const std::byte* top = raw + static_cast<std::size_t>(2 * r * t) * sizeof(T);
        const std::byte* bottom = top + static_cast<std::size_t>(t) * sizeof(T);
        std::byte* to = out + static_cast<std::size_t>(r * cols) * sizeof(T);
        for (std::int64_t c = 0; c < fullCols; ++c) {
            const auto at = static_cast<std::size_t>(2 * c) * sizeof(T);
            const std::array<T, 4> v{load<T>(top + at), load<T>(top + at + sizeof(T)),
                                     load<T>(bottom + at), load<T>(bottom + at + sizeof(T))};
            const T value = combine(v, 4);
            std::memcpy(to + static_cast<std::size_t>(c) * sizeof(T), &value, sizeof(T));
        }
    }
    const auto general = [&](std::int64_t c, std::int64_t r) {
        std::array<T, 4> v{};
        int n = 0;
        for (std::int64_t dr = 0; dr < 2; ++dr) {
            for (std::int64_t dc = 0; dc < 2; ++dc) {
                if (2 * c + dc < validCols && 2 * r + dr < validRows)
                    v[static_cast<std::size_t>(n++)] = cell(2 * c + dc, 2 * r + dr);
            }
        }
        put(c, r, combine(v, n));
    };
    if (fullCols < cols)
        for (std::int64_t r = 0; r < fullRows; ++r) general(fullCols, r);
    if (fullRows < rows)
        for (std::int64_t c = 0; c < cols; ++c) general(c, fullRows);
}

void reduce(SampleFormat format, const std::byte* raw, std::int64_t t, std::int64_t validCols,
            std::int64_t validRows, Resampling resampling, std::byte* out) {
    switch (format) {
        case SampleFormat::Float32:
            return reduceTile<float>(raw, t, validCols, validRows, resampling, out);
        case SampleFormat::UInt8:
            return reduceTile<std::uint8_t>(raw, t, validCols, validRows, resampling, out);
        case SampleFormat::UInt16:
            return reduceTile<std::uint16_t>(raw, t, validCols, validRows, resampling, out);
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------

namespace {
// Tile jobs are keyed index * kLevelKeys + level: more levels than a 2^32-cell side halves into.
constexpr std::int64_t kLevelKeys = 64;
}  // namespace

// One overview level: its size, the tiles waiting for quarters, and its scratch file.
struct OverviewPyramid::Level {
    struct Pending {
        std::vector<std::byte> bytes;
        std::int64_t cellsReceived = 0;
    };

    Level(const std::string& path, RasterSize size, std::int64_t t)
        : size(size),
          across((size.width + t - 1) / t),
          down((size.height + t - 1) / t),
          store(path, across * down) {}

    // Cells of tile (tx, ty) inside the level.
    std::int64_t validCols(std::int64_t tx, std::int64_t t) const {
        return std::min(size.width, (tx + 1) * t) - tx * t;
    }
    std::int64_t validRows(std::int64_t ty, std::int64_t t) const {
        return std::min(size.height, (ty + 1) * t) - ty * t;
    }

    RasterSize size;
    std::int64_t across;
    std::int64_t down;
    std::unordered_map<std::int64_t, Pending> pending;
    std::int64_t stored = 0;
    TileStore store;
};

OverviewPyramid::OverviewPyramid(const std::string& outputPath, const GeoTiffOptions& options,
                                 Resampling resampling, bool keepFullResolution)
    : m_options(options),
      m_resampling(resampling),
      m_sampleBytes(bytesPerSample(options.sampleFormat)),
      m_jobs(options, [this](std::int64_t key, const std::vector<std::byte>& encoded) {
          store(static_cast<std::size_t>(key % kLevelKeys), key / kLevelKeys, encoded);
      }) {
    for (const RasterSize& size : overviewSizes(options.width, options.height, options.tileSize))
        m_levels.push_back(std::make_unique<Level>(outputPath, size, options.tileSize));
    if (keepFullResolution) {
        const std::int64_t t = options.tileSize;
        m_fullResolution.emplace(outputPath,
                                 ((options.width + t - 1) / t) * ((options.height + t - 1) / t));
    }
    const auto half = static_cast<std::size_t>(options.tileSize / 2);
    m_reduced.resize(half * half * m_sampleBytes);
}

OverviewPyramid::~OverviewPyramid() = default;

RasterSize OverviewPyramid::levelSize(std::size_t level) const noexcept {
    return level == 0 ? RasterSize{m_options.width, m_options.height}
                      : m_levels[level - 1]->size;
}

void OverviewPyramid::addFullResolutionTile(std::int64_t tx, std::int64_t ty,
                                            const std::byte* raw) {
    if (m_levels.empty()) return;
    const std::int64_t t = m_options.tileSize;
    const std::int64_t cols = std::min(m_options.width, (tx + 1) * t) - tx * t;
    const std::int64_t rows = std::min(m_options.height, (ty + 1) * t) - ty * t;
    reduce(m_options.sampleFormat, raw, t, cols, rows, m_resampling, m_reduced.data());
    addBlock(1, tx, ty, (cols + 1) / 2, (rows + 1) / 2, m_reduced.data());
}

// The reduction of tile (tx, ty) of the level below lands in one quarter of tile
// (tx / 2, ty / 2) of `level`: tile edges are even, so quarters never straddle tiles.
void OverviewPyramid::addBlock(std::size_t level, std::int64_t tx, std::int64_t ty,
                               std::int64_t blockCols, std::int64_t blockRows,
                               const std::byte* block) {
    Level& l = *m_levels[level - 1];
    const std::int64_t t = m_options.tileSize;
    const std::int64_t px = tx / 2, py = ty / 2;
    auto [it, inserted] = l.pending.try_emplace(py * l.across + px);
    Level::Pending& tile = it->second;
    const std::size_t tileBytes = static_cast<std::size_t>(t * t) * m_sampleBytes;
    if (inserted) {
        if (!m_spare.empty()) {
            tile.bytes = std::move(m_spare.back());
            m_spare.pop_back();
        }
        tile.bytes.assign(tileBytes, std::byte{0});  // cells beyond the edge are 0
        m_pendingBytes += tileBytes;
        m_peakPendingBytes = std::max(m_peakPendingBytes, m_pendingBytes);
    }
    const std::int64_t col0 = (tx % 2) * (t / 2), row0 = (ty % 2) * (t / 2);
    const auto rowBytes = static_cast<std::size_t>(blockCols) * m_sampleBytes;
    for (std::int64_t r = 0; r < blockRows; ++r) {
        std::memcpy(tile.bytes.data() + static_cast<std::size_t>((row0 + r) * t + col0) *
                                            m_sampleBytes,
                    block + static_cast<std::size_t>(r) * rowBytes, rowBytes);
    }
    tile.cellsReceived += blockCols * blockRows;
    if (tile.cellsReceived == l.validCols(px, t) * l.validRows(py, t)) {
        std::vector<std::byte> bytes = std::move(tile.bytes);
        l.pending.erase(it);
        m_pendingBytes -= tileBytes;
        completeTile(level, px, py, bytes);
        m_spare.push_back(std::move(bytes));
    }
}

// Reduces a completed tile into the next level (before encoding, which spoils the samples),
// then encodes and stores it.
void OverviewPyramid::completeTile(std::size_t level, std::int64_t tx, std::int64_t ty,
                                   std::vector<std::byte>& raw) {
    Level& l = *m_levels[level - 1];
    const std::int64_t t = m_options.tileSize;
    if (level < m_levels.size()) {
        const std::int64_t cols = l.validCols(tx, t), rows = l.validRows(ty, t);
        std::vector<std::byte> reduced(m_reduced.size());
        reduce(m_options.sampleFormat, raw.data(), t, cols, rows, m_resampling, reduced.data());
        addBlock(level + 1, tx, ty, (cols + 1) / 2, (rows + 1) / 2, reduced.data());
    }
    const std::int64_t index = ty * l.across + tx;
    if (m_jobs.parallel()) {
        // The job's key says the level and the tile: the levels are few (one per halving).
        m_jobs.submit(index * kLevelKeys + static_cast<std::int64_t>(level), raw);
        return;
    }
    std::vector<std::byte> encoded;
    m_jobs.encodeHere(raw, encoded);
    store(level, index, encoded);
}

void OverviewPyramid::store(std::size_t level, std::int64_t index,
                            const std::vector<std::byte>& encoded) {
    Level& l = *m_levels[level - 1];
    l.store.put(index, encoded);
    ++l.stored;
}

void OverviewPyramid::finish() { m_jobs.finish(); }

void OverviewPyramid::storeFullResolutionTile(std::int64_t index,
                                              const std::vector<std::byte>& encoded) {
    m_fullResolution.value().put(index, encoded);
}

void OverviewPyramid::checkComplete(const std::string& path) const {
    for (std::size_t i = 0; i < m_levels.size(); ++i) {
        const Level& l = *m_levels[i];
        if (l.stored != l.across * l.down) {
            throw std::logic_error("overviews of '" + path + "': level " +
                                   std::to_string(i + 1) + " has " + std::to_string(l.stored) +
                                   " of its " + std::to_string(l.across * l.down) + " tiles");
        }
    }
}

void OverviewPyramid::readTile(std::size_t level, std::int64_t index,
                               std::vector<std::byte>& out) const {
    if (level == 0) {
        m_fullResolution.value().get(index, out);
    } else {
        m_levels[level - 1]->store.get(index, out);
    }
}

std::uint64_t OverviewPyramid::scratchBytes() const noexcept {
    std::uint64_t total = m_fullResolution ? m_fullResolution->size() : 0;
    for (const auto& level : m_levels) total += level->store.size();
    return total;
}

}  // namespace terragrid

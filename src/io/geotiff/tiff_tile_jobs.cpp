#include "io/geotiff/tiff_tile_jobs.hpp"

#include <utility>

namespace terragrid {

TiffTileJobs::TiffTileJobs(const GeoTiffOptions& options, TileJobQueue::Write write)
    : m_options(options), m_write(std::move(write)) {}

// Compressing on workers pays when there are workers and something to compress; the bytes are
// the same either way (tiff_tile_encoder.hpp).
bool TiffTileJobs::parallel() {
    if (m_decided) return m_queue.has_value();
    m_decided = true;
    const std::size_t jobs = tileJobsFor(m_options.tileJobs);
    if (jobs > 1 && m_options.compression != Compression::None) {
        m_queue.emplace(
            jobs,
            [this](std::vector<std::byte>& raw, std::vector<std::byte>& out) {
                encodeHere(raw, out);
            },
            m_write);
    }
    return m_queue.has_value();
}

void TiffTileJobs::submit(std::int64_t key, std::vector<std::byte>& raw) {
    m_queue->submit(key, std::move(raw));
    raw = m_queue->takeBuffer();
}

// On any thread, several at once: each has its own encoder.
void TiffTileJobs::encodeHere(std::vector<std::byte>& raw, std::vector<std::byte>& out) {
    std::unique_ptr<TiffTileEncoder>& encoder = m_encoders.local();
    if (!encoder) encoder = std::make_unique<TiffTileEncoder>(m_options);
    encoder->encode(raw.data(), raw.size(), out);
}

void TiffTileJobs::finish() {
    if (m_queue) m_queue->finish();
}

}  // namespace terragrid

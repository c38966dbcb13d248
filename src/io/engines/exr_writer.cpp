#include "io/engines/exr_writer.hpp"

#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfStringAttribute.h>
#include <OpenEXR/ImfThreading.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "io/transaction/atomic_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
// Not in an anonymous namespace: ExrWriter::State, a type with a name outside this file, holds
// one (GCC's -Wsubobject-linkage).
namespace exr_file {

// OpenEXR's output stream over the AtomicFile: writes at a position of its own (pwrite), since
// the library seeks back to fill in the offset table. A failure is kept as well as thrown,
// because OpenEXR's OutputFile swallows exceptions in its destructor, where that table is
// written.
class FileStream final : public Imf::OStream {
public:
    explicit FileStream(AtomicFile& file) : Imf::OStream(file.targetPath().c_str()), m_file(file) {}

    void write(const char c[], int n) override {
        try {
            m_file.writeAt(c, static_cast<std::size_t>(n), m_position);
        } catch (const OutputError& e) {
            if (!failure) failure = e.what();
            throw;
        }
        m_position += static_cast<std::uint64_t>(n);
    }
    std::uint64_t tellp() override { return m_position; }
    void seekp(std::uint64_t position) override { m_position = position; }

    std::optional<std::string> failure;

private:
    AtomicFile& m_file;
    std::uint64_t m_position = 0;
};

}  // namespace exr_file

namespace {

// Only lossless codecs every EXR reader has, the small ones in engines included (tinyexr in
// Godot); OpenEXR stores a block raw when its codec does not make it smaller.
Imf::Compression exrCompression(ExrCompression compression) {
    switch (compression) {
    case ExrCompression::Zip: return Imf::ZIP_COMPRESSION;
    case ExrCompression::Piz: return Imf::PIZ_COMPRESSION;
    case ExrCompression::None: return Imf::NO_COMPRESSION;
    }
    throw std::logic_error("ExrWriter: unknown compression");
}

Imf::Header exrHeader(std::int64_t width, std::int64_t height, ExrCompression compression,
                      const std::vector<std::pair<std::string, std::string>>& text) {
    Imf::Header header(static_cast<int>(width), static_cast<int>(height));
    header.channels().insert(kExrChannel, Imf::Channel(Imf::FLOAT));
    header.compression() = exrCompression(compression);
    for (const auto& [name, value] : text) header.insert(name, Imf::StringAttribute(value));
    return header;
}

// Deflating 16-row blocks is most of what an EXR costs (zlib finds little to take out of float
// heights: 6 %), so the blocks are compressed on OpenEXR's thread pool, one thread per thread
// the run has (-j, which main sets as TBB's limit, and the arena's concurrency). OpenEXR writes
// a scanline file's blocks in row order whatever the threads, so the bytes do not depend on
// them (height_exr_test.cpp).
int exrThreads() {
    const int threads = std::min(
        tbb::this_task_arena::max_concurrency(),
        static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
    if (threads <= 1) return 0;  // compress in the calling thread
    if (Imf::globalThreadCount() < threads) Imf::setGlobalThreadCount(threads);
    return threads;
}

}  // namespace

struct ExrWriter::State {
    State(std::string path, std::int64_t w, std::int64_t h) : file(std::move(path)), stream(file),
                                                              width(w), height(h) {}
    AtomicFile file;
    exr_file::FileStream stream;
    std::unique_ptr<Imf::OutputFile> exr;
    std::int64_t width;
    std::int64_t height;
    std::int64_t rowsWritten = 0;

    [[noreturn]] void fail(const std::string& cause) const {
        throw OutputError("writing '" + file.targetPath() + "': " + cause);
    }
    // Runs an OpenEXR call, turning its exceptions (Iex) into OutputError naming the file.
    template <typename F>
    void run(F&& call) {
        try {
            call();
        } catch (const OutputError&) {
            throw;
        } catch (const std::exception& e) {
            fail(stream.failure.value_or(e.what()));
        }
    }
};

ExrWriter::ExrWriter(std::string path, std::int64_t width, std::int64_t height,
                     ExrCompression compression,
                     const std::vector<std::pair<std::string, std::string>>& text) {
    constexpr std::int64_t kLargest = std::numeric_limits<int>::max();  // EXR's int coordinates
    if (width < 1 || height < 1 || width > kLargest || height > kLargest)
        throw OutputError("writing '" + path + "': a " + std::to_string(width) + "x" +
                          std::to_string(height) + " map is larger than an EXR can be");
    m_state = std::make_unique<State>(std::move(path), width, height);
    m_state->run([&] {
        m_state->exr = std::make_unique<Imf::OutputFile>(
            m_state->stream, exrHeader(width, height, compression, text), exrThreads());
    });
}

ExrWriter::~ExrWriter() = default;

const std::string& ExrWriter::path() const noexcept { return m_state->file.targetPath(); }

void ExrWriter::writeRows(const float* values, std::int64_t rows) {
    State& s = *m_state;
    if (!s.exr || rows > s.height - s.rowsWritten)
        throw std::logic_error("ExrWriter::writeRows: " + std::to_string(rows) +
                               " rows after the last one, or after close(), for '" + path() + "'");
    // The frame buffer's origin is pixel (0, 0) of the image, so it points rowsWritten rows
    // before `values`; OpenEXR only reads the rows written now.
    const auto stride = static_cast<std::size_t>(s.width) * sizeof(float);
    const char* origin = reinterpret_cast<const char*>(values) -
                         static_cast<std::ptrdiff_t>(s.rowsWritten) * static_cast<std::ptrdiff_t>(stride);
    Imf::FrameBuffer frame;
    frame.insert(kExrChannel, Imf::Slice(Imf::FLOAT, const_cast<char*>(origin), sizeof(float), stride));
    s.run([&] {
        s.exr->setFrameBuffer(frame);
        s.exr->writePixels(static_cast<int>(rows));
    });
    s.rowsWritten += rows;
}

void ExrWriter::close() {
    State& s = *m_state;
    if (!s.exr || s.rowsWritten != s.height)
        throw std::logic_error("ExrWriter::close: " + std::to_string(s.rowsWritten) + " of " +
                               std::to_string(s.height) + " rows written to '" + path() + "'");
    s.exr.reset();  // writes the offset table
    if (s.stream.failure) s.fail(*s.stream.failure);
}

void ExrWriter::commit() {
    if (m_state->exr) throw std::logic_error("ExrWriter::commit before close() for '" + path() + "'");
    m_state->file.commit();
}

}  // namespace terragrid

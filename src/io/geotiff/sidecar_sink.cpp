// A sink whose file has small text files beside it (classes.tif.aux.xml, classes.qml,
// height.qml): they are written once the main file is finished and committed after it, in
// the same transaction, so a sidecar in place always describes a complete file.

#include <deque>
#include <utility>

#include "io/transaction/atomic_file.hpp"
#include "io/sinks.hpp"

namespace terragrid {
namespace {

class SidecarSink final : public OutputSink {
public:
    SidecarSink(std::unique_ptr<OutputSink> main, std::vector<Sidecar> sidecars)
        : m_main(std::move(main)), m_sidecars(std::move(sidecars)) {
        // Created now, like the main file's, so a directory that refuses files fails at once.
        for (const Sidecar& s : m_sidecars) m_files.emplace_back(s.path);
    }

    const std::string& path() const override { return m_main->path(); }
    void begin(const TileLayout& layout) override { m_main->begin(layout); }
    void consume(const Tile& tile) override { m_main->consume(tile); }
    bool wantsSummary() const override { return m_main->wantsSummary(); }
    bool wantsCompleteSummary() const override { return m_main->wantsCompleteSummary(); }

    void finish() override {
        m_main->finish();
        for (std::size_t i = 0; i < m_files.size(); ++i) m_files[i].write(m_sidecars[i].text);
    }

    void commit() override {
        m_main->commit();
        for (AtomicFile& file : m_files) file.commit();
    }

private:
    std::unique_ptr<OutputSink> m_main;
    std::vector<Sidecar> m_sidecars;
    std::deque<AtomicFile> m_files;  // AtomicFile cannot move: a deque keeps them in place
};

}  // namespace

std::unique_ptr<OutputSink> withSidecars(std::unique_ptr<OutputSink> main,
                                         std::vector<Sidecar> sidecars) {
    return std::make_unique<SidecarSink>(std::move(main), std::move(sidecars));
}

}  // namespace terragrid

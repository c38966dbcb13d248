// Small text files beside an output (classes.tif.aux.xml, a PNG's world file and PAM
// sidecar): written once the main file is finished and committed after it, in the same
// transaction, so a sidecar in place always describes a complete file.

#include <stdexcept>
#include <utility>

#include "io/sinks.hpp"

namespace terragrid {

SidecarFiles::SidecarFiles(std::vector<Sidecar> sidecars) : m_sidecars(std::move(sidecars)) {
    // Created now, like the main file's, so a directory that refuses files fails at once.
    for (const Sidecar& s : m_sidecars) m_files.emplace_back(s.path);
}

void SidecarFiles::write() {
    for (std::size_t i = 0; i < m_files.size(); ++i) m_files[i].write(m_sidecars[i].text);
}

void SidecarFiles::commit() {
    for (AtomicFile& file : m_files) file.commit();
}

std::vector<std::string> SidecarFiles::paths() const {
    std::vector<std::string> paths;
    for (const Sidecar& s : m_sidecars) paths.push_back(s.path);
    return paths;
}

namespace {

class SidecarSink final : public OutputSink {
public:
    SidecarSink(std::unique_ptr<OutputSink> main, std::vector<Sidecar> sidecars)
        : m_main(std::move(main)), m_sidecars(std::move(sidecars)) {
        if (m_main->preparesTiles())
            throw std::logic_error("withSidecars: '" + m_main->path() +
                                   "' prepares tiles, which the wrapper would not pass on");
    }

    const std::string& path() const override { return m_main->path(); }
    std::vector<std::string> files() const override {
        std::vector<std::string> all = m_main->files();
        for (std::string& p : m_sidecars.paths()) all.push_back(std::move(p));
        return all;
    }
    void begin(const TileLayout& layout) override { m_main->begin(layout); }
    void consume(const Tile& tile) override { m_main->consume(tile); }
    bool wantsSummary() const override { return m_main->wantsSummary(); }
    bool wantsCompleteSummary() const override { return m_main->wantsCompleteSummary(); }
    // prepare() is not passed on: the tiles would hold the result under this sink, where the
    // main sink does not look (sinks that prepare tiles hold SidecarFiles themselves).
    double parallelCpuSeconds() const override { return m_main->parallelCpuSeconds(); }

    void finish() override {
        m_main->finish();
        m_sidecars.write();
    }

    void commit() override {
        m_main->commit();
        m_sidecars.commit();
    }

private:
    std::unique_ptr<OutputSink> m_main;
    SidecarFiles m_sidecars;
};

}  // namespace

std::unique_ptr<OutputSink> withSidecars(std::unique_ptr<OutputSink> main,
                                         std::vector<Sidecar> sidecars) {
    return std::make_unique<SidecarSink>(std::move(main), std::move(sidecars));
}

}  // namespace terragrid

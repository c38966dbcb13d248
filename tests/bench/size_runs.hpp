#pragma once
// What the whole-stage benchmarks share (erosion, climate; the CLI bench's summary files): a
// line per map size, printed as it comes, and the summary file scripts/bench.sh collects.

#include <tbb/global_control.h>

#include <cstddef>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace terragrid::bench {

/// Appends `text` to the file `path` (nothing when `path` is empty); throws when it cannot.
inline void appendTo(const std::string& path, const std::string& text) {
    if (path.empty()) return;
    std::ofstream out(path, std::ios::app);
    out << text;
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

/// `lineFor(size)` for each of `sizes` on at most `threads` TBB threads (0: as many as TBB
/// likes), each line printed as soon as it is measured; then all of them appended to
/// `summaryFile` (appendTo).
inline void runSizes(int threads, const std::vector<int>& sizes, const std::string& summaryFile,
                     const std::function<std::string(int)>& lineFor) {
    std::unique_ptr<tbb::global_control> limit;
    if (threads > 0)
        limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                      std::size_t(threads));
    std::string summary;
    for (const int size : sizes) {
        const std::string line = lineFor(size);
        std::cout << line << std::flush;
        summary += line;
    }
    appendTo(summaryFile, summary);
}

}  // namespace terragrid::bench

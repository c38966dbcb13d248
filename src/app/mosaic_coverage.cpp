#include "app/mosaic_coverage.hpp"

#include <algorithm>
#include <set>

namespace terragrid {
namespace {

/// A gap or an overlap in one band of rows.
struct Fault {
    bool overlap = false;
    std::int64_t col0 = 0, col1 = 0;  ///< columns [col0, col1)
    std::vector<std::string> pieces;  ///< the overlapping pieces
    bool operator==(const Fault&) const = default;
};

std::string range(const char* what, std::int64_t first, std::int64_t end) {
    return std::string(what) + " " + std::to_string(first) +
           (end - first > 1 ? "-" + std::to_string(end - 1) : std::string());
}

/// The faults of the band of rows that the same pieces cross: `crossing` sorted by column.
std::vector<Fault> bandFaults(const std::vector<const CoveragePiece*>& crossing,
                              std::int64_t width) {
    std::vector<Fault> faults;
    std::int64_t covered = 0;  // columns [0, covered) seen
    std::vector<const CoveragePiece*> open;  // the pieces that reach `covered`
    for (const CoveragePiece* p : crossing) {
        const std::int64_t c0 = p->window.col0, c1 = c0 + p->window.width;
        if (c0 > covered) faults.push_back({false, covered, c0, {}});
        if (c0 < covered) {
            Fault f{true, c0, std::min(c1, covered), {}};
            for (const CoveragePiece* o : open)
                if (o->window.col0 + o->window.width > c0) f.pieces.push_back("'" + o->name + "'");
            f.pieces.push_back("'" + p->name + "'");
            faults.push_back(std::move(f));
        }
        if (c1 >= covered) open.clear();
        open.push_back(p);
        covered = std::max(covered, c1);
    }
    if (covered < width) faults.push_back({false, covered, width, {}});
    return faults;
}

std::string sentence(const Fault& f, std::int64_t row0, std::int64_t row1, std::int64_t width) {
    std::string text = range("rows", row0, row1);
    if (f.col0 != 0 || f.col1 != width) text += ", " + range("columns", f.col0, f.col1) + ",";
    if (!f.overlap) return text + " are in no piece";
    text += " are in more than one piece:";
    for (std::size_t i = 0; i < f.pieces.size(); ++i) text += (i ? ", " : " ") + f.pieces[i];
    return text;
}

}  // namespace

std::vector<std::string> coverageProblems(const std::vector<CoveragePiece>& pieces,
                                          std::int64_t width, std::int64_t height) {
    // Bands of rows between any two consecutive piece edges: each is crossed by one set of
    // pieces, which must tile its columns.
    std::set<std::int64_t> edges{0, height};
    for (const CoveragePiece& p : pieces) {
        edges.insert(std::clamp<std::int64_t>(p.window.row0, 0, height));
        edges.insert(std::clamp<std::int64_t>(p.window.row0 + p.window.height, 0, height));
    }
    std::vector<std::string> problems;
    std::vector<Fault> last;  // the previous band's faults, told when they end
    std::int64_t lastRow0 = 0;
    const auto tell = [&](std::int64_t row1) {
        for (const Fault& f : last) problems.push_back(sentence(f, lastRow0, row1, width));
    };
    for (auto it = edges.begin(); std::next(it) != edges.end(); ++it) {
        const std::int64_t r0 = *it, r1 = *std::next(it);
        std::vector<const CoveragePiece*> crossing;
        for (const CoveragePiece& p : pieces)
            if (p.window.row0 <= r0 && p.window.row0 + p.window.height >= r1)
                crossing.push_back(&p);
        std::stable_sort(crossing.begin(), crossing.end(), [](const auto* a, const auto* b) {
            return a->window.col0 < b->window.col0;
        });
        std::vector<Fault> faults = bandFaults(crossing, width);
        if (faults != last) {
            tell(r0);
            last = std::move(faults);
            lastRow0 = r0;
        }
    }
    tell(height);
    return problems;
}

}  // namespace terragrid

// Gaps in class tables over five axes: the arrangement of the classes' range ends on each
// axis, searched depth first with the classes still possible, then the first uncovered box
// widened axis by axis, as findGap does for height and moisture alone.

#include "model/class_gaps.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <utility>

#include "model/axis_pieces.hpp"

namespace terragrid {

namespace {

enum Axis : std::size_t { Height, Moisture, Temperature, Precipitation, Slope, kAxes };

struct AxisInfo {
    const char* name;
    double lo, hi;
    double TerrainClass::*min;
    double TerrainClass::*max;
};
constexpr std::array<AxisInfo, kAxes> kAxisInfo{{
    {"height", 0, 1, &TerrainClass::heightMin, &TerrainClass::heightMax},
    {"moisture", 0, 1, &TerrainClass::moistureMin, &TerrainClass::moistureMax},
    {"temperature", kMinTemperature, kMaxTemperature, &TerrainClass::temperatureMin,
     &TerrainClass::temperatureMax},
    {"precipitation", 0, kMaxPrecipitation, &TerrainClass::precipitationMin,
     &TerrainClass::precipitationMax},
    {"slope", 0, kMaxSlope, &TerrainClass::slopeMin, &TerrainClass::slopeMax},
}};

std::vector<AxisPiece> piecesOf(const std::vector<TerrainClass>& classes, const AxisInfo& axis) {
    std::vector<double> ends;
    for (const TerrainClass& c : classes) ends.insert(ends.end(), {c.*axis.min, c.*axis.max});
    return axisPieces(std::move(ends), axis.lo, axis.hi);
}

std::string number(double value) {
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, result.ptr);
}

class GapSearch {
public:
    explicit GapSearch(const std::vector<TerrainClass>& classes) : m_classes(classes) {
        for (std::size_t a = 0; a < kAxes; ++a) {
            const AxisInfo& axis = kAxisInfo[a];
            const bool restricted = std::any_of(classes.begin(), classes.end(), [&](const TerrainClass& c) {
                return c.*axis.min > axis.lo || c.*axis.max < axis.hi;
            });
            if (a <= Moisture || restricted) m_axes.push_back(a);
        }
        for (const std::size_t a : m_axes) m_pieces.push_back(piecesOf(classes, kAxisInfo[a]));
    }

    std::optional<std::string> run() {
        std::vector<std::size_t> candidates(m_classes.size());
        for (std::size_t i = 0; i < candidates.size(); ++i) candidates[i] = i;
        std::vector<std::size_t> at(m_axes.size(), 0);
        if (!search(0, candidates, at)) return std::nullopt;
        return describe(widen(at));
    }

private:
    bool inRange(std::size_t cls, std::size_t k, double v) const {
        const AxisInfo& axis = kAxisInfo[m_axes[k]];
        const TerrainClass& c = m_classes[cls];
        return v >= c.*axis.min && v <= c.*axis.max;
    }

    /// Depth first over the axes from k: true (and `at` the first uncovered piece of every axis)
    /// when some point no candidate holds exists.
    bool search(std::size_t k, const std::vector<std::size_t>& candidates,
                std::vector<std::size_t>& at) {
        if (k == m_axes.size()) return candidates.empty();
        for (std::size_t p = 0; p < m_pieces[k].size(); ++p) {
            at[k] = p;
            std::vector<std::size_t> left;
            for (const std::size_t c : candidates)
                if (inRange(c, k, m_pieces[k][p].probe)) left.push_back(c);
            if (left.empty()) {
                for (std::size_t j = k + 1; j < m_axes.size(); ++j) at[j] = 0;
                return true;
            }
            if (search(k + 1, left, at)) return true;
        }
        return false;
    }

    /// Whether no class holds any point of the box [first[k], last[k]] of pieces.
    bool boxUncovered(const std::vector<std::size_t>& first, const std::vector<std::size_t>& last) const {
        std::vector<std::size_t> at = first;
        for (;;) {
            bool covered = false;
            for (std::size_t c = 0; c < m_classes.size() && !covered; ++c) {
                bool all = true;
                for (std::size_t k = 0; k < m_axes.size() && all; ++k)
                    all = inRange(c, k, m_pieces[k][at[k]].probe);
                covered = all;
            }
            if (covered) return false;
            std::size_t k = m_axes.size();
            while (k-- > 0) {
                if (at[k] < last[k]) {
                    ++at[k];
                    break;
                }
                at[k] = first[k];
            }
            if (k == std::size_t(-1)) return true;
        }
    }

    /// The uncovered box grown from `at`: along the last axis first, then each earlier one
    /// while the whole box stays uncovered.
    std::pair<std::vector<std::size_t>, std::vector<std::size_t>> widen(const std::vector<std::size_t>& at) const {
        std::vector<std::size_t> first = at, last = at;
        for (std::size_t k = m_axes.size(); k-- > 0;) {
            while (last[k] + 1 < m_pieces[k].size()) {
                ++last[k];
                if (boxUncovered(first, last)) continue;
                --last[k];
                break;
            }
        }
        return {first, last};
    }

    std::string span(std::size_t k, std::size_t first, std::size_t last) const {
        const AxisPiece& a = m_pieces[k][first];
        const AxisPiece& b = m_pieces[k][last];
        if (a.lo == b.hi) return number(a.lo);
        return number(a.lo) + ".." + number(b.hi);
    }

    std::string describe(const std::pair<std::vector<std::size_t>, std::vector<std::size_t>>& box) const {
        std::vector<std::string> parts;
        for (std::size_t k = 0; k < m_axes.size(); ++k)
            parts.push_back(std::string(kAxisInfo[m_axes[k]].name) + " " +
                            span(k, box.first[k], box.second[k]));
        std::string text = parts[0] + " with ";
        for (std::size_t k = 1; k < parts.size(); ++k)
            text += (k == 1 ? "" : k + 1 == parts.size() ? " and " : ", ") + parts[k];
        return text;
    }

    const std::vector<TerrainClass>& m_classes;
    std::vector<std::size_t> m_axes;
    std::vector<std::vector<AxisPiece>> m_pieces;
};

}  // namespace

std::optional<std::string> findClimateGap(const std::vector<TerrainClass>& classes) {
    return GapSearch(classes).run();
}

}  // namespace terragrid

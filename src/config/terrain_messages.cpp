// The terrain rules in the user's words (terragrid/config/terrain_messages.hpp).

#include "terragrid/config/terrain_messages.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cstddef>
#include <utility>

#include "config/json.hpp"
#include "config/text.hpp"

namespace terragrid {

namespace {

using config_detail::quote;

/// Indexed by DefaultClass; Ground has no threshold.
constexpr std::array<std::string_view, 4> kThresholdKeys{
    "terrain.lake_below", "terrain.mountain_above", "terrain.forest_above",
    "terrain.desert_below"};
static_assert(kThresholdKeys.size() == std::size_t(DefaultClass::Ground));

/// A threshold for messages: "0.8", or "coverage 0.6, resolved to 0.58".
std::string describeThreshold(const Threshold& t, double value) {
    if (!t.byCoverage) return formatNumber(value);
    return "coverage " + formatNumber(t.coverage) + ", resolved to " + formatNumber(value);
}

/// `share` with few digits, but never so rounded that it reads as `limit` or more: the
/// message says "only <share>" of something smaller than a target `limit`.
std::string formatShareBelow(double share, double limit) {
    char buf[32];
    for (int digits = 3;; ++digits) {
        const auto result =
            std::to_chars(buf, buf + sizeof buf, share, std::chars_format::general, digits);
        double readBack = 0;
        std::from_chars(buf, result.ptr, readBack);
        if (digits >= 17 || readBack < limit) return std::string(buf, result.ptr);
    }
}

/// The cells a class by coverage chooses among: those no class before it (in first-match
/// order) takes. "neither lake nor mountain" for forest.
std::string cellsLeftFor(DefaultClass c) {
    const std::size_t before = std::size_t(c);
    assert(before >= 2);
    std::string text = "neither ";
    for (std::size_t i = 0; i < before; ++i) {
        text += i == 0 ? "" : i + 1 == before ? " nor " : ", ";
        text += kDefaultClasses[i].name;
    }
    return text;
}

std::string unreachableText(const TerrainProblem& p) {
    return quote(thresholdKey(p.threshold)) + " coverage " + formatNumber(p.given.coverage) +
           " cannot be reached: only " + formatShareBelow(p.availableShare, p.given.coverage) +
           " of the map is " + cellsLeftFor(p.threshold);
}

}  // namespace

std::string_view thresholdKey(DefaultClass c) {
    assert(c != DefaultClass::Ground);
    return kThresholdKeys[std::size_t(c)];
}

std::string thresholdOrderText(DefaultClass below, const Threshold& belowGiven, double belowValue,
                               DefaultClass above, const Threshold& aboveGiven,
                               double aboveValue) {
    return quote(thresholdKey(below)) + " (" + describeThreshold(belowGiven, belowValue) +
           ") must be below " + quote(thresholdKey(above)) + " (" +
           describeThreshold(aboveGiven, aboveValue) + ")";
}

ConfigError configErrorFrom(const TerrainError& error) {
    const TerrainProblem& p = error.problem();
    config_detail::Problems problems;
    if (p.rule == TerrainProblem::Rule::CoverageUnreachable)
        config_detail::report(problems, unreachableText(p));
    else
        config_detail::report(problems, thresholdOrderText(p.threshold, p.given, p.resolved,
                                                           p.above, p.aboveGiven,
                                                           p.aboveResolved));
    return ConfigError(std::move(problems));
}

}  // namespace terragrid

// output.crs and the geographic map's extent (crs_rules.hpp).

#include "config/crs_rules.hpp"

#include <cmath>
#include <string>

#include "config/options.hpp"
#include "config/validation.hpp"
#include "config/values.hpp"
#include "terragrid/config/crs.hpp"

namespace terragrid::config_detail {
namespace {

constexpr std::string_view kEpsgKey = "epsg";

std::string epsgText(std::uint64_t code) { return "EPSG:" + std::to_string(code); }

/// How the CRS shows in a message: as the user wrote it, output.epsg or output.crs.
std::string crsNamed(const Validation& v) {
    if (v.userSet("output.epsg") && !v.userSet("output.crs")) {
        const Json& written = sectionOf(v.written, "output.epsg")->at("epsg");
        return quote("output.epsg") + " (" + showJson(written) + ")";
    }
    return v.named("output.crs");
}

/// A geographic map's cells are degrees: the map may span at most the globe once across
/// (360) and down (180), and its rows must stay within latitudes -90..90.
void checkGeographicExtent(const Validation& v, Problems& out) {
    if (!v.passedAll({"map.width", "map.height", "map.cell_size", "map.origin",
                      "map.projection"}) ||
        v.config.map.projection != Projection::Plane)
        return;  // a planet's grid is fixed (shapes.cpp)
    const MapConfig& map = v.config.map;
    const std::string crs = crsNamed(v) + ", geographic";
    const auto span = [&](std::int64_t cells) { return static_cast<double>(cells) * map.cellSize; };
    const std::size_t before = out.size();
    for (const auto& [cells, key, limit] :
         {std::tuple{map.width, "map.width", 360.0}, std::tuple{map.height, "map.height", 180.0}}) {
        if (span(cells) <= limit) continue;
        report(out, v.named("map.cell_size") + " is in degrees with " + crs + ": " +
                        std::to_string(cells) + " cells (" + quote(key) + ") span " +
                        formatNumber(span(cells)) + " degrees, more than the globe's " +
                        formatNumber(limit) + "; use at most " +
                        formatNumber(limit / static_cast<double>(cells)) +
                        " (about 0.00027 is 30 m)");
    }
    if (out.size() != before) return;
    const double bottom = map.originY - span(map.height);
    if (map.originY > 90.0 || bottom < -90.0)
        report(out, v.named("map.origin") + " puts the map's rows at latitudes " +
                        formatNumber(map.originY) + " down to " + formatNumber(bottom) + " with " +
                        crs + ": they must stay within 90 .. -90");
}

}  // namespace

bool crsUserSet(const Validation& v) {
    return v.userSet("output.crs") || v.userSet("output.epsg");
}

void takeEpsgShorthand(Json& document, const Json& userWritten, Problems& out) {
    Json* section = sectionOf(document, "output.crs");
    if (section == nullptr || !section->contains(kEpsgKey)) return;
    const Json written = (*section)[std::string(kEpsgKey)];
    section->erase(std::string(kEpsgKey));
    // Checked as the option it was before output.crs: an integer in GeoKey range.
    const Option shorthand{"output.epsg",
                           {.kind = Kind::Integer, .intMin = kMinEpsg, .intMax = kMaxEpsg},
                           "",
                           nullptr};
    const Checked value = checkValue(shorthand, written, out);
    if (!value) return;
    const std::string crs = epsgText(value->get<std::uint64_t>());
    const Json* userSection = sectionOf(userWritten, "output.crs");
    if (userSection != nullptr && userSection->contains("crs") &&
        (*userSection)["crs"] != Json(crs)) {
        report(out, quote("output.epsg") + " (" + showJson(*value) + ") and " +
                        quote("output.crs") + " (" + showJson((*userSection)["crs"]) +
                        ") disagree: set one of them");
        return;
    }
    (*section)["crs"] = crs;
}

void checkCrs(Validation& v, Problems& out) {
    if (!v.passedAll({"output.crs"})) return;
    Json& value = (*sectionOf(v.document, "output.crs"))["crs"];
    const int code = parseEpsgText(value.get_ref<const std::string&>());
    if (code < 0) {
        report(out, v.named("output.crs") + " must be \"EPSG:\" and a code, e.g. \"EPSG:32633\"");
        v.passed[optionIndex("output.crs")] = false;
        return;
    }
    if (code < static_cast<int>(kMinEpsg) || code > static_cast<int>(kMaxEpsg)) {
        report(out, crsNamed(v) + " must have a code between " +
                        std::to_string(kMinEpsg) + " and " + std::to_string(kMaxEpsg) +
                        " (what a GeoTIFF GeoKey holds)");
        v.passed[optionIndex("output.crs")] = false;
        return;
    }
    value = epsgText(static_cast<std::uint64_t>(code));  // one spelling in the resolved config
    try {
        v.config.output.crs = crsFromEpsg(code);
    } catch (const CrsError& e) {
        report(out, crsNamed(v) + " " + e.what());
        v.passed[optionIndex("output.crs")] = false;
        return;
    }
    if (v.config.output.crs.geographic) checkGeographicExtent(v, out);
}

}  // namespace terragrid::config_detail

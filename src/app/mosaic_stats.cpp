#include "app/mosaic_stats.hpp"

#include <algorithm>
#include <stdexcept>

#include "terragrid/pipeline/tile_summary.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

const Json& at(const Json& j, const char* key) {
    if (!j.is_object() || !j.contains(key))
        throw std::invalid_argument(std::string("stats.json has no '") + key + "'");
    return j.at(key);
}

std::int64_t count(const Json& j, const char* key) { return at(j, key).get<std::int64_t>(); }

double share(std::int64_t part, std::int64_t whole) {
    return whole == 0 ? 0.0 : double(part) / double(whole);
}

}  // namespace

Json combinedStats(const std::vector<Json>& pieces) {
    if (pieces.empty()) throw std::invalid_argument("no stats.json to combine");
    Json whole = pieces.front();
    whole.erase("window");
    std::int64_t cells = 0, walkable = 0, walkableBefore = 0;
    Int128 sum = 0;
    double min = 0, max = 0;
    std::vector<std::int64_t> classCells(at(whole, "classes").size(), 0);
    double wall = 0, cpu = 0;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        const Json& piece = pieces[p];
        cells += count(at(piece, "window"), "cells");
        const Json& elevation = at(piece, "elevation");
        const auto pieceSum = parseFixedSum(at(elevation, "sum_fixed").get<std::string>());
        if (!pieceSum) throw std::invalid_argument("stats.json's 'elevation.sum_fixed' is no sum");
        sum += *pieceSum;
        const double pieceMin = at(elevation, "min_m").get<double>();
        const double pieceMax = at(elevation, "max_m").get<double>();
        min = p == 0 ? pieceMin : std::min(min, pieceMin);
        max = p == 0 ? pieceMax : std::max(max, pieceMax);
        const Json& classes = at(piece, "classes");
        for (std::size_t i = 0; i < classCells.size() && i < classes.size(); ++i)
            classCells[i] += count(classes[i], "cells");
        walkable += count(at(piece, "walkable"), "cells");
        walkableBefore += count(at(piece, "walkable"), "cells_before_connectivity");
        wall += at(at(piece, "timing_seconds"), "total_wall").get<double>();
        cpu += at(at(piece, "timing_seconds"), "process_cpu").get<double>();
    }
    Json& elevation = whole["elevation"];
    elevation["min_m"] = min;
    elevation["max_m"] = max;
    elevation["mean_m"] = elevationMean(sum, cells);
    elevation["sum_fixed"] = fixedSumText(sum);
    for (std::size_t i = 0; i < classCells.size(); ++i) {
        whole["classes"][i]["cells"] = classCells[i];
        whole["classes"][i]["share"] = share(classCells[i], cells);
    }
    Json& walk = whole["walkable"];
    walk["cells"] = walkable;
    walk["share"] = share(walkable, cells);
    walk["cells_before_connectivity"] = walkableBefore;
    whole["regions"] = {{"note", "regions are labelled within each piece (cut at its edges), so "
                                 "their figures do not add up; generate the whole map for them"}};
    whole["timing_seconds"] = {{"pieces", pieces.size()},
                               {"pieces_total_wall", wall},
                               {"pieces_process_cpu", cpu}};
    return whole;
}

}  // namespace terragrid

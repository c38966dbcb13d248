// output.crs resolved by PROJ (terragrid/config/crs.hpp).

#include "terragrid/config/crs.hpp"

#include <proj.h>

#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>

namespace terragrid {
namespace {

struct ContextDeleter {
    void operator()(PJ_CONTEXT* c) const noexcept { proj_context_destroy(c); }
};
using Context = std::unique_ptr<PJ_CONTEXT, ContextDeleter>;

// A PJ knows nothing of its context; the context outlives every PJ made here.
struct PjDeleter {
    void operator()(PJ* p) const noexcept { proj_destroy(p); }
};
using Pj = std::unique_ptr<PJ, PjDeleter>;

// PROJ reports a failed lookup on stderr too; terragrid says it once, in its own words.
void quiet(void*, int, const char*) {}

struct Axis {
    double unitFactor = 0;  // metres (linear) or radians (angular) per unit
    std::string unitName;
};

Axis firstAxis(PJ_CONTEXT* ctx, const PJ* crs) {
    const Pj cs(proj_crs_get_coordinate_system(ctx, crs));
    Axis axis;
    const char* unitName = nullptr;
    if (!cs || !proj_cs_get_axis_info(ctx, cs.get(), 0, nullptr, nullptr, nullptr,
                                      &axis.unitFactor, &unitName, nullptr, nullptr))
        throw CrsError("has no coordinate system in PROJ's database");
    if (unitName != nullptr) axis.unitName = unitName;
    return axis;
}

void readEllipsoid(PJ_CONTEXT* ctx, const PJ* crs, CrsInfo& info) {
    const Pj ellipsoid(proj_get_ellipsoid(ctx, crs));
    double a = 0, b = 0, inverseFlattening = 0;
    int computed = 0;
    if (ellipsoid && proj_ellipsoid_get_parameters(ctx, ellipsoid.get(), &a, &b, &computed,
                                                   &inverseFlattening)) {
        info.semiMajorMetres = a;
        info.inverseFlattening = inverseFlattening;
    }
}

}  // namespace

int parseEpsgText(std::string_view text) noexcept {
    constexpr std::string_view kPrefix = "EPSG:";
    if (text.size() <= kPrefix.size() || text.size() > kPrefix.size() + 9) return -1;
    for (std::size_t i = 0; i < kPrefix.size(); ++i) {
        const char c = text[i];
        if ((c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c) != kPrefix[i]) return -1;
    }
    int code = -1;
    const char* first = text.data() + kPrefix.size();
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, code);
    if (error != std::errc() || end != last || *first < '0' || *first > '9') return -1;
    return code;
}

namespace {

CrsInfo lookUp(int code) {
    const Context ctx(proj_context_create());
    if (!ctx) throw CrsError("cannot be looked up: PROJ failed to start");
    proj_log_func(ctx.get(), nullptr, quiet);
    const std::string text = std::to_string(code);
    const Pj crs(proj_create_from_database(ctx.get(), "EPSG", text.c_str(), PJ_CATEGORY_CRS,
                                           /*usePROJAlternativeGridNames=*/0, nullptr));
    if (!crs) throw CrsError("is not a CRS in PROJ's EPSG database");

    CrsInfo info;
    info.epsg = code;
    if (const char* name = proj_get_name(crs.get())) info.name = name;
    const PJ_TYPE type = proj_get_type(crs.get());
    if (type != PJ_TYPE_GEOGRAPHIC_2D_CRS && type != PJ_TYPE_PROJECTED_CRS)
        throw CrsError("(" + info.name + ") is not a 2D geographic or projected CRS, which a " +
                       "GeoTIFF's raster needs");
    info.geographic = type == PJ_TYPE_GEOGRAPHIC_2D_CRS;
    const Axis axis = firstAxis(ctx.get(), crs.get());
    if (info.geographic) {
        // Cell sizes and origins of a geographic map are degrees; grads or radians would be
        // read as degrees by the checks and by the engines' metres.
        if (std::abs(axis.unitFactor * 180.0 / std::numbers::pi - 1.0) > 1e-9)
            throw CrsError("(" + info.name + ") measures angles in " + axis.unitName +
                           "; terragrid takes geographic CRSs in degrees");
        info.unitToMetre = 0;
    } else {
        if (!(axis.unitFactor > 0))
            throw CrsError("(" + info.name + ") has axes in " + axis.unitName +
                           ", which is not a length");
        info.unitToMetre = axis.unitFactor;
    }
    readEllipsoid(ctx.get(), crs.get(), info);
    return info;
}

}  // namespace

// Opening PROJ's database costs milliseconds; a process that loads many configs (the tests,
// the fuzzer) asks about few codes, so each answer, or refusal, is kept.
CrsInfo crsFromEpsg(int code) {
    struct Answer {
        CrsInfo info;
        std::string error;  // non-empty: the CrsError's message
    };
    static std::mutex mutex;
    static std::map<int, Answer> answers;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = answers.find(code); it != answers.end()) {
            if (!it->second.error.empty()) throw CrsError(it->second.error);
            return it->second.info;
        }
    }
    Answer answer;
    try {
        answer.info = lookUp(code);
    } catch (const CrsError& e) {
        answer.error = e.what();
    }
    const std::lock_guard lock(mutex);
    answers.emplace(code, answer);
    if (!answer.error.empty()) throw CrsError(answer.error);
    return answer.info;
}

}  // namespace terragrid

#include "terragrid/model/engine.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

namespace terragrid {
namespace {

// The sizes each engine takes for one side of a heightmap, ascending.
//
// Unity: TerrainData.heightmapResolution is clamped to one of 33, 65, ..., 4097 (Unity's
// scripting reference), and a terrain's heightmap is square.
constexpr std::array<std::int64_t, 8> kUnitySides{33, 65, 129, 257, 513, 1025, 2049, 4097};
// Unreal: the "recommended landscape sizes" table of Epic's Landscape Technical Guide, sizes
// that fill whole components with no vertex left over.
constexpr std::array<std::int64_t, 7> kUnrealSides{127, 253, 505, 1009, 2017, 4033, 8129};
// Godot (heightmap terrain plugins and HeightMapShape3D): 2^n + 1 vertices per side, so a side
// splits into 2^n quads at every level of detail.
constexpr std::array<std::int64_t, 10> kGodotSides{33,   65,   129,  257,  513,
                                                   1025, 2049, 4097, 8193, 16385};

std::span<const std::int64_t> sidesOf(Engine engine) noexcept {
    switch (engine) {
        case Engine::Unity: return kUnitySides;
        case Engine::Unreal: return kUnrealSides;
        case Engine::Godot: return kGodotSides;
        case Engine::None: break;
    }
    return {};
}

bool isSide(std::span<const std::int64_t> sides, std::int64_t n) noexcept {
    return std::find(sides.begin(), sides.end(), n) != sides.end();
}

// The side nearest `n`; on a tie the larger, because growing a map keeps every cell it had.
std::int64_t nearestSide(std::span<const std::int64_t> sides, std::int64_t n) noexcept {
    std::int64_t best = sides.front();
    for (std::int64_t side : sides) {
        // Ascending sides and `<=`: of two at the same distance the later (larger) one wins.
        // Distances are computed on the side of n they lie on, so nothing can overflow.
        const std::int64_t distance = side >= n ? side - n : n - side;
        const std::int64_t bestDistance = best >= n ? best - n : n - best;
        if (distance <= bestDistance) best = side;
    }
    return best;
}

}  // namespace

bool engineAccepts(Engine engine, std::int64_t width, std::int64_t height) noexcept {
    const std::span<const std::int64_t> sides = sidesOf(engine);
    if (sides.empty()) return true;
    if (engine == Engine::Unity && width != height) return false;
    return isSide(sides, width) && isSide(sides, height);
}

EngineSize nearestEngineSize(Engine engine, std::int64_t width, std::int64_t height) noexcept {
    const std::span<const std::int64_t> sides = sidesOf(engine);
    if (sides.empty()) return {width, height};
    if (engine == Engine::Unity) {
        const std::int64_t side = nearestSide(sides, std::max(width, height));
        return {side, side};
    }
    return {nearestSide(sides, width), nearestSide(sides, height)};
}

std::string_view engineSizeRule(Engine engine) noexcept {
    switch (engine) {
        case Engine::Unity: return "square 2^n+1 sizes from 33 to 4097";
        case Engine::Unreal: return "each side one of 127, 253, 505, 1009, 2017, 4033, 8129";
        case Engine::Godot: return "each side 2^n+1 from 33 to 16385";
        case Engine::None: break;
    }
    return "any size";
}

EngineScale engineScale(double minMeters, double maxMeters, double cellXMeters,
                        double cellYMeters, std::int64_t width, std::int64_t height) noexcept {
    const double range = maxMeters - minMeters;
    EngineScale scale;

    // Unreal's world unit is the centimetre and a landscape quad is one local unit, which the
    // actor's scale multiplies: the default X/Y scale 100 spaces vertices 100 cm = 1 m apart.
    // So the scale is the cell size (metres) in centimetres, along each axis.
    scale.unrealScaleXPercent = cellXMeters * 100.0;
    scale.unrealScaleYPercent = cellYMeters * 100.0;
    // A landscape height h (0..65535) sits at LocationZ + (h - 32768) / 128 * ZScale cm
    // (LANDSCAPE_ZSCALE = 1/128), so Z scale 100 spans -256 m .. +256 m: 512 m over 65536
    // steps. Epic's Landscape Technical Guide gives the Z scale for a range of R metres as
    // R * 100 * 1/512, which is what this is.
    scale.unrealScaleZPercent = range * 100.0 / 512.0;
    // Value 0 must land on minMeters: LocationZ - 32768 / 128 * ZScale = min * 100, and
    // 32768 / 128 * ZScale = 256 * range * 100 / 512 = range / 2 * 100, so LocationZ is the
    // middle of the range in centimetres. (Value 65535 then lands at max - range / 65536, under
    // one step below max: Unreal divides the range into 65536 steps where the heightmap's
    // mapping uses 65535.)
    scale.unrealLocationZCm = (minMeters + range / 2.0) * 100.0;

    // Unity's TerrainData.heightmapScale is the spacing between neighbouring samples, i.e.
    // size / (resolution - 1): the terrain spans its samples edge to edge, first to last, so a
    // side of n samples is (n - 1) cells long. Size y covers the height range; the terrain
    // object's own y position (minMeters) then puts sample value 0 at min.
    scale.unityTerrainWidthMeters = static_cast<double>(width - 1) * cellXMeters;
    scale.unityTerrainLengthMeters = static_cast<double>(height - 1) * cellYMeters;
    // Unity's Import Raw divides a 16-bit value by 65536, not 65535 (its TerrainWizards.cs),
    // so 65535 would land a step short of the top; a size this much taller puts it at max.
    scale.unityTerrainHeightMeters = range * 65536.0 / 65535.0;

    // Godot imports a 16-bit heightmap as 0..1 (value / 65535), which the terrain multiplies by
    // its height scale: the range in metres (and its position offset by minMeters).
    scale.godotHeightScale = range;
    return scale;
}

}  // namespace terragrid

#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Game engines' heightmap conventions: which sizes each accepts, and the scale figures users
// otherwise work out by hand.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace terragrid {

enum class Engine : std::uint8_t { None, Unity, Unreal, Godot, Last = Godot };
inline constexpr std::array<std::string_view, 4> kEngineNames{"none", "unity", "unreal", "godot"};
static_assert(kEngineNames.size() == std::size_t(Engine::Last) + 1);

struct EngineSize {
    std::int64_t width = 0;
    std::int64_t height = 0;
    friend bool operator==(const EngineSize&, const EngineSize&) = default;
};

/// Whether `engine` takes a heightmap of width x height as it is. Unity: square, 2^n + 1 from
/// 33 to 4097. Unreal: each side one of the recommended landscape sizes (127, 253, 505, 1009,
/// 2017, 4033, 8129). Godot: each side 2^n + 1 from 33 to 16385. None: any size.
bool engineAccepts(Engine engine, std::int64_t width, std::int64_t height) noexcept;

/// The accepted size nearest to width x height (ties: the larger). Unity squares the map to the
/// size nearest its longer side.
EngineSize nearestEngineSize(Engine engine, std::int64_t width, std::int64_t height) noexcept;

/// The rule engineAccepts checks, in words, for messages ("square 2^n+1 sizes from 33 to 4097").
std::string_view engineSizeRule(Engine engine) noexcept;

/// Figures for a 16-bit heightmap spanning [minMeters, maxMeters] over width x height cells of
/// cellXMeters east-west by cellYMeters north-south (equal but on a geographic map).
struct EngineScale {
    double unrealScaleXPercent = 0;   ///< Landscape X scale: cm per cell east-west
    double unrealScaleYPercent = 0;   ///< Landscape Y scale: cm per cell north-south
    double unrealScaleZPercent = 0;   ///< Landscape Z scale: (max - min) m * 100 / 512
    double unrealLocationZCm = 0;     ///< Landscape Z location that puts 0..65535 at min..max
    double unityTerrainWidthMeters = 0;   ///< Terrain width (x)
    double unityTerrainLengthMeters = 0;  ///< Terrain length (z)
    double unityTerrainHeightMeters = 0;  ///< Terrain height: (max - min) * 65536 / 65535
    double godotHeightScale = 0;          ///< metres per unit of a 0..1 normalised heightmap
};
EngineScale engineScale(double minMeters, double maxMeters, double cellXMeters,
                        double cellYMeters, std::int64_t width, std::int64_t height) noexcept;

}  // namespace terragrid

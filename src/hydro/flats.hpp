#pragma once
// Drainage across flats for routeFlow (Barnes, Lehman & Mulla 2014).

#include <cstdint>
#include <vector>

#include "neighbours.hpp"

namespace terragrid::hydro::detail {

/// The receiver steepest descent gives a cell without a lower neighbour (that is no outlet):
/// a cell of a flat, until resolveFlats drains it.
inline constexpr std::uint32_t kFlat = 0xFFFFFFFEu;

/// Gives every kFlat cell of `receiver` a same-height neighbour, so that water crosses each
/// flat toward its way out, away from higher ground (Barnes et al. 2014); flat cells with no way
/// out (pits of a surface that was not filled) get kNoReceiver. `z` is the surface the receivers
/// were found on. The same bits for any thread count. Memory: 8 B per cell while it runs.
void resolveFlats(const Shape& shape, const std::vector<float>& z, std::vector<std::uint32_t>& receiver);

}  // namespace terragrid::hydro::detail

#pragma once
// What a hydrology stage promises beyond its checksums. A CRC-32 tells a damaged file, not a
// forged or miscomputed one: a stage file with valid checksums may still hold NaN heights,
// receivers that loop (a river walk that never ends), Strahler orders of 255 or lakes below
// their ground, and the tiles, the vector writers and stats.json trust what they read. So a
// stage read from a file is checked against every rule computeHydrology's results obey, each
// in time linear in the cells, before any of it is used (issue 31, item 8).
//
// The rules are a list (hydrology_stage_rules.cpp, kRules): a part the stage gains later (a
// climate stage) adds its own rules there, each a function that names the first cell that
// breaks it.

#include <cstdint>
#include <optional>
#include <string>

#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// A rule a stage breaks, and where.
struct StageRuleBreach {
    std::string rule;   ///< what the stage promises: "water never flows in a circle"
    std::string where;  ///< the first place it does not, with the values found
};

/// Bytes per hydrology cell the check holds beside the stage while it runs, at most: the count
/// of each cell's donors (1, while it looks for loops), the river mask, the Strahler orders
/// recomputed, and their walks' donor masks and counts (1 each).
inline constexpr std::uint64_t kStageCheckBytesPerCell = 5;

/// The first rule `stage` (arrays of the sizes its header gave, for `world`) breaks, or
/// nullopt when it is a stage computeHydrology could have made for `world`. Time linear in the
/// cells. Moves stage.receiver out and back (to recompute the Strahler orders without a copy);
/// on return the stage is as it was.
std::optional<StageRuleBreach> firstBrokenStageRule(HydrologyStage& stage, const World& world);

}  // namespace terragrid

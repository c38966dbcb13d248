#pragma once
// Byte counts as the plans print them (plan_text.cpp): the run's plan and the hydrology stage's
// (hydrology_stage_job.cpp) say them the same way.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace terragrid {

/// "<bytes> <what>" (formatBytes), or "<what> unknown" when the count is not known.
std::string unknownOr(const std::optional<std::uint64_t>& bytes, const std::string& what);

/// The count as a JSON number, or null when it is not known.
nlohmann::ordered_json optionalBytes(const std::optional<std::uint64_t>& bytes);

}  // namespace terragrid

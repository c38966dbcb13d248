#pragma once
// Where this build put the programs and files the tests and benchmarks run, and where the
// sources are. Defined in a source CMake generates into the build directory
// (tests/build_paths.cpp.in), so the paths reach one small file instead of every test file's
// flags: a clone at another path then recompiles that file alone, and a warm compiler cache
// serves every other object (docs/development.md, "CI").

#include <filesystem>
#include <string>

namespace terragrid::test {

/// The terragrid CLI built alongside the tests.
std::string cliPath();
/// The repository root (configs/, data/, docs/).
std::filesystem::path sourceDir();
/// The manual page and the bash completion the build wrote (CMakeLists.txt).
std::filesystem::path manPagePath();
std::filesystem::path completionPath();

}  // namespace terragrid::test

#pragma once
// docs/shards.md's job-array recipe as the page gives it, for the tests that run it (Slurm) and
// compare with it (the Kubernetes manifests): the page is the one source of the scripts.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace terragrid::test {

/// The recipe's scripts: each ```sh block of docs/shards.md whose first or second line is
/// "# NAME.sh: ...", by NAME.sh, as written.
std::map<std::string, std::string> recipeScripts();

/// The recipe's map.json, as the Slurm test runs it (and the benchmark scales it,
/// tests/bench/slurm_bench.cpp): seed 11, 384 x 256 cells of 30 m in tiles of 16 (16 tile rows,
/// so 16 shards), hydrology on (so a stage job first), the files output.files lists.
nlohmann::json recipeMap();

/// The files of recipeMap's mosaic that are the single run's (with output.layout "cog"), byte
/// for byte.
std::vector<std::string> recipeMosaickedFiles();

/// The words of the terragrid command in `script` (a line starting with "terragrid ", with its
/// backslash-continued lines), double quotes removed: {"terragrid", "--config", ...}.
std::vector<std::string> terragridWords(const std::string& script);

}  // namespace terragrid::test

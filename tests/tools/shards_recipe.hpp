#pragma once
// docs/shards.md's job-array recipe as the page gives it, for the tests that run it (Slurm) and
// compare with it (the Kubernetes manifests): the page is the one source of the scripts.

#include <map>
#include <string>
#include <vector>

namespace terragrid::test {

/// The recipe's scripts: each ```sh block of docs/shards.md whose first or second line is
/// "# NAME.sh: ...", by NAME.sh, as written.
std::map<std::string, std::string> recipeScripts();

/// The words of the terragrid command in `script` (a line starting with "terragrid ", with its
/// backslash-continued lines), double quotes removed: {"terragrid", "--config", ...}.
std::vector<std::string> terragridWords(const std::string& script);

}  // namespace terragrid::test

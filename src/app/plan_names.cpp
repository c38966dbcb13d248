// The names a run will replace, checked before it generates anything (plan.hpp): a commit
// that meets a directory in the way, or an output directory it cannot write into, would fail
// only after all the work, so the plan refuses such a run at once (exit 2, nothing touched).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "io/tiled/tiled_tileset.hpp"
#include "io/transaction/dir_lock.hpp"
#include "terragrid/app/plan.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

/// Every file the output writes in the directory, as far as the plan knows them: its main
/// file and the companions that always come with it.
std::vector<std::string> namesOf(const PlannedOutput& output) {
    std::vector<std::string> names{output.path};
    if (output.file == OutputFile::HeightR16) names.push_back(output.path + ".json");
    if (output.file == OutputFile::ClassesTif || output.file == OutputFile::WaterTif)
        names.push_back(output.path + ".aux.xml");
    if (output.file == OutputFile::WaterTif)
        names.push_back((fs::path(output.path).parent_path() / "water.qml").string());
    // The PNGs on the map's grid lie where height.tif lies: a world file and a GDAL sidecar.
    if (output.file == OutputFile::PreviewPng || output.file == OutputFile::HeightPng ||
        output.file == OutputFile::Height16Png || output.file == OutputFile::WaterMaskPng) {
        names.push_back(fs::path(output.path).replace_extension(".pgw").string());
        names.push_back(output.path + ".aux.xml");
    }
    if (output.file == OutputFile::TiledMap) {
        const fs::path directory = fs::path(output.path).parent_path();
        names.push_back((directory / kTerrainTilesetFile).string());
        names.push_back((directory / kTerrainImageFile).string());
    }
    return names;
}

bool isDirectory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// A directory itself, not a symbolic link to one: the commit replaces a link in the output
/// directory, as it replaces a file (output_transaction.hpp), and never follows it.
bool isDirectoryEntry(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::vector<std::string> outputNameProblems(const RunPlan& plan) {
    std::vector<std::string> problems;
    // A missing directory is created by the run; whether it can be is told by trying.
    if (isDirectory(plan.directory) &&
        ::faccessat(AT_FDCWD, plan.directory.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
        problems.push_back("cannot write into the output directory '" + plan.directory +
                           "' (output.directory): " + std::strerror(errno));
    // The lock file's name holding what the run must not use (dir_lock.hpp), told before the
    // work rather than after it.
    if (auto problem = lockEntryProblem(plan.directory)) problems.push_back(std::move(*problem));
    std::vector<std::string> names;
    for (const PlannedOutput& output : plan.outputs)
        for (std::string& name : namesOf(output)) names.push_back(std::move(name));
    if (!plan.manifestPath.empty()) names.push_back(plan.manifestPath);
    for (const std::string& name : names)
        if (isDirectoryEntry(name))
            problems.push_back("output '" + name +
                               "' cannot be replaced: a directory is in the way (remove it, "
                               "or give another output.directory)");
    return problems;
}

}  // namespace terragrid

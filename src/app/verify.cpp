#include "terragrid/app/verify.hpp"

#include <filesystem>
#include <system_error>

#include <tbb/parallel_for.h>

#include "io/manifest/sha256.hpp"
#include "terragrid/io/manifest.hpp"

namespace terragrid {

VerifyReport verifyDirectory(const std::string& directory) {
    const Manifest manifest = readManifest(directory);
    VerifyReport report;
    report.files = manifest.files.size();
    std::vector<std::string> problems(manifest.files.size());
    tbb::parallel_for(std::size_t{0}, manifest.files.size(), [&](std::size_t i) {
        const ManifestFile& listed = manifest.files[i];
        const std::string path = (std::filesystem::path(directory) / listed.name).string();
        problems[i] = fileProblem(path, listed.digest);
    });
    for (const ManifestFile& f : manifest.files) report.bytes += f.digest.bytes;
    for (std::string& problem : problems)
        if (!problem.empty()) report.problems.push_back(std::move(problem));
    return report;
}

}  // namespace terragrid

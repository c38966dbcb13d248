// docs/shards.md's Kubernetes manifests, checked without a cluster: each is a Kubernetes object
// by Kubernetes' own API types (Debian's python3-kubernetes, through k8s_manifests_check.py),
// and each Job's terragrid command is the Slurm script's that the Slurm test runs, but for the
// paths on the shared volume and the thread count.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tools/shards_recipe.hpp"

namespace terragrid {
namespace {

using nlohmann::json;
using testing::HasSubstr;

test::CommandResult checkManifests(const std::string& page) {
    return test::runCommand("/usr/bin/python3 " +
                            test::shellQuote((test::sourceDir() /
                                              "tests/tools/k8s_manifests_check.py").string()) +
                            " " + test::shellQuote(page));
}

/// `words` as the Slurm script would say them: the volume's paths relative, the completion
/// index named as Slurm's task id, no thread count (a pod takes the cores it is given), no
/// `cd /data &&` before it.
std::vector<std::string> asSlurmWords(std::vector<std::string> words) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::string w = words[i];
        if (w == "--threads") {
            ++i;
            continue;
        }
        for (const auto& [from, to] : {std::pair<std::string, std::string>{"/data/", ""},
                                       {"$JOB_COMPLETION_INDEX", "$SLURM_ARRAY_TASK_ID"}})
            for (auto at = w.find(from); at != std::string::npos; at = w.find(from))
                w.replace(at, from.size(), to);
        out.push_back(w);
    }
    return out;
}

TEST(KubernetesManifestsTest, AreKubernetesJobsRunningTheSlurmScriptsCommands) {
    const auto r = checkManifests((test::sourceDir() / "docs/shards.md").string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json manifests = json::parse(r.out);
    const auto scripts = test::recipeScripts();
    const std::pair<const char*, const char*> pairs[] = {
        {"stage-job.yaml", "stage.sh"}, {"shards-job.yaml", "shards.sh"},
        {"mosaic-job.yaml", "mosaic.sh"}};
    for (const auto& [manifest, script] : pairs) {
        ASSERT_TRUE(manifests.contains(manifest)) << manifest << "\n" << r.out;
        ASSERT_TRUE(scripts.contains(script)) << script;
        const json& objects = manifests[manifest];
        ASSERT_EQ(objects.size(), 1u) << manifest;
        EXPECT_EQ(objects[0]["kind"], "Job") << manifest;
        const std::vector<std::string> command = objects[0]["commands"][0];
        ASSERT_EQ(command.size(), 3u) << manifest;
        EXPECT_EQ(command[0], "sh");
        EXPECT_EQ(command[1], "-c");
        EXPECT_EQ(asSlurmWords(test::terragridWords(command[2])),
                  asSlurmWords(test::terragridWords(scripts.at(script))))
            << manifest << " against " << script;
    }
}

TEST(KubernetesManifestsTest, TheCheckRefusesUnknownFieldsWrongTypesAndMissingOnes) {
    const std::string job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec:\n"
                            "  completionMode: Indexed\n  completions: 16\n  template:\n"
                            "    spec:\n      restartPolicy: Never\n      containers:\n"
                            "        - {name: a, image: b, command: [sh]}\n";
    const std::pair<std::string, std::string> cases[] = {
        {job, ""},
        {std::string(job).replace(job.find("completions"), 11, "completionz"),
         "spec.completionz is not a field of V1JobSpec"},
        {std::string(job).replace(job.find("16"), 2, "\"16\""), "must be int"},
        {std::string(job).replace(job.find("command"), 7, "comand"),
         "comand is not a field of V1Container"},
        {std::string(job).replace(job.find("name: a, "), 9, ""), "`name`, must not be `None`"},
        {std::string(job).replace(job.find("kind: Job"), 9, "kind: Jbo"), "is no Kubernetes object"},
    };
    test::TempDir dir;
    for (const auto& [yaml, problem] : cases) {
        std::ofstream(dir / "page.md", std::ios::trunc) << "```yaml\n# job.yaml: x\n" << yaml
                                                        << "```\n";
        const auto r = checkManifests((dir / "page.md").string());
        if (problem.empty()) {
            EXPECT_EQ(r.exitCode, 0) << r.err;
        } else {
            EXPECT_EQ(r.exitCode, 1) << problem;
            EXPECT_THAT(r.err, HasSubstr(problem));
        }
    }
}

}  // namespace
}  // namespace terragrid

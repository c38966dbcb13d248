#pragma once
// A real Slurm cluster of one node on localhost, for the tests of the job-array recipe
// (docs/shards.md): Debian's munged, slurmctld and slurmd (scripts/deps.sh), started by the
// test as its own children with a generated slurm.conf, munge key and state in a temporary
// directory, on free ports, so it depends on nothing the machine runs and never meets another
// cluster (a second test's, or a real one: the clients are pointed at this slurm.conf).
//
// Privileges: as root, munged and slurmctld run as nobody (slurmctld drops to SlurmUser
// itself), and only slurmd stays root, as on a real cluster, where it starts each job as its
// user. As another user, every daemon runs as that user, whose jobs they are.
//
// Torn down in every case: the destructor cancels every job, waits for them to end and stops
// the daemons (SIGTERM, then SIGKILL); a test process that dies takes its daemons with it
// (PR_SET_PDEATHSIG).

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace terragrid::test {

class SlurmCluster {
public:
    /// Starts the cluster in `root` (created and made world-traversable, as munged demands of
    /// every directory above its socket: the ones above `root` must be so already, as /tmp is) with a node of `cpus` CPUs, whatever the machine
    /// has (Slurm takes the configured size: a job array's tasks of --cpus-per-task=8 then
    /// run two at a time on a 16-CPU node). Waits until the node is idle; throws
    /// std::runtime_error with the daemons' logs when it does not become so in time.
    SlurmCluster(const std::filesystem::path& root, int cpus);
    ~SlurmCluster();
    SlurmCluster(const SlurmCluster&) = delete;
    SlurmCluster& operator=(const SlurmCluster&) = delete;

    /// Runs `command` with a shell in `dir`, with this cluster's slurm.conf for the Slurm
    /// clients (sbatch, squeue, ...) and the jobs, and terragrid on PATH.
    CommandResult run(const std::filesystem::path& dir, const std::string& command) const;

    /// Every job and array task of `jobId` as "ID STATE REASON" lines (squeue --array, also
    /// finished ones).
    std::vector<std::string> jobStates(const std::string& jobId) const;

    /// Waits until every line of jobStates(jobId) has a state among `states` ("COMPLETED",
    /// "FAILED", ...; space separated); false after `timeout`.
    bool waitForStates(const std::string& jobId, const std::string& states,
                       std::chrono::seconds timeout = std::chrono::seconds(40)) const;

    /// The daemons' logs, for a failure message.
    std::string logs() const;

private:
    pid_t start(const std::vector<std::string>& args, const std::string& logName, bool asNobody);
    void stop() noexcept;

    std::filesystem::path m_root;
    std::filesystem::path m_conf;
    std::string m_environment;  ///< "export SLURM_CONF=...; export PATH=...;"
    std::vector<pid_t> m_daemons;  ///< started in this order, stopped in reverse
};

}  // namespace terragrid::test

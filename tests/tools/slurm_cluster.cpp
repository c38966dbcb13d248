#include "tools/slurm_cluster.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace terragrid::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        throw std::runtime_error("no free port for the Slurm cluster");
    ::close(fd);
    return ntohs(address.sin_port);
}

std::string userName(uid_t uid) {
    const passwd* pw = ::getpwuid(uid);
    if (!pw) throw std::runtime_error("no user name for uid " + std::to_string(uid));
    return pw->pw_name;
}

struct Account {
    uid_t uid;
    gid_t gid;
    std::string name;
};

/// Who the daemons but slurmd run as: nobody when the test is root, else the test's user.
Account daemonAccount() {
    if (::geteuid() != 0) return {::geteuid(), ::getegid(), userName(::geteuid())};
    const passwd* pw = ::getpwnam("nobody");
    if (!pw) throw std::runtime_error("no user 'nobody' to run munged and slurmctld as");
    return {pw->pw_uid, pw->pw_gid, "nobody"};
}

void chownTo(const fs::path& path, const Account& account) {
    if (::geteuid() == 0 && ::chown(path.c_str(), account.uid, account.gid) != 0)
        throw std::runtime_error("cannot chown " + path.string());
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::trunc) << text;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The single node's cluster. SlurmdParameters=config_overrides: the node has the CPUs
/// configured, not those the machine has. ProctrackType=proctrack/pgid and TaskPlugin=task/none:
/// no cgroups (none to be had inside a container, and none needed). batch_sched_delay=0 and
/// sched_min_interval=0: the scheduler runs as soon as a job ends, not up to 3 s later (the
/// defaults, made for thousands of jobs, made the recipe 3x slower). KillWait=2: a job that
/// scancel's SIGTERM does not end gets SIGKILL after 2 s, not 30. No accounting database.
std::string slurmConf(const fs::path& root, const Account& account, int ctldPort, int nodePort,
                      int cpus) {
    const std::string r = root.string();
    std::ostringstream c;
    c << "ClusterName=terragridtest\n"
      << "SlurmctldHost=localhost\n"
      << "SlurmctldPort=" << ctldPort << "\nSlurmdPort=" << nodePort << "\n"
      << "SlurmUser=" << account.name << "\nSlurmdUser=" << userName(::geteuid()) << "\n"
      << "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << r << "/munge/socket\n"
      << "StateSaveLocation=" << r << "/state\nSlurmdSpoolDir=" << r << "/spool\n"
      << "SlurmctldPidFile=" << r << "/state/slurmctld.pid\n"
      << "SlurmdPidFile=" << r << "/spool/slurmd.pid\n"
      << "SlurmctldLogFile=" << r << "/log/slurmctld.log\n"
      << "SlurmdLogFile=" << r << "/log/slurmd.log\n"
      << "ProctrackType=proctrack/pgid\nTaskPlugin=task/none\n"
      << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
      << "SchedulerType=sched/builtin\n"
      << "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n"
      << "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
      << "MpiDefault=none\nReturnToService=2\nSlurmdParameters=config_overrides\n"
      << "KillWait=2\n"
      << "NodeName=localhost NodeAddr=127.0.0.1 CPUs=" << cpus
      << " RealMemory=4096 State=UNKNOWN\n"
      << "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n";
    return c.str();
}

}  // namespace

SlurmCluster::SlurmCluster(const fs::path& root, int cpus) : m_root(root) {
    const Account account = daemonAccount();
    for (const char* dir : {"munge", "state", "spool", "log"}) fs::create_directories(root / dir);
    // munged refuses a socket below a directory that not everyone may traverse.
    fs::permissions(root, fs::perms(0755));
    for (const char* dir : {"munge", "state", "log"}) chownTo(root / dir, account);
    const fs::path key = root / "munge/munge.key";
    const CommandResult made = runCommand("mungekey --create --keyfile=" + shellQuote(key.string()));
    if (made.exitCode != 0) throw std::runtime_error("mungekey failed: " + made.err);
    chownTo(key, account);
    fs::permissions(key, fs::perms(0600));

    m_conf = root / "slurm.conf";
    writeText(m_conf, slurmConf(root, account, freePort(), freePort(), cpus));
    m_environment = "export SLURM_CONF=" + shellQuote(m_conf.string()) +
                    "; export PATH=" + shellQuote(fs::path(cliPath()).parent_path().string()) +
                    ":\"$PATH\";";
    const std::string munge = (root / "munge").string();
    start({"munged", "--foreground", "--socket=" + munge + "/socket", "--key-file=" + key.string(),
           "--log-file=" + munge + "/munged.log", "--pid-file=" + munge + "/munged.pid",
           "--seed-file=" + munge + "/munged.seed"},
          "munged.out", true);
    for (int i = 0; i < 200 && !fs::exists(root / "munge/socket"); ++i)
        std::this_thread::sleep_for(10ms);
    start({"slurmctld", "-D", "-i", "-f", m_conf.string()}, "slurmctld.out", false);
    start({"slurmd", "-D", "-N", "localhost", "-f", m_conf.string()}, "slurmd.out", false);
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (run(root, "sinfo -h -o %T").out != "idle\n") {
        if (std::chrono::steady_clock::now() > deadline) {
            const std::string text = logs();
            stop();
            throw std::runtime_error("the Slurm node did not become idle in 30 s:\n" + text);
        }
        std::this_thread::sleep_for(50ms);
    }
}

SlurmCluster::~SlurmCluster() { stop(); }

pid_t SlurmCluster::start(const std::vector<std::string>& args, const std::string& logName,
                          bool asDaemonAccount) {
    // Prepared before fork: the test process has threads.
    std::vector<std::string> words = args;
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const std::string log = (m_root / "log" / logName).string();
    const Account account = daemonAccount();
    const bool drop = asDaemonAccount && ::geteuid() == 0;
    const std::string env = "SLURM_CONF=" + m_conf.string();
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed for " + args[0]);
    if (pid == 0) {
        // Dies with the test process, however that ends.
        if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(127);
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0 || ::dup2(fd, STDERR_FILENO) < 0) ::_exit(127);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::signal(SIGPIPE, SIG_DFL);
        if (drop && (::setgroups(0, nullptr) != 0 || ::setgid(account.gid) != 0 ||
                     ::setuid(account.uid) != 0))
            ::_exit(127);
        ::putenv(const_cast<char*>(env.c_str()));
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    m_daemons.push_back(pid);
    return pid;
}

void SlurmCluster::stop() noexcept {
    try {
        // Every job first, while slurmctld and slurmd are there to end them.
        if (!m_daemons.empty() && !run(m_root, "squeue -h -o %i").out.empty()) {
            run(m_root, "scancel --user=\"$(id -un)\" --full");
            for (int i = 0; i < 100 && !run(m_root, "squeue -h -o %i").out.empty(); ++i)
                std::this_thread::sleep_for(100ms);
        }
    } catch (...) {
    }
    for (auto it = m_daemons.rbegin(); it != m_daemons.rend(); ++it) {
        ::kill(*it, SIGTERM);
        bool ended = false;
        for (int i = 0; i < 100 && !ended; ++i) {
            ended = ::waitpid(*it, nullptr, WNOHANG) == *it;
            if (!ended) std::this_thread::sleep_for(20ms);
        }
        if (!ended) {
            ::kill(*it, SIGKILL);
            ::waitpid(*it, nullptr, 0);
        }
    }
    m_daemons.clear();
}

CommandResult SlurmCluster::run(const fs::path& dir, const std::string& command) const {
    return runCommand(m_environment + " cd " + shellQuote(dir.string()) + " && " + command);
}

std::vector<std::string> SlurmCluster::jobStates(const std::string& jobId) const {
    const CommandResult r =
        run(m_root, "squeue --array -h -t all -j " + shellQuote(jobId) + " -o '%i %T %r'");
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

bool SlurmCluster::waitForStates(const std::string& jobId, const std::string& states,
                                 std::chrono::seconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const std::string wanted = " " + states + " ";
    for (;;) {
        const std::vector<std::string> lines = jobStates(jobId);
        bool all = !lines.empty();
        for (const std::string& line : lines) {
            std::istringstream words(line);
            std::string id, state;
            words >> id >> state;
            all = all && wanted.find(" " + state + " ") != std::string::npos;
        }
        if (all) return true;
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(100ms);
    }
}

std::string SlurmCluster::logs() const {
    std::string text;
    for (const char* name : {"slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out",
                             "munged.out"})
        text += std::string("--- ") + name + "\n" + readText(m_root / "log" / name);
    return text;
}

}  // namespace terragrid::test

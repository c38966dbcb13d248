#pragma once
// `terragrid serve` as a child process on a free port, for the tests that talk to it.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace terragrid::test {

/// `terragrid serve --port 0 --quiet ARGS...` running in `cwd`: the port it printed.
class ServeProcess {
public:
    ServeProcess(const std::filesystem::path& cwd, const std::vector<std::string>& args);
    int port() const { return m_port; }
    Child& child() { return *m_child; }

private:
    std::unique_ptr<Child> m_child;
    int m_port = 0;
};

}  // namespace terragrid::test

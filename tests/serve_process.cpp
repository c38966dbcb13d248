#include "serve_process.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace terragrid::test {

ServeProcess::ServeProcess(const std::filesystem::path& cwd, const std::vector<std::string>& args) {
    std::vector<std::string> all{"serve", "--port", "0", "--quiet"};
    all.insert(all.end(), args.begin(), args.end());
    m_child = std::make_unique<Child>(ChildSetup(cwd, all));
    // The URL is the first line on stdout once the socket listens.
    for (int i = 0; i < 600; ++i) {
        const std::string out = m_child->out();
        const auto colon = out.rfind(':');
        if (out.find('\n') != std::string::npos && colon != std::string::npos) {
            m_port = std::stoi(out.substr(colon + 1));
            return;
        }
        if (m_child->err().find("error") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("terragrid serve printed no URL: " + m_child->err());
}

}  // namespace terragrid::test

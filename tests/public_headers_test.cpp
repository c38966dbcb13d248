// The public headers (include/terragrid/) as docs/cpp-api.md describes them: every header is
// listed there as stable or detail, detail headers say so in their first comment, no header
// includes a third-party library's header (design.md: they stay out of public headers), and
// every header compiles alone with the include directory only.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDetailMark =
    "// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).";

/// Every header under include/terragrid, as "terragrid/app/map.hpp".
std::vector<std::string> publicHeaders() {
    std::vector<std::string> headers;
    const fs::path root = test::sourceDir() / "include";
    for (const auto& entry : fs::recursive_directory_iterator(root / "terragrid")) {
        const auto ext = entry.path().extension();
        if (entry.is_regular_file() && (ext == ".hpp" || ext == ".h"))
            headers.push_back(fs::relative(entry.path(), root).generic_string());
    }
    std::sort(headers.begin(), headers.end());
    return headers;
}

/// The page's two tables: which headers it calls stable and which detail. A cell may name
/// several headers of one folder ("`terragrid/hydro/depressions.hpp`, `erosion.hpp`").
void classify(std::vector<std::string>& stable, std::vector<std::string>& detail) {
    std::ifstream page(test::sourceDir() / "docs" / "cpp-api.md");
    std::vector<std::string>* table = nullptr;
    const std::regex name("`([a-z_/]+\\.(hpp|h))`");
    for (std::string line; std::getline(page, line);) {
        if (line.starts_with("| stable header")) table = &stable;
        else if (line.starts_with("| detail header")) table = &detail;
        else if (!line.starts_with("|")) table = nullptr;
        if (!table || line.starts_with("| ---")) continue;
        const std::string first = line.substr(1, line.find('|', 1) - 1);
        std::string folder;
        for (std::sregex_iterator it(first.begin(), first.end(), name), end; it != end; ++it) {
            std::string header = (*it)[1];
            if (header.starts_with("terragrid/"))
                folder = header.substr(0, header.rfind('/') + 1);
            else
                header = folder + header;
            table->push_back(header);
        }
    }
}

TEST(PublicHeadersTest, EveryHeaderIsStableOrDetailAndDetailHeadersSaySo) {
    std::vector<std::string> stable, detail;
    classify(stable, detail);
    ASSERT_GE(stable.size(), 10u);
    ASSERT_GE(detail.size(), 10u);
    for (const std::string& header : publicHeaders()) {
        const bool isStable = std::count(stable.begin(), stable.end(), header) == 1;
        const bool isDetail = std::count(detail.begin(), detail.end(), header) == 1;
        EXPECT_TRUE(isStable != isDetail) << header << " must be in exactly one of docs/cpp-api.md's tables";
        const std::string text = test::readFile(test::sourceDir() / "include" / header);
        EXPECT_EQ(text.find(kDetailMark) != std::string::npos, isDetail)
            << header << (isDetail ? " is detail and must carry the mark"
                                   : " is stable and must not carry the detail mark");
    }
    for (const auto& listed : {stable, detail})
        for (const std::string& header : listed)
            EXPECT_TRUE(fs::exists(test::sourceDir() / "include" / header)) << header << " is listed but missing";
}

TEST(PublicHeadersTest, NoPublicHeaderIncludesAThirdPartyHeader) {
    // Angle-bracket includes must be the C and C++ standard libraries'.
    const std::regex include("#include <([^>]+)>");
    const std::regex standard("[a-z_]+|std[a-z]+\\.h|stddef\\.h|stdint\\.h|string\\.h");
    for (const std::string& header : publicHeaders()) {
        const std::string text = test::readFile(test::sourceDir() / "include" / header);
        for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it)
            EXPECT_TRUE(std::regex_match((*it)[1].str(), standard))
                << header << " includes <" << (*it)[1] << ">";
    }
}

// Each header alone, with only include/ on the path, as a user's first #include would be: it
// must bring everything it needs. The compilers run two at a time (xargs -P): forty headers
// take about 30 s of CPU.
TEST(PublicHeadersTest, EveryHeaderCompilesAlone) {
    test::TempDir dir;
    const std::string include = test::shellQuote((test::sourceDir() / "include").string());
    std::string commands;
    int index = 0;
    for (const std::string& header : publicHeaders()) {
        const bool c = header.ends_with(".h");
        const fs::path unit = dir / (std::to_string(index++) + (c ? ".c" : ".cpp"));
        std::ofstream(unit) << "#include \"" << header << "\"\n";
        const std::string compiler = c ? "cc -std=c99 -pedantic-errors" : "c++ -std=c++20";
        // One line per header for xargs; a failure prints the header and the compiler's words.
        commands += compiler + " -fsyntax-only -Wall -Wextra -Werror -I " + include + " " +
                    test::shellQuote(unit.string()) + " 2>&1 || echo 'FAILED: " + header + "'\n";
    }
    std::ofstream(dir / "commands") << commands;
    const auto r = test::runCommand("xargs -P 2 -I{} -d '\\n' sh -c {} < " +
                                    test::shellQuote((dir / "commands").string()));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "") << "headers that do not compile alone:\n" << r.out;
    EXPECT_EQ(index, static_cast<int>(publicHeaders().size()));
}

}  // namespace
}  // namespace terragrid

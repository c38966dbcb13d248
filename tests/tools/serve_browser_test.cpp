// The explorer in Debian's Chromium, headless, driven by Selenium (serve_browser_check.py says
// what it checks): tiles on screen are the batch picture's pixels, an indexed classes tile
// draws as classes.tif's colours, a click shows the cell's
// class, a new seed changes the tiles, an invalid value shows the server's message, the 3D view
// renders on WebGL without errors.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

namespace terragrid {
namespace {

TEST(ServeBrowserTest, ChromiumShowsTheBatchPixelsInspectsCellsAndRendersIn3d) {
    // The browser is a test tool (scripts/deps.sh test); without it the test cannot run, and
    // says so rather than pass.
    for (const char* tool : {"/usr/bin/chromium", "/usr/bin/chromedriver"})
        if (!std::filesystem::exists(tool))
            GTEST_SKIP() << tool << " is not installed (scripts/deps.sh test installs chromium "
                                    "and chromium-driver): the explorer's browser test did not run";
    if (test::runCommand("/usr/bin/python3 -c 'import selenium' 2>&1").exitCode != 0)
        GTEST_SKIP() << "python3-selenium is not installed (scripts/deps.sh test): the "
                        "explorer's browser test did not run";
    const auto script = test::sourceDir() / "tests" / "tools" / "serve_browser_check.py";
    const auto r = test::runCommand("/usr/bin/python3 " + test::shellQuote(script.string()) + " " +
                                    test::shellQuote(test::cliPath()));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, ::testing::HasSubstr("browser: ok")) << r.out << r.err;
}

}  // namespace
}  // namespace terragrid

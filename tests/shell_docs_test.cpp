// The man page and the bash completion, as people meet them: terragrid.1 rendered by groff and
// man (no warning), naming every option and config key; the completion sourced into a real
// bash and asked to complete commands, options, option values and config keys.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using testing::HasSubstr;
using testing::IsEmpty;

/// The built page and completion, as the build wrote them (CMakeLists.txt).
const std::string kManPage = test::manPagePath().string();
const std::string kCompletion = test::completionPath().string();

std::string cli(const std::string& args) {
    const auto r = test::runCommand(test::shellQuote(test::cliPath()) + " " + args);
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    return r.out;
}

/// The long options --help lists for `command` ("" for a run).
std::vector<std::string> helpOptions(const std::string& command) {
    std::istringstream help(cli(command + "--help"));
    std::vector<std::string> names;
    bool table = false;
    for (std::string line; std::getline(help, line);) {
        if (line == "Options:") table = true;
        if (!table || !line.starts_with("  -")) continue;
        const auto at = line.find("--");
        names.push_back(line.substr(at, line.find_first_of(" ]", at) - at));
    }
    return names;
}

TEST(ManPageTest, TheBuiltPageIsWhatTheProgramPrints) {
    EXPECT_EQ(test::readFile(kManPage), cli("man-page"));
}

TEST(ManPageTest, RendersWithoutAWarning) {
    const auto groff = test::runCommand("groff -man -ww -z " + test::shellQuote(kManPage));
    EXPECT_EQ(groff.exitCode, 0);
    EXPECT_THAT(groff.err, IsEmpty());
    const auto man = test::runCommand("MANWIDTH=80 man --warnings -l " + test::shellQuote(kManPage));
    EXPECT_EQ(man.exitCode, 0) << man.err;
    EXPECT_THAT(man.err, IsEmpty());
    for (const char* heading : {"NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "CONFIGURATION KEYS",
                                "EXIT STATUS"})
        EXPECT_THAT(man.out, HasSubstr("\n" + std::string(heading) + "\n")) << heading;
}

// Rendered, so a key or an option that roff swallowed (a line starting with '.') is missed.
TEST(ManPageTest, NamesEveryOptionEveryCommandAndEveryKey) {
    const auto man = test::runCommand("MANWIDTH=200 man -l " + test::shellQuote(kManPage));
    ASSERT_EQ(man.exitCode, 0) << man.err;
    for (const std::string command : {"", "validate ", "hydrology-stage ", "man-page ", "completion "})
        for (const std::string& option : helpOptions(command))
            EXPECT_THAT(man.out, HasSubstr(option)) << command << option;
    for (const char* command : {"validate", "schema", "hydrology-stage", "man-page", "completion"})
        EXPECT_THAT(man.out, HasSubstr(std::string("terragrid ") + command)) << command;
    for (const OptionInfo& key : optionReference())
        EXPECT_THAT(man.out, HasSubstr(key.path)) << key.path;
}

/// What the completion offers for `line` (the cursor at its end) in a real bash that sourced
/// the built script. `words` is the line as bash splits it into COMP_WORDS (blanks, and '='
/// as a word of its own: COMP_WORDBREAKS).
std::vector<std::string> complete(const std::string& line, const std::vector<std::string>& words,
                                  const std::string& directory = ".") {
    std::string array;
    for (const std::string& w : words) array += " " + test::shellQuote(w);
    const std::string script = "source " + test::shellQuote(kCompletion) +
                               "; cd " + test::shellQuote(directory) +
                               "; COMP_LINE=" + test::shellQuote(line) +
                               "; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(" + array +
                               "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _terragrid;"
                               " printf '%s\\n' \"${COMPREPLY[@]}\"";
    const auto r = test::runCommand("bash -c " + test::shellQuote(script));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.err, IsEmpty()) << line;
    std::vector<std::string> out;
    std::istringstream lines(r.out);
    for (std::string l; std::getline(lines, l);)
        if (!l.empty()) out.push_back(l);
    return out;
}

TEST(CompletionTest, TheBuiltScriptIsWhatTheProgramPrintsAndRegistersItself) {
    EXPECT_EQ(test::readFile(kCompletion), cli("completion bash"));
    const auto r = test::runCommand("bash -c " +
                                    test::shellQuote("source " + test::shellQuote(kCompletion) +
                                                     "; complete -p terragrid"));
    EXPECT_EQ(r.out, "complete -F _terragrid terragrid\n");
}

TEST(CompletionTest, CompletesCommandsAndEachCommandsOwnOptions) {
    using testing::ElementsAre;
    EXPECT_THAT(complete("terragrid val", {"terragrid", "val"}), ElementsAre("validate"));
    EXPECT_THAT(complete("terragrid hyd", {"terragrid", "hyd"}),
                ElementsAre("hydrology-stage"));
    EXPECT_THAT(complete("terragrid --thr", {"terragrid", "--thr"}), ElementsAre("--threads"));
    EXPECT_THAT(complete("terragrid --dry", {"terragrid", "--dry"}), ElementsAre("--dry-run"));
    // validate takes no --threads; hydrology-stage takes --out.
    EXPECT_THAT(complete("terragrid validate --thr", {"terragrid", "validate", "--thr"}),
                IsEmpty());
    EXPECT_THAT(complete("terragrid hydrology-stage --ou", {"terragrid", "hydrology-stage", "--ou"}),
                ElementsAre("--out", "--out-dir"));
    EXPECT_THAT(complete("terragrid completion ", {"terragrid", "completion", ""}),
                ElementsAre("bash"));
}

TEST(CompletionTest, CompletesConfigKeysAndTheirChoices) {
    using testing::Contains;
    using testing::ElementsAre;
    EXPECT_THAT(complete("terragrid --set height.oct", {"terragrid", "--set", "height.oct"}),
                ElementsAre("height.octaves="));
    EXPECT_THAT(complete("terragrid -s map.ti", {"terragrid", "-s", "map.ti"}),
                ElementsAre("map.tile_size="));
    EXPECT_THAT(complete("terragrid validate --set ", {"terragrid", "validate", "--set", ""}),
                Contains("hydrology.erosion.enabled="));
    // After '=', bash's current word is what follows it: the completion offers the value alone.
    EXPECT_THAT(complete("terragrid --set height.noise=per",
                         {"terragrid", "--set", "height.noise", "=", "per"}),
                ElementsAre("perlin"));
    EXPECT_THAT(complete("terragrid --set hydrology.enabled=",
                         {"terragrid", "--set", "hydrology.enabled", "="}),
                ElementsAre("=true", "=false"));
    EXPECT_THAT(complete("terragrid --set height.octaves=", {"terragrid", "--set", "height.octaves", "="}),
                IsEmpty());
}

// Each word the completion offers for an option is one the CLI takes.
TEST(CompletionTest, OffersOptionValuesTheProgramTakes) {
    test::TempDir dir;
    const auto modes = complete("terragrid --progress ", {"terragrid", "--progress", ""});
    EXPECT_THAT(modes, testing::ElementsAre("auto", "bar", "json", "none"));
    const auto formats = complete("terragrid --dry-run=", {"terragrid", "--dry-run", "="});
    EXPECT_THAT(formats, testing::ElementsAre("=text", "=json"));
    for (const std::string& mode : modes)
        for (const std::string& format : formats)
            cli("--width 64 --height 64 --progress " + mode + " --dry-run" + format +
                " --out-dir " + test::shellQuote((dir / "out").string()) + " >/dev/null");
    std::filesystem::create_directory(dir / "maps");
    EXPECT_THAT(complete("terragrid --out-dir ma", {"terragrid", "--out-dir", "ma"}, dir.path().string()),
                testing::ElementsAre("maps"));
}

}  // namespace
}  // namespace terragrid

#include "tools/shards_recipe.hpp"

#include <regex>
#include <sstream>

#include "test_support.hpp"

namespace terragrid::test {

std::map<std::string, std::string> recipeScripts() {
    const std::string page = readFile(sourceDir() / "docs/shards.md");
    const std::regex block("```sh\n([\\s\\S]*?)```");
    const std::regex name("^(#!/bin/sh\n)?# ([a-z]+\\.sh):");
    std::map<std::string, std::string> scripts;
    for (auto it = std::sregex_iterator(page.begin(), page.end(), block);
         it != std::sregex_iterator(); ++it) {
        const std::string text = (*it)[1];
        std::smatch m;
        if (std::regex_search(text, m, name)) scripts[m[2]] = text;
    }
    return scripts;
}

nlohmann::json recipeMap() {
    return {{"seed", 11},
            {"map",
             {{"width", 384}, {"height", 256}, {"tile_size", 16}, {"origin", {600000, 5400000}}}},
            {"hydrology", {{"enabled", true}, {"sea_level", 0.3}, {"river_threshold", 180000}}},
            {"output",
             {{"epsg", 32633},
              {"files",
               {"height.tif", "classes.tif", "water.tif", "flow.tif", "stats.json",
                "rivers.geojson", "lakes.geojson"}}}}};
}

std::vector<std::string> recipeMosaickedFiles() {
    return {"height.tif",     "classes.tif",   "water.tif",          "flow.tif",
            "rivers.geojson", "lakes.geojson", "classes.tif.aux.xml"};
}

std::vector<std::string> terragridWords(const std::string& script) {
    const auto at = script.find("terragrid ");
    if (at == std::string::npos) return {};
    std::string command;
    std::istringstream lines(script.substr(at));
    for (std::string line; std::getline(lines, line);) {
        const bool continued = !line.empty() && line.back() == '\\';
        command += (continued ? line.substr(0, line.size() - 1) : line) + " ";
        if (!continued) break;
    }
    std::vector<std::string> words;
    std::istringstream in(command);
    for (std::string word; in >> word;) {
        std::erase(word, '"');
        words.push_back(word);
    }
    return words;
}

}  // namespace terragrid::test

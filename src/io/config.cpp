// The plain run config's few helpers (terragrid/io/config.hpp).

#include "terragrid/io/config.hpp"

#include <algorithm>

namespace terragrid {

bool Config::wants(OutputFile f) const {
    return std::find(output.files.begin(), output.files.end(), f) != output.files.end();
}

bool Config::needsClasses() const {
    return wants(OutputFile::ClassesTif) || wants(OutputFile::WalkableTif) ||
           wants(OutputFile::PreviewPng) || wants(OutputFile::StatsJson) ||
           wants(OutputFile::TiledMap) || wants(OutputFile::SplatPng) ||
           wants(OutputFile::WeightPng);
}

Config windowConfig(const Config& config, const CellWindow& window) {
    Config piece = config;
    piece.map = windowMap(config.map, window);
    return piece;
}

}  // namespace terragrid

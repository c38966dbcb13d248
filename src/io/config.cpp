// The plain run config's few helpers (terragrid/io/config.hpp).

#include "terragrid/io/config.hpp"

#include <algorithm>

#include "terragrid/io/output_drivers.hpp"

namespace terragrid {

bool Config::wants(OutputFile f) const {
    return std::find(output.files.begin(), output.files.end(), f) != output.files.end();
}

bool Config::needsClasses() const {
    return std::any_of(output.files.begin(), output.files.end(),
                       [&](OutputFile f) { return driverFor(f).needsClasses(*this); });
}

bool Config::needsRegions() const {
    return std::any_of(output.files.begin(), output.files.end(),
                       [&](OutputFile f) { return driverFor(f).needsRegions(*this); });
}

Config windowConfig(const Config& config, const CellWindow& window) {
    Config piece = config;
    piece.map = windowMap(config.map, window);
    return piece;
}

}  // namespace terragrid

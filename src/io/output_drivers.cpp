// The registry of output drivers (output_drivers.hpp): the one list of every row, each row
// defined beside its writer. Like GDALAllRegister, the list is explicit rather than filled by
// static constructors, which a static library's linker may drop with an otherwise unused file.

#include "terragrid/io/output_drivers.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace terragrid {

extern const OutputDriver kHeightTifDriver;    // outputs.cpp
extern const OutputDriver kClassesTifDriver;   // class_sinks.cpp
extern const OutputDriver kWalkableTifDriver;  // class_sinks.cpp
extern const OutputDriver kPreviewPngDriver;   // preview_sinks.cpp
extern const OutputDriver kHeightPngDriver;    // preview_sinks.cpp
extern const OutputDriver kStatsJsonDriver;    // stats_json_driver.cpp
extern const OutputDriver kHeightR16Driver;    // engine_sinks.cpp
extern const OutputDriver kHeight16PngDriver;  // engine_sinks.cpp
extern const OutputDriver kHeight16TifDriver;  // engine_sinks.cpp
extern const OutputDriver kTiledMapDriver;     // tiled_sink.cpp

namespace {

constexpr std::array kRegistered{
    &kHeightTifDriver,  &kClassesTifDriver, &kWalkableTifDriver, &kPreviewPngDriver,
    &kHeightPngDriver,  &kStatsJsonDriver,  &kHeightR16Driver,   &kHeight16PngDriver,
    &kHeight16TifDriver, &kTiledMapDriver};

using DriverTable = std::array<const OutputDriver*, kOutputFileNames.size()>;

[[noreturn]] void misregistered(const std::string& why) {
    throw std::logic_error("output drivers: " + why);
}

// The rows in OutputFile order, checked once: a slip in the list is a programming error that
// every run and test would hit, never a user's.
DriverTable indexedDrivers() {
    DriverTable table{};
    for (const OutputDriver* driver : kRegistered) {
        if (!namedAsInTable(*driver))
            misregistered("'" + std::string(driver->name) + "' is not its file's name");
        const OutputDriver*& slot = table[static_cast<std::size_t>(driver->file)];
        if (slot != nullptr) misregistered("two drivers for " + std::string(driver->name));
        slot = driver;
    }
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i] == nullptr) misregistered("no driver for " + std::string(kOutputFileNames[i]));
    return table;
}

}  // namespace

std::span<const OutputDriver* const> outputDrivers() {
    static const DriverTable table = indexedDrivers();
    return table;
}

const OutputDriver& driverFor(OutputFile file) {
    return *outputDrivers()[static_cast<std::size_t>(file)];
}

bool alwaysNeeded(const Config&) { return true; }
bool neverNeeded(const Config&) { return false; }

}  // namespace terragrid

// The registry of output drivers (output_drivers.hpp). Each row registers itself beside its
// writer (DriverRegistration), so adding an output touches no list here. A static library's
// linker would drop a driver file nothing else refers to: the executables link terragrid_core
// whole (CMakeLists.txt), and the registry checks on first use that no row is missing.

#include "terragrid/io/output_drivers.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace terragrid {

namespace {

// Filled by the DriverRegistration objects during static initialisation, before main; a
// function's static, so it exists before the first of them whatever the order of files.
std::vector<const OutputDriver*>& registered() {
    static std::vector<const OutputDriver*> drivers;
    return drivers;
}

using DriverTable = std::array<const OutputDriver*, kOutputFileNames.size()>;

[[noreturn]] void misregistered(const std::string& why) {
    throw std::logic_error("output drivers: " + why);
}

// The rows in OutputFile order, checked once: a slip in the list is a programming error that
// every run and test would hit, never a user's.
DriverTable indexedDrivers() {
    DriverTable table{};
    for (const OutputDriver* driver : registered()) {
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

DriverRegistration::DriverRegistration(const OutputDriver& driver) {
    registered().push_back(&driver);
}

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

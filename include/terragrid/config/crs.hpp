#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Resolving a CRS code against PROJ's database (the authority, not a guess from the code's
// range). The loader calls it for output.crs; tests call it to build configs by hand. PROJ's
// headers stay in src/config/crs.cpp.

#include <stdexcept>
#include <string>
#include <string_view>

#include "terragrid/io/crs.hpp"

namespace terragrid {

/// A code PROJ does not know, or a CRS terragrid cannot write; what() says why, in words that
/// follow "'output.crs' ("EPSG:9999") " (e.g. "is not in PROJ's EPSG database").
class CrsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The EPSG code in "EPSG:NNNN" (case-insensitive prefix), or -1 when `text` is not of that
/// form. Pure.
int parseEpsgText(std::string_view text) noexcept;

/// What PROJ's database says of EPSG:`code`: its name, whether it is geographic, its axis unit
/// and its ellipsoid. Throws CrsError when PROJ does not know the code, when it is not a 2D
/// geographic or projected CRS (geocentric, 3D, vertical, compound), or when a geographic CRS
/// is not in degrees. Thread-safe (a PROJ context per lookup); each code's answer is kept for
/// the life of the process.
CrsInfo crsFromEpsg(int code);

}  // namespace terragrid

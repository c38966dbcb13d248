#pragma once
// Rules for output.crs (private to src/): the output.epsg shorthand, the code checked against
// PROJ's database, and the extent of a map in a geographic CRS.

#include "config/text.hpp"

namespace terragrid::config_detail {

struct Validation;

/// Rewrites output.epsg (a shorthand the user may write instead of output.crs) as
/// output.crs "EPSG:N" in `document`, so that the option table, the resolved config and its
/// hash know one key. Runs before the keys are checked; `written` is what the user wrote.
void takeEpsgShorthand(Json& document, const Json& written, Problems& out);

/// Resolves output.crs with PROJ into the config (an unknown code is a problem naming it), and
/// refuses a geographic map that wraps the globe more than once or leaves -90..90.
void checkCrs(Validation& v, Problems& out);

/// Whether the user chose the CRS (output.crs or output.epsg).
bool crsUserSet(const Validation& v);

}  // namespace terragrid::config_detail

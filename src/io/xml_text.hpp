#pragma once
// Text for the XML and metadata terragrid writes (GDAL's metadata tag, its .aux.xml sidecar,
// QGIS styles): one escaping rule and one number format for all of them.

#include <string>

namespace terragrid {

/// `text` with & < > " ' escaped, for an XML element or attribute.
std::string xmlEscape(const std::string& text);

/// The shortest text that reads back as the same double, so a value survives the trip exactly
/// and the same value always gives the same bytes.
std::string exactDecimal(double value);

}  // namespace terragrid

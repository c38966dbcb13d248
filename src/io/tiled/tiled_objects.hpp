#pragma once
// One object layer of a Tiled JSON map written object by object (the water layers: rivers as
// polylines, lakes as polygons), so a layer of any size never sits whole in memory.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// A point in the map file's pixels.
struct PixelPoint {
    double x = 0, y = 0;
    friend bool operator==(const PixelPoint&, const PixelPoint&) = default;
};

/// Writes `{"color":…,"draworder":"topdown","id":…,"name":…,"objects":[…],"opacity":1,
/// "type":"objectgroup","visible":true,"x":0,"y":0}` (members in name order, as Tiled writes
/// them) through `write` in pieces of about 1 MiB. Object ids run from `firstObjectId`.
class TiledObjectLayer {
public:
    using Json = nlohmann::ordered_json;

    TiledObjectLayer(const char* name, std::int64_t layerId, std::int64_t firstObjectId,
                     const Rgb& colour, const std::function<void(const std::string&)>& write);

    /// One object of Tiled type `type` whose shape (`shape`: "polyline" or "polygon") runs
    /// through `points`: its x, y the first point, its points relative to it (Tiled's format).
    void add(const char* type, const char* shape, const std::vector<PixelPoint>& points,
             Json properties);

    /// Ends the layer; returns how many objects it holds.
    std::int64_t close();

    /// A typed custom property, as Tiled writes one.
    static Json property(const char* name, const char* type, Json value);

private:
    const std::function<void(const std::string&)>& m_write;
    std::int64_t m_firstObjectId;
    std::int64_t m_objects = 0;
    std::string m_buffer;
};

}  // namespace terragrid

#include "io/tiled/tiled_objects.hpp"

#include <utility>

namespace terragrid {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

}  // namespace

TiledObjectLayer::TiledObjectLayer(const char* name, std::int64_t layerId,
                                   std::int64_t firstObjectId, const Rgb& colour,
                                   const std::function<void(const std::string&)>& write)
    : m_write(write),
      m_firstObjectId(firstObjectId),
      m_buffer(R"({"color":")" + hexColour(colour) + R"(","draworder":"topdown","id":)" +
               std::to_string(layerId) + R"(,"name":)" + Json(name).dump() + R"(,"objects":[)") {}

void TiledObjectLayer::add(const char* type, const char* shape,
                           const std::vector<PixelPoint>& points, Json properties) {
    const PixelPoint origin = points.front();
    Json relative = Json::array();
    for (const PixelPoint& p : points)
        relative.push_back({{"x", p.x - origin.x}, {"y", p.y - origin.y}});
    if (m_objects > 0) m_buffer += ',';
    const Json object = {{"height", 0},
                         {"id", m_firstObjectId + m_objects},
                         {"name", ""},
                         {shape, std::move(relative)},
                         {"properties", std::move(properties)},
                         {"rotation", 0},
                         {"type", type},
                         {"visible", true},
                         {"width", 0},
                         {"x", origin.x},
                         {"y", origin.y}};
    ++m_objects;
    m_buffer += object.dump();
    if (m_buffer.size() >= kFlushBytes) {
        m_write(m_buffer);
        m_buffer.clear();
    }
}

std::int64_t TiledObjectLayer::close() {
    m_buffer += R"(],"opacity":1,"type":"objectgroup","visible":true,"x":0,"y":0})";
    m_write(m_buffer);
    m_buffer.clear();
    return m_objects;
}

TiledObjectLayer::Json TiledObjectLayer::property(const char* name, const char* type,
                                                  Json value) {
    return {{"name", name}, {"type", type}, {"value", std::move(value)}};
}

}  // namespace terragrid

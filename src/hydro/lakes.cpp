// Lakes: the 8-connected flooded parts of a filled surface, with their spill cells.

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include "neighbours.hpp"
#include "terragrid/hydro/depressions.hpp"

namespace terragrid::hydro {

namespace {

using detail::Shape;

/// One flooded component found by the flood fill, before the size filter.
struct Component {
    float surface = 0;
    float lowest = 0;
    std::int64_t area = 0;
    std::uint32_t outlet = kNoReceiver;
};

/// Whether water at cell i (on the lake's level surface, not in the lake) can leave the level:
/// a lower neighbour, or the map's border.
bool leavesLevel(const Shape& shape, const std::vector<float>& filled, std::uint32_t i) {
    if (shape.onBorder(i)) return true;
    bool lower = false;
    shape.forEachNeighbour(i, [&](int, std::uint32_t nb) { lower |= filled[nb] < filled[i]; });
    return lower;
}

class LakeFinder {
public:
    LakeFinder(const Shape& shape, const Grid& dem, const std::vector<float>& filled)
        : m_shape(shape), m_dem(dem.z), m_filled(filled), m_comp(shape.cells(), 0),
          m_rimMark(shape.cells(), 0) {}

    /// Labels every flooded component in m_comp (1..) and measures it.
    void label() {
        m_components.emplace_back();  // id 0: dry land
        for (std::uint32_t i = 0; i < m_shape.cells(); ++i)
            if (m_comp[i] == 0 && flooded(i)) flood(i);
    }

    Lakes keep(double minDepthMetres, std::int64_t minAreaCells) {
        Lakes lakes;
        std::vector<std::uint32_t> newId(m_components.size(), 0);
        lakes.surface.push_back(0);
        lakes.outlet.push_back(kNoReceiver);
        for (std::size_t c = 1; c < m_components.size(); ++c) {
            const Component& comp = m_components[c];
            const double depth = double{comp.surface} - double{comp.lowest};
            if (!(depth > minDepthMetres || comp.area > minAreaCells)) continue;
            newId[c] = static_cast<std::uint32_t>(lakes.surface.size());
            lakes.surface.push_back(comp.surface);
            lakes.outlet.push_back(comp.outlet);
        }
        lakes.id = std::move(m_comp);
        for (std::uint32_t& id : lakes.id) id = newId[id];
        return lakes;
    }

private:
    bool flooded(std::uint32_t i) const { return m_filled[i] > m_dem[i]; }

    void flood(std::uint32_t seed) {
        const auto id = static_cast<std::uint32_t>(m_components.size());
        Component comp;
        comp.surface = m_filled[seed];
        comp.lowest = m_dem[seed];
        m_queue.assign(1, seed);
        m_comp[seed] = id;
        m_rim.clear();
        for (std::size_t head = 0; head < m_queue.size(); ++head) {
            const std::uint32_t c = m_queue[head];
            ++comp.area;
            comp.lowest = std::min(comp.lowest, m_dem[c]);
            m_shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
                if (m_comp[nb] == id) return;
                if (flooded(nb) && m_filled[nb] == comp.surface) {
                    m_comp[nb] = id;
                    m_queue.push_back(nb);
                } else if (m_filled[nb] == comp.surface && m_rimMark[nb] != id) {
                    m_rimMark[nb] = id;
                    m_rim.push_back(nb);
                }
            });
        }
        comp.outlet = findOutlet(id, comp.surface);
        m_components.push_back(comp);
    }

    /// Breadth-first from the lake's rim over dry cells at the surface height, to the first
    /// one water can leave the level from (kNoReceiver when `filled` was not a filled surface).
    std::uint32_t findOutlet(std::uint32_t id, float surface) {
        for (std::size_t head = 0; head < m_rim.size(); ++head) {
            const std::uint32_t c = m_rim[head];
            if (leavesLevel(m_shape, m_filled, c)) return c;
            m_shape.forEachNeighbour(c, [&](int, std::uint32_t nb) {
                if (m_rimMark[nb] == id || m_comp[nb] == id || m_filled[nb] != surface ||
                    flooded(nb))
                    return;
                m_rimMark[nb] = id;
                m_rim.push_back(nb);
            });
        }
        return kNoReceiver;
    }

    const Shape& m_shape;
    const std::vector<float>& m_dem;
    const std::vector<float>& m_filled;
    std::vector<std::uint32_t> m_comp;     ///< provisional component per cell, 0 dry
    std::vector<std::uint32_t> m_rimMark;  ///< component whose outlet search saw the cell
    std::vector<std::uint32_t> m_queue, m_rim;
    std::vector<Component> m_components;
};

}  // namespace

Lakes findLakes(const Grid& dem, const std::vector<float>& filled, double minDepthMetres,
                std::int64_t minAreaCells) {
    const Shape shape = detail::checkedShape(dem, "findLakes");
    if (filled.size() != dem.z.size())
        throw std::invalid_argument("findLakes: the filled surface must have one height per cell");
    LakeFinder finder(shape, dem, filled);
    finder.label();
    return finder.keep(minDepthMetres, minAreaCells);
}

}  // namespace terragrid::hydro

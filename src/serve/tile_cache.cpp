#include "serve/tile_cache.hpp"

namespace terragrid::serve {

TileCache::TileCache(std::size_t capacityBytes) : m_capacity(capacityBytes) {}

std::size_t TileCache::costOf(const std::string& key, const std::string& bytes) noexcept {
    // The key is stored twice (list and map), plus about 128 bytes of nodes and buckets.
    return bytes.size() + 2 * key.size() + 128;
}

TileCache::Bytes TileCache::find(const std::string& key) {
    const std::lock_guard lock(m_mutex);
    const auto it = m_index.find(key);
    if (it == m_index.end()) {
        ++m_misses;
        return nullptr;
    }
    ++m_hits;
    m_order.splice(m_order.begin(), m_order, it->second);
    return it->second->bytes;
}

void TileCache::insert(const std::string& key, Bytes bytes) {
    if (!bytes) return;
    const std::size_t cost = costOf(key, *bytes);
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_index.find(key); it != m_index.end()) {
        m_bytes -= costOf(key, *it->second->bytes);
        m_order.erase(it->second);
        m_index.erase(it);
    }
    if (cost > m_capacity) return;
    m_order.push_front({key, std::move(bytes)});
    m_index.emplace(key, m_order.begin());
    m_bytes += cost;
    evict();
}

void TileCache::evict() {
    while (m_bytes > m_capacity && !m_order.empty()) {
        const Entry& last = m_order.back();
        m_bytes -= costOf(last.key, *last.bytes);
        m_index.erase(last.key);
        m_order.pop_back();
    }
}

std::size_t TileCache::bytes() const {
    const std::lock_guard lock(m_mutex);
    return m_bytes;
}

std::size_t TileCache::entries() const {
    const std::lock_guard lock(m_mutex);
    return m_order.size();
}

std::uint64_t TileCache::hits() const {
    const std::lock_guard lock(m_mutex);
    return m_hits;
}

std::uint64_t TileCache::misses() const {
    const std::lock_guard lock(m_mutex);
    return m_misses;
}

}  // namespace terragrid::serve

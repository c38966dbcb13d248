#pragma once
// The explorer's bounded in-memory cache of encoded tiles: least recently used first out,
// bounded by the bytes it holds, not by a count (a transparent tile is a few hundred bytes, a
// busy one tens of kilobytes). A tile's bytes depend only on its key (config hash, layer,
// zoom, x, y, and whether the hydrology stage was in), so an entry never goes stale.
// Thread-safe. Private to src/serve.

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace terragrid::serve {

class TileCache {
public:
    using Bytes = std::shared_ptr<const std::string>;

    /// Holds at most `capacityBytes` of tile bytes (plus a fixed overhead per entry, counted).
    explicit TileCache(std::size_t capacityBytes);

    /// The bytes under `key`, now the most recently used; null when absent.
    Bytes find(const std::string& key);
    /// Stores `bytes` under `key` (replacing any), then drops the least recently used
    /// entries until the cache fits its capacity. An entry larger than the whole capacity is
    /// not kept.
    void insert(const std::string& key, Bytes bytes);

    std::size_t bytes() const;
    std::size_t entries() const;
    std::size_t capacity() const noexcept { return m_capacity; }
    std::uint64_t hits() const;
    std::uint64_t misses() const;

    /// What an entry costs beyond its bytes: its key, the list and map nodes.
    static std::size_t costOf(const std::string& key, const std::string& bytes) noexcept;

private:
    struct Entry {
        std::string key;
        Bytes bytes;
    };
    void evict();

    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::list<Entry> m_order;  ///< most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> m_index;
    std::size_t m_bytes = 0;
    std::uint64_t m_hits = 0;
    std::uint64_t m_misses = 0;
};

}  // namespace terragrid::serve

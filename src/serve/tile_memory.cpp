#include "serve/tile_memory.hpp"

#include <malloc.h>

namespace terragrid::serve {

void keepFreedTileMemory() noexcept {
    // mallopt fails only for an unknown parameter or a value out of range (neither here) and
    // under sanitizers, whose allocators ignore it; tiles are then only slower, so its result
    // is not checked.
    constexpr int kMmapThreshold = 4 << 20;
    constexpr int kTrimThreshold = 64 << 20;
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
}

}  // namespace terragrid::serve

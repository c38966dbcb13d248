#pragma once
// How the explorer's process keeps the memory its tiles free (private to src/serve).

namespace terragrid::serve {

/// Keeps freed memory for the next tile instead of handing it back to the kernel. A tile
/// allocates a few megabytes of buffers (cells, heights, hill shade, pixels, the filtered rows),
/// several above glibc's default mmap threshold (128 KiB) and in all above its trim threshold,
/// so every tile mapped fresh pages, faulted and zeroed them and gave them back: 12 % of a
/// tile's time on one thread (docs/performance.md). Afterwards blocks under 4 MiB come from
/// malloc's heaps and up to 64 MiB freed stays there: a bounded cost, since the render pool
/// has a few threads and each renders one tile at a time. Called once before any tile by
/// serveExplorer (and by the benchmark that times tiles in its own process).
void keepFreedTileMemory() noexcept;

}  // namespace terragrid::serve

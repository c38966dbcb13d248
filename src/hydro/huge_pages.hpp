#pragma once
// Erosion's per-cell arrays on 2 MB pages where the kernel gives them (transparent huge pages,
// asked for with madvise: this system's default gives them only on request). The erosion's
// walks follow the flow across arrays of hundreds of megabytes, and with 4 KB pages nearly
// every step of a walk missed the TLB (measured: GLIBC_TUNABLES=glibc.malloc.hugetlb=1 alone
// took 6% off the 2048 x 2048 stage). The bits are the same: only where the pages lie changes.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace terragrid::hydro::detail {

template <class T>
struct HugePageAllocator {
    using value_type = T;

    /// Smaller arrays take the ordinary heap: a huge page would be mostly waste.
    static constexpr std::size_t kPage = std::size_t{2} << 20;
    static constexpr std::size_t kAtLeast = 2 * kPage;

    HugePageAllocator() noexcept = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kAtLeast) return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + kPage - 1) / kPage * kPage;
        void* p = std::aligned_alloc(kPage, rounded);
        if (!p) throw std::bad_alloc();
        // Before the first touch, so the page faults take huge pages; a refusal (no THP) is
        // harmless.
        madvise(p, rounded, MADV_HUGEPAGE);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kAtLeast) return ::operator delete(p);
        std::free(p);
    }
    /// resize() default-initialises (value-initialised, it zeroed every byte on the calling
    /// thread first): each array's first writes are its pass's own, in parallel, and so are
    /// the page faults whose zeroing of fresh pages the kernel does on the faulting CPU (on
    /// the 16384^2 stage, 2.4 s of serial page clearing of 36 s on two threads). Every pass
    /// writes each cell of what it resizes before reading it.
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }

    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

/// A per-cell array of the erosion.
template <class T>
using CellVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace terragrid::hydro::detail

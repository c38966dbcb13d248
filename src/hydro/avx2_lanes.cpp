// avx2Lanes: the CPU's answer and the tests' switch (avx2_lanes.hpp).

#include "hydro/avx2_lanes.hpp"

#include <atomic>

namespace terragrid::hydro::detail {

namespace {

std::atomic<bool> portableForTest{false};

bool cpuHasAvx2() {
#if defined(__x86_64__)
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2;
#else
    return false;
#endif
}

}  // namespace

bool avx2Lanes() { return cpuHasAvx2() && !portableForTest.load(std::memory_order_relaxed); }

PortableLanesForTest::PortableLanesForTest() { portableForTest.store(true); }
PortableLanesForTest::~PortableLanesForTest() { portableForTest.store(false); }

}  // namespace terragrid::hydro::detail

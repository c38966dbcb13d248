#pragma once
// What the SIMD tests share: running a scope on one Highway target only, so each test can
// compare every target the CPU offers with the scalar reference.

#include <hwy/targets.h>

#include <cstdint>

namespace terragrid::test {

/// Restricts Highway's dispatch to one target for the scope (and restores it afterwards).
class OnlyTarget {
public:
    explicit OnlyTarget(std::int64_t target) { hwy::SetSupportedTargetsForTest(target); }
    ~OnlyTarget() { hwy::SetSupportedTargetsForTest(0); }
    OnlyTarget(const OnlyTarget&) = delete;
    OnlyTarget& operator=(const OnlyTarget&) = delete;
};

}  // namespace terragrid::test

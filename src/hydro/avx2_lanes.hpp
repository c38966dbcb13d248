#pragma once
// Whether the erosion's AVX2 lanes run (steepest descent, incision factors, diffusion): the
// CPU's answer, asked on the first call (not while the program starts: __builtin_cpu_supports
// reads what a libgcc constructor fills in), unless a test has turned them off to check that
// the portable paths give the same bits (ErosionReferenceTest).

namespace terragrid::hydro::detail {

bool avx2Lanes();

/// While one lives, avx2Lanes() is false: every erosion path the CPU would skip runs instead.
/// For tests; not for use while erosion runs on another thread.
class PortableLanesForTest {
public:
    PortableLanesForTest();
    ~PortableLanesForTest();
    PortableLanesForTest(const PortableLanesForTest&) = delete;
    PortableLanesForTest& operator=(const PortableLanesForTest&) = delete;
};

}  // namespace terragrid::hydro::detail

#pragma once
// Whether this test build runs under a sanitizer, for the few tests that adapt to it.

namespace terragrid::test {

/// True in a build with AddressSanitizer (GCC defines __SANITIZE_ADDRESS__, clang has the
/// feature). Parametrized checks whose cases run the same code on other data check a sample of
/// their cases there, each saying why; the normal suite checks every case.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace terragrid::test

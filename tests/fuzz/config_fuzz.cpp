// libFuzzer target: config parsing and validation (terragrid::parseConfig), the code every
// untrusted byte of a config file or --set override goes through. scripts/fuzz.sh builds and
// runs it; tests/fuzz/fuzz_input.hpp says how an input is split into text and overrides.
//
// Expected: a Config, or a ConfigError. A finding is anything else: another exception escaping
// (libFuzzer reports it as a crash, "deadly signal" after std::terminate), a crash, a sanitizer
// report (ASan, UBSan, LeakSanitizer), a hang (-timeout), or an accepted Config that breaks an
// invariant the rest of terragrid relies on (reported with abort()).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz_input.hpp"
#include "terragrid/config/loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto input = terragrid::fuzz::splitInput(
        std::string_view(reinterpret_cast<const char*>(data), size));
    try {
        const terragrid::LoadedConfig config = terragrid::parseConfig(input.text, "fuzz", input.overrides);
        if (const char* broken = terragrid::fuzz::brokenInvariant(config)) {
            std::fprintf(stderr, "config_fuzz: parseConfig accepted a config where %s\n", broken);
            std::abort();
        }
    } catch (const terragrid::ConfigError&) {
        // The expected way to refuse a config. Anything else propagates and is a finding.
    }
    return 0;
}

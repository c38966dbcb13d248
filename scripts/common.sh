# Sourced (not run) by the scripts that build: what every build directory shares.
# Expects $root, the checkout's top directory.

# ccache (CMakeLists.txt makes it the compiler launcher when it is installed). CCACHE_BASEDIR:
# paths under the checkout are hashed relative to the build directory, so a fresh clone in
# another directory hits the cache the first one filled. CCACHE_NOHASHDIR: the sanitizer builds
# compile with -g, and ccache would otherwise hash the build directory's absolute path into
# every such object; the debug info then names the directory of the build that filled the
# cache (file:line in sanitizer reports stay right: the sources are the same bytes).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
# Not CCACHE_DEPEND (no preprocessing of a miss before compiling it): a cold CI with it took
# longer, test.sh 730 s against 620 and the ASan step 1057 s against 885 (docs/development.md).

# How many tests run at once (ctest --parallel, the ASan step's shards): two more than the
# cores. Some tests spend most of their time waiting (on a Slurm job's poll, a browser, a
# subprocess, a signal's sleep), and at one test per core such a test left its core idle:
# the Release suite took 228 s at 4 on this 2-core machine against 300 s at 2, every test
# passing.
test_jobs=$(($(nproc) + 2))

# configure BUILD_DIR CMAKE_ARGS...: configures BUILD_DIR with these arguments, unless it was
# configured with exactly these already (then there is nothing to do: `cmake --build` re-runs
# CMake by itself when a CMakeLists.txt changed). A directory configured with other arguments
# (another compiler, say) is configured afresh, so no stale cache entry survives.
configure() {
  local build=$1
  shift
  local stamp="$build/terragrid-configure-args"
  local args
  args=$(printf '%s\n' "$@")
  if [ -f "$build/CMakeCache.txt" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$args" ]; then
    return 0
  fi
  local fresh=()
  [ ! -f "$build/CMakeCache.txt" ] || fresh=(--fresh)
  rm -f "$stamp"
  cmake "${fresh[@]}" -S "$root" -B "$build" "$@" >/dev/null
  printf '%s\n' "$args" >"$stamp"
}

# The AddressSanitizer + UndefinedBehaviorSanitizer build: one clang build serves the whole
# test suite (scripts/sanitize.sh asan) and the config fuzzer (scripts/fuzz.sh), so the core is
# compiled once for both. libFuzzer exists only for clang, and the core must carry the fuzzer's
# coverage instrumentation (fuzzer-no-link) or the fuzzer could not see inside parseConfig;
# that instrumentation costs the tests little. Only the fuzz target links libFuzzer's main
# (-fsanitize=fuzzer, tests/fuzz/CMakeLists.txt). clang 16 (Debian clang-16): clang 14 cannot
# capture a structured binding in a lambda, which C++20 allows and the tests do.
#
# Flags. RelWithDebInfo with -O2 but without its -DNDEBUG, so every assert() stays armed.
# -gline-tables-only gives file:line in reports, inlined frames included, without the debug
# information of types and variables that only a debugger reads: 20 % of a test file's compile
# (geotiff_test.cpp: 17.1 s of CPU with -g, 13.6 s). -O2, not the -O1 the sanitizers' authors
# suggest: clang 16 at -O1 with UBSan's checks (with or without ASan) spends more than 10 min of
# CPU in loop optimisation (ScalarEvolution, under IndVarSimplify) on each SIMD kernel file,
# which made the ASan build most of a cold CI; at -O2 the same file compiles in 51 s with every
# sanitizer on (docs/development.md has the figures). Debug (-O0) would make the noise and GeoTIFF
# tests several times slower for no extra checking.
# float-cast-overflow: UB wherever a double becomes an integer, which hostile configs (1e309,
# NaN) make a real risk. -fno-omit-frame-pointer keeps the sanitizers' fast unwinder accurate,
# and -fno-sanitize-recover=all turns every UBSan finding into an abort, so it fails the test
# (or stops the fuzzer) instead of scrolling past. CMake passes CMAKE_CXX_FLAGS when linking
# too, where the runtimes come in. The benchmarks are built (and kept compiling) by the normal
# build; here they would only cost time. The SIMD kernels are compiled only for the best target
# this CPU runs and the scalar fallback (TERRAGRID_SIMD_TARGETS=best, CMakeLists.txt).
asan_flags="-fsanitize=address,undefined,float-cast-overflow,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=all"
asan_build_dir="${TERRAGRID_ASAN_BUILD_DIR:-$root/build-asan}"
# The C API's C test and example are C, compiled by clang with the same flags, so the C
# programs carry clang's sanitizer runtimes that the instrumented libterragrid.so needs; a C link
# leaves out UBSan's C++ half (vptr checks) unless told, hence -fsanitize-link-c++-runtime and
# the C++ library it calls into (-lstdc++) in every executable's link. No
# Python module here: a Python extension under ASan needs the runtime preloaded into python3
# itself, which is no longer the program users run (scripts/sanitize.sh).
configure_asan() {
  configure "$asan_build_dir" -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$asan_flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang-16 -DCMAKE_C_FLAGS="$asan_flags" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
    -DTERRAGRID_PYTHON=OFF \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined -fsanitize-link-c++-runtime -lstdc++" \
    -DTERRAGRID_FUZZ=ON -DTERRAGRID_BENCH=OFF -DTERRAGRID_SIMD_TARGETS=best
}

#!/usr/bin/env bash
# Builds terragrid with sanitizers in a build directory of its own and runs tests through ctest.
#
#   scripts/sanitize.sh asan   AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer):
#                              the whole test suite, the CLI the tests spawn included (GCC;
#                              scripts/common.sh says why the fuzzer has a clang build).
#   scripts/sanitize.sh tsan   ThreadSanitizer: the tests that run terragrid code on several
#                              TBB threads (see TSAN_TESTS below).
#
# Any sanitizer report fails the test that caused it, so a green run means no report.
# Extra arguments go to ctest (e.g. asan -R GeneratorTest to run fewer tests).
# Environment:
#   TERRAGRID_ASAN_BUILD_DIR   build directory for asan (default: build-asan beside build)
#   TERRAGRID_TSAN_BUILD_DIR   build directory for tsan (default: build-tsan beside build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

mode="${1:-}"
case "$mode" in
  asan | tsan) ;;
  *)
    echo "usage: scripts/sanitize.sh asan|tsan [ctest arguments]" >&2
    exit 2
    ;;
esac
shift

"$root/scripts/deps.sh" sanitize
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"

# ThreadSanitizer slows code 5-15x, so it runs the tests whose terragrid code runs on several
# threads at once, and the build compiles only the test files that hold them
# (TERRAGRID_TEST_FILES): TBB arenas of 2 and 8 threads through src/pipeline/generator.cpp (tile
# pipeline, parallel coverage sample), src/io/geotiff/geotiff_writer.cpp (parallel tile encoder)
# and src/io/geotiff/tile_job_queue.cpp:
#   GeneratorTest         tile pipeline and coverage sample on 1, 2, 8 threads; the SIMD rows
#                         (NoiseRows) run on the workers here
#   GenericLatticeTest    maps of generic lattice noise, cellular noise and marble (their rows
#                         run the point kernels) generated on 1, 2, 8 threads
#   GeoTiff(Parallel|Bytes|Blocks)Test, GeoTiffTest.Parallel*, HeightSinkTest
#                         the parallel encoder: per-thread encoders, ordered raw writes,
#                         failures and dropped writers mid-way
#   TileJobQueueTest      the bounded job queue under the encoder
#   RunTest               whole jobs (generation, every writer, stats) in arenas
#   WorldShapeTest        layer stacks, warps, wrapping maps and planets on 1, 2, 8 threads
#   SignalTest            SIGINT/SIGTERM stopping a 2-thread CLI run mid-way: the stop flag
#                         read by the workers, the clean-up racing the tiles in flight
#   FullDiskTest, SmallDiskTest
#                         2-thread CLI runs whose writes fail mid-way (file size limit, full
#                         tmpfs): the failure in a worker stopping the others and the clean-up
#   CliTest.OutputIsByteIdenticalForAnyThreadCount
#                         the CLI itself: its global_control, --threads 1, 2 and 8
#   HeightExrTest.SameBytesWhateverTheThreadCount
#                         height.exr's blocks compressed on OpenEXR's own thread pool
#   ClimateModelTest.SameBitsForOneTwoAndEightThreads, ClimateTest.ClimateBiomesAndLakes...
#                         the climate stage's wind sweep (segments of lines in parallel, a
#                         block of steps per task) and its blurs, alone on 1, 2, 8 threads and
#                         in CLI runs with hydrology
#   HydroDeterminism      the flats' breadth-first rings expanded in parallel, the flow
#                         accumulation's bands of rows, on 1, 2 and 8 threads
#   ErosionTest.SameBitsForAnyThreadCountAndRun, ErosionReferenceTest
#                         the erosion's bands of rows walking the drainage area round by
#                         round and solving the incision's lists of a round in parallel
#   WindowArraysTest      the library's windows: tiles of a window in parallel, several
#                         threads sharing one Map whose whole-map terrain is made once
# Left out: NoiseRowsTest and TilingTest start no thread (TSan has nothing to check there;
# NoiseRowsTest alone took 6.4 min under TSan) and the NoiseRows code runs on TBB workers in
# GeneratorTest anyway; the rest is single-threaded or spawns tools, and runs under asan.
# Each pattern must match at least one test of the build (checked below), so a suite renamed
# or a file left out of TSAN_FILES cannot silently drop out of the run.
# Suite patterns, each matched with an optional "Prefix/" of parametrized tests. ctest's
# regular expressions allow 9 groups in all, so the patterns have none and the prefix is added
# once around them (a group per pattern made "Too many parentheses": no test selected at all).
TSAN_SUITES=(
  'WindowArraysTest\.'
  'GeneratorTest\.'
  'GenericLatticeTest\.'
  'GeoTiffParallelTest\.'
  'GeoTiffBytesTest\.'
  'GeoTiffBlocksTest\.'
  'HeightSinkTest\.'
  'TileJobQueueTest\.'
  'RunTest\.'
  'WorldShapeTest\.'
  'SignalTest\.'
  'FullDiskTest\.'
  'SmallDiskTest\.'
  'GeoTiffTest\.Parallel'
  'CliTest\.OutputIsByteIdenticalForAnyThreadCount$'
  'HeightExrTest\.SameBytesWhateverTheThreadCount$'
  'ClimateModelTest\.SameBitsForOneTwoAndEightThreads$'
  'ClimateTest\.ClimateBiomesAndLakesAreTheSameBytesForAnyThreadCountAndTileSize$'
  'HydroDeterminism\.'
  'ErosionTest\.SameBitsForAnyThreadCountAndRun$'
  'ErosionReferenceTest\.'
)
# The test files that hold those suites (tests/<stem>.cpp or tests/tools/<stem>.cpp).
TSAN_FILES='window_arrays_test;generator_test;generic_lattice_test;geotiff_test;tile_job_queue_test;run_test;world_shapes_test;signal_test;fault_test;cli_test;height_exr_test;climate_model_test;climate_test;erosion_test;hydro_flow_test'
tsan_prefix='^([A-Za-z]+/)?'
TSAN_TESTS="$tsan_prefix($(IFS='|'; echo "${TSAN_SUITES[*]}"))"

if [ "$mode" = asan ]; then
  # ASan + UBSan; the flags and why: configure_asan in scripts/common.sh.
  build="$asan_build_dir"
  configure_asan
else
  build="${TERRAGRID_TSAN_BUILD_DIR:-$root/build-tsan}"
  # GCC, as the Release build. Same build type and armed asserts as the asan build (see
  # configure_asan in scripts/common.sh), at -O1: GCC has no trouble with the SIMD kernels there
  # (curved_rows_kernels.cpp: 20 s of CPU with TSan). -g1: line tables for the reports' stacks,
  # without the variables' debug information (src/app/run.cpp: 8.6 s of CPU against 11.3 s
  # with -g). -fno-sanitize-recover=all makes a report fail the test. The flags also reach the
  # link step (CMake passes CMAKE_CXX_FLAGS when linking), which is where the sanitizer runtime
  # comes in.
  flags="-fsanitize=thread -fno-omit-frame-pointer -fno-sanitize-recover=all"
  link_flags="-fsanitize=thread"
  # Debian's libtbb is not instrumented, so TSan cannot see how TBB hands work between threads
  # and reports every hand-over as a race, in terragrid's own frames. tbb_tsan_sync.cpp tells
  # TSan where TBB synchronises (its comment says how, and what that costs); it is linked into
  # every executable of this build. Compiled without -fsanitize=thread: it implements TSan's
  # function-entry hooks. Its object lives outside CMake so the compiler checks link it too.
  # The object's name carries a hash of its source: a changed source changes the link flags,
  # which makes CMake relink every executable with the new object.
  mkdir -p "$build"
  sync_src="$root/tests/sanitizers/tbb_tsan_sync.cpp"
  sync_obj="$build/tbb_tsan_sync-$(sha256sum "$sync_src" | cut -c1-12).o"
  c++ -std=c++20 -O2 -g -fPIE -Wall -Wextra -c "$sync_src" -o "$sync_obj"
  # -lstdc++: the flags reach every link of the build, C included (the C API's C test and example,
  # and CMake's check of the C compiler), and the shim is C++.
  link_flags="$link_flags $sync_obj -lstdc++"
  # TBB's headers then report their own release and acquire points to the shim too.
  flags="$flags -DTBB_USE_PROFILING_TOOLS=2"
  # The benchmarks are built by the normal build; the SIMD kernels only for the best target this
  # CPU runs and the scalar fallback (CMakeLists.txt, TERRAGRID_SIMD_TARGETS); of the tests,
  # only the files of the suites run below.
  configure "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_EXE_LINKER_FLAGS="$link_flags" -DTERRAGRID_BENCH=OFF -DTERRAGRID_SIMD_TARGETS=best \
    -DTERRAGRID_PYTHON=OFF -DTERRAGRID_TEST_FILES="$TSAN_FILES"
fi

log="$build/build.log"
# Everything the directory holds: the test executable and the CLI it spawns.
if ! cmake --build "$build" --parallel "$(nproc)" >"$log" 2>&1; then
  cat "$log" >&2
  echo "sanitize $mode: build failed (log: $log)" >&2
  exit 1
fi

# Runtime options. halt_on_error: the first report aborts the process (non-zero exit, so the
# test fails); print_stacktrace: UBSan prints where, not just what; detect_leaks: LeakSanitizer
# runs at exit of every test process and of every CLI run the tests spawn.
# abort_on_error=0: a report ends the process with exit code 1 instead of SIGABRT, so no
# core file is written. strict_string_checks and detect_stack_use_after_return catch more misuse at
# little cost. The test executable and the CLI inherit all of this from ctest's environment.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="print_suppressions=0"
# second_deadlock_stack: both stacks of a lock-order inversion; history_size=4: more of the
# older access's stack survives in long runs (the default keeps only the newest 128K events per
# thread, so "failed to restore the stack" would be common with many tiles).
suppressions="$root/tests/sanitizers/tsan.supp"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4:suppressions=$suppressions"

if [ "$mode" = tsan ]; then
  # The canary: a deliberate race between two TBB tasks (tests/sanitizers/tsan_canary.cpp),
  # built and linked like the tests. TSan must report it (exit code 66 and a race report), in
  # a task group and in a pipeline like generateMap's, or tbb_tsan_sync.o and tsan.supp have
  # made TSan blind and a green run below would mean nothing.
  # $flags and $link_flags are lists of options: split on purpose.
  # shellcheck disable=SC2086
  c++ -std=c++20 $flags -O1 -g "$root/tests/sanitizers/tsan_canary.cpp" $link_flags -ltbb \
    -o "$build/tsan_canary"
  for canary in task_group pipeline; do
    canary_status=0
    "$build/tsan_canary" "$canary" >"$build/tsan_canary.log" 2>&1 || canary_status=$?
    if [ "$canary_status" -ne 66 ] ||
       ! grep -q 'WARNING: ThreadSanitizer: data race' "$build/tsan_canary.log"; then
      cat "$build/tsan_canary.log" >&2
      echo "sanitize tsan: the canary race ($canary) was not reported (exit $canary_status)" >&2
      exit 1
    fi
  done
  echo "sanitize tsan: canary races reported as they must be (task_group, pipeline)"
fi

if [ "$mode" = asan ]; then
  # Every test but these, which the normal suite runs:
  # - DryRunTest.MemoryEstimateIsAboveThePeakOf* compare the --dry-run memory estimates
  #   with the peak RSS of real CLI runs, and an ASan process's RSS also holds shadow memory,
  #   redzones and the free quarantine (2-4x the real peak here), which no estimate of
  #   terragrid's own memory should include;
  # - ProcessLimitTest, AddressSpaceLimitTest (and HydrologyStageCliTest.AStageThatCannotFit*)
  #   run the CLI under `ulimit -v` / `ulimit -d` of a few hundred MB (or lower RLIMIT_AS under
  #   it with prlimit), and an ASan process reserves terabytes of address space for its shadow
  #   at start, so it cannot even start under such a limit;
  # - CApiInstallTest builds the C example against the installed library with a plain
  #   compiler and runs it: an instrumented libterragrid.so needs the sanitizer runtimes in
  #   the program, which only this build's own targets carry (the C API's test and the
  #   chunk-streaming example run here: CApiTest, CApiExample);
  # - PublicHeadersTest.EveryHeaderCompilesAlone runs the compiler on each public header: no
  #   terragrid code runs, so there is nothing to sanitize, and it was the slowest test of
  #   this suite (46 s of 1963 s); DocsSiteTest runs mkdocs alone, and
  #   KubernetesManifestsTest Kubernetes' own types in Python, for the same reason;
  # - SlurmRecipeTest runs docs/shards.md's recipe on a real Slurm cluster: its terragrid runs
  #   (the stage, the shards, the mosaic) are the ones HydrologyStageCliTest, ShardMosaicTest
  #   and MosaicCliTest make here, and under ASan its 49 s were mostly a shard's core idle
  #   while the scheduler polled.
  # The Python module's tests (PythonTest) are not built here (configure_asan says why).
  # As gtest filter patterns (* for any text), matched against "Prefix/Suite.Test/Param".
  excluded=('DryRunTest.MemoryEstimateIsAboveThePeakOf*' '*ProcessLimitTest.*'
            'HydrologyStageCliTest.AStageThatCannotFit*' 'AddressSpaceLimitTest.*'
            'PublicHeadersTest.EveryHeaderCompilesAlone' 'KubernetesManifestsTest.*'
            'SlurmRecipeTest.*')
  if [ "$#" -gt 0 ]; then
    # A selection by ctest arguments: one process per test, as ctest runs them.
    regex=$(printf '%s\n' "${excluded[@]}" | sed -e 's/\./\\./g' -e 's/\*/.*/g' -e 's/^/^/' \
              -e 's/$/$/' | paste -sd'|')
    ctest --test-dir "$build" --output-on-failure --parallel "$test_jobs" \
      -E "$regex|^CApiInstallTest\.|^DocsSiteTest\." "$@"
    exit
  fi
  # The whole suite. The tests outside the gtest binary (the C API's) through ctest; the gtest
  # binary's tests in $test_jobs processes (common.sh), each a shard of the binary
  # (GTEST_TOTAL_SHARDS: the tests dealt out in turn). ctest starts a process per test, and an
  # ASan process of terragrid_tests takes 0.3 s of CPU to start and exit (its relocations,
  # gtest's registration of 1500 tests and their parameters, the sanitizer allocator's first
  # pages), a quarter of this suite's time at 1478 tests; a shard pays it once. A sanitizer
  # report ends its shard (halt_on_error) and fails the step; the log shows the test that ran.
  ctest --test-dir "$build" --output-on-failure --parallel "$test_jobs" -LE gtest \
    -E '^CApiInstallTest\.|^DocsSiteTest\.'
  shards=$test_jobs
  filter="-$(IFS=:; echo "${excluded[*]}")"
  pids=()
  for ((i = 0; i < shards; i++)); do
    (cd "$build" && GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
       timeout 3600 ./terragrid_tests --gtest_filter="$filter" >"$build/shard-$i.log" 2>&1) &
    pids+=($!)
  done
  failed=0
  for ((i = 0; i < shards; i++)); do
    status=0
    wait "${pids[$i]}" || status=$?
    log_i="$build/shard-$i.log"
    # The summary lines (the log names each test as it starts: a report follows its name).
    grep -E '^\[(==========|  PASSED  |  FAILED  )\]' "$log_i" | sed "s/^/shard $i: /" || true
    if [ "$status" -ne 0 ]; then
      failed=1
      echo "sanitize asan: shard $i of the test binary failed (exit $status); its log:" >&2
      cat "$log_i" >&2
    fi
  done
  exit "$failed"
fi

# grep -c, not grep -q: -q exits at the first match, ctest then dies of SIGPIPE writing the rest
# of its list, and pipefail would call a matching suite missing (which stopped CI at stop 33).
for suite in "${TSAN_SUITES[@]}"; do
  matches=$(ctest --test-dir "$build" -N -R "$tsan_prefix$suite" | grep -c '^ *Test *#' || true)
  if [ "$matches" -eq 0 ]; then
    echo "sanitize tsan: no test matches '$suite': a suite renamed, or its file not in TSAN_FILES" >&2
    exit 1
  fi
done
# --no-tests=error: a selection that matches nothing fails instead of passing silently.
ctest --test-dir "$build" --output-on-failure --parallel "$test_jobs" --no-tests=error -R "$TSAN_TESTS" "$@"

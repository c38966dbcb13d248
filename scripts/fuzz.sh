#!/usr/bin/env bash
# Builds the libFuzzer target for config parsing and validation (tests/fuzz/config_fuzz.cpp)
# with clang, AddressSanitizer and UndefinedBehaviorSanitizer in the build directory that
# scripts/sanitize.sh asan runs the suite in (configure_asan in scripts/common.sh: one build
# of the core serves both; reused as it is when already built), and fuzzes
# parseConfig for a bounded time. Fails on any crash, sanitizer report, leak, uncaught
# exception other than ConfigError, broken invariant, or input slower than -timeout.
#
# Usage: scripts/fuzz.sh [seconds]        (default 60; CI runs scripts/fuzz.sh 60)
# Environment:
#   TERRAGRID_ASAN_BUILD_DIR   build directory (default: build-asan beside build)
#
# A failing input is kept in <build>/fuzz-artifacts/. To keep it found: fix the bug, copy the
# input to tests/fuzz/regressions/crash-<what-it-found>, and tests/fuzz_regression_test.cpp
# replays it in the normal test suite from then on (this script also seeds the fuzzer with it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh [seconds]   (a whole number of seconds, at least 1)" >&2
  exit 2
fi

"$root/scripts/deps.sh" sanitize
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"
# The build, its flags and why: configure_asan in scripts/common.sh (clang, ASan + UBSan, and
# the fuzzer's coverage instrumentation in every object). Configured only if it is not already.
build="$asan_build_dir"
configure_asan

log="$build/fuzz-build.log"
# Only the fuzz target and what it links (the core library): the CLI and the tests are not
# needed here.
if ! cmake --build "$build" --parallel "$(nproc)" --target terragrid_config_fuzz >"$log" 2>&1; then
  cat "$log" >&2
  echo "fuzz: build failed (log: $log)" >&2
  exit 1
fi

# The corpus the fuzzer grows goes to a scratch directory, so the seeds in the repository stay
# the small, readable set they are. Seeds: tests/fuzz/corpus (default.json and odd configs),
# the configs shipped in configs/ (so new presets join by themselves), and every input that
# once found a problem (tests/fuzz/regressions).
work=$(mktemp -d "${TMPDIR:-/tmp}/terragrid-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/configs" "$build/fuzz-artifacts"
for config in "$root"/configs/*.json; do
  # schema.json describes configs; it is not one.
  [ "$(basename "$config")" = schema.json ] || cp "$config" "$work/configs/"
done
# Each option: -max_total_time bounds the run; -max_len 4096 covers every real config (the
# default one is about 2 KB) while keeping each run fast; -timeout 10 makes an input that takes
# over 10 s a finding (parsing a few KB takes milliseconds, even instrumented); -rss_limit_mb
# 2048 makes an allocation storm a finding, not an out-of-memory kill; -dict gives the fuzzer
# the JSON tokens and config keys; -print_final_stats for the log.
# ASan and UBSan halt on the first report with a stack trace; LeakSanitizer runs at the end of
# each input (libFuzzer's -detect_leaks=1, the default, needs ASan's detect_leaks on).
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
fuzz_log="$build/fuzz.log"
echo "fuzz: config_fuzz for $seconds s (log: $fuzz_log)"
status=0
"$build/tests/fuzz/terragrid_config_fuzz" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -dict="$root/tests/fuzz/config.dict" -print_final_stats=1 \
  -artifact_prefix="$build/fuzz-artifacts/" \
  "$work/corpus" "$root/tests/fuzz/corpus" "$work/configs" "$root/tests/fuzz/regressions" \
  >"$fuzz_log" 2>&1 || status=$?

if [ "$status" -ne 0 ]; then
  # The report (sanitizer or libFuzzer's own) and the input that caused it are at the end.
  tail -n 80 "$fuzz_log" >&2
  echo "fuzz: FAILED (exit $status); inputs kept in $build/fuzz-artifacts/" >&2
  echo "fuzz: fix the bug and copy the input to tests/fuzz/regressions/ (see that folder)" >&2
  exit 1
fi
# Success: how much was tried, and how much code it reached.
grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added)' \
  "$fuzz_log" || true
echo "fuzz: no finding in $seconds s"

#!/usr/bin/env bash
# Installs dependencies, configures (Release) and builds terragrid in ./build when needed.
# Usage: scripts/build.sh [cmake --build arguments, e.g. --target terragrid]
# TERRAGRID_BUILD_MODE: run (the CLI alone, with the build's libraries: scripts/run.sh) or test
# (the default: the test suite and the benchmarks too, with the packages they need). A build
# directory configured for run is configured again for test when the tests are asked for; one
# configured for test serves both.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TERRAGRID_BUILD_DIR:-$root/build}"
mode="${TERRAGRID_BUILD_MODE:-test}"
case "$mode" in
  run) deps=build tests=OFF ;;
  test) deps=test tests=ON ;;
  *)
    echo "build: TERRAGRID_BUILD_MODE must be run or test (got '$mode')" >&2
    exit 2
    ;;
esac

"$root/scripts/deps.sh" "$deps"
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"   # ccache settings
if [ ! -f "$build/CMakeCache.txt" ] ||
   { [ "$tests" = ON ] && grep -q '^TERRAGRID_TESTS:BOOL=OFF$' "$build/CMakeCache.txt"; }; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTERRAGRID_TESTS="$tests" \
    -DTERRAGRID_BENCH="$tests" >/dev/null
fi
log="$build/build.log"
if ! cmake --build "$build" --parallel "$(nproc)" "$@" >"$log" 2>&1; then
  cat "$log" >&2
  echo "build failed (log: $log)" >&2
  exit 1
fi

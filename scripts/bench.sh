#!/usr/bin/env bash
# Installs what is missing, builds the benchmarks (Release, TERRAGRID_BENCH=ON) in their own
# build directory and runs them, then prints one summary with every target as PASS or MISS:
#   1. noise (Google Benchmark): ns per sample for each noise kind, single octave and 8-octave
#      fBm, on a 4096 x 4096 grid with 1, 2 and all threads; libnoise's Perlin in the same run;
#   2. the terragrid CLI end to end on a 4096 x 4096 default map on 1 and 2 threads: a
#      height-only run against its rows, the default outputs against a stats.json-only run, the
#      2-thread speedup, the share of the wall time stats.json's timers account for, and what
#      each output adds.
# Then prints the summary with every target as PASS or MISS, and part 2 as a markdown table
# naming the machine and its load (the README's benchmark table is pasted from it).
# Takes a few minutes. Benchmarks are never part of the test suite.
#
# Usage: scripts/bench.sh [Google Benchmark flags for part 1, e.g. --benchmark_filter=perlin]
# Environment:
#   TERRAGRID_BENCH_BUILD_DIR  build directory (default: build-bench beside build)
#   TERRAGRID_BENCH_SIZE       map edge of part 2 in cells (default 4096)
#   TERRAGRID_BENCH_REPEAT     runs of part 2's two headline runs, fastest counts (default 2)
#   TERRAGRID_BENCH_EACH=0     skip part 2's run per output;  TERRAGRID_BENCH_CLI=0 skip part 2
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TERRAGRID_BENCH_BUILD_DIR:-$root/build-bench}"

"$root/scripts/deps.sh"
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"   # ccache settings
# Configured every time: cheap, and it keeps the build Release with benchmarks on even when
# the directory was configured differently before.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTERRAGRID_BENCH=ON >/dev/null
log="$build/build.log"
if ! cmake --build "$build" --parallel "$(nproc)" \
     --target terragrid_noise_bench terragrid_cli_bench >"$log" 2>&1; then
  cat "$log" >&2
  echo "bench: build failed (log: $log)" >&2
  exit 1
fi

# Outputs of 4096^2 maps are hundreds of MB: everything goes to one scratch directory that is
# removed however the script ends.
work=$(mktemp -d "${TMPDIR:-/tmp}/terragrid-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
summary="$work/summary.txt"
markdown="$work/summary.md"

# Other work on the machine slows every figure: the load average says how much there was.
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}; load average at start $(load)" >"$summary"

echo "== 1. noise =="
"$build/tests/bench/terragrid_noise_bench" --summary-file="$summary" "$@"

if [ "${TERRAGRID_BENCH_CLI:-1}" != 0 ]; then
  echo
  echo "== 2. terragrid end to end =="
  each=--each
  [ "${TERRAGRID_BENCH_EACH:-1}" != 0 ] || each=""
  TMPDIR="$work" "$build/tests/bench/terragrid_cli_bench" \
    --size="${TERRAGRID_BENCH_SIZE:-4096}" --repeat="${TERRAGRID_BENCH_REPEAT:-2}" \
    $each --summary-file="$summary" --markdown-file="$markdown"
fi

echo
echo "==================================== summary ===================================="
cat "$summary"
echo "load average at end $(load)"
if [ -s "$markdown" ]; then
  echo
  echo "=============================== markdown (README) ==============================="
  cat "$markdown"
fi

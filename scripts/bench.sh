#!/usr/bin/env bash
# Installs what is missing, builds the benchmarks (Release, TERRAGRID_BENCH=ON) in their own
# build directory and runs them, then prints one summary with every target as PASS or MISS:
#   1. noise (Google Benchmark): ns per sample for each noise kind, single octave and 8-octave
#      fBm, on a 4096 x 4096 grid with 1, 2 and all threads; libnoise's Perlin in the same run,
#      and FastNoise2's Perlin and simplex fBm when TERRAGRID_FASTNOISE2_DIR names a checkout;
#      on a CPU with AVX-512, the benchmarks behind the targets once more limited to AVX2
#      (FastNoise2 then limited to its FeatureSet::AVX2 alike); then Perlin and simplex fBm of
#      noise_version 3 against FastNoise2 once more, fastest of 5 (issue 30's targets);
#   2. the terragrid CLI end to end on a 4096 x 4096 default map on 1 and 2 threads: a
#      height-only run against its rows, the default outputs against a stats.json-only run, the
#      2-thread speedup, the share of the wall time stats.json's timers account for, what
#      each output adds, and the default run with zstd, no compression, no overviews or
#      2048-pixel previews (the settings the README's Outputs section weighs);
#   3. hydrology: depression filling + D8 routing + flow accumulation on that map's height.tif
#      on 1 and 2 threads, against RichDEM's D8 pipeline run for run in the same process (from
#      the local checkout TERRAGRID_RICHDEM_DIR names; n/a without one), GRASS r.watershed and
#      SAGA's Fill Sinks (Wang & Liu) on the same file (Debian grass-core and saga: installed
#      here, for the bench only, not by deps.sh);
#   4. erosion: ms per step of the landscape-evolution model at 1024^2 and 2048^2 (wall and CPU)
#      and the slope-area theta of the raw and eroded noise (Flint's law: 0.35..0.65);
#   5. the explorer (terragrid serve): one preview tile on one thread at the highest zoom and at
#      zoom 0 of a 16384^2 default map, a 1920 x 1080 view from a cold cache on 2 threads, and
#      64 clients fetching distinct tiles for 30 s (latency, errors, the server's peak memory,
#      cache hits) through the real server;
#   6. only when asked (TERRAGRID_BENCH_SLURM=1: minutes and several GiB at the default size):
#      docs/shards.md's Slurm recipe (stage job, 16-task shard array, mosaic) on the test
#      suite's local Slurm cluster against the single run of the same map with hydrology, wall
#      and CPU, the mosaic checked byte for byte against the single run first.
#   7. climate: the climate stage at 4096^2 and 16384^2 (wall and CPU), and the hydrology stage
#      at 4096^2 with and without it;
#   8. only when asked (TERRAGRID_BENCH_STAGE=1: about 6 min): the hydrology stage of
#      configs/rivers.json (erosion on) at 16384^2 on 1 and 2 threads, its CPU time and speedup
#      against issue 30's targets, and the two stage files compared byte for byte.
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
#   TERRAGRID_BENCH_HYDRO=0    skip part 3; TERRAGRID_BENCH_HYDRO_SIZE its map edge (default 4096)
#   TERRAGRID_BENCH_EROSION=0  skip part 4; TERRAGRID_BENCH_EROSION_STEPS its steps (default 100)
#   TERRAGRID_RICHDEM_DIR      a local checkout of r-barnes/richdem (header-only) for part 3;
#                              never vendored, never downloaded by the build
#   TERRAGRID_BENCH_CLIMATE=0  skip part 7; TERRAGRID_BENCH_CLIMATE_SIZES its sizes (4096,16384)
#   TERRAGRID_FASTNOISE2_DIR   a local FastNoise2 checkout (and TERRAGRID_FASTSIMD_DIR its
#                              FastSIMD, default FastSIMD beside it), built with clang-16 -O3
#                              beside the bench; never vendored or downloaded. Unset: n/a.
#   TERRAGRID_BENCH_SERVE=0    skip part 5; TERRAGRID_BENCH_SERVE_SECONDS its load test (default 30)
#   TERRAGRID_BENCH_SLURM=1    run part 6; TERRAGRID_BENCH_SLURM_SIZE its map edge (default 16384;
#                              the scratch directory, under TMPDIR, then needs about 10 GiB)
#   TERRAGRID_BENCH_STAGE=1    run part 8 (about 6 min, 1.3 GiB); TERRAGRID_BENCH_STAGE_SIZE its
#                              map edge (default 16384)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TERRAGRID_BENCH_BUILD_DIR:-$root/build-bench}"

fastnoise2="${TERRAGRID_FASTNOISE2_DIR:-}"
# FastNoise2 is built with clang, which the sanitize group installs.
"$root/scripts/deps.sh" test ${fastnoise2:+sanitize}
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"   # ccache settings
# Configured every time: cheap, and it keeps the build Release with benchmarks on even when
# the directory was configured differently before.
# The FastNoise2 and RichDEM directories are passed every time, so an unset variable turns them
# off again.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTERRAGRID_BENCH=ON \
  -DTERRAGRID_RICHDEM_DIR="${TERRAGRID_RICHDEM_DIR:-}" \
  -DTERRAGRID_FASTNOISE2_DIR="$fastnoise2" ${TERRAGRID_FASTSIMD_DIR:+-DTERRAGRID_FASTSIMD_DIR="$TERRAGRID_FASTSIMD_DIR"} >/dev/null
log="$build/build.log"
if ! cmake --build "$build" --parallel "$(nproc)" \
     --target terragrid_noise_bench terragrid_cli_bench terragrid_hydro_bench terragrid_erosion_bench \
     terragrid_serve_bench terragrid_slurm_bench terragrid_climate_bench >"$log" 2>&1; then
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
# Whether the CPU has AVX-512: then the noise targets are measured once more limited to AVX2
# (the same binary, the code an AVX2 machine runs), so the summary gives both verdicts.
avx512=false
grep -qw avx512bw /proc/cpuinfo 2>/dev/null && avx512=true
# Issue 16's noise targets are set for an AVX2 machine.
if [ $# -eq 0 ] && $avx512; then
  echo
  echo "== 1b. noise, limited to AVX2 =="
  "$build/tests/bench/terragrid_noise_bench" --summary-file="$summary" --max-target=AVX2 \
    --benchmark_filter='^(rows/(perlin|simplex)/fbm8|rows/perlin-warped|libnoise|fastnoise2|surface/.*threads:1/)'
fi
# Issue 30's noise targets, on the best target and, on a CPU with AVX-512, limited to AVX2:
# 1c, the rows against FastNoise2 with noise_version 4 (float lanes, 32-bit hash: version 3's
# simplex, version 4's Perlin), which a config selects (the runs above measure the default's
# version), and warped Perlin (issue 30's "within 3x flat Perlin") and simplex, fastest of 5;
# 1d, planets and tileable maps within 3x flat Perlin with noise_version 6 (version 4's 3D
# noise in float lanes, tileable value and Perlin tiling by their 2D lattice (version 5) and
# simplex by its triangular one (version 6), and the flat Perlin beside them too), fastest of 3.
if [ $# -eq 0 ]; then
  targets=(best)
  ! $avx512 || targets+=(AVX2)
  noise_run() {  # TARGET VERSION REPETITIONS FILTER
    local max=()
    [ "$1" = best ] || max=(--max-target="$1")
    "$build/tests/bench/terragrid_noise_bench" --summary-file="$summary" --noise-version="$2" \
      "${max[@]}" --benchmark_repetitions="$3" --benchmark_filter="$4"
  }
  for target in "${targets[@]}"; do
    echo
    echo "== 1c. noise_version 4 against FastNoise2, target $target =="
    noise_run "$target" 4 5 '^(rows/(perlin|simplex)/fbm8/threads:[12]|rows/(perlin|simplex)-warped|fastnoise2)'
    echo
    echo "== 1d. planets and tileable maps, noise_version 6, target $target =="
    noise_run "$target" 6 3 '^surface/.*/threads:[12]/'
  done
fi

if [ "${TERRAGRID_BENCH_CLI:-1}" != 0 ]; then
  echo
  echo "== 2. terragrid end to end =="
  each=--each
  [ "${TERRAGRID_BENCH_EACH:-1}" != 0 ] || each=""
  TMPDIR="$work" "$build/tests/bench/terragrid_cli_bench" \
    --size="${TERRAGRID_BENCH_SIZE:-4096}" --repeat="${TERRAGRID_BENCH_REPEAT:-2}" \
    $each --summary-file="$summary" --markdown-file="$markdown"
fi

if [ "${TERRAGRID_BENCH_HYDRO:-1}" != 0 ]; then
  echo
  echo "== 3. hydrology against RichDEM, GRASS and SAGA =="
  # The GIS tools to compare with: large, and needed by nothing else, so only the bench
  # installs them (CI never runs the bench).
  gis=()
  for p in grass-core saga; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || gis+=("$p")
  done
  if [ ${#gis[@]} -gt 0 ]; then
    echo "bench: installing ${gis[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        $sudo apt-get install -y -qq --no-install-recommends "${gis[@]}"; } >"$work/apt.log" 2>&1 ||
      { cat "$work/apt.log" >&2; echo "bench: could not install ${gis[*]}; their rows say n/a" >&2; }
  fi
  size="${TERRAGRID_BENCH_HYDRO_SIZE:-4096}"
  "$build/terragrid" --width "$size" --height "$size" --out-dir "$work/hydro" --quiet \
    --set 'output.files=["height.tif"]'
  "$build/tests/bench/terragrid_hydro_bench" --dem="$work/hydro/height.tif" --summary-file="$summary"
fi

if [ "${TERRAGRID_BENCH_EROSION:-1}" != 0 ]; then
  echo
  echo "== 4. erosion =="
  "$build/tests/bench/terragrid_erosion_bench" --size=1024,2048 --mode=relief \
    --steps="${TERRAGRID_BENCH_EROSION_STEPS:-100}" --summary-file="$summary"
fi

if [ "${TERRAGRID_BENCH_SERVE:-1}" != 0 ]; then
  echo
  echo "== 5. the explorer (terragrid serve) =="
  "$build/tests/bench/terragrid_serve_bench" --seconds="${TERRAGRID_BENCH_SERVE_SECONDS:-30}" \
    --summary-file="$summary"
fi

if [ "${TERRAGRID_BENCH_SLURM:-0}" != 0 ]; then
  echo
  echo "== 6. the Slurm recipe against the single run =="
  # munged runs as nobody and refuses a socket below a directory it cannot traverse.
  chmod 755 "$work"
  TMPDIR="$work" "$build/tests/bench/terragrid_slurm_bench" \
    --size="${TERRAGRID_BENCH_SLURM_SIZE:-16384}" | tee "$work/slurm.txt"
  sed -n '/slurm summary/,$p' "$work/slurm.txt" >>"$summary"
fi

if [ "${TERRAGRID_BENCH_CLIMATE:-1}" != 0 ]; then
  echo
  echo "== 7. climate =="
  "$build/tests/bench/terragrid_climate_bench" \
    --size="${TERRAGRID_BENCH_CLIMATE_SIZES:-4096,16384}" --summary-file="$summary"
fi

if [ "${TERRAGRID_BENCH_STAGE:-0}" != 0 ]; then
  echo
  echo "== 8. the hydrology stage with erosion at 16384^2 =="
  # Issue 30: configs/rivers.json (erosion on) at 16384 x 16384 through `terragrid
  # hydrology-stage`, on 1 and 2 threads: at most half the 123 s of CPU the issue measured, and
  # 2 threads at least 1.6x faster than 1; the two stage files must be the same bytes.
  stage_size="${TERRAGRID_BENCH_STAGE_SIZE:-16384}"
  declare -A stage_real stage_cpu
  for threads in 1 2; do
    TIMEFORMAT='%R %U %S'
    { time "$build/terragrid" hydrology-stage --config "$root/configs/rivers.json" \
        --width "$stage_size" --height "$stage_size" --threads "$threads" \
        --out "$work/stage-$threads.bin" 2>"$work/stage-$threads.log"; } 2>"$work/stage-$threads.time"
    read -r real user sys <"$work/stage-$threads.time"
    stage_real[$threads]=$real
    stage_cpu[$threads]=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
    echo "hydrology stage, configs/rivers.json at ${stage_size}^2, $threads thread(s): ${real} s wall, ${stage_cpu[$threads]} s CPU"
  done
  same=MISS
  cmp -s "$work/stage-1.bin" "$work/stage-2.bin" && same=PASS
  rm -f "$work"/stage-?.bin
  awk -v size="$stage_size" -v r1="${stage_real[1]}" -v r2="${stage_real[2]}" -v c1="${stage_cpu[1]}" \
      -v c2="${stage_cpu[2]}" -v same="$same" -v load="$(load)" 'BEGIN {
    printf "== hydrology stage with erosion, configs/rivers.json at %d^2, load %s ==\n", size, load
    printf "1 thread: %.1f s wall, %.1f s CPU; 2 threads: %.1f s wall, %.1f s CPU\n", r1, c1, r2, c2
    verdict = size != 16384 ? "n/a (the target is for 16384^2)" : (c1 <= 61.5 ? "PASS" : "MISS")
    printf "CPU, 1 thread, at most half of 123 s:    %6.1f s   target <= 61.5 s   %s\n", c1, verdict
    printf "2 threads / 1 thread, wall:              %6.2fx   target >= 1.6x   %s\n", r1 / r2, (r1 / r2 >= 1.6 ? "PASS" : "MISS")
    printf "same stage bytes on 1 and 2 threads:              %s\n", same
  }' | tee -a "$summary"
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

#!/usr/bin/env bash
# Installs the Debian packages terragrid needs, by purpose, so a person who wants a map does not
# wait for the test tools:
#   scripts/deps.sh [GROUP ...]    (default: build)
#   build     compile terragrid and run it (scripts/run.sh)
#   test      build + the test suite: GoogleTest, the benchmarks' libraries, and the real
#             programs the tests drive (GDAL, Tiled, Godot, OpenEXR's tools, ...) (scripts/test.sh)
#   sanitize  test + clang for the ASan/UBSan build and the fuzzer (scripts/sanitize.sh, fuzz.sh)
#   docs      mkdocs, to build the user guide (scripts/docs.sh)
# Checks what is missing first, so a second run is quick and silent.
set -euo pipefail

build=(
  cmake g++ make                   # toolchain
  ccache                           # compiler cache for every build (CMakeLists.txt, scripts/common.sh)
  libboost-program-options-dev     # CLI options
  nlohmann-json3-dev               # configs
  libtiff-dev                      # GeoTIFF writer
  libgeotiff-dev                   # GeoTIFF writer: the GeoKeys (libgeotiff, the reference library)
  libproj-dev proj-data            # output.crs: PROJ's EPSG database says what a CRS is
  libpng-dev                       # PNG previews
  zlib1g-dev                       # Tiled layer data
  libtbb-dev                       # parallel tiles
  libhwy-dev                       # SIMD rows (Google Highway)
  libopenexr-dev                   # height.exr
)
test=(
  libgtest-dev libgmock-dev        # test suite
  gdal-bin                         # gdalinfo, used by the tests to check our GeoTIFFs
  geotiff-bin                      # listgeo, used by the tests to read our GeoKeys
  python3-gdal python3-numpy       # /usr/bin/python3 with GDAL: the COG validator, the tests' overview, class-name and warp checks
  tiled                            # the Tiled editor, used by the tests to open our maps
  godot3-server                    # headless Godot, used by the tests to load height.exr
  openexr                          # exrheader and exrinfo, used by the tests on height.exr
  libbenchmark-dev libnoise-dev    # the benchmarks, built with the tests: Google Benchmark, libnoise to compare with
  mkdocs                           # the docs site, built and link-checked by the suite (scripts/docs.sh)
)
sanitize=(
  clang-16 libclang-rt-16-dev      # scripts/sanitize.sh asan, scripts/fuzz.sh: clang++, libFuzzer, sanitizers; bench.sh builds FastNoise2 with it
)
docs=(
  mkdocs                           # scripts/docs.sh
)

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build)
packages=()
for group in "${groups[@]}"; do
  case "$group" in
    build) packages+=("${build[@]}") ;;
    test) packages+=("${build[@]}" "${test[@]}") ;;
    sanitize) packages+=("${build[@]}" "${test[@]}" "${sanitize[@]}") ;;
    docs) packages+=("${docs[@]}") ;;
    *)
      echo "usage: scripts/deps.sh [build|test|sanitize|docs ...] (got '$group')" >&2
      exit 2
      ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
# A package named by two groups is installed once.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "deps: apt-get failed (see above)" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"

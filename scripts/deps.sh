#!/usr/bin/env bash
# Installs the Debian packages terragrid needs, by purpose, so a person who wants a map does not
# wait for the test tools:
#   scripts/deps.sh [GROUP ...]    (default: build)
#   build     compile terragrid and run it (scripts/run.sh), the explorer's page included
#             (`terragrid serve`: its map libraries come from npm, pinned by web/package-lock.json)
#   test      build + the test suite: GoogleTest, the benchmarks' libraries, and the real
#             programs the tests drive (GDAL, Tiled, Godot, OpenEXR's tools, ...) (scripts/test.sh)
#   sanitize  test + clang for the ASan/UBSan build and the fuzzer (scripts/sanitize.sh, fuzz.sh)
#   docs      mkdocs, to build the user guide (scripts/docs.sh)
# Checks what is missing first, so a second run is quick and silent.
set -euo pipefail

build=(
  cmake g++ gcc make               # toolchain (gcc: the C API's C99 test and example)
  ccache                           # compiler cache for every build (CMakeLists.txt, scripts/common.sh)
  libboost-program-options-dev     # CLI options
  nlohmann-json3-dev               # configs
  libtiff-dev                      # GeoTIFF writer
  libgeotiff-dev                   # GeoTIFF writer: the GeoKeys (libgeotiff, the reference library)
  libproj-dev proj-data            # output.crs: PROJ's EPSG database says what a CRS is
  libpng-dev                       # PNG previews
  libdeflate-dev                   # the explorer's PNG tiles (terragrid serve)
  zlib1g-dev                       # Tiled layer data
  libtbb-dev                       # parallel tiles
  libhwy-dev                       # SIMD rows (Google Highway)
  libopenexr-dev                   # height.exr
  libssl-dev                       # manifest.json: SHA-256 of every output (OpenSSL's libcrypto)
  libboost-dev                     # terragrid serve: Boost.Beast and Asio (header-only), the HTTP server
)
# Node.js and npm fetch the explorer's map libraries (Leaflet, MapLibre GL) from the npm
# registry, pinned by web/package-lock.json; the build embeds them into the binary. Debian's
# own packages, unless a node with npm is there already (NodeSource's nodejs ships npm).
node=(nodejs npm)
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
  # The Python module is built with the tests (TERRAGRID_PYTHON follows TERRAGRID_TESTS), so a
  # person who only wants a map (scripts/run.sh) installs none of this:
  pybind11-dev python3-dev         # the Python module terragrid (python/)
  python3-pytest                   # its tests, run by ctest
  pkg-config                       # the install test builds the C example with pkg-config
  groff-base man-db                # the man page test renders terragrid.1 (groff -ww, man --warnings)
  slurmctld slurmd slurm-client munge  # a real Slurm cluster the tests start on localhost to run docs/shards.md's job array
  python3-kubernetes python3-yaml  # Kubernetes' API types, to check docs/shards.md's Job manifests without a cluster
  chromium chromium-driver         # the explorer's browser test: headless Chromium (WebGL on SwiftShader)
  python3-selenium                 # ... driven by Selenium through chromedriver
)
sanitize=(
  clang-16 libclang-rt-16-dev      # scripts/sanitize.sh asan, scripts/fuzz.sh: clang++, libFuzzer, sanitizers; bench.sh builds FastNoise2 with it
)
docs=(
  mkdocs                           # scripts/docs.sh
)

# The explorer's libraries: `npm ci` in web/ (exactly what web/package-lock.json pins) when
# web/node_modules does not hold that lock's install yet; nothing to do otherwise, so builds
# and tests never reach the network once it is done.
npm_ci() {
  local root web stamp want
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  web="$root/web"
  stamp="$web/node_modules/.terragrid-lock-sha256"
  want=$(sha256sum "$web/package-lock.json" | cut -d' ' -f1)
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
  echo "deps: npm ci in web/ (the explorer's map libraries)" >&2
  local log
  log=$(mktemp)
  if ! (cd "$web" && npm ci --no-audit --no-fund --prefer-offline) >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "deps: npm ci failed in web/ (see above)" >&2
    exit 1
  fi
  rm -f "$log"
  echo "$want" >"$stamp"
}

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build)
packages=()
page=false
for group in "${groups[@]}"; do
  case "$group" in
    build) packages+=("${build[@]}"); page=true ;;
    test) packages+=("${build[@]}" "${test[@]}"); page=true ;;
    sanitize) packages+=("${build[@]}" "${test[@]}" "${sanitize[@]}"); page=true ;;
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
if $page && ! command -v npm >/dev/null; then missing+=("${node[@]}"); fi
if [ ${#missing[@]} -eq 0 ]; then
  if $page; then npm_ci; fi
  exit 0
fi
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
if $page; then npm_ci; fi

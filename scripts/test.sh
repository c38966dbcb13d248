#!/usr/bin/env bash
# Installs dependencies (the build's and the test tools'), builds everything and runs the whole
# test suite through ctest (the docs site's build and link check included).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
TERRAGRID_BUILD_MODE=test "$root/scripts/build.sh"
. "$root/scripts/common.sh"
ctest --test-dir "${TERRAGRID_BUILD_DIR:-$root/build}" --output-on-failure --parallel "$test_jobs"

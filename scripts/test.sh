#!/usr/bin/env bash
# Installs dependencies, builds everything and runs the whole test suite through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
ctest --test-dir "${TERRAGRID_BUILD_DIR:-$root/build}" --output-on-failure --parallel "$(nproc)"

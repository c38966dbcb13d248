#!/usr/bin/env bash
# Builds terragrid if needed and runs it: scripts/run.sh [terragrid options]
# With no options it runs the built-in default config and writes ./out/height.tif and the other
# default outputs; `scripts/run.sh serve` starts the map explorer and prints its URL
# (docs/serve.md). Installs only what the build needs (scripts/deps.sh build: the page's map
# libraries from npm included), not the test tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
TERRAGRID_BUILD_MODE=run "$root/scripts/build.sh" --target terragrid
exec "${TERRAGRID_BUILD_DIR:-$root/build}/terragrid" "$@"

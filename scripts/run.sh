#!/usr/bin/env bash
# Builds terragrid if needed and runs it: scripts/run.sh [terragrid options]
# With no options it runs the built-in default config and writes ./out/height.tif and the other
# default outputs. Installs only what the build needs (scripts/deps.sh build), not the test tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
TERRAGRID_BUILD_MODE=run "$root/scripts/build.sh" --target terragrid
exec "${TERRAGRID_BUILD_DIR:-$root/build}/terragrid" "$@"

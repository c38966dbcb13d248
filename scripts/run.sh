#!/usr/bin/env bash
# Builds terragrid if needed and runs it: scripts/run.sh [terragrid options]
# With no options it runs the built-in default config and writes ./out/height.tif.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" --target terragrid
exec "${TERRAGRID_BUILD_DIR:-$root/build}/terragrid" "$@"

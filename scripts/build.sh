#!/usr/bin/env bash
# Installs dependencies, configures (Release) and builds terragrid in ./build when needed.
# Usage: scripts/build.sh [cmake --build arguments, e.g. --target terragrid]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TERRAGRID_BUILD_DIR:-$root/build}"

"$root/scripts/deps.sh"
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"   # ccache settings
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
log="$build/build.log"
if ! cmake --build "$build" --parallel "$(nproc)" "$@" >"$log" 2>&1; then
  cat "$log" >&2
  echo "build failed (log: $log)" >&2
  exit 1
fi

#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then what a user of the installed package does:
# the example built with pkg-config and with find_package(terragrid), each run against the
# installed library (not the build tree's); the shared library's SONAME and exports; the Python
# module imported from the prefix; the man page and the bash completion in place.
#   install_test.sh BUILD_DIR SOURCE_DIR C_COMPILER [PYTHON]   (PYTHON: the module's python3,
#   when the build has the module)
set -euo pipefail
build=$1 src=$2 cc=$3 python=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir=$(find "$prefix" -name 'libterragrid.so.*.*' -printf '%h\n' | head -n1)
[ -n "$libdir" ] || { echo "no libterragrid.so.N.N.N under $prefix" >&2; exit 1; }
soname=$(readelf -d "$libdir"/libterragrid.so.*.* | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libterragrid.so.0 ] || { echo "SONAME is '$soname'" >&2; exit 1; }
[ -L "$libdir/libterragrid.so" ] && [ -L "$libdir/libterragrid.so.0" ] ||
  { echo "libterragrid.so and libterragrid.so.0 must be links" >&2; exit 1; }
# Only the C API leaves the library: every defined dynamic symbol is terragrid_*.
others=$(nm -D --defined-only "$libdir/libterragrid.so.0" | awk '{print $3}' |
         grep -v -e '^terragrid_' -e '^TERRAGRID_0$' || true)
[ -z "$others" ] || { echo "libterragrid.so exports more than the C API:" >&2; echo "$others" | head >&2; exit 1; }

# The CLI, its man page and its completion, each file what the installed program prints.
cmp "$prefix/share/man/man1/terragrid.1" <("$prefix/bin/terragrid" man-page)
cmp "$prefix/share/bash-completion/completions/terragrid" <("$prefix/bin/terragrid" completion bash)

# pkg-config, as the example's comment says.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
"$cc" -std=c99 -Wall -Wextra -Werror "$src/examples/stream_chunks.c" \
  $(pkg-config --cflags --libs terragrid) -o "$work/stream_pc"
# find_package, as a plugin's CMake project does.
cmake -S "$src/examples" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" >"$work/cmake.log"
cmake --build "$work/cmake" >>"$work/cmake.log"
for program in "$work/stream_pc" "$work/cmake/stream_chunks"; do
  resolved=$(LD_LIBRARY_PATH="$libdir" ldd "$program" | awk '/libterragrid/ {print $3}')
  [ "$resolved" = "$libdir/libterragrid.so.0" ] ||
    { echo "$program loads '$resolved', not the installed library" >&2; exit 1; }
  LD_LIBRARY_PATH="$libdir" "$program" --check >"$work/run.log" ||
    { cat "$work/run.log" >&2; exit 1; }
  grep -q 'every chunk equals' "$work/run.log"
done

# The Python module, when the build has it (TERRAGRID_PYTHON).
if [ -n "$python" ]; then
  package=$(find "$prefix" -path '*-packages/terragrid/__init__.py' -printf '%h\n')
  [ -n "$package" ] || { echo "the Python module is not installed under $prefix" >&2; exit 1; }
  shape=$(cd "$work" && PYTHONPATH=$(dirname "$package") "$python" -c \
    "import terragrid; print(terragrid.Map({}).generate(window=(0,0,256,256))['height'].shape)")
  [ "$shape" = "(256, 256)" ] || { echo "the installed module printed '$shape'" >&2; exit 1; }
  [ -f "$package/__init__.pyi" ] && [ -f "$package/py.typed" ] ||
    { echo "the type stubs are not installed" >&2; exit 1; }
fi
echo "install_test: libterragrid.so.0, pkg-config, find_package and the example all work from $prefix"

#!/usr/bin/env bash
# Builds the user guide (docs/*.md, mkdocs.yml) into a static site and checks every link:
#   scripts/docs.sh [SITE_DIR]      (default: build/site)
# Fails on any mkdocs warning (strict: a page missing from the nav, a link to no page) and on
# any relative link of README.md or docs/ whose file or #anchor does not exist
# (scripts/check_doc_links.py: mkdocs 1.4 checks neither anchors nor the README).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
site="${1:-$root/build/site}"
"$root/scripts/deps.sh" docs
mkdocs build --quiet --strict --config-file "$root/mkdocs.yml" --site-dir "$site"
python3 "$root/scripts/check_doc_links.py" "$root"

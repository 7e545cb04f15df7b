#!/usr/bin/env bash
# Builds the documentation site (docs/, reStructuredText) into build/docs/ with Sphinx.
# Every warning fails the build (-W, all of them reported with --keep-going), and
# nitpicky mode (-n) reports every internal reference that does not resolve, so a broken
# link between pages, a page missing from the table of contents or bad markup fails it.
# No network is used (no linkcheck). Needs Debian's python3-sphinx (furo for the theme;
# both in `scripts/install-deps.sh --test`). Open build/docs/index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v sphinx-build >/dev/null 2>&1; then
  echo "docs: sphinx-build not found (apt-get install python3-sphinx furo, or scripts/install-deps.sh --test)" >&2
  exit 1
fi
sphinx-build -W --keep-going -n -q -b html -d build/docs/.doctrees docs build/docs "$@"
echo "docs: build/docs/index.html"

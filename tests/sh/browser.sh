#!/bin/sh
# browser: Debian's Chromium, headless, renders the web pages of a 5x5, an
# 11x11 and a 25x25 game played by mail, checked by reading the DOM back
# and by sampling the screenshots' pixels (tests/browser/browser.py).
# BROWSER_SAVE=DIR keeps the boards' screenshots there (doc/screenshots/).
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
for tool in chromium /usr/bin/python3; do
	command -v "$tool" >/dev/null || { echo "not ok - browser: $tool is missing (sh scripts/install-deps)"; exit 1; }
done
/usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "not ok - browser: python3-pil is missing (sh scripts/install-deps)"; exit 1; }
unset OUSTPBM_HOME
# Chromium as root needs --no-sandbox, and a fresh profile each run (browser.py does both)
HOME=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-browser-home.XXXXXX") || exit 2
trap 'rm -rf "$HOME"' EXIT
trap 'exit 2' INT TERM
export HOME
/usr/bin/python3 tests/browser/browser.py "$top/oustpbm" "$top/templates" ${BROWSER_SAVE:+"$BROWSER_SAVE"}

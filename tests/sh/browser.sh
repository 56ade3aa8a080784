#!/bin/sh
# browser: Debian's Chromium, headless, renders the web pages of a 5x5, an
# 11x11 and a 25x25 game played by mail, checked by reading the DOM back
# and by sampling the screenshots' pixels (tests/browser/browser.py).
# BROWSER_SAVE=DIR keeps the boards' screenshots there (doc/screenshots/).
# --shard K/N: every shard plays the games by mail, Chromium looks at every
# N-th of them.  make check runs it whole: with one Chromium for every page
# (tests/browser/headless.py) playing the games is most of its time, and
# each shard would play them again.
. "$(dirname "$0")/lib.sh"
need chromium "$PY"
"$PY" -c 'import PIL' 2>/dev/null || { echo "not ok - browser: python3-pil is missing (sh scripts/install-deps --test)"; exit 1; }
# Chromium as root needs --no-sandbox, and a fresh profile each run (browser.py does both)
tmpdir
HOME=$tmp
export HOME
BROWSER_SHARD=$shard_k/$shard_n "$PY" tests/browser/browser.py "$bin" "$top/templates" ${BROWSER_SAVE:+"$BROWSER_SAVE"}

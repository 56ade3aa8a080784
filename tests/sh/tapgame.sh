#!/bin/sh
# tapgame: whole games played by tapping only, the links of the board
# mails read by headless Chromium and html.parser, each reply made as a mail
# client makes it from the mailto: link (tests/browser/tapgame.py).
. "$(dirname "$0")/lib.sh"
need chromium "$PY"
tmpdir
HOME=$tmp
export HOME
"$PY" tests/browser/tapgame.py "$bin" "$top/templates"

#!/bin/sh
# mailwidth: Debian's Chromium, headless, renders the text/html part of
# board mails at 400 and 800 CSS pixels; a script measures that no word or
# command is broken in the middle, that nothing wider than its box fails to
# scroll, and that the HTML lists the text part's history rows
# (tests/browser/mailwidth.py).  MAILWIDTH_SAVE=DIR keeps the screenshots.
. "$(dirname "$0")/lib.sh"
need chromium "$PY"
tmpdir
HOME=$tmp
export HOME
"$PY" tests/browser/mailwidth.py "$bin" "$top/templates" ${MAILWIDTH_SAVE:+"$MAILWIDTH_SAVE"}

#!/bin/sh
# tapeverywhere: issue 40's "tappable everywhere" end to end: from a fresh
# registration, a reminder, show, games next, a stale tap's refusal and the
# game-end mail each lead to a played turn, a return game and a review,
# every reply made from a mailto: link of the mail's HTML part as a phone's
# mail client makes it (tests/browser/tapeverywhere.py).
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
HOME=$tmp
export HOME
"$PY" tests/browser/tapeverywhere.py "$bin" "$top/templates"

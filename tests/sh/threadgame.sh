#!/bin/sh
# threadgame: one conversation per game and player, threaded as Gmail and
# Thunderbird do, over a whole game played by taps; an old tap without
# In-Reply-To refused by the turn its body carries (tests/browser/threadgame.py).
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
HOME=$tmp
export HOME
"$PY" tests/browser/threadgame.py "$bin" "$top/templates"

#!/bin/sh
# digestwidth: a digest of three boards (11x11, 7x7, hex side 4) as a phone
# shows it: Debian's Chromium, headless, renders its text/html part at 400
# and 800 CSS pixels and mailwidth.py's probe checks that nothing is cut
# off or broken (tests/browser/digestwidth.py).  MAILWIDTH_SAVE=DIR keeps
# the screenshots.
. "$(dirname "$0")/lib.sh"
need chromium "$PY"
tmpdir
HOME=$tmp
export HOME
h=$tmp/h
mkhome "$h"
feed() { # FROM SUBJECT
	mail "$1" "$2" | deliver "$h" $T0 || echo "not ok - setup: $2"
}
feed alice@example.org "register alice secret"
feed bob@example.com "register bob hunter2"
feed carol@example.net "register carol pw3"
feed dave@example.net "register dave pw4"
feed bob@example.com "set bob hunter2 timezone=Europe/Paris digest=daily@08"
feed alice@example.org "challenge alice secret bob"
feed carol@example.net "challenge carol pw3 bob -size=7"
feed dave@example.net "challenge dave pw4 bob -hex=4"
feed alice@example.org "move 101 alice secret C3"
feed carol@example.net "move 102 carol pw3 D4"
feed dave@example.net "move 103 dave pw4 d4"
# 08:05 in Paris the next day (T0 is 22:13:20 UTC)
OUSTPBM_TEST_TIME=$((T0 + 31900)) "$bin" -d "$h" cleanup >/dev/null 2>&1 || echo "not ok - cleanup exits $?"
dg=$(grep -l '^Subject: Oust: your move on 3 boards' "$h/mail/bob@example.com/new/"* | head -1)
[ -n "$dg" ] || { echo "not ok - no digest was sent"; exit 1; }
"$PY" tests/browser/digestwidth.py "$dg" ${MAILWIDTH_SAVE:+"$MAILWIDTH_SAVE"}

#!/bin/sh
# A smoke test of `make strength`: a few fast games through GTP between the
# levels and the test players on 5x5 and 7x7; every placement must be legal
# (a referee engine checks it), every game must end, and every genmove must
# answer within its think time plus 10% plus 50 ms (plus a wide margin, for
# a loaded machine).  Prints "ok"/"not ok" lines for tests/run-tests.
. "$(dirname "$0")/lib.sh"
need "$bin" "$PY"
exec "$PY" tests/strength/strength.py "$bin" --smoke --sizes 5,7 --levels 1,3,5 \
    --games 2 --seconds 0.05 --margin 0.5

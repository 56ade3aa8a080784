#!/bin/sh
# The 300 conformance games of tests/data/public.trace.gz and the 212 hex
# games of tests/data/public-hex.trace.gz replayed through the real
# `./oustpbm engine` process: every legal-placement set, side to move and
# result compared (tests/engine_conformance.py), plus whole games played
# with genmove on both shapes.  Prints "ok"/"not ok" lines for tests/run-tests.
. "$(dirname "$0")/lib.sh"
need "$bin" "$PY"
rc=0
"$PY" tests/engine_conformance.py "$bin" tests/data/public.trace.gz || rc=1
"$PY" tests/engine_conformance.py "$bin" tests/data/public-hex.trace.gz || rc=1
exit $rc

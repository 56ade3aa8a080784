#!/bin/sh
# The 300 conformance games of tests/data/public.trace.gz and the 212 hex
# games of tests/data/public-hex.trace.gz replayed through the real
# `./oustpbm engine` process: every legal-placement set, side to move and
# result compared (tests/engine_conformance.py), plus whole games played
# with genmove on both shapes.  Prints "ok"/"not ok" lines for tests/run-tests.
cd "$(dirname "$0")/../.." || exit 2
if [ ! -x ./oustpbm ]; then
	echo "not ok - ./oustpbm is not built"
	exit 1
fi
if [ ! -x /usr/bin/python3 ]; then
	echo "not ok - /usr/bin/python3 is missing (scripts/install-deps installs it)"
	exit 1
fi
rc=0
/usr/bin/python3 tests/engine_conformance.py ./oustpbm tests/data/public.trace.gz || rc=1
/usr/bin/python3 tests/engine_conformance.py ./oustpbm tests/data/public-hex.trace.gz || rc=1
exit $rc

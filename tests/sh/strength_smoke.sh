#!/bin/sh
# A smoke test of `make strength`: a few fast games through GTP between the
# levels and the test players on 5x5 and 7x7; every placement must be legal
# (a referee engine checks it), every game must end, and every genmove must
# answer within its think time plus 10% plus 50 ms (plus a wide margin, for
# a loaded machine).  Then a match split into chunks (--chunk) over two
# jobs: every game played once, the table's count their sum, and the same
# games on a second run.  Prints "ok"/"not ok" lines for tests/run-tests.
. "$(dirname "$0")/lib.sh"
need "$bin" "$PY"
tmpdir
"$PY" tests/strength/strength.py "$bin" --smoke --sizes 5,7 --levels 1,3,5 \
    --games 2 --seconds 0.05 --margin 0.5 || fails=$((fails + 1))

chunked() {
	"$PY" tests/strength/strength.py "$bin" --sizes 5 --levels 3 --opponents below \
	    --games 5 --chunk 2 --jobs 2 --fixed 2:60,3:120 --progress >"$1"
}
chunked "$tmp/run1"
chunked "$tmp/run2"
# "# 5x5 level 3 vs 2 game 4: won, ..." -> "4 won"
games() {
	sed -n 's/^# 5x5 level 3 vs 2 game \([0-9]*\): \([a-z]*\),.*/\1 \2/p' "$1" | sort -n
}
# the table's line up to its interval (the genmove times vary)
table() {
	sed -n 's/^\(5x5 *level 3 vs level 2 .*\]\).*/\1/p' "$1"
}
check "--chunk 2 plays each of games 1 to 5 once" \
    [ "$(games "$tmp/run1" | cut -d' ' -f1 | tr '\n' ' ')" = "1 2 3 4 5 " ]
won=$(games "$tmp/run1" | grep -c ' won$')
check "--chunk 2: the table counts the $won games won of 5" \
    sh -c 'grep -q "level 3 vs level 2 *$1/5 " "$2"' sh "$won" "$tmp/run1"
check "--chunk 2 over two jobs: the same games on a second run" \
    [ "$(games "$tmp/run1"; table "$tmp/run1")" = "$(games "$tmp/run2"; table "$tmp/run2")" ]
done_testing

#!/bin/sh
# demo: `make demo` (scripts/demo) plays its game to the end with the
# program as installed (no test hooks: the real clock and random codes),
# registering both players by the codes mailed to them.
. "$(dirname "$0")/lib.sh"
tmpdir
need "$top/oustpbm"
TMPDIR=$tmp sh "$top/scripts/demo" >"$tmp/out" 2>"$tmp/err"
check "scripts/demo exits 0" [ $? = 0 ]
check "... says nothing on stderr" [ ! -s "$tmp/err" ]
check "... both players registered with the mailed codes" sh -c "grep -q 'cmd=\"confirm alice \*\*\*\* \*\*\*\*\" ok: registered alice' '$tmp/out' &&
    grep -q 'cmd=\"confirm bob \*\*\*\* \*\*\*\*\" ok: registered bob' '$tmp/out'"
check "... the game is played to its end" grep -q 'board=101 cmd="move 101#10 bob \*\*\*\* C5" ok: turn 10: bob played C5, capturing 2; the game is over: black won' "$tmp/out"
check "... only the one deliberate refusal" [ "$(grep -c ' refused: ' "$tmp/out")" = 1 ]
check "... and the game file is shown" grep -q '^status: black-won$' "$tmp/out"
check "... and its home removed" [ -z "$(ls "$tmp" | grep '^oustpbm-demo')" ]
done_testing

#!/bin/sh
# lint: the shell tests themselves.  Each sources tests/sh/lib.sh and keeps
# none of its own copies of what lib.sh provides (check, the temporary
# directory and its exit trap); no check's command is two commands joined
# by && or || (tests/tools/checklint.py: the second would never be
# checked); lib.sh's helpers behave as its header says.
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir

for t in tests/sh/*.sh; do
	name=${t#tests/sh/}
	case $name in lib.sh | lint.sh) continue ;; esac
	check "$name sources lib.sh" grep -q '^\. "$(dirname "$0")/lib.sh"$' "$t"
	check "$name has no check() of its own" sh -c '! grep -q "^check() *{" "$1"' sh "$t"
	check "$name makes its temporary directory with tmpdir" sh -c '! grep -q "mktemp -d.*oustpbm-" "$1"' sh "$t"
	check "$name sets no exit trap of its own" sh -c '! grep -q "^trap .* EXIT" "$1"' sh "$t"
	check "$name sends its mails with lib.sh's send, no send() of its own" \
	    sh -c '! grep -q -E "^[[:space:]]*[a-z_]*send[a-z_]*\(\) *\{" "$1"' sh "$t"
done
check "no check runs two commands joined by && or ||" "$PY" tests/tools/checklint.py tests/sh/*.sh

# checklint finds the pattern it is for (the sample's lines start with '|'
# here, so that this file itself passes)
sed 's/^|//' >"$tmp/bad.sh" <<'EOT'
|check "one" [ "$a" = 1 ] && [ "$b" = 2 ]
|check "two" [ "$a" = 1 ] &&
|    grep -q x "$f"
|check "fine" sh -c '[ "$1" = 1 ] && [ "$2" = 2 ]' sh "$a" "$b"
|check "fine too" [ "$(a && b)" = "x || y" ]
EOT
check "checklint reports a check of two commands, joined on one line or two" \
    [ "$("$PY" tests/tools/checklint.py "$tmp/bad.sh" | cut -d: -f2 | tr '\n' ' ')" = "1 2 " ]

# the helpers
h=$tmp/home
mkhome "$h" 'password_cost = 2' 'lock_timeout_ms = 300'
check "mkhome makes a home as init does" sh -c '[ -d "$1/games" ] && grep -q "admin init" "$1/log"' sh "$h"
check "... a LINE replaces a default's key" [ "$(grep -c '^password_cost' "$h/oustpbm.conf")" = 1 ]
check "... oustpbm reads the configuration" [ "$(rc "$bin" -d "$h" list)" = 0 ]
check "mail: a fresh Message-ID each time" [ "$(mail a@example.org x | grep -c '^Message-ID: <.*>$')$(mail a@example.org x | sed -n 's/^Message-ID: //p')" != \
    "1$(mail a@example.org x | sed -n 's/^Message-ID: //p')" ]
check "mail: ID - leaves the header out" sh -c '! grep -q "^Message-ID" "$1"' sh "$(mail a@example.org x - >"$tmp/m1"; echo "$tmp/m1")"
check "send: a registration answered (exit 0)" [ "$(rc send "$h" alice@example.org 'register alice secret')" = 0 ]
check "... and confirmed at once: the code and the welcome; newest finds it" sh -c '[ "$1" = 2 ] && grep -q "^alice:" "$3" && grep -q "^Subject: Oust registration alice" "$2"' sh \
    "$(replies "$h" alice@example.org)" "$(newest "$h" alice@example.org)" "$h/users"
send at=$((T0 + 600)) id=lint.1@example.org body='a body line' "$h" alice@example.org help
check "send: at=, id= and body= (the log's time, the Message-ID; exit status returned)" sh -c '
    grep -q "^2023-11-14T22:23:20Z mail <lint.1@example.org> .*cmd=\"help\"" "$1"' sh "$h/log"
sent=5
send at=next "$h" alice@example.org help
check "send at=next: at T0 + 60 * sent, sent counted up first" [ "$sent $(tail -n 1 "$h/log" | cut -c1-20)" = "6 2023-11-14T22:19:20Z" ]
before=$(store_sum "$h")
check "store_sum: a refused move (no such board) changes nothing" \
    [ "$(rc send "$h" alice@example.org 'move 101 alice secret C3')
$(store_sum "$h")" = "0
$before" ]
out=$(sh -c '. tests/sh/lib.sh; check "a" true; check "b" false; check "c" true; done_testing' tests/sh/lint.sh)
check "check numbers the lines, done_testing ends with the plan and fails" \
    [ "$(echo "$out" | tr '\n' '|')" = "ok 1 - a|not ok 2 - b|ok 3 - c|1..3|" ]
check "... and exits 1 after a failure" \
    [ "$(rc sh -c '. tests/sh/lib.sh; check b false; done_testing; exit 0' tests/sh/lint.sh)" = 1 ]
done_testing

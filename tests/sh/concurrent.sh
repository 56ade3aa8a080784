#!/bin/sh
# concurrent: 200 deliveries at once across 20 boards: on each board three
# copies of one legal move (same Message-ID), three refused commands and
# four shows.  Every legal move is applied exactly once with one set of
# replies, every refused command gets exactly one error, no lock is held
# afterwards, no temp file or queued reply is left, and every game file
# loads in `oustpbm engine`.  Then the bounded lock waits: with a board's
# lock or seen.lock held by another process, a move exits 75 within about
# lock_timeout_ms and changes nothing.
. "$(dirname "$0")/lib.sh"
tmpdir
BOARDS=20
A=alice@example.org
B=bob@example.com
C=carol@example.net
D=dave@example.net


count() { # ADDRESS SUBJECT-REGEX: replies to ADDRESS whose Subject matches
	grep -l -E "^Subject: $2\$" "$h/mail/$1/new/"* 2>/dev/null | wc -l | tr -d ' '
}

h=$tmp/home
# the limits against abuse are off: 20 challenges and 20 wrong passwords are sent here on purpose
mkhome "$h" 'max_mails_per_hour = 0' 'max_password_failures = 0' 'max_open_challenges = 0' 'max_challenges_per_hour = 0'
k=0
for s in "$A|register alice secret" "$B|register bob hunter2" "$C|register carol sesame" "$D|register dave open"; do
	k=$((k + 1))
	mail "${s%%|*}" "${s#*|}" "setup$k@x" | deliver "$h" $T0
done
b=0
while [ $b -lt $BOARDS ]; do
	b=$((b + 1))
	mail $A "challenge alice secret bob -size=5" "c$b@x" | OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" >/dev/null 2>&1
done
check "setup: $BOARDS boards" [ "$(ls "$h"/games/*.game | wc -l)" = $BOARDS ]
# the reference board after alice's C3, made alone
cp -R "$h" "$tmp/ref"
mail $A "move 101 alice secret C3" ref@x | OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$tmp/ref" >/dev/null 2>&1
rm -rf "$h/mail"

# the mails: 10 per board
mkdir -p "$tmp/in"
b=100
while [ $b -lt $((100 + BOARDS)) ]; do
	b=$((b + 1))
	for c in 1 2 3; do
		mail $A "move $b alice secret C3" "move$b@x" >"$tmp/in/$b.copy$c"
	done
	mail $B "move $b bob wrong A1" "wrong$b@x" >"$tmp/in/$b.wrong"
	mail $C "move $b carol sesame A1" "carol$b@x" >"$tmp/in/$b.carol"
	mail $A "move $b#7 alice secret E5" "turn$b@x" >"$tmp/in/$b.turn"
	for c in 1 2 3 4; do
		mail $D "show $b" "show$b.$c@x" >"$tmp/in/$b.show$c"
	done
done
total=$(ls "$tmp/in" | wc -l | tr -d ' ')
start=$(date +%s)
for f in "$tmp"/in/*; do
	(OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" <"$f" >/dev/null 2>"$f.err"; echo $? >"$f.rc") &
done
wait
end=$(date +%s)
check "$total deliveries at once" [ "$total" -ge 200 ]
check "all exit 0 (in $((end - start)) s)" [ "$(cat "$tmp"/in/*.rc | sort -u)" = 0 ]
check "nothing on stderr" [ -z "$(cat "$tmp"/in/*.err)" ]
same=0
b=100
while [ $b -lt $((100 + BOARDS)) ]; do
	b=$((b + 1))
	sed "s/^board: 101$/board: $b/" "$tmp/ref/games/101.game" | grep -v '^thread:' >"$tmp/want"
	grep -v '^thread:' "$h/games/$b.game" | cmp -s - "$tmp/want" && same=$((same + 1))
done
check "every board has the move exactly once (as played alone)" [ "$same" = $BOARDS ]
check "one move reply per board to alice" [ "$(count $A 'Oust Board [0-9]+ alice vs bob \[[-0-9A-Z]+\]')" = $BOARDS ]
check "one move reply per board to bob" [ "$(count $B 'Oust Board [0-9]+ alice vs bob \[[-0-9A-Z]+\]')" = $BOARDS ]
check "one error per board to bob (wrong password)" [ "$(count $B 'Oust Board [0-9]+ error')" = $BOARDS ]
check "one error per board to carol (not a player)" [ "$(count $C 'Oust Board [0-9]+ error')" = $BOARDS ]
check "one error per board to alice (wrong turn number)" [ "$(count $A 'Oust Board [0-9]+ error')" = $BOARDS ]
check "no other reply to alice, bob and carol" \
    [ "$(replies "$h" $A) $(replies "$h" $B) $(replies "$h" $C)" = "$((2 * BOARDS)) $((2 * BOARDS)) $BOARDS" ]
check "every show answered" [ "$(ls "$h/mail/$D/new" | wc -l)" = $((4 * BOARDS)) ]
check "the copies are logged as dropped" [ "$(grep -c 'dropped: a copy of the mail handled' "$h/log")" = $((2 * BOARDS)) ]
check "one log line per delivery (a register's confirm one more)" [ "$(grep -c ' mail <' "$h/log")" = $((total + 8 + BOARDS)) ]
check "no reply left in the outbox" [ -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f)" ]
check "no temp file left" [ -z "$(find "$h" -name '*.tmp')" ]
bad=0
for g in "$h"/games/*.game; do
	printf 'loadgame %s\n' "$g" | "$bin" engine | grep -q '^= ' || bad=$((bad + 1))
done
check "every game file loads in the engine" [ $bad = 0 ]
if [ -x "$PY" ]; then
	check "no lock is held afterwards" "$PY" -c 'import fcntl, sys
for p in sys.argv[1:]:
    with open(p, "a") as f:
        fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)' "$h"/games/*.lock "$h"/*.lock "$h"/outbox/*.lock
fi

# ---- bounded lock waits
if [ -x "$PY" ]; then
	printf 'lock_timeout_ms = 300\n' >>"$h/oustpbm.conf"
	rm -rf "$h/mail"
	for l in games/105.lock seen.lock; do
		hold_lock "$h/$l"
		before=$(store_sum "$h")
		t0=$(date +%s%N)
		mail $B "move 105 bob hunter2 A1" "held.$l@x" | OUSTPBM_TEST_TIME=$((T0 + 120)) "$bin" -d "$h" >/dev/null 2>&1
		rc=$?
		t1=$(date +%s%N)
		release_lock
		ms=$(((t1 - t0) / 1000000))
		check "$l held: exit 75" [ $rc = 75 ]
		check "... after about lock_timeout_ms (${ms} ms)" sh -c '[ "$1" -ge 250 ] && [ "$1" -lt 10000 ]' sh "$ms"
		check "... nothing changed" [ "$(store_sum "$h")" = "$before" ]
		check "... no reply" [ ! -d "$h/mail" ]
		check "... nothing queued" [ -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f)" ]
		check "... logged as a temporary failure" grep -q "<held.$l@x>.* tempfail: " "$h/log"
	done
	mail $B "move 105 bob hunter2 A1" "held.games/105.lock@x" | OUSTPBM_TEST_TIME=$((T0 + 180)) "$bin" -d "$h" >/dev/null 2>&1
	check "redelivered once the lock is free: the move is applied" grep -q '^turn: 3$' "$h/games/105.game"
fi
done_testing

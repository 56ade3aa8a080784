#!/bin/sh
# concurrent: 200 deliveries at once across 20 boards: on each board three
# copies of one legal move (same Message-ID), three refused commands and
# four shows.  Every legal move is applied exactly once with one set of
# replies, every refused command gets exactly one error, no lock is held
# afterwards, no temp file or queued reply is left, and every game file
# loads in `oustpbm engine`.  Then the bounded lock waits: with a board's
# lock or seen.lock held by another process, a move exits 75 within about
# lock_timeout_ms and changes nothing.
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=${OUSTPBM_BIN:-$top/oustpbm}
PY=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-concurrent.XXXXXX") || exit 2
lockpid=
cleanup() {
	[ -n "$lockpid" ] && kill "$lockpid" 2>/dev/null && wait "$lockpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM
unset OUSTPBM_HOME OUSTPBM_TEST_CRASH
T0=1700000000
BOARDS=20
A=alice@example.org
B=bob@example.com
C=carol@example.net
D=dave@example.net

n=0
check() { # description, then a command that must succeed
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
	fi
}

# mail FROM SUBJECT ID
mail() {
	printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <%s>\n\n' "$1" "$2" "$3"
}

sum() {
	(cd "$1" && find . -type f ! -path ./log ! -path ./seen ! -path ./throttle ! -path './mail/*' ! -name '*.lock' -exec cksum {} + |
	    LC_ALL=C sort)
}

count() { # ADDRESS SUBJECT-REGEX: replies to ADDRESS whose Subject matches
	grep -l -E "^Subject: $2\$" "$h/mail/$1/new/"* 2>/dev/null | wc -l | tr -d ' '
}

h=$tmp/home
mkdir -p "$h"
# the limits against abuse are off: 20 challenges and 20 wrong passwords are sent here on purpose
printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = 1\nmax_mails_per_hour = 0\nmax_password_failures = 0\nmax_open_challenges = 0\nmax_challenges_per_hour = 0\n' "$top" >"$h/oustpbm.conf"
k=0
for s in "$A|register alice secret" "$B|register bob hunter2" "$C|register carol sesame" "$D|register dave open"; do
	k=$((k + 1))
	mail "${s%%|*}" "${s#*|}" "setup$k@x" | OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" >/dev/null 2>&1
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
check "one move reply per board to alice" [ "$(count $A 'Oust Board [0-9]+ bob')" = $BOARDS ]
check "one move reply per board to bob" [ "$(count $B 'Oust Board [0-9]+ bob')" = $BOARDS ]
check "one error per board to bob (wrong password)" [ "$(count $B 'Oust Board [0-9]+ error')" = $BOARDS ]
check "one error per board to carol (not a player)" [ "$(count $C 'Oust Board [0-9]+ error')" = $BOARDS ]
check "one error per board to alice (wrong turn number)" [ "$(count $A 'Oust Board [0-9]+ error')" = $BOARDS ]
check "no other reply to alice and bob" [ "$(ls "$h/mail/$A/new" | wc -l)" = $((2 * BOARDS)) ] &&
    [ "$(ls "$h/mail/$B/new" | wc -l)" = $((2 * BOARDS)) ] && [ "$(ls "$h/mail/$C/new" | wc -l)" = $BOARDS ]
check "every show answered" [ "$(ls "$h/mail/$D/new" | wc -l)" = $((4 * BOARDS)) ]
check "the copies are logged as dropped" [ "$(grep -c 'dropped: a copy of the mail handled' "$h/log")" = $((2 * BOARDS)) ]
check "one log line per delivery" [ "$(grep -c ' mail <' "$h/log")" = $((total + 4 + BOARDS)) ]
check "no reply left in the outbox" [ -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f)" ]
check "no temp file left" [ -z "$(find "$h" -name '*.tmp')" ]
bad=0
for g in "$h"/games/*.game; do
	printf 'loadgame %s\n' "$g" | "$top/oustpbm" engine | grep -q '^= ' || bad=$((bad + 1))
done
check "every game file loads in the engine" [ $bad = 0 ]
if [ -x "$PY" ]; then
	check "no lock is held afterwards" "$PY" -c 'import fcntl, sys
for p in sys.argv[1:]:
    with open(p, "a") as f:
        fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)' "$h"/games/*.lock "$h"/*.lock "$h"/outbox/*.lock
fi

# ---- bounded lock waits
# hold LOCKFILE: another process holds an fcntl lock on it
hold() {
	"$PY" -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' "$1" >"$tmp/lock.ready" &
	lockpid=$!
	i=0
	while ! grep -q locked "$tmp/lock.ready" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt 200 ] && return 1
		sleep 0.05
	done
}
release() {
	kill "$lockpid" 2>/dev/null
	wait "$lockpid" 2>/dev/null
	lockpid=
}
if [ -x "$PY" ]; then
	printf 'lock_timeout_ms = 300\n' >>"$h/oustpbm.conf"
	rm -rf "$h/mail"
	for l in games/105.lock seen.lock; do
		hold "$h/$l"
		before=$(sum "$h")
		t0=$(date +%s%N)
		mail $B "move 105 bob hunter2 A1" "held.$l@x" | OUSTPBM_TEST_TIME=$((T0 + 120)) "$bin" -d "$h" >/dev/null 2>&1
		rc=$?
		t1=$(date +%s%N)
		release
		ms=$(((t1 - t0) / 1000000))
		check "$l held: exit 75" [ $rc = 75 ]
		check "... after about lock_timeout_ms (${ms} ms)" [ $ms -ge 250 ] && [ $ms -lt 3000 ]
		check "... nothing changed" [ "$(sum "$h")" = "$before" ]
		check "... no reply" [ ! -d "$h/mail" ]
		check "... nothing queued" [ -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f)" ]
		check "... logged as a temporary failure" grep -q "<held.$l@x>.* tempfail: " "$h/log"
	done
	mail $B "move 105 bob hunter2 A1" "held.games/105.lock@x" | OUSTPBM_TEST_TIME=$((T0 + 180)) "$bin" -d "$h" >/dev/null 2>&1
	check "redelivered once the lock is free: the move is applied" grep -q '^turn: 3$' "$h/games/105.game"
fi
echo "1..$n"

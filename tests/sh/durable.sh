#!/bin/sh
# durable: the durable steps of one move mail, watched with strace.  The
# fsyncs are grouped (store.h: deferred, paid by syncfs), so what is checked
# is the order of writes, syncs and renames: everything a commit needs is
# written and synced before the game file's rename, the rename is synced
# before any reply leaves outbox/tmp/ (outbox.h's protocol), the seen record
# is synced before the rename too (seen.h), and each Maildir copy is synced
# before its rename into new/, the names synced before the queue files move
# to outbox/sent/ (transport.h).  With the maildir transport the removals
# from outbox/new/ and the archive in outbox/sent/ are not synced.
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=$top/oustpbm
if ! command -v strace >/dev/null 2>&1; then
	echo "not ok 1 - strace is needed (scripts/install-deps installs it)"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-durable.XXXXXX") || exit 2
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
export OUSTPBM_TEST_TIME=1700000000
unset OUSTPBM_HOME

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
send() { # FROM SUBJECT ID
	printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <%s@example.org>\n\n' "$1" "$2" "$3" |
	    "$bin" -d "$h" >/dev/null 2>&1
}

h=$tmp/home
mkdir "$h"
printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = 1\n' "$top" >"$h/oustpbm.conf"
send alice@example.org "register alice secret" r1
send bob@example.com "register bob hunter2" r2
send alice@example.org "challenge alice secret bob -size=5" c1
printf 'From: alice@example.org\nTo: oust@example.net\nSubject: move 101#1 alice secret C3\nMessage-ID: <m1@example.org>\n\n' |
    strace -f -y -o "$tmp/trace" -e trace=write,fsync,fdatasync,syncfs,rename,renameat,renameat2 "$bin" -d "$h" >/dev/null 2>&1
check "the move is applied under strace" grep -q 'ok: turn 1: alice played C3' "$h/log"
# the events in order, paths relative to the home, queue ids and temp names shortened:
#   W path (a write), F path (an fsync), S (a syncfs), R from to (a rename)
short() {
	sed "s#$h/##g; s#/[0-9]*\.M[0-9]*P[0-9]*Q[0-9]*\.[^/ ]*#/ID#g; s#games/\.101\.game\.[0-9.]*tmp#games/101.game.tmp#g"
}
events() { # TRACE: the events of an strace log, one per line
	awk -v h="$h" '
/ (write)\([0-9]+</ { p = $0; sub(/^[^<]*</, "", p); sub(/>.*/, "", p); if (index(p, h) == 1) print "W " p; next }
/ f(data)?sync\(/ { p = $0; sub(/^[^<]*</, "", p); sub(/>.*/, "", p); print "F " p; next }
/ syncfs\(/ { print "S"; next }
/ rename(at2?)?\(/ { n = split($0, q, "\""); print "R " q[2] " " q[4] }
' "$1" | short
}
events "$tmp/trace" >"$tmp/events"
ev() { # the line number of the first event matching the extended regex $1 (0 if none)
	grep -n -E "$1" "$tmp/events" | head -1 | cut -d: -f1 | grep . || echo 0
}
last() { # the line number of the last event matching $1 (0 if none)
	grep -n -E "$1" "$tmp/events" | tail -1 | cut -d: -f1 | grep . || echo 0
}
between() { # is there a sync strictly between event lines $1 and $2?
	[ "$1" -gt 0 ] && [ "$2" -gt "$1" ] && sed -n "$(($1 + 1)),$(($2 - 1))p" "$tmp/events" | grep -q '^S$'
}
check "no file is fsync'ed one by one: the syncs are grouped" sh -c "! grep -q '^F ' '$tmp/events'"
check "four syncs in all (commit, rename, Maildir data, Maildir names)" [ "$(grep -c '^S$' "$tmp/events")" -eq 4 ]
ren=$(ev '^R games/101\.game\.tmp games/101\.game$')
check "the game file is renamed into place" [ "$ren" -gt 0 ]
check "both replies written in outbox/tmp/ before it, a sync between" \
    between "$(last '^W outbox/tmp/ID$')" "$ren"
check "... and the staged game file" between "$(ev '^W games/101\.game\.tmp$')" "$ren"
check "... and the pending entry of the seen record" between "$(last '^W seen$')" "$ren"
check "the rename is synced before a reply leaves outbox/tmp/" \
    between "$ren" "$(ev '^R outbox/tmp/ID outbox/new/ID$')"
check "each Maildir copy is synced before its rename into new/" \
    between "$(last '^W mail/.*/tmp/ID$')" "$(ev '^R mail/.*/tmp/ID mail/.*/new/ID$')"
check "two Maildir copies delivered" [ "$(grep -c '^R mail/.*/tmp/ID mail/.*/new/ID$' "$tmp/events")" -eq 2 ]
check "their names are synced before the queue files move to outbox/sent/" \
    between "$(last '^R mail/.*/new/ID$')" "$(ev '^R outbox/new/ID outbox/sent/ID$')"
check "nothing is synced after the queue files move to outbox/sent/" \
    sh -c "! sed -n '$(ev '^R outbox/new/ID outbox/sent/ID$'),\$p' '$tmp/events' | grep -q '^S$'"

# ---- the Maildirs on another filesystem than the home: a sync of the home
# does not cover them, so each copy and each new/ is fsync'ed itself
if command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null; then
	cat >"$tmp/other.sh" <<EOF
mount -t tmpfs tmpfs $h/mail || exit 1
printf 'From: bob@example.com\nTo: oust@example.net\nSubject: move 101#2 bob hunter2 A1\nMessage-ID: <m2@example.org>\n\n' |
    strace -f -y -o $tmp/trace2 -e trace=write,fsync,fdatasync,syncfs,rename,renameat,renameat2 $bin -d $h >/dev/null 2>&1
EOF
	unshare -rm sh "$tmp/other.sh"
	events "$tmp/trace2" >"$tmp/events2"
	check "a move with mail/ on another filesystem is applied" grep -q 'ok: turn 2: bob played A1' "$h/log"
	check "... each Maildir copy is fsync'ed itself before its rename" \
	    [ "$(grep -c '^F mail/.*/tmp/ID$' "$tmp/events2")" -eq 2 ] &&
	    [ "$(grep -n '^F mail/.*/tmp/ID$' "$tmp/events2" | tail -1 | cut -d: -f1)" -lt \
	      "$(grep -n '^R mail/.*/tmp/ID mail/.*/new/ID$' "$tmp/events2" | head -1 | cut -d: -f1)" ]
	check "... and each new/ after it" [ "$(grep -c '^F mail/[^/]*/new$' "$tmp/events2")" -eq 2 ]
	check "... while the home's own files are still synced in groups" \
	    sh -c "! grep -q '^F games/\\|^F outbox/\\|^F seen' '$tmp/events2'" && grep -q '^S$' "$tmp/events2"
else
	echo "ok $((n + 1)) - # skip unshare cannot mount a tmpfs here"
	n=$((n + 1))
fi
echo "1..$n"

#!/bin/sh
# durable: the durable steps of one move mail, watched with strace: what is
# fsync'ed, and that everything a commit needs is on disk before the game
# file's rename (outbox.h's protocol, store.h's staged write).  With the
# maildir transport the removals from outbox/new/ and the archive in
# outbox/sent/ are not fsync'ed (transport.h: delivering again is harmless).
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
printf 'from_address = oust@example.net\ntemplates = %s/templates\n' "$top" >"$h/oustpbm.conf"
send alice@example.org "register alice secret" r1
send bob@example.com "register bob hunter2" r2
send alice@example.org "challenge alice secret bob -size=5" c1
printf 'From: alice@example.org\nTo: oust@example.net\nSubject: move 101#1 alice secret C3\nMessage-ID: <m1@example.org>\n\n' |
    strace -f -y -o "$tmp/trace" -e trace=fsync,fdatasync,rename,renameat,renameat2 "$bin" -d "$h" >/dev/null 2>&1
check "the move is applied under strace" grep -q 'ok: turn 1: alice played C3' "$h/log"
# the fsync'ed paths, relative to the home, in order; temp names shortened
grep -E 'fsync\(|fdatasync\(' "$tmp/trace" | sed -n 's/.*sync([0-9]*<\([^>]*\)>.*/\1/p' |
    sed "s#^$h/*##; s#^\$#.#; s#/[0-9]*\.M[0-9]*P[0-9]*Q[0-9]*\.[^/]*\$#/ID#; s#/\.101\.game\..*\.tmp\$#/101.game.tmp#; s#^\.seen\..*\.tmp\$#seen.tmp#" \
    >"$tmp/synced"
check "replies in outbox/tmp/ fsync'ed first" [ "$(sed -n '1,2p' "$tmp/synced" | tr '\n' ' ')" = "outbox/tmp/ID outbox/tmp/ID " ]
check "then the staged game file" [ "$(sed -n 3p "$tmp/synced")" = "games/101.game.tmp" ]
check "the game's directory after its rename" grep -qx 'games' "$tmp/synced"
check "each reply delivered durably (file, then new/)" \
    [ "$(grep -c '^mail/.*/tmp/ID$' "$tmp/synced"):$(grep -c '^mail/.*/new$' "$tmp/synced")" = 2:2 ]
check "outbox/new/ not fsync'ed after a maildir flush" sh -c "! grep -qx 'outbox/new' '$tmp/synced'"
check "outbox/sent/ never fsync'ed" sh -c "! grep -qx 'outbox/sent' '$tmp/synced'"
# the order: the game file's rename comes after every fsync of what it commits
ren=$(grep -n 'rename.*games/\.101\.game.*games/101\.game' "$tmp/trace" | head -1 | cut -d: -f1)
last=$(grep -n -E 'fsync\(.*(outbox/tmp|\.101\.game\.)' "$tmp/trace" | tail -1 | cut -d: -f1)
check "the rename of the game file follows the fsync of every staged file" [ -n "$ren" ] && [ -n "$last" ] && [ "$last" -lt "$ren" ]
check "no reply was renamed into outbox/new/ before the game file" \
    [ "$(grep -n 'rename.*outbox/tmp/.*outbox/new/' "$tmp/trace" | head -1 | cut -d: -f1)" -gt "$ren" ]
echo "1..$n"

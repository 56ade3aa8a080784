#!/bin/sh
# durable: the durable steps of one move mail, watched with strace.  With
# sync = filesystem the fsyncs are grouped (store.h: deferred, paid by
# syncfs), so what is checked
# is the order of writes, syncs and renames: everything a commit needs is
# written and synced before the game file's rename, the rename is synced
# before any reply leaves outbox/tmp/ (outbox.h's protocol), the seen record
# is synced before the rename too (seen.h), and each Maildir copy is synced
# before its rename into new/, the names synced before the queue files move
# to outbox/sent/ (transport.h).  With the maildir transport the removals
# from outbox/new/ and the archive in outbox/sent/ are not synced.  With
# the default, sync = file, no syncfs is made: each file is fsync'ed before
# its rename, and the directory after it, except the replies in
# outbox/tmp/, whose bytes one batch record makes durable (outbox.h).
. "$(dirname "$0")/lib.sh"
need strace
tmpdir
export OUSTPBM_TEST_TIME=$T0


h=$tmp/home
mkhome "$h" 'sync = filesystem'
send id=r1@example.org "$h" alice@example.org "register alice secret"
send id=r2@example.org "$h" bob@example.com "register bob hunter2"
send id=c1@example.org "$h" alice@example.org "challenge alice secret bob -size=5"
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

# ---- the default, sync = file: every file and directory fsync'ed itself, no syncfs
hf=$tmp/filehome
mkdir "$hf"
printf 'from_address = oust@example.net\ntemplates = %s/templates\n' "$top" >"$hf/oustpbm.conf"
hsave=$h
h=$hf
send id=r1@example.org "$h" alice@example.org "register alice secret"
send id=r2@example.org "$h" bob@example.com "register bob hunter2"
send id=c1@example.org "$h" alice@example.org "challenge alice secret bob -size=5"
printf 'From: alice@example.org\nTo: oust@example.net\nSubject: move 101#1 alice secret C3\nMessage-ID: <m1@example.org>\n\n' |
    strace -f -y -o "$tmp/tracef" -e trace=write,fsync,fdatasync,syncfs,rename,renameat,renameat2 "$bin" -d "$h" >/dev/null 2>&1
events "$tmp/tracef" >"$tmp/events"
check "sync = file: the move is applied" grep -q 'ok: turn 1: alice played C3' "$h/log"
check "... no syncfs" sh -c "! grep -q '^S$' '$tmp/events'"
ren=$(ev '^R games/101\.game\.tmp games/101\.game$')
check "... the staged game file fsync'ed before its rename" \
    [ "$(ev '^F games/101\.game\.tmp$')" -gt 0 -a "$(ev '^F games/101\.game\.tmp$')" -lt "$ren" ]
check "... both replies written in outbox/tmp/ before it, none fsync'ed one by one" \
    sh -c '[ "$(grep -c "^W outbox/tmp/ID\$" "$1")" -ge 2 ] && ! grep -q "^F outbox/tmp/" "$1"' sh "$tmp/events"
check "... their batch record written after them and fsync'ed once before it (outbox.h)" \
    [ "$(grep -c '^F outbox/batch/b101\.' "$tmp/events")" -eq 1 -a "$(ev '^F outbox/batch/b101\.')" -lt "$ren" \
    -a "$(ev '^F outbox/batch/b101\.')" -gt "$(last '^W outbox/tmp/ID$')" ]
check "... the seen record fsync'ed before it" [ "$(last '^F seen$')" -gt 0 -a "$(last '^F seen$')" -lt "$ren" ]
check "... games/ fsync'ed after it, before a reply leaves outbox/tmp/" \
    [ "$(ev '^F games$')" -gt "$ren" -a "$(ev '^F games$')" -lt "$(ev '^R outbox/tmp/ID outbox/new/ID$')" ]
check "... the commit's fsyncs: the record, the game file, the seen record and games/ (txn.h)" \
    [ "$(sed -n "1,$(ev '^R outbox/tmp/ID outbox/new/ID$')p" "$tmp/events" | grep -v throttle | grep -c '^F ')" -eq 4 ]
check "... and its record removed once the replies were delivered, nothing fsync'ed for it" \
    sh -c '[ -z "$(ls -A "$1/outbox/batch")" ] && ! grep -q "^F outbox/new/" "$2"' sh "$h" "$tmp/events"
[ -n "$DURABLE_DEBUG" ] && cat "$tmp/events" >&2
h=$hsave

# ---- a power cut after the commit, before the replies' pages were written:
# the batch record (outbox.h) holds their bytes, and recovery rewrites them
hkeep=$h
h=$tmp/cut
mkhome "$h"
send id=r1@example.org "$h" alice@example.org "register alice secret"
send id=r2@example.org "$h" bob@example.com "register bob hunter2"
send id=c1@example.org "$h" alice@example.org "challenge alice secret bob -size=5"
mail alice@example.org "move 101#1 alice secret C3" m1@example.org >"$tmp/move"
rm -rf "$tmp/cut0"
cp -a "$h" "$tmp/cut0"
crash_feed "$h" $T0 "$tmp/move" >/dev/null
reply_sums "$h" >"$tmp/want"
k=1
found=
while [ "$k" -lt 60 ]; do
	rm -rf "$h"
	cp -a "$tmp/cut0" "$h"
	[ "$(crash_feed "$h" $T0 "$tmp/move" "$k")" = 137 ] || break
	if ! cmp -s "$h/games/101.game" "$tmp/cut0/games/101.game" && [ -n "$(ls -A "$h/outbox/tmp")" ]; then
		found=$k
		break
	fi
	k=$((k + 1))
done
check "a kill after the commit leaves the replies in outbox/tmp/ and their record" \
    sh -c '[ -n "$1" ] && [ -n "$(ls -A "$2/outbox/batch")" ]' sh "$found" "$h"
for f in "$h"/outbox/tmp/*; do
	: >"$f"	# the power cut: the file's name durable, its pages never written
done
crash_feed "$h" $T0 "$tmp/move" >/dev/null
check "... the copy delivered again: the replies rewritten from the record, as a run never killed sends them" \
    [ "$(reply_sums "$h")" = "$(cat "$tmp/want")" ]
check "... and the record removed, nothing left in the outbox" \
    [ -z "$(find "$h/outbox/batch" "$h/outbox/tmp" "$h/outbox/new" -type f)" ]
# a record whose batch was never committed goes with its replies
rm -rf "$h"
cp -a "$tmp/cut0" "$h"
k=1
while [ "$k" -lt 60 ]; do
	rm -rf "$h"
	cp -a "$tmp/cut0" "$h"
	[ "$(crash_feed "$h" $T0 "$tmp/move" "$k")" = 137 ] || break
	[ -n "$(ls -A "$h/outbox/batch")" ] && break
	k=$((k + 1))
done
check "a kill just after the record is written: the old game file, the record there" \
    sh -c 'cmp -s "$1/games/101.game" "$2/games/101.game" && [ -n "$(ls -A "$1/outbox/batch")" ]' sh "$h" "$tmp/cut0"
mail bob@example.com "show 101" s1@example.org | deliver "$h"
check "... the next flush removes the record and the uncommitted replies" \
    [ -z "$(find "$h/outbox/batch" "$h/outbox/tmp" -type f)" ]
h=$hkeep

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
	check "... each Maildir copy is fsync'ed itself before its rename" sh -c \
	    '[ "$(grep -c "^F mail/.*/tmp/ID\$" "$1")" -eq 2 ] &&
	    [ "$(grep -n "^F mail/.*/tmp/ID\$" "$1" | tail -1 | cut -d: -f1)" -lt \
	      "$(grep -n "^R mail/.*/tmp/ID mail/.*/new/ID\$" "$1" | head -1 | cut -d: -f1)" ]' sh "$tmp/events2"
	check "... and each new/ after it" [ "$(grep -c '^F mail/[^/]*/new$' "$tmp/events2")" -eq 2 ]
	check "... while the home's own files are still synced in groups" \
	    sh -c "! grep -q '^F games/\\|^F outbox/\\|^F seen' '$tmp/events2' && grep -q '^S$' '$tmp/events2'"
else
	skip "unshare cannot mount a tmpfs here"
fi
done_testing

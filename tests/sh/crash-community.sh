#!/bin/sh
# crash-community: the mails that change who plays a board, killed with
# SIGKILL at every durable step (OUSTPBM_TEST_CRASH, as crash.sh), then
# their redelivery killed again at another step, then redelivered cleanly:
# accept (an open challenge taken) and decline (a board removed:
# store_board_remove).  (subscribe commits as a move does, crash.sh's.)  After
# each kill the board is the one before or the one after (for decline:
# there, or gone); after the clean redelivery it is the one after, the
# replies are exactly those of a run never killed (one set, byte for byte),
# nothing is left in the outbox, and the log has the mail applied once.
# notify on|off of several boards: each board the one before or the one
# after, the confirmation only once all are written, and once.
# The same for the changes of the watchers file (subscribe ... all, notify
# ... off of every board: an account change, job_commit_account), the file
# in place of the board: changed once, its confirmation delivered once.
. "$(dirname "$0")/lib.sh"
tmpdir
A=alice@example.org
B=bob@example.com
C=carol@example.net
kills=0

# The states a kill may leave, one line per file, its checksum:
# board HOME: the game file of board 101, or "gone"
board() {
	if [ -f "$1/games/101.game" ]; then cksum <"$1/games/101.game"; else echo gone; fi
}

# boards HOME: the game files of boards 101 and 102 (a mail of several boards)
boards() {
	cksum <"$1/games/101.game"
	cksum <"$1/games/102.game"
}

# watchers HOME: the watchers file (store/audience.h), or "none"
watchers() {
	if [ -f "$1/watchers" ]; then cksum <"$1/watchers"; else echo none; fi
}

# closed HOME: the watchers file and the accounts (a signoff)
closed() {
	watchers "$1"
	cksum <"$1/users"
}

# between NOW BEFORE AFTER: each line of NOW is that of BEFORE or of AFTER
# (each file the one before or the one after the mail)
between() {
	paste -d '|' "$1" "$2" "$3" | awk -F'|' '$1 != $2 && $1 != $3 { bad = 1 } END { exit bad }'
}

# setup HOME MAIL...: a home with alice, bob and carol, then each "FROM|SUBJECT"
setup() {
	h=$1
	shift
	mkhome "$h"
	s=0
	for m in "$A|register alice secret" "$B|register bob hunter2" "$C|register carol pw3" "$@"; do
		s=$((s + 1))
		mail "${m%%|*}" "${m#*|}" "setup$s@x" >"$tmp/m"
		feed_confirmed "$h" $((T0 + s)) "$tmp/m" >/dev/null
	done
	rm -rf "$h/mail"
}

# killed_state HOME K [K2]: after a kill, each file the one before or the
# one after (counting in mixed the first kills that left some of each)
killed_state() {
	[ -n "${forbid:-}" ] && "$forbid" "$1" && bad="$bad; killed at step $2${3:+ then $3}: $forbid"
	"$state" "$1" >"$tmp/now"
	[ -n "${3:-}" ] || cmp -s "$tmp/now" "$tmp/before" || cmp -s "$tmp/now" "$tmp/after" || mixed=$((mixed + 1))
	between "$tmp/now" "$tmp/before" "$tmp/after" ||
	    bad="$bad; killed at step $2${3:+ then $3}: $what is neither the one before nor the one after"
}

# killed_redelivered HOME K K2: after the clean redelivery, the mail applied
# once, one set of replies
killed_redelivered() {
	"$state" "$1" >"$tmp/now"
	cmp -s "$tmp/now" "$tmp/after" || bad="$bad; killed at step $2: after the redelivery $what is not the one after"
	crash_replied "$@"
	[ "$(grep -c "<$name@x>.* ok: " "$1/log")" -le 1 ] ||
	    bad="$bad; killed at step $2: the mail was applied more than once"
	[ "$(grep -c "<$name@x>.* refused: " "$1/log")" -eq 0 ] ||
	    bad="$bad; killed at step $2: the redelivery was refused: $(grep "<$name@x>.* refused: " "$1/log" | head -1)"
}

# killed NAME HOME FROM SUBJECT [STATE]: the mail killed at each step, as
# above; STATE (board, the default, or watchers) prints what it changes
killed() {
	name=$1 prev=$2 state=${5:-board} what=${6:-board 101}
	mail "$3" "$4" "$name@x" >"$tmp/mail"
	t=$((T0 + 600))
	ref=$tmp/ref
	rm -rf "$ref"
	cp -R "$prev" "$ref"
	rc=$(crash_feed "$ref" $t "$tmp/mail")
	[ "$rc" = 0 ] || { fail "$name: '$4' exits $rc"; return; }
	reply_sums "$ref" >"$tmp/want"
	"$state" "$prev" >"$tmp/before"
	"$state" "$ref" >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" && { fail "$name: '$4' changed nothing"; return; }
	mixed=0
	crash_each_step "$prev" $t "$tmp/mail" "7 23" killed_state killed_redelivered
	if [ -n "$bad" ]; then
		fail "$name: '$4' killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 6 ]; then
		fail "$name: only $((k - 1)) durable steps seen (is OUSTPBM_TEST_CRASH working?)"
	else
		pass "$name: '$4' killed at each of its $((k - 1)) steps, then its redelivery killed too: consistent, applied once, one set of replies"
	fi
}

setup "$tmp/open" "$A|challenge alice secret * -size=5"
killed accept "$tmp/open" $B "accept 101 bob hunter2"
# the board is in bob's list of boards after the accept (players.h)
w=$tmp/listed
rm -rf "$w"
cp -R "$tmp/ref" "$w"
mail $B "games bob" games@x >"$tmp/m"
crash_feed "$w" $((T0 + 700)) "$tmp/m" >/dev/null
if grep -rq "101 .*alice (x) - bob (o)" "$w/mail/$B/new"; then
	pass "accept: the board is in the games of the player who took it"
else
	fail "accept: the board is not in the games of bob"
fi
setup "$tmp/challenged" "$A|challenge alice secret bob -size=5"
killed decline "$tmp/challenged" $B "decline 101 bob hunter2"
# notify on|off of several boards: each board written under its lock, the
# last with the confirmation; killed between two, the redelivery does the rest
setup "$tmp/two" "$A|challenge alice secret bob -size=5" "$A|challenge alice secret bob -size=7"
killed notify-boards "$tmp/two" $C "notify carol pw3 on 102 101" boards "each of boards 101 and 102"
[ "$mixed" -ge 1 ] && pass "notify-boards: $mixed kills left board 101 written and 102 not; each redelivery completed it" ||
    fail "notify-boards: no kill fell between the two boards' writes"
cp -R "$tmp/ref" "$tmp/two-on"
killed notify-boards-off "$tmp/two-on" $C "notify carol pw3 off 101 102" boards "each of boards 101 and 102"
setup "$tmp/watchless"
killed subscribe-all "$tmp/watchless" $C "subscribe carol pw3 all" watchers "the watchers file"
setup "$tmp/notified" "$C|notify carol pw3 on"
killed notify-off "$tmp/notified" $C "notify carol pw3 off" watchers "the watchers file"
# a copy of the mail after a clean run whose record of handled mails is
# lost (seen.h: a cache): known by its stamp in the watchers file, dropped
w=$tmp/again
rm -rf "$w"
cp -R "$tmp/ref" "$w"
rm -f "$w/seen"
reply_sums "$w" >"$tmp/want"
watchers "$w" >"$tmp/before"
rc=$(crash_feed "$w" $((T0 + 700)) "$tmp/mail")
reply_sums "$w" >"$tmp/got"
watchers "$w" >"$tmp/now"
if [ "$rc" = 0 ] && cmp -s "$tmp/got" "$tmp/want" && cmp -s "$tmp/now" "$tmp/before" &&
    grep -q "<notify-off@x>.* dropped: " "$w/log"; then
	pass "notify-off: a copy delivered later, its record lost, is dropped: the watchers file and the replies unchanged"
else
	fail "notify-off: a copy delivered later: exit $rc, replies $(tr '\n' ' ' <"$tmp/got")"
fi
# signoff of a watcher: its watchers lines go in the account's removal,
# never left behind by a closed account; the confirmation once
setup "$tmp/watching" "$C|subscribe carol pw3 all" "$C|notify carol pw3 on"
# orphaned HOME: carol's account gone, her watchers lines left (never)
orphaned() {
	! grep -q '^carol:' "$1/users" && grep -q '^carol ' "$1/watchers"
}
forbid=orphaned
killed signoff-watcher "$tmp/watching" $C "signoff carol pw3" closed "the watchers file or the accounts"
forbid=
grep -q '^carol ' "$tmp/ref/watchers" && fail "signoff: carol's watchers lines stay" ||
    pass "signoff: carol's watchers lines are gone with the account"
[ "$kills" -ge 30 ] && pass "$kills kills in all" || fail "only $kills kills"
done_testing

#!/bin/sh
# crash: oustpbm killed with SIGKILL at every durable step while it handles
# move mails (the OUSTPBM_TEST_CRASH hook of src/store.h), and killed again
# at another step while it handles the redelivery.  After each kill: every
# game file loads in `oustpbm engine`, the board is the one before the move
# or the one after it (never anything else), and the directories hold only
# data files and dot-named temp files.  After a last, clean redelivery:
# the board is the one after the move, and the replies are exactly those of
# a run that was never killed (one set, byte for byte), with nothing left in
# the outbox.
# Usage: sh tests/sh/crash.sh; CRASH_MAILS=n plays the first n of the 7 mails
# (default 4, about 190 kills in 10 s; 7: all of them, about 340).
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=${OUSTPBM_BIN:-$top/oustpbm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-crash.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
unset OUSTPBM_HOME OUSTPBM_TEST_CRASH
T0=1700000000
A=alice@example.org
B=bob@example.com

n=0
fails=0
kills=0
fail() {
	fails=$((fails + 1))
	n=$((n + 1))
	echo "not ok $n - $1"
}
pass() {
	n=$((n + 1))
	echo "ok $n - $1"
}

# mail FROM SUBJECT ID
mail() {
	printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <%s>\n\n' "$1" "$2" "$3"
}

# feed HOME TIME MAILFILE [CRASH]: prints the exit status
feed() {
	if [ -n "$4" ]; then
		OUSTPBM_TEST_CRASH=$4 OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$3" >/dev/null 2>&1
	else
		OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$3" >/dev/null 2>&1
	fi
	echo $?
}

# replies HOME: one line per delivered reply, "address cksum", sorted
replies() {
	for f in "$1"/mail/*/new/*; do
		[ -f "$f" ] || continue
		a=${f%/new/*}
		echo "${a##*/} $(cksum <"$f")"
	done | LC_ALL=C sort
}

# sane HOME BEFORE AFTER: after a kill; prints what is wrong, if anything
sane() {
	for g in "$1"/games/*.game; do
		[ -f "$g" ] || continue
		printf 'loadgame %s\n' "$g" | "$top/oustpbm" engine | grep -q '^= ' || echo "$(basename "$g") does not load"
	done
	if ! cmp -s "$1/games/101.game" "$2" && ! cmp -s "$1/games/101.game" "$3"; then
		echo "board 101 is neither the one before nor the one after"
	fi
	# only data and dot-named temp files: nothing a reader could take for data
	ls -A "$1/games" | grep -v -E '^([0-9]+\.game|[0-9]+\.lock|next-board|\.[^/]+\.[0-9]+\.[0-9]+\.tmp)$' |
	    sed 's/^/unexpected file games\//'
	ls -A "$1" | grep -v -E '^(oustpbm\.conf|users|log|seen|store\.lock|seen\.lock|throttle|throttle\.lock|challenge\.lock|games|outbox|mail|\.[^/]+\.[0-9]+\.[0-9]+\.tmp)$' |
	    sed 's/^/unexpected file /'
}

# the home before the game: alice and bob, board 101 (5x5)
h=$tmp/s0
mkdir -p "$h"
printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = 1\n' "$top" >"$h/oustpbm.conf"
mail $A "register alice secret" r1@x >"$tmp/m"
feed "$h" $T0 "$tmp/m" >/dev/null
mail $B "register bob hunter2" r2@x >"$tmp/m"
feed "$h" $T0 "$tmp/m" >/dev/null
mail $A "challenge alice secret bob -size=5" c1@x >"$tmp/m"
feed "$h" $T0 "$tmp/m" >/dev/null
rm -rf "$h/mail"
[ -f "$h/games/101.game" ] || { echo "not ok - crash: setup failed"; exit 1; }

# the game: each mail is killed at every step in turn
i=0
max=${CRASH_MAILS:-4}
for m in "$A|move 101 alice secret C3" "$B|move 101 bob hunter2 A1" "$A|move 101 alice secret A5" \
    "$B|move 101 bob hunter2 E5" "$A|move 101 alice secret E1" "$B|move 101 bob hunter2 A3" \
    "$A|resign 101 alice secret"; do
	i=$((i + 1))
	[ $i -le "$max" ] || break
	prev=$tmp/s$((i - 1))
	next=$tmp/s$i
	t=$((T0 + 60 * i))
	subject=${m#*|}
	mail "${m%%|*}" "$subject" "m$i@x" >"$tmp/mail$i"
	# the reference: never killed
	cp -R "$prev" "$next"
	rc=$(feed "$next" $t "$tmp/mail$i")
	[ "$rc" = 0 ] || { fail "'$subject' exits $rc"; continue; }
	replies "$next" >"$tmp/want"
	[ -s "$tmp/want" ] || { fail "'$subject' sent no reply"; continue; }
	rm -rf "$next/mail"
	k=0
	bad=
	while :; do
		k=$((k + 1))
		w=$tmp/w
		rm -rf "$w"
		cp -R "$prev" "$w"
		rc=$(feed "$w" $t "$tmp/mail$i" $k)
		[ "$rc" = 0 ] && break	# past the last step
		if [ "$rc" != 137 ]; then
			bad="$bad; killed at step $k: exit $rc"
			break
		fi
		kills=$((kills + 1))
		why=$(sane "$w" "$prev/games/101.game" "$next/games/101.game")
		[ -z "$why" ] || bad="$bad; killed at step $k: $why"
		# the redelivery is killed too, at another step
		k2=$(((k * 7) % 23 + 1))
		rc=$(feed "$w" $t "$tmp/mail$i" $k2)
		if [ "$rc" = 137 ]; then
			kills=$((kills + 1))
			why=$(sane "$w" "$prev/games/101.game" "$next/games/101.game")
			[ -z "$why" ] || bad="$bad; killed at step $k then $k2: $why"
		fi
		rc=$(feed "$w" $t "$tmp/mail$i")
		[ "$rc" = 0 ] || bad="$bad; killed at step $k: the redelivery exits $rc"
		cmp -s "$w/games/101.game" "$next/games/101.game" ||
		    bad="$bad; killed at step $k: after the redelivery the board is not the one after the move"
		replies "$w" >"$tmp/got"
		cmp -s "$tmp/got" "$tmp/want" ||
		    bad="$bad; killed at step $k (then $k2): replies $(tr '\n' ' ' <"$tmp/got"), expected $(tr '\n' ' ' <"$tmp/want")"
		[ -z "$(find "$w/outbox/new" "$w/outbox/tmp" -type f 2>/dev/null)" ] ||
		    bad="$bad; killed at step $k: replies left in the outbox"
		[ "$(grep -c "<m$i@x>.* ok: " "$w/log")" -le 1 ] ||
		    bad="$bad; killed at step $k: the move was applied more than once"
	done
	if [ -n "$bad" ]; then
		fail "'$subject' killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 10 ]; then
		fail "'$subject': only $((k - 1)) durable steps seen (is OUSTPBM_TEST_CRASH working?)"
	else
		pass "'$subject' killed at each of its $((k - 1)) steps, then its redelivery killed too: consistent, one set of replies"
	fi
done
[ "$kills" -ge 100 ] || [ "$max" -lt 4 ] && pass "$kills kills in all" || fail "only $kills kills"
echo "1..$n"
[ "$fails" -eq 0 ]

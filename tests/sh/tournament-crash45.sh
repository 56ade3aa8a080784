#!/bin/sh
# tournament-crash45: issue 44's crash-safe start of a 45-board round robin.
# "begin T1" of 10 players (45 boards, made in one batch: tournstart.h) is
# killed with SIGKILL at every durable step (OUSTPBM_TEST_CRASH, store.h),
# each on a fresh copy of one home prepared once; then the next delivery
# (the begin mail again, as the MTA redelivers a killed run's) or
# `oustpbm cleanup` runs, in turn.  Then the mails are delivered
# (`flush --all`) and the home must hold either no board or all 45, each
# with the players and colours the tournament file names and its
# tournament: line, fsck clean, every player's pairings mail sent at least
# once, every board's first mail sent to each of its players exactly once,
# nothing left in outbox/tmp/, outbox/new/ or outbox/batch/, no staged game
# file (the temp file of another write the kill cut, the board counter's or
# the tournament file's, is cleanup's when a day old, as any).  The begin and its redelivery send through SMTP to a port where
# nothing listens, so the mails wait in the outbox and the kills fall on
# the begin's own steps (a flush's are crash.sh's); the flush at the end
# goes through the maildir transport.
# The kill points are shared out among the shards (k = shard, shard + N, ...).
# shards: 4
. "$(dirname "$0")/lib.sh"
tmpdir
np=10
games=$((np * (np - 1) / 2))
base=$tmp/base
mkhome "$base" "max_challenges_per_hour = 0" "max_mails_per_hour = 0" "max_open_boards = 0" \
    "transport = smtp" "smtp_url = smtp://127.0.0.1:9"
{
	printf 'tournament: T1\nname: Crash\nformat: roundrobin\ndirector: p01\nstatus: open\noptions: -size=5\n'
	printf 'players: 2-16\ndouble: no\nrepeat: no\nrounds: 0\nreach: 3\nidle: 30\nround: 0\n'
	printf 'created: 2023-11-14T22:13:20Z\nmailed: 0\nfinal-mailed: no\n\n'
} >"$tmp/t1"
users=
i=0
while [ $i -lt $np ]; do
	i=$((i + 1))
	u=p$(printf %02d $i)
	users="$users $u"
	pw=$("$bin" -d "$base" adduser "$u" "$u@example.org" 2>/dev/null | tail -1 | awk '{ print $NF }')
	[ -n "$pw" ] || { echo "not ok - adduser $u failed"; exit 1; }
	[ $i = 1 ] && dpw=$pw
	echo "player: $u $((1200 + 7 * i))" >>"$tmp/t1"
done
sorted_users=$(echo $users | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
mkdir -p "$base/tournaments"
cp "$tmp/t1" "$base/tournaments/1"
mail p01@example.org "begin T1 p01 $dpw" crash-begin@example.net >"$tmp/begin.eml"
t1=$((T0 + 60))

# HOME K HOW: the start after a kill at step K and the next delivery or cleanup (HOW), mails flushed
check_start() {
	w=$1
	f=$w/tournaments/1
	sed -i -e 's/^transport = smtp$/transport = maildir/' -e '/^smtp_url/d' "$w/oustpbm.conf"
	OUSTPBM_TEST_TIME=$((t1 + 300)) "$bin" -d "$w" flush --all >/dev/null 2>&1 ||
	    bad="$bad; killed at step $2 ($3): flush --all exits $?"
	# fsck clean, but for the temp file of a write the kill cut (the board counter, the tournament
	# file): cleanup removes those a day old (doc/admin.md), whatever was being written
	"$bin" -d "$w" fsck >"$tmp/fsck" 2>&1
	why=$(grep -v -e '^fsck' -e 'fsck: no problems' -e 'fsck: [0-9]* problem' -e ': note: ' \
	    -e 'temporary file of an interrupted write, its process gone' "$tmp/fsck" | head -1)
	[ -z "$why" ] || bad="$bad; killed at step $2 ($3): fsck: $why"
	if grep -q '^status: open$' "$f"; then
		# nothing of the start: no board, no board mail
		set -- "$1" "$2" "$3" "$w"/games/*.game
		[ ! -e "$4" ] || bad="$bad; killed at step $2 ($3): not begun, but board ${4##*/} made"
		! grep -l '^Subject: Oust Board ' "$w"/mail/*/new/* >/dev/null 2>&1 ||
		    bad="$bad; killed at step $2 ($3): not begun, but a board mail sent"
		nostart=$((nostart + 1))
	else
		grep '^game: .* [0-9][0-9]* \*$' "$f" >"$tmp/games"
		nb=$(wc -l <"$tmp/games" | tr -d ' ')
		[ "$nb" = "$games" ] || bad="$bad; killed at step $2 ($3): $nb boards of $games"
		# each board's players, colours and tournament: line, read in one pass over the game files
		awk '$1 == "game:" { print $7, $5, $6, "T1" }' "$tmp/games" | sort >"$tmp/want.boards"
		awk 'FNR == 1 { if (f != "") print f, b, wh, t; f = FILENAME; sub(/.*\//, "", f); sub(/\.game$/, "", f); b = wh = t = "-" }
		    /^black: / { b = $2 } /^white: / { wh = $2 } /^tournament: / { t = $2 }
		    END { if (f != "") print f, b, wh, t }' "$w"/games/*.game 2>/dev/null | sort >"$tmp/got.boards"
		cmp -s "$tmp/want.boards" "$tmp/got.boards" ||
		    bad="$bad; killed at step $2 ($3): boards $(diff "$tmp/want.boards" "$tmp/got.boards" | grep '^[<>]' | head -2 | tr '\n' ' ')"
		# every board's first mail to each of its players, once: "ADDRESS BOARD" a line, each once
		awk '{ print $5 "@example.org", $7; print $6 "@example.org", $7 }' "$tmp/games" | sort >"$tmp/want.s"
		grep -H '^Subject: Oust Board ' "$w"/mail/*/new/* 2>/dev/null |
		    sed 's#^.*/mail/\([^/]*\)/new/[^:]*:Subject: Oust Board \([0-9]*\) .*#\1 \2#' | sort >"$tmp/got"
		cmp -s "$tmp/got" "$tmp/want.s" ||
		    bad="$bad; killed at step $2 ($3): board mails $(diff "$tmp/want.s" "$tmp/got" | grep '^[<>]' | head -3 | tr '\n' ' ')"
		# every player's pairings mail, at least once
		grep -l '^Subject: Oust tournament T1 .* has begun' "$w"/mail/*/new/* 2>/dev/null |
		    sed 's#^.*/mail/\([^/]*\)@example.org/new/.*#\1#' | sort -u >"$tmp/paired"
		[ "$(tr '\n' ' ' <"$tmp/paired")" = "$sorted_users " ] ||
		    bad="$bad; killed at step $2 ($3): pairings mailed to $(tr '\n' ' ' <"$tmp/paired")only"
		started=$((started + 1))
	fi
	# (a queue file's retry lines rewritten by the failed SMTP attempt: its temp file, if cut, as above)
	left=$(find "$w/outbox/tmp" "$w/outbox/new" "$w/outbox/batch" -type f ! -name '.*.[0-9]*.[0-9]*.tmp' 2>/dev/null |
	    head -1)
	[ -z "$left" ] || bad="$bad; killed at step $2 ($3): ${left#"$w"/} left in the outbox"
	left=$(find "$w/games" -name '.[0-9]*.game.*.tmp' 2>/dev/null | head -1)
	[ -z "$left" ] || bad="$bad; killed at step $2 ($3): staged ${left#"$w"/} left"
}

bad=
kills=0
started=0
nostart=0
k=$shard_k
w=$tmp/w
while :; do
	rm -rf "$w"
	cp -R "$base" "$w"
	OUSTPBM_TEST_CRASH=$k OUSTPBM_TEST_TIME=$t1 "$bin" -d "$w" <"$tmp/begin.eml" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 0 ] && break	# past the last step
	if [ "$rc" != 137 ]; then
		bad="$bad; killed at step $k: exit $rc"
		break
	fi
	kills=$((kills + 1))
	if [ $(((k / shard_n) % 2)) = 0 ]; then
		how=cleanup
		OUSTPBM_TEST_TIME=$((t1 + 120)) "$bin" -d "$w" cleanup >/dev/null 2>&1 ||
		    bad="$bad; killed at step $k: cleanup exits $?"
	else
		how=redelivery
		OUSTPBM_TEST_TIME=$((t1 + 120)) "$bin" -d "$w" <"$tmp/begin.eml" >/dev/null 2>&1 ||
		    bad="$bad; killed at step $k: the redelivery exits $?"
	fi
	check_start "$w" $k $how
	k=$((k + shard_n))
done
last=$((k - 1))
check "begin of $games boards killed at every $shard_n-th step from $shard_k to $last ($kills kills: $started begun whole, $nostart not begun), then cleanup or the redelivery: all or nothing$bad" \
    test -z "$bad"
check "... the kills happened" test "$kills" -gt 0
# the run that went through: begun whole, its mails once each
if [ "$shard_k" = 1 ]; then
	check_start "$w" none none
	check "the begin not killed: begun whole, every mail once$bad" test -z "$bad"
fi
done_testing

#!/bin/sh
# crash: oustpbm killed with SIGKILL at every durable step while it handles
# move mails (the OUSTPBM_TEST_CRASH hook of src/store/store.h), and killed again
# at another step while it handles the redelivery.  After each kill: every
# game file loads in `oustpbm engine`, the board is the one before the move
# or the one after it (never anything else), and the directories hold only
# data files and dot-named temp files.  After a last, clean redelivery:
# the board is the one after the move, and the replies are exactly those of
# a run that was never killed (one set, byte for byte), with nothing left in
# the outbox.
# A chat and the account commands (register, password, forgot, reset,
# address, confirm, signoff) are killed the same way, and so is a resignation that
# ends a rated game: the ratings count it once, and `oustpbm ratings
# --rebuild` makes the same ratings file.  A delivery report is killed the
# same way: its bounce is counted once.
# Usage: sh tests/sh/crash.sh; CRASH_MAILS=n plays the first n of the 7 mails
# (default 4, about 160 kills; 7: all of them, about 310).
# Every mail killed at each step is a part (tests/sh/lib.sh: part): make
# check runs the parts in three shards side by side, each making the homes
# the parts start from (a few clean deliveries) and killing its own parts.
# shards: 3
. "$(dirname "$0")/lib.sh"
tmpdir
unset OUSTPBM_TEST_ROBOT_PLAYOUTS
A=alice@example.org
B=bob@example.com
kills=0
moves=0

# sane_at HOME BEFORE AFTER K [K2]: sane, after the kill at step K (then
# K2), adding what is wrong to bad
sane_at() {
	why=$(sane "$1" "$2" "$3")
	[ -z "$why" ] || bad="$bad; killed at step $4${5:+ then $5}: $why"
}

# sane HOME BEFORE AFTER: after a kill; prints what is wrong, if anything
# (the names matched by the shell: a kill is checked some 300 times)
sane() {
	games_load "$1"
	if ! cmp -s "$1/games/101.game" "$2" && ! cmp -s "$1/games/101.game" "$3"; then
		echo "board 101 is neither the one before nor the one after"
	fi
	# only data and dot-named temp files: nothing a reader could take for data
	for f in "$1"/games/* "$1"/games/.[!.]* "$1"/games/..?*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		f=${f##*/}
		case $f in
		next-board) continue ;;
		*.game | *.lock | *.review) digits "${f%.*}" && continue ;;
		.*.tmp) tmpname "$f" && continue ;;
		esac
		echo "unexpected file games/$f"
	done
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		f=${f##*/}
		case $f in
		oustpbm.conf | installed | robot-turns.lock | robot-reviews.lock | users | pending | secret | token.secret | \
		    token.secret.lock | tokens | tokens.lock | bounces | bounces.lock | log | seen | registrations | \
		    store.lock | seen.lock | throttle | throttle.lock | challenge.lock | accounts.lock | reserved | codes | \
		    players | players.lock | active | seeking | seeking.lock | limits | limits.lock | ratings | \
		    ratings-state | ratings.lock | ratings-pending | watchers | watchers.lock | vacations | reviews | \
		    reviews.lock | games | outbox | mail) continue ;;
		robot-thinking.*.lock) digits "${f#robot-thinking.}" && [ "${f%.lock}" != robot-thinking. ] && continue ;;
		.*.tmp) tmpname "$f" && continue ;;
		esac
		echo "unexpected file $f"
	done
}
# digits WORD[.lock]: WORD (.lock taken off) is one or more digits
digits() {
	set -- "${1%.lock}"
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
	return 0
}
# tmpname NAME: NAME is a temp file's, .<name>.<digits>.<digits>.tmp (no '/')
tmpname() {
	set -- "${1%.tmp}"
	digits "${1##*.}" || return 1
	set -- "${1%.*}"
	digits "${1##*.}" || return 1
	set -- "${1%.*}"
	[ "${#1}" -ge 2 ] && [ "${1#.}" != "$1" ]
}

# the home before the game: alice and bob, board 101 (5x5)
h=$tmp/s0
mkhome "$h"
mail $A "register alice secret" r1@x >"$tmp/m"
feed_confirmed "$h" $T0 "$tmp/m" >/dev/null
mail $B "register bob hunter2" r2@x >"$tmp/m"
feed_confirmed "$h" $T0 "$tmp/m" >/dev/null
mail $A "challenge alice secret bob -size=5" c1@x >"$tmp/m"
crash_feed "$h" $T0 "$tmp/m" >/dev/null
rm -rf "$h/mail"
[ -f "$h/games/101.game" ] || { echo "not ok - crash: setup failed"; exit 1; }

# game_killed HOME K [K2]: after a kill of the move, the board is the one
# before or the one after
game_killed() {
	sane_at "$1" "$prev/games/101.game" "$next/games/101.game" "$2" "${3:-}"
}
# game_redelivered HOME K K2: after the clean redelivery, the move once
game_redelivered() {
	cmp -s "$1/games/101.game" "$next/games/101.game" ||
	    bad="$bad; killed at step $2: after the redelivery the board is not the one after the move"
	crash_replied "$@"
	[ "$(grep -c "<m$i@x>.* ok: " "$1/log")" -le 1 ] ||
	    bad="$bad; killed at step $2: the move was applied more than once"
}
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
	rc=$(crash_feed "$next" $t "$tmp/mail$i")
	[ "$rc" = 0 ] || { fail "'$subject' exits $rc"; continue; }
	reply_sums "$next" >"$tmp/want"
	[ -s "$tmp/want" ] || { fail "'$subject' sent no reply"; continue; }
	rm -rf "$next/mail"
	# the homes before the next mails are made in every shard; the kills in one
	part || continue
	moves=$((moves + 1))
	crash_each_step "$prev" $t "$tmp/mail$i" "7 23" game_killed game_redelivered
	if [ -n "$bad" ]; then
		fail "'$subject' killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 10 ]; then
		fail "'$subject': only $((k - 1)) durable steps seen (is OUSTPBM_TEST_CRASH working?)"
	else
		pass "'$subject' killed at each of its $((k - 1)) steps, then its redelivery killed too: consistent, one set of replies"
	fi
done
# about 40 durable steps a move: at least 25 kills for each move this shard killed
[ "$kills" -ge $((25 * moves)) ] && pass "$kills kills in the $moves moves killed here" || fail "only $kills kills in $moves moves"

# ---- the ratings (src/store/ratings.h): bob resigns board 101, killed at every
# durable step and its redelivery killed again.  After each kill the ratings
# file counts board 101 at most once; after the clean redelivery exactly
# once, and the file is byte for byte the one --rebuild makes from the games.
# First another rated game of the period ends (board 102), so that 101's end
# updates the ratings incrementally, from the state file (ratings.h).
# turns HOME TIME BOARD FIRST-FROM "USER PW" SECOND-FROM "USER PW": two turns each (a game
# resigned sooner is not rated: src/store/ratings.h), isolated stones
turns() {
	for t_m in "$4|$5 C3" "$6|$7 A1" "$4|$5 E5" "$6|$7 E1"; do
		mail "${t_m%%|*}" "move $3 ${t_m#*|}" "t$3.$(echo "${t_m#*|}" | tr ' ' .)@x" >"$tmp/m"
		crash_feed "$1" "$2" "$tmp/m" >/dev/null
	done
}
rs0=$tmp/rs0
cp -R "$tmp/s0" "$rs0"
turns "$rs0" $((T0 + 5)) 101 $A "alice secret" $B "bob hunter2"
mail $B "challenge bob hunter2 alice -size=7" rs1@x >"$tmp/m"
crash_feed "$rs0" $((T0 + 10)) "$tmp/m" >/dev/null
turns "$rs0" $((T0 + 15)) 102 $B "bob hunter2" $A "alice secret"
mail $A "resign 102 alice secret" rs2@x >"$tmp/m"
crash_feed "$rs0" $((T0 + 20)) "$tmp/m" >/dev/null
rm -rf "$rs0/mail"
if [ -s "$rs0/ratings-state" ] && grep -q '^game: 102 ' "$rs0/ratings"; then
	pass "ratings: a first rated game ended, its exact state beside the ratings file"
else
	fail "ratings: the first rated game left no ratings file and state"
fi
mail $B "resign 101 bob hunter2" rs@x >"$tmp/rsmail"
# counted HOME: how many game lines of board 101 its ratings file has
counted() {
	cat "$1/ratings" 2>/dev/null | grep -c '^game: 101 '
}
# ratings_killed HOME K [K2]: after a kill, board 101 counted at most once
ratings_killed() {
	[ "$(counted "$1")" -le 1 ] || bad="$bad; killed at step $2${3:+ then $3}: counted twice"
}
# ratings_redelivered HOME K K2: after the clean redelivery, counted once,
# the file and its state those --rebuild makes
ratings_redelivered() {
	grep -q '^status: black-won' "$1/games/101.game" || bad="$bad; killed at step $2: the game did not end"
	[ "$(grep -c '^game: 101 standard\|^game: 101 small' "$1/ratings" 2>/dev/null)" = 1 ] ||
	    bad="$bad; killed at step $2: board 101 not counted once"
	[ -z "$(ls "$1/ratings-pending" 2>/dev/null)" ] || bad="$bad; killed at step $2: a mark is left"
	cp "$1/ratings" "$tmp/rs.incremental"
	cp "$1/ratings-state" "$tmp/rs.state" 2>/dev/null
	OUSTPBM_TEST_TIME=$((T0 + 30)) "$bin" -d "$1" ratings --rebuild >/dev/null 2>&1 ||
	    bad="$bad; killed at step $2: ratings --rebuild fails"
	cmp -s "$1/ratings" "$tmp/rs.incremental" || bad="$bad; killed at step $2: --rebuild differs from the file"
	# the state kept beside it is the exact one --rebuild makes: the next game's end can go on from it
	cmp -s "$1/ratings-state" "$tmp/rs.state" || bad="$bad; killed at step $2: the state differs from --rebuild's"
}
if part; then
	crash_each_step "$rs0" $((T0 + 30)) "$tmp/rsmail" "5 17" ratings_killed ratings_redelivered
	if [ -n "$bad" ]; then
		fail "ratings: the resignation killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 8 ]; then
		fail "ratings: only $((k - 1)) durable steps seen in the resignation"
	else
		pass "ratings: the resignation killed at each of its $((k - 1)) steps, its redelivery killed too: counted once, --rebuild gives the same file"
	fi
fi

# ---- undo and draw by agreement (src/game/game.h): bob's accept of alice's
# draw offer (which ends a rated game) and of alice's undo, killed at every
# durable step and the redelivery killed again.  After each kill the board
# is the one before or after the accept; after the clean redelivery it is
# the one after, applied once (an accept delivered twice is not applied
# twice: the second finds nothing to accept, or the record of mails), one
# set of replies, and a drawn game counted once in the ratings.
d0=$tmp/d0
cp -R "$tmp/s0" "$d0"
turns "$d0" $((T0 + 5)) 101 $A "alice secret" $B "bob hunter2"
mail $A "move 101 alice secret propose" dp@x >"$tmp/m"
crash_feed "$d0" $((T0 + 10)) "$tmp/m" >/dev/null
u0=$tmp/u0
cp -R "$tmp/s0" "$u0"
mail $A "move 101 alice secret C3" uc@x >"$tmp/m"
crash_feed "$u0" $((T0 + 10)) "$tmp/m" >/dev/null
mail $A "move 101 alice secret undo" uu@x >"$tmp/m"
crash_feed "$u0" $((T0 + 20)) "$tmp/m" >/dev/null
rm -rf "$d0/mail" "$u0/mail"
# accept_killed HOME K [K2]: after a kill, the board before or after the
# accept, counted at most once
accept_killed() {
	sane_at "$1" "$base/games/101.game" "$ref/games/101.game" "$2" "${3:-}"
	[ "$(counted "$1")" -le 1 ] || bad="$bad; killed at step $2${3:+ then $3}: counted twice"
}
# accept_redelivered HOME K K2: after the clean redelivery, applied once
accept_redelivered() {
	cmp -s "$1/games/101.game" "$ref/games/101.game" ||
	    bad="$bad; killed at step $2: after the redelivery the board is not the one after the accept"
	[ "$(grep -c "^- .* bob accept" "$1/games/101.game")" = 1 ] ||
	    bad="$bad; killed at step $2: the accept is not noted once"
	crash_replied "$@"
	if [ "$what" = draw ]; then
		[ "$(counted "$1")" = 1 ] || bad="$bad; killed at step $2: the draw not counted once"
		grep -q '^game: 101 small .* alice bob drawn$' "$1/ratings" ||
		    bad="$bad; killed at step $2: the ratings do not hold the draw"
	fi
}
for m in "draw|$d0|accept draw" "undo|$u0|accept undo:1"; do
	part || continue
	what=${m%%|*}
	rest=${m#*|}
	base=${rest%%|*}
	note=${rest#*|}
	mail $B "move 101 bob hunter2 accept" "acc-$what@x" >"$tmp/accmail"
	ref=$tmp/acc-ref
	rm -rf "$ref"
	cp -R "$base" "$ref"
	rc=$(crash_feed "$ref" $((T0 + 30)) "$tmp/accmail")
	reply_sums "$ref" >"$tmp/want"
	if [ "$rc" != 0 ] || ! grep -q "^- .* o bob $note\$" "$ref/games/101.game"; then
		fail "$what accept: the reference run did not accept"
		continue
	fi
	crash_each_step "$base" $((T0 + 30)) "$tmp/accmail" "7 19" accept_killed accept_redelivered
	# a copy of the mail with another Message-ID (a resend): refused, nothing changes
	mail $B "move 101 bob hunter2 accept" "acc-$what-again@x" >"$tmp/m"
	cp "$ref/games/101.game" "$tmp/acc.before"
	rc=$(crash_feed "$ref" $((T0 + 40)) "$tmp/m")
	cmp -s "$ref/games/101.game" "$tmp/acc.before" || bad="$bad; a second accept changed the board"
	grep -q "<acc-$what-again@x>.* refused: " "$ref/log" || bad="$bad; a second accept was not refused"
	if [ -n "$bad" ]; then
		fail "$what accept killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 8 ]; then
		fail "$what accept: only $((k - 1)) durable steps seen"
	else
		pass "$what accept killed at each of its $((k - 1)) steps, its redelivery killed too: applied once, one set of replies; a second accept refused"
	fi
done

# ---- chat (src/commands/keywords/chat.c): bob chats on board 101 while alice's draw
# offer waits, killed at every durable step and the redelivery killed again.
# The chat is committed with its note in the history (game.h), so after each
# kill the board is the one before or after it; after the clean redelivery
# the note is there once, the text reached alice exactly once (and bob's copy
# him once), nothing is left in the outbox; and the offer is still open:
# bob's accept after the chat draws the game.
mail $B "chat 101 bob hunter2" chat-crash@x "Let me think about the draw." >"$tmp/chatmail"
ref=$tmp/chat-ref
rm -rf "$ref"
cp -R "$d0" "$ref"
rc=$(crash_feed "$ref" $((T0 + 30)) "$tmp/chatmail")
reply_sums "$ref" >"$tmp/want"
# alice's mails about the chat: "bob writes to you about board 101"
chats_to_alice() {
	grep -l 'bob writes to you about board 101' "$1"/mail/$A/new/* 2>/dev/null | wc -l | tr -d ' '
}
# chat_killed HOME K [K2]: after a kill, the board before or after the
# chat, passed on at most once
chat_killed() {
	sane_at "$1" "$d0/games/101.game" "$ref/games/101.game" "$2" "${3:-}"
	[ "$(chats_to_alice "$1")" -le 1 ] || bad="$bad; killed at step $2${3:+ then $3}: alice got the chat twice"
}
# chat_redelivered HOME K K2: after the clean redelivery, noted and passed on once
chat_redelivered() {
	cmp -s "$1/games/101.game" "$ref/games/101.game" ||
	    bad="$bad; killed at step $2: after the redelivery the board is not the one after the chat"
	[ "$(grep -c '^- .* bob chat$' "$1/games/101.game")" = 1 ] ||
	    bad="$bad; killed at step $2: the chat is not noted once"
	[ "$(chats_to_alice "$1")" = 1 ] || bad="$bad; killed at step $2 (then $3): alice got the chat $(chats_to_alice "$1") times"
	crash_replied "$@"
	[ "$(grep -c "<chat-crash@x>.* ok: " "$1/log")" -le 1 ] ||
	    bad="$bad; killed at step $2: the chat was handled more than once"
}
if [ "$rc" != 0 ] || [ "$(grep -c '^- .* o bob chat$' "$ref/games/101.game")" != 1 ] ||
    [ "$(chats_to_alice "$ref")" != 1 ]; then
	fail "chat: the reference run did not pass the chat on"
elif part; then
	crash_each_step "$d0" $((T0 + 30)) "$tmp/chatmail" "7 19" chat_killed chat_redelivered
	# the offer outlived the chat: bob's accept draws the game
	mail $B "move 101 bob hunter2 accept" chat-acc@x >"$tmp/m"
	rc=$(crash_feed "$ref" $((T0 + 40)) "$tmp/m")
	grep -q '^status: drawn$' "$ref/games/101.game" && grep -q '^- .* o bob accept draw$' "$ref/games/101.game" ||
	    bad="$bad; the accept after the chat did not draw the game"
	if [ -n "$bad" ]; then
		fail "chat killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 8 ]; then
		fail "chat: only $((k - 1)) durable steps seen"
	else
		pass "chat killed at each of its $((k - 1)) steps, its redelivery killed too: noted once, passed on once, one set of replies; the draw offer still open after it"
	fi
fi

# ---- the account commands: register and password, killed at every durable
# step and their redelivery killed again.  After each kill: the users file
# holds the account once or not at all (the old or the new password).  After
# a clean redelivery: the account was written, the sender got exactly one
# confirmation, nothing is left in the outbox, and the new password works.
# acheck HOME ADDRESS SUBJECT-WORD: prints what is wrong after the clean redelivery
acheck() {
	got=$(ls "$1/mail/$2/new" 2>/dev/null | wc -l)
	[ "$got" = 1 ] || echo "; $2 got $got mails"
	grep -q "^Subject: Oust $3" "$1/mail/$2/new/"* 2>/dev/null || echo "; the mail is not the confirmation"
	[ -z "$(find "$1/outbox/new" "$1/outbox/tmp" -type f 2>/dev/null)" ] || echo "; mail left in the outbox"
}
# account_killed HOME K [K2]: after a kill, the account there once or not at all
account_killed() {
	[ "$(grep -c "^$user:" "$1/users")" -le 1 ] || bad="$bad; killed at step $2${3:+ then $3}: $user twice in users"
	sane_at "$1" "$base/games/101.game" "$base/games/101.game" "$2" "${3:-}"
}
# account_redelivered HOME K K2: after the clean redelivery, written once,
# one confirmation, and the new password works
account_redelivered() {
	[ "$(grep -c "^$user:" "$1/users")" = 1 ] || bad="$bad; killed at step $2: $user not in users once"
	cmp -s "$1/users" "$base/users" && bad="$bad; killed at step $2: the account was never written"
	bad="$bad$(acheck "$1" "$addr" "$word")"
	# the new password works: a second change with it is confirmed
	rc=$(crash_feed "$1" $((T0 + 60)) "$tmp/acheck")
	[ "$(ls "$1/mail/$addr/new" 2>/dev/null | wc -l)" = 2 ] ||
	    bad="$bad; killed at step $2: the new password does not work"
}
# the register itself: killed at every step, the pending file holds carol's
# registration once or not at all; after the clean redelivery once, and
# carol got exactly one mail, the code
reg_killed() {
	[ "$(grep -c '^carol ' "$1/pending" 2>/dev/null)" -le 1 ] ||
	    bad="$bad; killed at step $2${3:+ then $3}: carol pending twice"
	grep -q '^carol:' "$1/users" && bad="$bad; killed at step $2: an account without a confirm"
	sane_at "$1" "$tmp/s0/games/101.game" "$tmp/s0/games/101.game" "$2" "${3:-}"
}
reg_redelivered() {
	[ "$(grep -c '^carol ' "$1/pending" 2>/dev/null)" = 1 ] || bad="$bad; killed at step $2: carol not pending once"
	bad="$bad$(acheck "$1" carol@example.org "registration code for carol")"
}
mail carol@example.org "register carol pw1 Carol" reg@x >"$tmp/amail"
if part; then
	crash_each_step "$tmp/s0" "$((T0 + 30)) $((T0 + 40)) $((T0 + 50))" "$tmp/amail" "7 13" reg_killed reg_redelivered
	if [ -n "$bad" ]; then
		fail "register killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 4 ]; then
		fail "register: only $((k - 1)) durable steps seen"
	else
		pass "register killed at each of its $((k - 1)) steps, then its redelivery killed too: pending once, one code mailed"
	fi
fi
# the home with carol's registration waiting for its confirm
hc=$tmp/hc
cp -R "$tmp/s0" "$hc"
crash_feed "$hc" $((T0 + 20)) "$tmp/amail" >/dev/null
rm -rf "$hc/mail"
for m in "$hc|carol@example.org|confirm carol $REG_CODE pw1|registration carol|password carol pw1 pw2" \
    "$tmp/s0|$A|password alice secret newsecret|password|password alice newsecret other"; do
	part || continue
	base=${m%%|*}
	rest=${m#*|}
	addr=${rest%%|*}
	rest=${rest#*|}
	subject=${rest%%|*}
	rest=${rest#*|}
	word=${rest%%|*}
	check=${rest#*|}
	mail "$addr" "$subject" "acct@x" >"$tmp/amail"
	mail "$addr" "$check" "acct-check@x" >"$tmp/acheck"
	user=$(echo "$subject" | cut -d' ' -f2)
	crash_each_step "$base" "$((T0 + 30)) $((T0 + 40)) $((T0 + 50))" "$tmp/amail" "7 13" \
	    account_killed account_redelivered
	if [ -n "$bad" ]; then
		fail "'$subject' killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 4 ]; then
		fail "'$subject': only $((k - 1)) durable steps seen"
	else
		pass "'$subject' killed at each of its $((k - 1)) steps, then its redelivery killed too: written once, one confirmation"
	fi
done

# ---- the account commands of one-time codes and signoff (src/store/accounts.h,
# src/commands/services/signoff.h), killed at every durable step and their redelivery killed
# again, then delivered clean.  Each mail's replies go out if and only if
# its change was written: every code mailed is a code in the codes file
# (a redelivery after the commit may make one more, with its own mail), a
# reset, confirm or signoff is confirmed exactly once, and nothing is left
# in the outbox.
export OUSTPBM_TEST_CODE=K7M2QX9PHD
N=alice@new.example
# the homes the mails start from: s0 (alice and bob, board 101 playing),
# with a reset code for alice, with an address code for alice
hf=$tmp/hf
cp -R "$tmp/s0" "$hf"
mail $A "forgot alice" f0@x >"$tmp/m"
crash_feed "$hf" $((T0 + 10)) "$tmp/m" >/dev/null
rm -rf "$hf/mail"
ha=$tmp/ha
cp -R "$tmp/s0" "$ha"
mail $A "address alice secret $N" a0@x >"$tmp/m"
crash_feed "$ha" $((T0 + 10)) "$tmp/m" >/dev/null
rm -rf "$ha/mail"
# mails HOME ADDRESS: how many replies ADDRESS got
mails() {
	ls "$1/mail/$2/new" 2>/dev/null | wc -l
}
# codes HOME KIND: the codes of alice of that kind in the codes file
codes() {
	grep -c "^alice $2 " "$1/codes" 2>/dev/null
}
# kcheck SCENARIO HOME: prints what is wrong after the clean redelivery
kcheck() {
	[ -z "$(find "$2/outbox/new" "$2/outbox/tmp" -type f 2>/dev/null)" ] || echo "; mail left in the outbox"
	case $1 in
	forgot)
		# one code was there before
		[ "$(codes "$2" reset)" -ge 2 ] || echo "; no code written"
		[ "$(mails "$2" $A)" = $(($(codes "$2" reset) - 1)) ] ||
		    echo "; $(mails "$2" $A) code mails for $(($(codes "$2" reset) - 1)) codes"
		mail $B "reset alice K7M2QX9PHD fresh1" kf@x >"$tmp/m"
		crash_feed "$2" $((T0 + 70)) "$tmp/m" >/dev/null
		grep -q "<kf@x>.* ok: password of alice reset" "$2/log" || echo "; the code mailed does not work"
		;;
	reset)
		[ "$(mails "$2" $A)" = 1 ] || echo "; alice got $(mails "$2" $A) confirmations"
		mail $A "password alice fresh1 fresh2" kr@x >"$tmp/m"
		crash_feed "$2" $((T0 + 70)) "$tmp/m" >/dev/null
		grep -q "<kr@x>.* ok: password of alice changed" "$2/log" || echo "; the new password does not work"
		;;
	address)
		[ "$(codes "$2" address)" -ge 2 ] || echo "; no code written"
		[ "$(mails "$2" $N)" = $(($(codes "$2" address) - 1)) ] ||
		    echo "; $(mails "$2" $N) code mails for $(($(codes "$2" address) - 1)) codes"
		# a redelivery past the day's codes is refused (an error reply, nothing written)
		[ "$(grep -l "^Subject: Oust address of alice" "$2/mail/$A/new/"* 2>/dev/null | wc -l)" = "$(mails "$2" $N)" ] ||
		    echo "; $(mails "$2" $A) answers for $(mails "$2" $N) codes"
		;;
	confirm)
		grep -q "^alice:$N:" "$2/users" || echo "; the address did not change"
		[ "$(mails "$2" $N)" = 1 ] && [ "$(mails "$2" $A)" = 1 ] ||
		    echo "; $(mails "$2" $N) mails to the new address, $(mails "$2" $A) to the old"
		;;
	signoff)
		grep -q "^alice:" "$2/users" && echo "; alice still has an account"
		grep -q "^alice [0-9]* [0-9]* " "$2/reserved" 2>/dev/null || echo "; alice's id is not reserved"
		[ "$(grep -c "^[0-9]* .* alice resign$" "$2/games/101.game")" = 1 ] || echo "; board 101 not resigned once"
		[ "$(mails "$2" $A)" = 1 ] && [ "$(mails "$2" $B)" = 1 ] ||
		    echo "; alice got $(mails "$2" $A) mails, bob $(mails "$2" $B)"
		;;
	esac
}
# code_killed HOME K [K2]: after the first kill, the board before or after
# (the redelivery runs ten seconds later: a signoff's resignation written
# then is not the board of $tmp/k101.after)
code_killed() {
	[ -z "${3:-}" ] || return 0
	sane_at "$1" "$base/games/101.game" "$tmp/k101.after" "$2"
}
# code_redelivered HOME K K2: after the clean redelivery, kcheck's checks
code_redelivered() {
	why=$(kcheck "$what" "$1")
	[ -z "$why" ] || bad="$bad; killed at step $2$why"
}
for m in "forgot|$hf|$A|forgot alice" "reset|$hf|$B|reset alice K7M2QX9PHD fresh1" \
    "address|$ha|$A|address alice secret $N" "confirm|$ha|$N|confirm alice K7M2QX9PHD" \
    "signoff|$tmp/s0|$A|signoff alice secret"; do
	part || continue
	what=${m%%|*}
	rest=${m#*|}
	base=${rest%%|*}
	rest=${rest#*|}
	addr=${rest%%|*}
	subject=${rest#*|}
	mail "$addr" "$subject" "k-$what@x" >"$tmp/kmail"
	# the board after a clean run, for sane()
	w=$tmp/kw
	rm -rf "$w"
	cp -R "$base" "$w"
	crash_feed "$w" $((T0 + 30)) "$tmp/kmail" >/dev/null
	cp "$w/games/101.game" "$tmp/k101.after"
	crash_each_step "$base" "$((T0 + 30)) $((T0 + 40)) $((T0 + 50))" "$tmp/kmail" "7 13" \
	    code_killed code_redelivered
	if [ -n "$bad" ]; then
		fail "'$subject' killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 3 ]; then
		fail "'$subject': only $((k - 1)) durable steps seen"
	else
		pass "'$subject' killed at each of its $((k - 1)) steps, then its redelivery killed too: replies iff written"
	fi
done
unset OUSTPBM_TEST_CODE

# ---- the robot player (src/commands/services/robot.h): alice's move and the robot's answer in
# one delivery, killed at every durable step of both commits, and during the
# robot's think (OUSTPBM_TEST_ROBOT=die).  After each kill: every file
# loads, board 101 is the one before alice's move, after it, or after the
# robot's answer too.  Then the mail is delivered again and `oustpbm robot`
# runs (cron), both clean: the board is the one after the robot's answer
# (the AI with a fixed budget and seed plays the same turn), alice's move
# was applied once, alice got exactly one mail, showing the robot's turn,
# and the outbox is empty.
export OUSTPBM_TEST_ROBOT_PLAYOUTS=32
r0=$tmp/r0
mkhome "$r0"
mail $A "register alice secret" rr1@x >"$tmp/m"
feed_confirmed "$r0" $T0 "$tmp/m" >/dev/null
mail $A "challenge alice secret robot -size=5" rc1@x >"$tmp/m"
crash_feed "$r0" $T0 "$tmp/m" >/dev/null
rm -rf "$r0/mail"
t=$((T0 + 60))
mail $A "move 101 alice secret C3" rm1@x >"$tmp/rmail"
r1=$tmp/r1
cp -R "$r0" "$r1"
rc=$(crash_feed "$r1" $t "$tmp/rmail")
# the board after alice's move alone: the robot failing to answer
rh=$tmp/rh
cp -R "$r0" "$rh"
OUSTPBM_TEST_ROBOT=fail OUSTPBM_TEST_TIME=$t "$bin" -d "$rh" <"$tmp/rmail" >/dev/null 2>&1
if [ "$rc" != 0 ] || ! grep -q "^2 .* o robot " "$r1/games/101.game" || grep -q "^2 " "$rh/games/101.game"; then
	fail "robot: the reference runs did not give alice's move and the robot's answer"
elif part; then
	# rsane HOME: like sane, with three boards allowed
	rsane() {
		why=$(sane "$1" "$r0/games/101.game" "$r1/games/101.game" | grep -v "neither the one before")
		cmp -s "$1/games/101.game" "$r0/games/101.game" || cmp -s "$1/games/101.game" "$rh/games/101.game" ||
		    cmp -s "$1/games/101.game" "$r1/games/101.game" || why="$why board 101 is none of the three"
		echo "$why"
	}
	# rfinish HOME LABEL: the clean redelivery, then rchecks
	rfinish() {
		rc=$(crash_feed "$1" $t "$tmp/rmail")
		[ "$rc" = 0 ] || bad="$bad; $2: the redelivery exits $rc"
		rchecks "$@"
	}
	# rchecks HOME LABEL: after the clean redelivery, the robot run, then the checks
	rchecks() {
		OUSTPBM_TEST_TIME=$t "$bin" -d "$1" robot >/dev/null 2>&1 || bad="$bad; $2: oustpbm robot fails"
		cmp -s "$1/games/101.game" "$r1/games/101.game" || bad="$bad; $2: the board is not the one after the robot's answer"
		[ "$(grep -c "<rm1@x>.* ok: " "$1/log")" -le 1 ] || bad="$bad; $2: alice's move applied $(grep -c "<rm1@x>.* ok: " "$1/log") times"
		got=$(ls "$1/mail/$A/new" 2>/dev/null | wc -l)
		[ "$got" = 1 ] || bad="$bad; $2: alice got $got mails"
		grep -q "^Turn 2: robot \(played\|swapped\)" "$1/mail/$A/new/"* 2>/dev/null || bad="$bad; $2: her mail does not show the robot's turn"
		[ -z "$(find "$1/outbox/new" "$1/outbox/tmp" -type f 2>/dev/null)" ] || bad="$bad; $2: mail left in the outbox"
	}
	# robot_killed HOME K: after a kill, one of the three boards
	robot_killed() {
		why=$(rsane "$1")
		[ -z "$why" ] || bad="$bad; killed at step $2:$why"
	}
	# robot_redelivered HOME K: after the clean redelivery, rchecks
	robot_redelivered() {
		rchecks "$1" "killed at step $2"
	}
	crash_each_step "$r0" $t "$tmp/rmail" "" robot_killed robot_redelivered
	if [ -n "$bad" ]; then
		fail "robot: alice's move and the robot's answer killed at each of their $((k - 1)) steps${bad}"
	elif [ $k -lt 12 ]; then
		fail "robot: only $((k - 1)) durable steps seen in alice's move and the robot's answer"
	else
		pass "robot: alice's move and the robot's answer killed at each of their $((k - 1)) steps: consistent, played once, one mail"
	fi
	# killed during the think: alice's move stands, cron's run answers it
	bad=
	w=$tmp/rw
	rm -rf "$w"
	cp -R "$r0" "$w"
	rc=$(OUSTPBM_TEST_ROBOT=die OUSTPBM_TEST_TIME=$t "$bin" -d "$w" <"$tmp/rmail" >/dev/null 2>&1; echo $?)
	[ "$rc" = 137 ] || bad="$bad; exit $rc, not killed"
	cmp -s "$w/games/101.game" "$rh/games/101.game" || bad="$bad; the board is not the one after alice's move alone"
	why=$(rsane "$w")
	[ -z "$why" ] || bad="$bad;$why"
	sleep 0.2
	pgrep -f "oustpbm -d $w" >/dev/null && bad="$bad; the think outlived the process"
	rfinish "$w" "killed during the think"
	if [ -n "$bad" ]; then
		fail "robot: killed during the robot's think${bad}"
	else
		pass "robot: killed during the robot's think: alice's move stands, oustpbm robot answers it, one mail"
	fi
fi

# ---- a delivery report (src/commands/pipeline/bounce.h): a genuine report
# of a mail to alice (its Message-ID, with its mac: mail/idmac.h) naming her
# twice, killed at every durable step and its redelivery killed again.
# After each kill alice has at most one bounce; after the clean redelivery
# exactly one, the report in the redelivery record and never answered.
b0=$tmp/b0
cp -R "$tmp/s0" "$b0"
mail $A "whoami alice secret" bw@x >"$tmp/m"
crash_feed "$b0" $((T0 + 5)) "$tmp/m" >/dev/null
# the Message-ID of the reply alice got: the report names it, as an MTA's does
bid=$(sed -n 's/^Message-I[Dd]: *<\(.*\)>.*/\1/p' "$(newest "$b0" $A)" | head -n 1)
rm -rf "$b0/mail"
cat >"$tmp/dsn" <<EOF
From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
To: oust@example.net
Subject: Undelivered Mail Returned to Sender
Date: Tue, 14 Nov 2023 23:10:01 +0000
Auto-Submitted: auto-replied
Message-ID: <dsn.1@mx.example.org>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b"

--b
Content-Type: text/plain

Your message could not be delivered.

--b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; $A
Action: failed
Status: 5.1.1

Final-Recipient: rfc822; $A
Action: failed
Status: 5.1.1

--b
Content-Type: text/rfc822-headers

From: oust@example.net
To: $A
Message-ID: <$bid>

--b--
EOF
# bcount HOME: alice's bounces, 0 if none
bcount() {
	awk -v a=$A '$1 == a { print $2; f = 1 } END { if (!f) print 0 }' "$1/bounces" 2>/dev/null || echo 0
}
dsn_killed() {
	[ "$(bcount "$1")" -le 1 ] || bad="$bad; killed at step $2${3:+ then $3}: counted $(bcount "$1") times"
}
dsn_redelivered() {
	[ "$(bcount "$1")" = 1 ] || bad="$bad; killed at step $2: after the redelivery counted $(bcount "$1") times"
	grep -q 'dsn.1@mx.example.org' "$1/seen" 2>/dev/null ||
	    bad="$bad; killed at step $2: the report is not in the redelivery record"
	[ -z "$(ls "$1/mail" 2>/dev/null)" ] || bad="$bad; killed at step $2: the report was answered"
}
if [ -z "$bid" ]; then
	fail "bounce: no reply to alice to report on"
elif part; then
	crash_each_step "$b0" $((T0 + 10)) "$tmp/dsn" "3 5" dsn_killed dsn_redelivered
	if [ -n "$bad" ]; then
		fail "bounce: the report killed at each of its $((k - 1)) steps${bad}"
	elif [ $k -lt 3 ]; then
		fail "bounce: only $((k - 1)) durable steps seen in the report"
	else
		pass "bounce: the report killed at each of its $((k - 1)) steps, its redelivery killed too: counted once"
	fi
fi
unset OUSTPBM_TEST_ROBOT_PLAYOUTS
done_testing

#!/bin/sh
# limits: what the system may do to a run, and values at the edges.
#  - ulimit -f: SIGXFSZ is ignored and EFBIG is a full disk: exit 75,
#    nothing half-written (no file left in outbox/tmp/, the board number
#    given back), the log line whole or absent;
#  - standard descriptors closed by the caller: /dev/null takes them, so no
#    diagnostic lands in a file the run opens (a lock file, a game file);
#  - a time near year 9999: refused with a message (exit 75), no abort; a
#    game file whose last move is that late still gets its replies;
#  - a thread: value outside RFC 5322's msg-id grammar: the game file is
#    reported by fsck at its line and a mail about the board is answered
#    (the board cannot be read) instead of exiting 70;
#  - a template making a reply over 8 MiB: a template error, exit 75.
. "$(dirname "$0")/lib.sh"
tmpdir

run() { # HOME TIME FROM SUBJECT ID: one mail; prints the exit status
	mail "$3" "$4" "$5" | OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" >/dev/null 2>"$tmp/stderr"
	echo $?
}

# a home with alice and bob
newhome() {
	mkhome "$1" 'max_mails_per_hour = 0'
	mail alice@example.org "register alice secret" "$1.r1" | deliver "$1" $T0
	mail bob@example.com "register bob hunter2" "$1.r2" | deliver "$1" $T0
}

# every line of the log ends with a newline and starts with a time
log_whole() {
	[ ! -s "$1" ] || { [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
	    ! grep -qv '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T' "$1"; }
}

# ---- ulimit -f
h=$tmp/fsize
newhome "$h"
cp "$h/games/next-board" "$tmp/counter.before" 2>/dev/null || echo none >"$tmp/counter.before"
before=$(store_sum "$h")
mail alice@example.org "challenge alice secret bob -size=5" fz1@x >"$tmp/fz1.eml"
# the setup's log lines (two registrations and their confirms) moved aside:
# the log must keep room under the limit for the line that says why
mv "$h/log" "$tmp/fsize.setup.log"
# 2 blocks of 512 bytes: the board counter fits, a reply (several KiB) does not
(ulimit -f 2 && OUSTPBM_TEST_TIME=$((T0 + 60)) exec "$bin" -d "$h" <"$tmp/fz1.eml" >/dev/null 2>"$tmp/fz.err")
rc=$?
check "a challenge past ulimit -f exits 75, not killed by SIGXFSZ (got $rc)" [ "$rc" = 75 ]
check "... no board made" [ ! -f "$h/games/101.game" ]
check "... the board number given back" [ "$(cat "$h/games/next-board" 2>/dev/null || echo 101)" = 101 ]
check "... nothing else changed" [ "$(store_sum "$h" | grep -v next-board)" = "$(echo "$before" | grep -v next-board)" ]
check "... nothing left in outbox/tmp/" [ -z "$(find "$h/outbox/tmp" -type f 2>/dev/null)" ]
check "... the log is whole" log_whole "$h/log"
check "... the log line says so" sh -c "tail -n 1 '$h/log' | grep -q '<fz1@x>.* tempfail: .*File too large'"
check "... and the mail goes through later" [ "$(run "$h" $((T0 + 120)) alice@example.org "challenge alice secret bob -size=5" fz1@x)" = 0 ]
check "... as board 101" [ -f "$h/games/101.game" ]
# the log itself at the limit: the line is left out whole (the reply, text
# only, is smaller than the log and fits)
echo 'html_mail = off' >>"$h/oustpbm.conf"
cat "$tmp/fsize.setup.log" "$h/log" >"$tmp/fsize.log" && mv "$tmp/fsize.log" "$h/log"	# the whole log back
size=$(wc -c <"$h/log")
blocks=$(( (size + 511) / 512 ))
mail bob@example.com "show 101" fz2@x >"$tmp/fz2.eml"
(ulimit -f $blocks && OUSTPBM_TEST_TIME=$((T0 + 180)) exec "$bin" -d "$h" <"$tmp/fz2.eml" >/dev/null 2>"$tmp/fz.err")
rc=$?
check "a mail whose log line would pass ulimit -f is not killed (got $rc)" sh -c '[ "$1" = 0 ] || [ "$1" = 75 ]' sh "$rc"
check "... the log holds whole lines only" log_whole "$h/log"
check "... the line that did not fit is absent" [ "$(wc -c <"$h/log")" -le $((blocks * 512)) ]

# ---- closed standard descriptors
h=$tmp/fds
newhome "$h"
run "$h" $T0 alice@example.org "challenge alice secret bob -size=5" fd1@x >/dev/null
sed -i 's/^status: playing/status: plying/' "$h/games/101.game"
cp "$h/games/101.game" "$tmp/game.before"
mail bob@example.com "move 101 bob hunter2 A1" fd2@x >"$tmp/fd2.eml"
OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" <"$tmp/fd2.eml" >&- 2>&-
rc=$?
check "stdout and stderr closed: the mail is answered (got $rc)" [ "$rc" = 0 ]
check "... no diagnostic in a lock file" sh -c "! find '$h' -name '*.lock' -size +0 | grep -q ."
check "... nor in the game file" cmp -s "$h/games/101.game" "$tmp/game.before"
check "... the refusal logged" grep -q '<fd2@x>.* error: board 101 cannot be read' "$h/log"
"$bin" -d "$h" fsck <&- >&- 2>&-
rc=$?
check "fsck with fds 0-2 closed reports by its exit status (got $rc)" [ "$rc" = 65 ]
check "... and writes into no file of the home" sh -c "! find '$h' -name '*.lock' -size +0 | grep -q . && cmp -s '$h/games/101.game' '$tmp/game.before'"

# ---- a time near year 9999
h=$tmp/y9999
newhome "$h"
before=$(store_sum "$h")
for t in 253402000000 253402300799; do
	rc=$(run "$h" $t carol@example.net "register carol pw" y$t@x)
	check "OUSTPBM_TEST_TIME=$t (9999-12): refused with exit 75, not an abort (got $rc)" [ "$rc" = 75 ]
	check "... with a message" grep -q 'past 9989-12-31' "$tmp/stderr"
done
check "... nothing changed" [ "$(store_sum "$h")" = "$before" ]
run "$h" $T0 alice@example.org "challenge alice secret bob -size=5" y1@x >/dev/null
run "$h" $((T0 + 60)) alice@example.org "move 101 alice secret C3" y2@x >/dev/null
sed -i 's/^last-move: .*/last-move: 9999-12-30T00:00:00Z/; s/^remind: .*/remind: 9999-12-31T23:59:59Z/' "$h/games/101.game"
echo "timeout_days = 3650" >>"$h/oustpbm.conf"
check "a game file last moved on 9999-12-30: cleanup runs (exit 0)" \
    sh -c "OUSTPBM_TEST_TIME=$((T0 + 120)) '$bin' -d '$h' cleanup >/dev/null 2>&1"
rc=$(run "$h" $((T0 + 180)) bob@example.com "move 101 bob hunter2 A1" y3@x)
check "... and a move on it is made (got $rc)" [ "$rc" = 0 ]
check "... its reminder counts from the move" grep -q '^remind: 2023-11-2' "$h/games/101.game"

# ---- a thread: outside the msg-id grammar
for bad in '<a"b@c>' '<a<b@c>' '<a@b>x' '<a b@c>' '<@c>'; do
	h=$tmp/thread
	rm -rf "$h"
	newhome "$h"
	run "$h" $T0 alice@example.org "challenge alice secret bob -size=5" t1@x >/dev/null
	line=$(grep -n '^thread: ' "$h/games/101.game" | cut -d: -f1)
	awk -v v="$bad" '/^thread: /{ print "thread: " v; next } { print }' "$h/games/101.game" >"$h/games/101.new"
	mv "$h/games/101.new" "$h/games/101.game"
	"$bin" -d "$h" fsck >"$tmp/fsck.out" 2>/dev/null
	check "thread $bad: fsck reports it at its line" grep -q "^games/101.game:$line: bad thread" "$tmp/fsck.out"
	rc=$(run "$h" $((T0 + 60)) alice@example.org "show 101" t2@x)
	check "thread $bad: a mail about the board is answered (exit 0, got $rc)" [ "$rc" = 0 ]
	check "... saying the board cannot be read" grep -q '<t2@x>.* error: board 101 cannot be read' "$h/log"
done

# ---- a template making a reply over 8 MiB
h=$tmp/template
newhome "$h"
mkdir -p "$h/templates"
cp "$top"/templates/*.txt "$top"/templates/*.html "$h/templates/"
sed -i '/^templates = /d' "$h/oustpbm.conf"
echo "templates = $h/templates" >>"$h/oustpbm.conf"
# 64 KiB of {drawing} (a 25x25 board, about 1.5 KiB each): over 8 MiB once expanded
run "$h" $T0 alice@example.org "challenge alice secret bob -size=25" h0@x >/dev/null
awk 'BEGIN { for (i = 0; i < 6500; i++) printf "{drawing}\n" }' >"$h/templates/show.txt"
before=$(store_sum "$h")
rc=$(run "$h" $((T0 + 60)) alice@example.org "show 101" h1@x)
check "a template making a reply over 8 MiB: exit 75 (got $rc)" [ "$rc" = 75 ]
check "... logged as a template error" grep -q '<h1@x>.* error: cannot make the reply: .*larger than' "$h/log"
check "... nothing queued" [ -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f 2>/dev/null)" ]
check "... nothing changed" [ "$(store_sum "$h")" = "$before" ]

done_testing

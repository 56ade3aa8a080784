#!/bin/sh
# filecaps: no file the server writes from mail can be filled past what it
# reads (store_write_capped, issue 31), and a file over its cap fails no
# command that can do without it:
#  - codes-file-full: a codes file past its 4 MiB read cap (an older
#    version, an admin's copy) no longer makes forgot and reset exit 70: it
#    reads as empty; one near the cap refuses the new code with forgot's
#    answer, the file stays under the cap, and cleanup prunes old codes;
#  - watchers-file-full-move-still-plays: a watchers file past its cap
#    makes no move fail (the board mail goes to the players, the log says
#    why); one near the cap refuses a subscription with a clear reply;
#  - the throttle file full: password checks are refused (fail closed),
#    never answered uncounted;
#  - fsck warns of a file at 80% of its cap.
. "$(dirname "$0")/lib.sh"
tmpdir

run() { # HOME TIME FROM SUBJECT [ID]: one mail; prints the exit status
	mail "$3" "$4" "${5:-}" | OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" >/dev/null 2>"$tmp/stderr"
	echo $?
}

newhome() {
	mkhome "$1" 'max_mails_per_hour = 0'
	# deliver confirms each registration (lib.sh): two accounts
	mail alice@example.org "register alice secret" | deliver "$1" $T0
	mail bob@example.com "register bob hunter2" | deliver "$1" $T0
}

# fill FILE BYTES LINE-MAKER: awk prints lines (from the awk program) until FILE holds BYTES
fill() {
	awk -v max="$2" "BEGIN { n = 0; size = 0; while (size < max) { l = $3; print l; size += length(l) + 1; n++ } }" >>"$1"
}

cap=$((4 * 1024 * 1024))

# ---- codes-file-full
h=$tmp/codes
newhome "$h"
fill "$h/codes" $((cap + 100)) '"# filler line " n'
check "codes-file-full: forgot with the codes file past its cap exits 0, not 70" [ "$(run "$h" $((T0 + 60)) alice@example.org "forgot alice")" = 0 ]
check "... a code was mailed (the file started afresh)" sh -c "grep -q '^alice reset ' '$h/codes' && [ \$(wc -c <'$h/codes') -lt 10000 ]"
check "... the log says why" grep -q 'codes is larger than 4194304 bytes: read as empty' "$h/log"
fill "$h/codes" $((cap + 100)) '"# filler line " n'
check "... reset with it past its cap exits 0" [ "$(run "$h" $((T0 + 120)) alice@example.org "reset alice 2345678ABC n3w")" = 0 ]
# near the cap, with codes of the day (kept)
h=$tmp/codes2
newhome "$h"
fill "$h/codes" $((cap - 50)) "\"u\" n \" reset $T0 open 0123456789abcdef \$y\$j9T\$abcdefgh\$\" n"
size0=$(wc -c <"$h/codes")
check "codes near the cap: forgot exits 0" [ "$(run "$h" $((T0 + 60)) alice@example.org "forgot alice")" = 0 ]
check "... no code written: the file stays under its cap" sh -c "[ \$(wc -c <'$h/codes') = $size0 ] && ! grep -q '^alice ' '$h/codes'"
check "... the log says the file is full" grep -q 'no reset code for alice: .*codes is full' "$h/log"
check "... the next forgot exits 0 too" [ "$(run "$h" $((T0 + 70)) alice@example.org "forgot alice")" = 0 ]
check "cleanup prunes the codes older than a day" sh -c "OUSTPBM_TEST_TIME=$((T0 + 90000)) '$bin' -d '$h' cleanup >/dev/null 2>&1 && [ \$(wc -c <'$h/codes') -lt 1000 ]"

# ---- watchers-file-full-move-still-plays
h=$tmp/watch
newhome "$h"
run "$h" $((T0 + 60)) alice@example.org "challenge alice secret bob -size=5" >/dev/null
fill "$h/watchers" $((cap + 100)) '"w" n " all"'
check "watchers-file-full-move-still-plays: a move exits 0, not 70" [ "$(run "$h" $((T0 + 120)) alice@example.org "move 101 alice secret C3")" = 0 ]
check "... the move was played" grep -q '^1 ' "$h/games/101.game"
check "... bob got the board" sh -c "grep -l 'Subject: .*101' '$h/mail/bob@example.com/new/'* >/dev/null"
check "... the log says the watchers were left out" grep -q 'watchers is larger than 4194304 bytes: read as no watchers' "$h/log"
check "... a subscription is refused clearly, the file left as it was" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 180)) sh -c \"printf 'From: bob@example.com\\nSubject: subscribe bob hunter2 all\\n\\n' | '$bin' -d '$h'\" >/dev/null 2>&1; echo \$?) = 0 ] && [ \$(wc -c <'$h/watchers') -gt $cap ]"
h=$tmp/watch2
newhome "$h"
fill "$h/watchers" $((cap - 10)) '"w" n " all"'
check "watchers near the cap: subscribe exits 0" [ "$(run "$h" $((T0 + 60)) bob@example.com "subscribe bob hunter2 all")" = 0 ]
check "... with a clear refusal" sh -c "grep -q 'refused: .*files is full' '$h/log' && ! grep -q '^bob ' '$h/watchers'"
check "... the file stays under its cap" [ "$(wc -c <"$h/watchers")" -le $cap ]

# ---- the throttle file full: fail closed
h=$tmp/throttle
newhome "$h"
fill "$h/throttle" $((cap - 1000)) "\"$((T0 + 50)) u\" n \" F x@example.org\""
check "throttle full: a wrong password exits 0" [ "$(run "$h" $((T0 + 60)) alice@example.org "whoami alice wrong")" = 0 ]
check "... refused as paused, not counted" sh -c "grep -q 'password checks for alice are paused' '$h/log' && [ \$(wc -c <'$h/throttle') -le $cap ]"
check "... the right password is refused the same (no oracle)" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 70)) sh -c \"printf 'From: alice@example.org\\nSubject: whoami alice secret\\n\\n' | '$bin' -d '$h'\" >/dev/null 2>&1; echo \$?) = 0 ] && [ \$(grep -c 'password checks for alice are paused' '$h/log') = 2 ]"
check "... and the log gives the throttle as the cause, no other file's error" sh -c "grep -q 'the throttle file is full: password checks are paused' '$h/log' && ! grep -q 'cannot open .*bounces' '$h/log'"
check "... an hour later the failures have expired: checks again" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 3700)) sh -c \"printf 'From: alice@example.org\\nSubject: whoami alice secret\\n\\n' | '$bin' -d '$h'\" >/dev/null 2>&1; echo \$?) = 0 ] && tail -n 1 '$h/log' | grep -q ' ok'"

# ---- fsck at 80%
h=$tmp/fsck
newhome "$h"
fill "$h/watchers" $((cap * 85 / 100)) '"w" n " all"'
OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" fsck >"$tmp/fsck.out" 2>&1
check "fsck warns of the watchers file at 85% of its cap" grep -q 'watchers.*8[0-9]% of its cap' "$tmp/fsck.out"
# the files of confirmed registrations and bounces are capped as the others
fill "$h/bounces" $((1048576 * 85 / 100)) '"u" n "@example.org 1 1700000000 5.1.1"'
OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" fsck >"$tmp/fsck.out" 2>&1
check "fsck warns of the bounces file at 85% of its cap" grep -q 'bounces.*8[0-9]% of its cap' "$tmp/fsck.out"
done_testing

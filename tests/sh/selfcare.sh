#!/bin/sh
# selfcare: the account commands by mail (forgot, reset, address, confirm,
# signoff, whoami) and `oustpbm deluser`, beyond the golden cases:
#  - a one-time code is random and stored only as a hash; wrong codes count
#    as wrong passwords: the lockout they start refuses the right code too;
#  - forgot answers the sender the same for an account and for none;
#  - a code is voided by a new password set by other means;
#  - deluser resigns the boards (the opponent mailed), reserves the id, and
#    fsck accepts the finished games naming it; userid_reserve_days = 0
#    frees the id at once;
#  - a signoff whose game file cannot be read is refused, nothing changed;
#  - a signoff that cannot lock a board is tried again later, nothing
#    changed, and goes through once the lock is free;
#  - the log never holds a code or a password.
. "$(dirname "$0")/lib.sh"
tmpdir
unset OUSTPBM_TEST_CODE
A=alice@example.org
B=bob@example.com

# run HOME TIME FROM SUBJECT: handle one mail; prints its exit status
k=0
run() {
	k=$((k + 1))
	mail "$3" "$4" "m$k@x" | OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" >/dev/null 2>"$tmp/stderr.$k"
	echo $?
}

# newhome DIR [conf lines...]: alice and bob registered, board 101 between them
newhome() {
	d=$1
	shift
	mkhome "$d" "$@"
	mail $A "register alice secret Alice" | deliver "$d" $T0
	mail $B "register bob hunter2" | deliver "$d" $T0
	run "$d" $T0 $A "challenge alice secret bob -size=5" >/dev/null
	rm -rf "$d/mail"
}

# the code in the last mail to ADDRESS of HOME
code_of() {
	f=$(ls "$1/mail/$2/new/"* 2>/dev/null | LC_ALL=C sort | tail -n 1)
	[ -n "$f" ] && sed -n 's/^    \([2-9A-HJ-NP-Z]\{10\}\)$/\1/p' "$f" | head -n 1
}

last_log() {
	tail -n 1 "$1/log"
}

# ---- codes: random, hashed, throttled
h=$tmp/h1
newhome "$h" "max_password_failures = 3"
run "$h" $((T0 + 10)) $A "forgot alice" >/dev/null
c1=$(code_of "$h" $A)
rm -rf "$h/mail"
run "$h" $((T0 + 20)) $A "forgot alice" >/dev/null
c2=$(code_of "$h" $A)
check "forgot mails a code of ten letters and digits" test "${#c1}" = 10
check "two codes differ" test "$c1" != "$c2"
check "the codes file holds their hashes, never a code" sh -c "! grep -q -e '$c1' -e '$c2' '$h/codes' && [ \$(grep -c '^alice reset .* \\\$y\\\$' '$h/codes') = 2 ]"
check "the first code is still good (both are alice's)" test "$(run "$h" $((T0 + 30)) $B "reset alice $(echo "$c1" | tr 'A-Z' 'a-z') fresh1")" = 0
check "reset in lower case sets the password" sh -c "tail -n 1 '$h/log' | grep -q 'ok: password of alice reset by code'"
check "the second code was voided by the new password" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 40)) sh -c 'printf \"From: $B\\nSubject: reset alice $c2 fresh2\\n\\n\" | \"$bin\" -d \"$h\" 2>/dev/null'; echo \$?) ] && tail -n 1 '$h/log' | grep -q 'no longer holds: the account.s password or address changed'"
check "no code, password or new password in the log" sh -c "! grep -q -e '$c1' -e '$c2' -e fresh1 -e fresh2 -e secret '$h/log'"
rm -rf "$h/mail"
run "$h" $((T0 + 50)) $A "forgot alice" >/dev/null
c3=$(code_of "$h" $A)
# the stale code above was a wrong code for the throttle too (every code checked counts)
for i in 1 2; do
	run "$h" $((T0 + 60 + i)) $B "reset alice 2345678ABC guess$i" >/dev/null
done
check "the stale code and two wrong codes start the lockout" sh -c "tail -n 1 '$h/log' | grep -q 'wrong code for alice; password attempts for alice are now refused'"
run "$h" $((T0 + 70)) $B "reset alice $c3 fresh3" >/dev/null
check "then the right code is refused too, unchecked" sh -c "tail -n 1 '$h/log' | grep -q 'refused: password attempts for alice are refused until'"
check "the owner was told of the lockout" sh -c "grep -l '^Subject: Oust password attempts for alice refused' '$h/mail/$A/new/'* >/dev/null"
run "$h" $((T0 + 4000)) $B "reset alice $c3 fresh3" >/dev/null
check "after the lockout, past its hour, the code has expired" sh -c "tail -n 1 '$h/log' | grep -q 'the code for alice has expired'"

# ---- forgot tells the sender nothing
h=$tmp/h2
newhome "$h"
run "$h" $((T0 + 10)) mallory@example.net "forgot alice" >/dev/null
run "$h" $((T0 + 10)) mallory@example.net "forgot carol" >/dev/null
strip() { # the body of the only mail of FILE, with the user id replaced
	sed -e '1,/^$/d' -e "s/$2/USER/g" "$1"
}
m1=$(ls "$h/mail/mallory@example.net/new/"* | LC_ALL=C sort | head -n 1)
m2=$(ls "$h/mail/mallory@example.net/new/"* | LC_ALL=C sort | tail -n 1)
check "forgot: the same answer for an account and for none" sh -c "[ '$m1' != '$m2' ] && [ \"\$(sed -e '1,/^\$/d' -e 's/alice/USER/g' '$m1')\" = \"\$(sed -e '1,/^\$/d' -e 's/carol/USER/g' '$m2')\" ]"
check "the code went to alice's own address only" sh -c "[ \$(ls '$h/mail/$A/new' | wc -l) = 1 ] && [ \$(ls '$h/mail/mallory@example.net/new' | wc -l) = 2 ]"

# ---- deluser
h=$tmp/h3
newhome "$h"
run "$h" $((T0 + 10)) $B "challenge bob hunter2 alice -size=5" >/dev/null
run "$h" $((T0 + 20)) $B "resign 102 bob hunter2" >/dev/null
rm -rf "$h/mail"
cp "$h/games/102.game" "$tmp/102.before"
before=$(store_sum "$h")
out=$(OUSTPBM_TEST_TIME=$((T0 + 30)) "$bin" -d "$h" deluser --dry-run alice 2>&1)
check "deluser --dry-run alice: exit 0, says what deluser would do" sh -c "echo '$out' | grep -q '^deluser --dry-run: would close alice <$A>: 1 board resigned (101), each opponent told; $A told by mail; the user id reserved until 2024-11-13T22:13:50Z; nothing changed\$'"
check "... and changes nothing, mails nobody" sh -c "[ '$(store_sum "$h")' = '$before' ] && [ ! -d '$h/mail' ] && grep -q '^alice:' '$h/users'"
out=$(OUSTPBM_TEST_TIME=$((T0 + 30)) "$bin" -d "$h" deluser alice 2>&1)
check "deluser alice exits 0 and says what it did" sh -c "echo '$out' | grep -q '^alice closed: 1 board resigned: 101; the user id is reserved until 2024-11-13T22:13:50Z; told $A by mail'"
check "her open board is over, resigned" sh -c "grep -q '^status: white won\\|^1 .* x alice resign' '$h/games/101.game'"
check "her finished board is untouched" cmp -s "$h/games/102.game" "$tmp/102.before"
check "bob was mailed the end of board 101" sh -c "grep -l 'is over: bob won' '$h/mail/$B/new/'* >/dev/null"
check "alice is told by mail that the admin closed her account" sh -c "grep -l '^Subject: Oust account alice closed' '$h/mail/$A/new/'* | xargs grep -q 'closed by its admin'"
check "she is gone from the users file, her id reserved" sh -c "! grep -q '^alice:' '$h/users' && grep -q '^alice 1731536030 1700000030 ' '$h/reserved'"
check "fsck accepts the games naming her (reserved)" sh -c "OUSTPBM_TEST_TIME=$((T0 + 40)) '$bin' -d '$h' fsck >'$tmp/fsck.out' 2>&1; ! grep -q 'alice' '$tmp/fsck.out'"
check "register alice by mail is refused" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 50)) sh -c 'printf \"From: m@example.net\\nSubject: register alice pw\\n\\n\" | \"$bin\" -d \"$h\" 2>/dev/null'; echo \$?) = 0 ] && tail -n 1 '$h/log' | grep -q 'refused: the user id alice belonged to an account that was closed'"
check "adduser alice is refused, exit 73" sh -c "OUSTPBM_TEST_TIME=$((T0 + 60)) '$bin' -d '$h' adduser alice a@example.net >/dev/null 2>&1; [ \$? = 73 ]"
check "deluser alice again: no such user, exit 67" sh -c "'$bin' -d '$h' deluser alice >/dev/null 2>&1; [ \$? = 67 ]"
check "deluser robot is refused" sh -c "! '$bin' -d '$h' deluser robot >/dev/null 2>&1"
check "a year on, the id is free again" sh -c "OUSTPBM_TEST_TIME=$((T0 + 30 + 365 * 86400)) '$bin' -d '$h' adduser alice a2@example.net >/dev/null 2>&1"

# ---- userid_reserve_days = 0
h=$tmp/h4
newhome "$h" "userid_reserve_days = 0"
run "$h" $((T0 + 10)) $A "signoff alice secret" >/dev/null
check "signoff with userid_reserve_days = 0" sh -c "tail -n 1 '$h/log' | grep -q 'ok: account alice closed, 1 board resigned: 101, user id reserved until 2023-11-14T22:13:30Z'"
run "$h" $((T0 + 20)) mallory@example.net "register alice pw" >/dev/null
check "the id is free at once" sh -c "tail -n 1 '$h/log' | grep -q 'ok: registration of alice pending, code mailed to <mallory@example.net>'"

# ---- a game file that cannot be read stops the signoff before any change
h=$tmp/h5
newhome "$h"
run "$h" $((T0 + 10)) $B "challenge bob hunter2 alice -size=5" >/dev/null
echo "this is no game file" >"$h/games/102.game"
cp "$h/users" "$tmp/users.before"
cp "$h/games/101.game" "$tmp/101.before"
run "$h" $((T0 + 20)) $A "signoff alice secret" >/dev/null
check "signoff with an unreadable game file is refused" sh -c "tail -n 1 '$h/log' | grep -q 'refused: board 102 cannot be read: .*: the account stays open; ask the server.s admin'"
check "and nothing changed" sh -c "cmp -s '$h/users' '$tmp/users.before' && cmp -s '$h/games/101.game' '$tmp/101.before' && [ ! -f '$h/reserved' ]"

# ---- a board locked by another process: the signoff waits for a later delivery
h=$tmp/h6
newhome "$h" "lock_timeout_ms = 200"
cp "$h/users" "$tmp/users.before"
cp "$h/games/101.game" "$tmp/101.before"
if hold_lock "$h/games/101.lock"; then
	check "signoff with board 101 locked: tried again later (exit 75)" \
	    test "$(run "$h" $((T0 + 10)) $A "signoff alice secret")" = 75
	release_lock
	check "... the lock named in the log" sh -c "tail -n 1 '$h/log' | grep -q 'tempfail: signoff of alice: cannot lock board 101: .* is locked by another process'"
	check "... nothing changed" sh -c "cmp -s '$h/users' '$tmp/users.before' && cmp -s '$h/games/101.game' '$tmp/101.before' && [ ! -f '$h/reserved' ]"
	run "$h" $((T0 + 20)) $A "signoff alice secret" >/dev/null
	check "the lock free, the signoff goes through" sh -c "tail -n 1 '$h/log' | grep -q 'ok: account alice closed, 1 board resigned: 101'"
else
	check "hold_lock takes the lock of board 101" false
fi

done_testing

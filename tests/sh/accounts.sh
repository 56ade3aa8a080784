#!/bin/sh
# accounts: changes to the users file under attack and under load.
#  - registrations: refused with a reply before the users file would pass
#    its read limit (players keep playing), capped per hour server-wide and
#    per sender domain; fsck warns when the file nears the limit;
#  - password changes decided under the store lock against the hash stored:
#    20 concurrent changes with the same old password, one wins; an admin's
#    lock ('*') or reset made while the old password is checked stands;
#  - a password hash that cannot be computed (ulimit -v, a high cost) is a
#    temporary failure: exit 75, nothing changed, no reply.
. "$(dirname "$0")/lib.sh"
tmpdir

# run HOME TIME FROM SUBJECT ID: handle one mail (a register confirmed at
# once, lib.sh's confirm_pending); prints its exit status
k=0
run() {
	k=$((k + 1))
	mail "$3" "$4" "$5" | OUSTPBM_TEST_CODE=$REG_CODE OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" >/dev/null 2>"$tmp/stderr.$k"
	lib_rc=$?
	[ "$lib_rc" = 0 ] && { confirm_pending "$1" "$3" "$2" "$(echo "$4" | register_pw)"; lib_rc=$?; }
	echo $lib_rc
}

newhome() { # DIR [conf lines...]
	d=$1
	shift
	# concurrent wrong passwords on purpose: the guessing throttle is off
	mkhome "$d" 'max_mails_per_hour = 0' 'max_password_failures = 0' "$@"
}

lastlog() {
	tail -n 1 "$1/log"
}

# ---- registrations: the users file limit
h=$tmp/full
newhome "$h"
check "setup: alice registers" [ "$(run "$h" $T0 alice@example.org "register alice secret" f1@x)" = 0 ]
check "setup: bob registers" [ "$(run "$h" $T0 bob@example.com "register bob hunter2" f2@x)" = 0 ]
# pad the users file with comment lines to 100 bytes short of 16 MiB
"$PY" -c 'import sys
p = sys.argv[1]
size = 16 * 1024 * 1024 - 100
with open(p, "a") as f:
    left = size - f.tell()
    line = "#" + "x" * 1022 + "\n"
    while left > len(line):
        f.write(line)
        left -= len(line)
    f.write("#" + "x" * (left - 2) + "\n")' "$h/users"
check "setup: the users file is 100 bytes short of 16 MiB" [ "$(wc -c <"$h/users")" -eq $((16 * 1024 * 1024 - 100)) ]
before=$(cksum <"$h/users")
rc=$(run "$h" $((T0 + 60)) mallory@example.net "register mallory0123456789 pw-pw-pw-pw Mallory the Forger" f3@x)
check "a registration that would pass the limit is answered (exit 0), got $rc" [ "$rc" = 0 ]
check "... with a specific refusal" grep -q 'refused: the server takes no new accounts: its users file is full' "$h/log"
check "... in the reply" sh -c "cat '$h'/mail/mallory@example.net/new/* | tr '\n' ' ' | grep -q 'its users file  *is full'"
check "... and no account made" [ "$(cksum <"$h/users")" = "$before" ]
check "players keep playing: a challenge is made" \
    [ "$(run "$h" $((T0 + 120)) alice@example.org "challenge alice secret bob -size=5" f4@x)" = 0 ]
check "... board 101" [ -f "$h/games/101.game" ]
"$bin" -d "$h" fsck >"$tmp/fsck.out" 2>&1
rc=$?
check "fsck warns near the limit (exit 65, got $rc)" [ "$rc" = 65 ]
check "... saying how close" grep -q '^users: .* bytes, within 10% of the 16777216 bytes' "$tmp/fsck.out"

# ---- registrations: per hour and per domain (confirmed accounts: the confirm
# is refused, the registration stays pending; confirm.c)
h=$tmp/caps
newhome "$h" "max_registrations_per_hour = 4" "max_registrations_per_domain = 2"
check "1st registration from example.org" [ "$(run "$h" $T0 a1@example.org "register a1 pw" c1@x)" = 0 ]
check "2nd registration from EXAMPLE.org" [ "$(run "$h" $((T0 + 1)) a2@EXAMPLE.ORG "register a2 pw" c2@x)" = 0 ]
check "3rd from example.org: answered" [ "$(run "$h" $((T0 + 2)) a3@example.org "register a3 pw" c3@x)" = 0 ]
check "... refused per domain" grep -q 'refused: no new account now: 2 accounts with an address at example.org were registered in the last hour (max_registrations_per_domain = 2)' "$h/log"
check "... no account made" sh -c '! grep -q "^a3:" "$1/users"' sh "$h"
check "... the reply says so" grep -q 'max_registrations_per_domain' "$h"/mail/a3@example.org/new/*
check "another domain still registers" [ "$(run "$h" $((T0 + 3)) b1@example.com "register b1 pw" c4@x)" = 0 ]
check "... and a fourth domain" [ "$(run "$h" $((T0 + 4)) c1@example.net "register c1 pw" c5@x)" = 0 ]
check "setup: 4 accounts" [ "$(grep -c '@' "$h/users")" = 4 ]
run "$h" $((T0 + 5)) d1@example.edu "register d1 pw" c6@x >/dev/null
check "the 5th in the hour is refused server-wide" grep -q 'refused: no new account now: 4 accounts were registered in the last hour (max_registrations_per_hour = 4)' "$h/log"
check "... no account made" [ "$(grep -c '@' "$h/users")" = 4 ]
check "an hour later it registers" [ "$(run "$h" $((T0 + 3601)) d1@example.edu "register d1 pw" c7@x)" = 0 ]
check "... d1 is in the users file" grep -q '^d1:d1@example.edu:' "$h/users"
check "... and example.org may register again" [ "$(run "$h" $((T0 + 3602)) a3@example.org "register a3 pw" c8@x)" = 0 ]
check "... a3 is in the users file" grep -q '^a3:' "$h/users"

# ---- 20 concurrent password changes with the same old password
h=$tmp/race
newhome "$h" "lock_timeout_ms = 30000"
check "setup: alice registers" [ "$(run "$h" $T0 alice@example.org "register alice secret" r0@x)" = 0 ]
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	mail alice@example.org "password alice secret new$i" "r$i@x" >"$tmp/pw$i.eml"
done
i=0
pids=
while [ $i -lt 20 ]; do
	i=$((i + 1))
	OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" <"$tmp/pw$i.eml" >/dev/null 2>&1 &
	pids="$pids $!"
done
fails=0
for p in $pids; do
	wait "$p" || fails=$((fails + 1))
done
check "20 concurrent changes all exit 0" [ "$fails" = 0 ]
check "exactly one is logged as changed" [ "$(grep -c 'ok: password of alice changed' "$h/log")" = 1 ]
check "the 19 others are refused: wrong password" [ "$(grep -c 'refused: wrong password for alice' "$h/log")" = 19 ]
check "20 replies, one confirmation (after the code and the welcome)" [ "$(replies "$h" alice@example.org)" = 22 ]
winner=$(grep 'ok: password of alice changed' "$h/log" | sed -n 's/.*mail <r\([0-9]*\)@x>.*/\1/p')
check "the winner's new password is the one stored" \
    [ "$(run "$h" $((T0 + 120)) alice@example.org "password alice new$winner final" rw@x)" = 0 ]
check "... (changed again with it)" grep -q '<rw@x>.* ok: password of alice changed' "$h/log"

# ---- an admin's lock or reset while a password change checks the old password
# The mail checks the old password without a lock, then waits for the store
# lock, held here; meanwhile the users file is replaced as the admin would.
hold_and_replace() { # HOME NEWUSERS: hold store.lock until $tmp/go exists, then install NEWUSERS, release
	rm -f "$tmp/go" "$tmp/lock.ready"
	"$PY" -c 'import fcntl, os, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
for i in range(600):
    if os.path.exists(sys.argv[3]):
        break
    time.sleep(0.05)
os.replace(sys.argv[2], sys.argv[4])' "$1/store.lock" "$2" "$tmp/go" "$1/users" >"$tmp/lock.ready" &
	lockpid=$!
	i=0
	while ! grep -q locked "$tmp/lock.ready" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt 200 ] && return 1
		sleep 0.05
	done
}

for what in lock reset; do
	h=$tmp/admin-$what
	newhome "$h" "lock_timeout_ms = 30000"
	run "$h" $T0 alice@example.org "register alice secret" a0@x >/dev/null
	if [ $what = lock ]; then
		sed 's/^\(alice:[^:]*:\)[^:]*:/\1*:/' "$h/users" >"$h/users.new"
	else
		cp -R "$h" "$tmp/copy"
		echo reset-pw | "$bin" -d "$tmp/copy" passwd --stdin alice >/dev/null 2>&1
		cp "$tmp/copy/users" "$h/users.new"
		rm -rf "$tmp/copy"
	fi
	cp "$h/users.new" "$tmp/users.want"
	hold_and_replace "$h" "$h/users.new"
	mail alice@example.org "password alice secret stolen" "a1@x" >"$tmp/a1.eml"
	OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" <"$tmp/a1.eml" >/dev/null 2>&1 &
	mailpid=$!
	sleep 1	# the mail has checked the old password and waits for the lock
	touch "$tmp/go"
	wait "$lockpid"
	lockpid=
	wait "$mailpid"
	rc=$?
	check "$what during the check: the mail is answered (exit 0, got $rc)" [ "$rc" = 0 ]
	check "$what during the check: the admin's users file stands" cmp -s "$h/users" "$tmp/users.want"
	if [ $what = lock ]; then
		check "... refused: the account is locked" grep -q '<a1@x>.* refused: the account alice is locked' "$h/log"
	else
		check "... refused: the old password is wrong now" grep -q '<a1@x>.* refused: wrong password for alice' "$h/log"
		check "... and the reset password works" \
		    [ "$(run "$h" $((T0 + 120)) alice@example.org "password alice reset-pw again" a2@x)" = 0 ]
		check "... (changed with it)" grep -q '<a2@x>.* ok: password of alice changed' "$h/log"
	fi
done

# ---- a password hash that cannot be computed
# alice's hash has cost 9 (about 256 MiB); under ulimit -v 150000 yescrypt
# cannot allocate for it.
h=$tmp/oom
newhome "$h" "password_cost = 9"
check "setup: alice registers with cost 9" [ "$(run "$h" $T0 alice@example.org "register alice secret" o1@x)" = 0 ]
sed -i 's/^password_cost = 9$/password_cost = 1/' "$h/oustpbm.conf"
check "setup: bob registers with cost 1" [ "$(run "$h" $T0 bob@example.com "register bob hunter2" o2@x)" = 0 ]
check "setup: a board" [ "$(run "$h" $T0 bob@example.com "challenge bob hunter2 alice -white -size=5" o3@x)" = 0 ]
limited() { # TIME FROM SUBJECT ID: one mail under ulimit -v 150000
	mail "$2" "$3" "$4" | (ulimit -v 150000 && OUSTPBM_TEST_TIME=$1 exec "$bin" -d "$h") >/dev/null 2>"$tmp/oom.err"
	echo $?
}
for cmd in "password alice secret other" "challenge alice secret bob" "move 101 alice secret C3" \
    "resign 101 alice secret"; do
	before=$(store_sum "$h")
	r=$(replies "$h" alice@example.org)
	rc=$(limited $((T0 + 60)) alice@example.org "$cmd" "oom.$k.$n@x")
	check "$cmd, out of memory for the hash: exit 75 (got $rc)" [ "$rc" = 75 ]
	check "... nothing changed" [ "$(store_sum "$h")" = "$before" ]
	check "... no reply" [ "$(replies "$h" alice@example.org)" = "$r" ]
	check "... logged as a temporary failure" sh -c "tail -n 1 '$h/log' | grep -q 'tempfail: cannot check the password of alice: its hash could not be computed'"
done
check "without the limit the right password is taken" \
    [ "$(run "$h" $((T0 + 120)) alice@example.org "move 101 alice secret C3" o9@x)" = 0 ]
check "... the move is made" grep -q '<o9@x>.* ok: turn 1: alice played C3' "$h/log"
sed -i 's/^password_cost = 1$/password_cost = 9/' "$h/oustpbm.conf"
before=$(store_sum "$h")
rc=$(limited $((T0 + 180)) carol@example.net "register carol sesame" o10@x)
check "a new hash that cannot be computed: exit 75 (got $rc)" [ "$rc" = 75 ]
check "... nothing changed" [ "$(store_sum "$h")" = "$before" ]

done_testing

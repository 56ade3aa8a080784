#!/bin/sh
# procmail: mails through the real procmail with the shipped recipe
# (scripts/procmailrc) into oustpbm, and the replies through SMTP to the
# sink of tests/smtpd/sink.py.  A temporary failure (a lock held too long:
# oustpbm exits 75) must come out of procmail as 75, so that the MTA keeps
# the mail, and must not be filed as delivered; another failure (an
# unparsable mail) goes to the default mailbox.
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=$top/oustpbm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-procmail.XXXXXX") || exit 2
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
unset OUSTPBM_HOME OUSTPBM_TEST_LIBCURL

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

command -v procmail >/dev/null || { echo "not ok - procmail is not installed"; exit 1; }

mkdir -p "$tmp/sink"
/usr/bin/python3 "$top/tests/smtpd/sink.py" --dir "$tmp/sink" --portfile "$tmp/port" 2>"$tmp/sink.stderr" &
pids="$pids $!"
i=0
while [ ! -s "$tmp/port" ] && [ "$i" -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
port=$(cat "$tmp/port" 2>/dev/null)
[ -n "$port" ] || { echo "not ok - the sink did not start"; exit 1; }

h=$tmp/home
mkdir -p "$h"
printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = 1\nsmtp_url = smtp://127.0.0.1:%s\n' "$top" "$port" \
    >"$h/oustpbm.conf"
printf 'lock_timeout_ms = 200\n' >>"$h/oustpbm.conf"
rc=$top/scripts/procmailrc

mail() { # FROM SUBJECT
	printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <%s.%s@example.net>\n\n' \
	    "$1" "$2" "$(echo "$2" | tr -c 'a-z0-9' '-')" "$$"
}

# pm [procmail args]: procmail as the MTA runs it, the shipped recipe, a test mailbox
pm() {
	timeout 60 procmail "$@" DEFAULT="$tmp/mbox" OUSTPBM="$bin" OUSTPBM_HOME="$h" "$rc" 2>>"$tmp/procmail.stderr"
}

mail alice@example.org "register alice secret" | pm
check "a mail through procmail: exit 0" [ $? = 0 ]
check "oustpbm handled it" grep -q 'cmd="register alice \*\*\*\*" ok' "$h/log"
check "its reply went out through SMTP" [ "$(ls "$tmp/sink" | grep -c '\.eml$')" = 1 ]
check "the reply reached alice" grep -q '"rcpt_tos": \["alice@example.org"\]' "$tmp/sink"/*.env
check "nothing filed in the mailbox" [ ! -s "$tmp/mbox" ]

mail alice@example.org "help" | pm -m
check "procmail -m with the same recipe: exit 0" [ $? = 0 ]
check "the second reply went out" [ "$(ls "$tmp/sink" | grep -c '\.eml$')" = 2 ]

# the store lock held by another process: oustpbm gives up after 200 ms with 75
/usr/bin/python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(30)
' "$h/store.lock" "$tmp/locked" &
holder=$!
pids="$pids $holder"
i=0
while [ ! -f "$tmp/locked" ] && [ "$i" -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "oustpbm alone exits 75 while the lock is held" \
    [ "$(mail bob@example.com "register bob hunter2" | "$bin" -d "$h" >/dev/null 2>&1; echo $?)" = 75 ]
mail bob@example.com "register bob hunter2" | pm
check "procmail exits 75: the MTA defers the mail" [ $? = 75 ]
check "not filed as delivered" [ ! -s "$tmp/mbox" ]
mail bob@example.com "register bob hunter2" | pm -m
check "procmail -m exits 75 too" [ $? = 75 ]
kill "$holder"
wait "$holder" 2>/dev/null
mail bob@example.com "register bob hunter2" | pm
check "delivered again later: exit 0" [ $? = 0 ]
check "bob is registered once" [ "$(grep -c '^bob:' "$h/users")" = 1 ]
check "and his reply went out" grep -q '"rcpt_tos": \["bob@example.com"\]' "$tmp/sink"/*.env

# a mail oustpbm cannot parse (no From): kept in the default mailbox, not deferred
printf 'Subject: help\n\nno sender\n' | pm
check "an unparsable mail: procmail exits 0" [ $? = 0 ]
check "... and files it in the default mailbox" grep -q 'no sender' "$tmp/mbox"

# the shipped .forward line and crontab
check ".forward pipes to procmail" grep -q '^"|exec /usr/bin/procmail"$' "$top/scripts/forward"
check "the crontab runs oustpbm flush" grep -q '^\*/5 \* \* \* \*	oustpbm flush$' "$top/scripts/crontab"

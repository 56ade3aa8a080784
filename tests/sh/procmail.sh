#!/bin/sh
# procmail: mails through the real procmail with the shipped recipe
# (scripts/procmailrc) into oustpbm, and the replies through SMTP to the
# sink of tests/smtpd/sink.py.  A temporary failure (a lock held too long:
# oustpbm exits 75) must come out of procmail as 75, so that the MTA keeps
# the mail, and must not be filed as delivered; a mail nobody can answer
# (no sender: exit 65) comes out as 65, for the MTA to bounce; nothing is
# ever filed in procmail's default mailbox.
. "$(dirname "$0")/lib.sh"
need procmail
tmpdir

sink sink

h=$tmp/home
mkhome "$h" "smtp_url = smtp://127.0.0.1:$port" 'lock_timeout_ms = 200'
rc=$top/scripts/procmailrc

pmail() { # FROM SUBJECT: its Message-ID made of the Subject (the same again is a redelivery)
	mail "$1" "$2" "$(echo "$2" | tr -c 'a-z0-9' '-').$$@example.net"
}

# pm [procmail args]: procmail as the MTA runs it, the shipped recipe, a test mailbox
pm() {
	timeout 60 procmail "$@" DEFAULT="$tmp/mbox" OUSTPBM="$bin" OUSTPBM_HOME="$h" "$rc" 2>>"$tmp/procmail.stderr"
}

pmail alice@example.org "register alice secret" | pm
check "a mail through procmail: exit 0" [ $? = 0 ]
check "oustpbm handled it" grep -q 'cmd="register alice \*\*\*\*" ok' "$h/log"
check "its reply went out through SMTP" [ "$(ls "$tmp/sink" | grep -c '\.eml$')" = 1 ]
check "the reply reached alice" grep -q '"rcpt_tos": \["alice@example.org"\]' "$tmp/sink"/*.env
check "nothing filed in the mailbox" [ ! -s "$tmp/mbox" ]

pmail alice@example.org "help" | pm -m
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
bg "$holder"
i=0
while [ ! -f "$tmp/locked" ] && [ "$i" -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "oustpbm alone exits 75 while the lock is held" \
    [ "$(pmail bob@example.com "register bob hunter2" | "$bin" -d "$h" >/dev/null 2>&1; echo $?)" = 75 ]
pmail bob@example.com "register bob hunter2" | pm
check "procmail exits 75: the MTA defers the mail" [ $? = 75 ]
check "not filed as delivered" [ ! -s "$tmp/mbox" ]
pmail bob@example.com "register bob hunter2" | pm -m
check "procmail -m exits 75 too" [ $? = 75 ]
kill "$holder"
wait "$holder" 2>/dev/null
pmail bob@example.com "register bob hunter2" | pm
check "delivered again later: exit 0" [ $? = 0 ]
check "bob's registration is recorded once" [ "$(grep -c '^bob ' "$h/pending")" = 1 ]
check "and his reply went out" grep -q '"rcpt_tos": \["bob@example.com"\]' "$tmp/sink"/*.env

# a mail oustpbm cannot parse (no From): 65 to the MTA (a bounce), not filed
printf 'Subject: help\n\nno sender\n' | pm
check "an unparsable mail: procmail exits 65 (the MTA bounces it)" [ $? = 65 ]
check "... and files nothing in the default mailbox" [ ! -s "$tmp/mbox" ]

# the shipped .forward line and crontab
check ".forward pipes to procmail" grep -q '^"|exec /usr/bin/procmail"$' "$top/scripts/forward"
check "the crontab runs oustpbm flush" grep -q '^\*/5 \* \* \* \*	oustpbm flush$' "$top/scripts/crontab"

# a bad configuration: oustpbm exits 75, procmail passes it on (the MTA
# keeps the mail), nothing is filed, the log says why; once fixed, the MTA's
# next try is answered
cp "$h/oustpbm.conf" "$tmp/conf.good"
echo 'max_message_bytes = ten' >>"$h/oustpbm.conf"
pmail carol@example.org "register carol pw1" | pm -f carol@example.org
check "a configuration error: procmail exits 75 (the MTA keeps the mail)" [ $? = 75 ]
pmail dave@example.org "register dave pw2" | pm -f dave@example.org
check "... the next one too" [ $? = 75 ]
check "... nothing in the default mailbox" [ ! -s "$tmp/mbox" ]
check "... and the log says why, naming the mail" grep -q "<register-carol-pw1-.*@example.net> from=carol@example.org .* error: configuration error: oustpbm.conf line [0-9]*: max_message_bytes 'ten'" "$h/log"
cp "$tmp/conf.good" "$h/oustpbm.conf"

pmail carol@example.org "register carol pw1" | pm -f carol@example.org
check "fixed, the MTA's next try: exit 0" [ $? = 0 ]
pmail dave@example.org "register dave pw2" | pm -f dave@example.org
check "... both mails handled" sh -c "grep -q '^carol ' '$h/pending' && grep -q '^dave ' '$h/pending'"
check "... and nothing filed" [ ! -s "$tmp/mbox" ]

# the same through an INCLUDERC, as init prints it: the 75 still reaches the MTA
printf 'OUSTPBM=%s\nOUSTPBM_HOME=%s\nINCLUDERC=%s\n' "$bin" "$h" "$rc" >"$tmp/procmailrc.top"
echo 'max_message_bytes = ten' >>"$h/oustpbm.conf"
pmail erin@example.org "register erin pw3" | timeout 60 procmail DEFAULT="$tmp/mbox" "$tmp/procmailrc.top" 2>>"$tmp/procmail.stderr"
check "through INCLUDERC: procmail exits 75" [ $? = 75 ]
check "... nothing in the default mailbox" [ ! -s "$tmp/mbox" ]
cp "$tmp/conf.good" "$h/oustpbm.conf"
done_testing

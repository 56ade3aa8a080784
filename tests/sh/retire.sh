#!/bin/sh
# retire: a server taken down without losing a mail (oustpbm retire).
# First new mail bounces: exit 69 (EX_UNAVAILABLE), which the real procmail
# with the shipped recipe passes on for the MTA to return the mail, with a
# message saying the server is retired; nothing is queued or answered.
# Then the outbox is flushed: a reply whose host is down keeps retire at
# exit 75, saying how many wait; once sent, retire exits 0 and only then
# gives the steps to remove the wiring (the address before anything).
# cron's runs go on with no game work (no reminder, no loss on time), only
# the flush; an automatic mail is still dropped (no bounce of a bounce);
# retire --undo takes mail again.  A retired robot host bounces the
# server's board mails (robot-mail) the same way.
. "$(dirname "$0")/lib.sh"
need procmail
tmpdir

sink s
sport=$port
spid=$pid
h=$tmp/home
mkhome "$h" "smtp_url = smtp://127.0.0.1:$sport" 'admin_address = admin@example.net' 'remind_days = 1'
check "alice registers" [ "$(rc send at=$T0 "$h" alice@example.org 'register alice secret')" = 0 ]
check "bob registers" [ "$(rc send at=$T0 "$h" bob@example.com 'register bob secret')" = 0 ]
check "a challenge" [ "$(rc send at=$T0 "$h" alice@example.org 'challenge alice secret bob -size=5')" = 0 ]
sent() { ls "$tmp/s" | grep -c '\.eml$'; }
before=$(sent)

# the SMTP server down: a reply waits in the outbox
kill "$spid"
wait "$spid" 2>/dev/null
check "a mail while the relay is down: answered, its reply queued" [ "$(rc send at=$((T0 + 10)) "$h" bob@example.com 'help')" = 0 ]
check "... one reply waiting" [ "$(ls "$h/outbox/new" | wc -l)" = 1 ]
OUSTPBM_TEST_TIME=$((T0 + 20)) "$bin" -d "$h" retire >"$tmp/out" 2>"$tmp/err"
check "retire with a reply that cannot go yet: exit 75" [ $? = 75 ]
check "... it says how many wait and to run it again" grep -q '^oustpbm: 1 reply is still queued (oustpbm outbox says why): keep the wiring and run oustpbm retire again until none is left$' "$tmp/out"
check "... no wiring steps yet" sh -c "! grep -q 'Now, in this order' '$tmp/out'"
check "... but the server is retired already" grep -q "^oustpbm: $h is retired since 2023-11-14T22:13:40Z: every new mail is returned to its sender (exit 69)\$" "$tmp/out"
check "... the stamp kept in the home" grep -qx '2023-11-14T22:13:40Z' "$h/retired"

# new mail bounces, through the real procmail and the shipped recipe
q0=$(ls "$h/outbox/new" | wc -l)
s0=$(store_sum "$h")
mail alice@example.org 'help' | OUSTPBM_TEST_TIME=$((T0 + 30)) "$bin" -d "$h" >/dev/null 2>"$tmp/err"
check "a mail to the retired server: exit 69 (EX_UNAVAILABLE: the MTA returns it)" [ $? = 69 ]
check "... standard error (the bounce's text) says it is retired, and names the admin" \
    grep -qx 'oustpbm: the game server oust@example.net is retired (since 2023-11-14T22:13:40Z) and takes no more mail; its admin: admin@example.net' "$tmp/err"
check "... nothing queued" [ "$(ls "$h/outbox/new" | wc -l)" = "$q0" ]
check "... nothing in the store changed" [ "$(store_sum "$h")" = "$s0" ]
check "... the log says why" grep -q 'from=alice@example.org .* bounced: the server is retired (since 2023-11-14T22:13:40Z): exit 69' "$h/log"
mail bob@example.com 'move 101 bob secret a1' | timeout 60 procmail DEFAULT="$tmp/mbox" OUSTPBM="$bin" OUSTPBM_HOME="$h" \
    "$top/scripts/procmailrc" 2>"$tmp/pm.err"
check "through procmail with the shipped recipe: exit 69 passed on" [ $? = 69 ]
check "... the message on its standard error" grep -q 'is retired (since 2023-11-14T22:13:40Z) and takes no more mail' "$tmp/pm.err"
check "... nothing filed in the default mailbox" [ ! -s "$tmp/mbox" ]
printf 'From: MAILER-DAEMON@example.org\nTo: oust@example.net\nSubject: Undelivered Mail\nAuto-Submitted: auto-replied\nMessage-ID: <dsn.1@example.org>\n\nreport\n' |
    "$bin" -d "$h" >/dev/null 2>&1
check "an automatic mail: dropped (exit 0), never bounced back" [ $? = 0 ]

OUSTPBM_TEST_TIME=$((T0 + 30)) "$bin" -d "$h" status >"$tmp/out"
check "status on a retired server: a warning (exit 1)" [ $? = 1 ]
check "... the line says since when and how to reopen" grep -q '^warning  *retired: since 2023-11-14T22:13:40Z: every mail is returned to its sender (oustpbm retire --undo reopens)$' "$tmp/out"

# cron's runs: the flush only
OUSTPBM_TEST_TIME=$((T0 + 3 * 86400)) "$bin" -d "$h" cleanup >/dev/null 2>&1
check "cleanup on a retired home: exit 0 (a reply deferred is no failure)" [ $? = 0 ]
check "... no reminder made (remind_days = 1, three days on)" sh -c "! grep -q 'remind' '$h/log' && [ \$(ls '$h/outbox/new' | wc -l) = 1 ]"
check "... its done line says why" grep -q 'cleanup done: retired (oustpbm retire): no game work; mail: 0 sent, 1 deferred, 0 failed' "$h/log"

# the relay back: retire again flushes, then gives the steps
sink s --port "$sport"
OUSTPBM_TEST_TIME=$((T0 + 40)) "$bin" -d "$h" retire >"$tmp/out" 2>"$tmp/err"
check "retire again, the relay back: exit 0" [ $? = 0 ]
check "... the waiting reply sent" [ "$(sent)" = $((before + 1)) ]
check "... the outbox empty" [ -z "$(ls "$h/outbox/new")" ]
check "... the first retire's time kept" grep -q "is retired since 2023-11-14T22:13:40Z" "$tmp/out"
check "... then the wiring's steps, the address first" sh -c "grep -q '^oustpbm: the outbox is empty: nothing is lost.  Now, in this order:' '$tmp/out' &&
    grep -q '1. remove the server.s address, so the MTA refuses its mail' '$tmp/out' && grep -q 'never only ~/.forward' '$tmp/out' &&
    grep -q 'crontab -r' '$tmp/out' && grep -q 'oustpbm retire --undo reopens it' '$tmp/out'"
check "... logged" grep -q 'admin retire: the outbox is empty' "$h/log"
OUSTPBM_TEST_TIME=$((T0 + 50)) "$bin" -d "$h" robot >/dev/null 2>&1
check "robot on a retired home: exit 0, its done line" sh -c "[ $? = 0 ] && grep -q 'robot done: retired (oustpbm retire): no game work; mail: 0 sent' '$h/log'"
check "a mail after: exit 69 still" [ "$(mail carol@example.org 'register carol secret' | deliver "$h" $((T0 + 60)); echo $?)" = 69 ]
check "... nothing sent for it" [ "$(sent)" = $((before + 1)) ]
check "retire with an argument: usage (exit 64)" [ "$(rc "$bin" -d "$h" retire now)" = 64 ]

# a damaged stamp still refuses mail: the admin meant it
echo garbage >"$h/retired"
check "a damaged retired stamp: mail still exits 69" [ "$(mail carol@example.org 'help' | deliver "$h" $((T0 + 70)); echo $?)" = 69 ]
check "... the message says since when it cannot tell" grep -q 'is retired (since ?) and takes no more mail' "$tmp/stderr"

# --undo: mail is taken again
OUSTPBM_TEST_TIME=$((T0 + 80)) "$bin" -d "$h" retire --undo >"$tmp/out"
check "retire --undo: exit 0" [ $? = 0 ]
check "... the stamp gone, logged" sh -c "[ ! -e '$h/retired' ] && grep -q 'admin retire --undo: mail is taken again' '$h/log'"
check "... a mail is answered again" [ "$(rc send at=$((T0 + 90)) "$h" carol@example.org 'help')" = 0 ]
check "... its reply sent" [ "$(sent)" = $((before + 2)) ]
check "retire --undo on a server not retired: exit 0, says so" sh -c "'$bin' -d '$h' retire --undo | grep -q 'is not retired: it takes mail'"
# a robot host retired: the server's board mails bounce back to it
r=$tmp/robothost
mkhome "$r" 'from_address = robot@robots.test' 'robot_server = oust@example.net' 'robot_secret_file = robot.secret'
# robot_server needs the secret shared with the server (src/mail/robotmac.h)
(umask 077 && printf '%s\n' retire-test-robot-secret-0123456789abcdef >"$r/robot.secret")
check "retire on a robot host: exit 0 (nothing queued)" [ "$(rc "$bin" -d "$r" retire)" = 0 ]
mail oust@example.net 'Oust Board 101 robot #1' | "$bin" -d "$r" robot-mail >/dev/null 2>"$tmp/err"
check "... a board mail to robot-mail: exit 69" [ $? = 69 ]
check "... saying so" grep -qx 'oustpbm: the robot host robot@robots.test is retired and takes no more mail' "$tmp/err"
check "... logged" grep -q 'robot-mail bounced: the host is retired: exit 69' "$r/log"
check "... robot-mail --queued (the kept ones): exit 0" [ "$(rc "$bin" -d "$r" robot-mail --queued)" = 0 ]
check "retire on a missing home: exit 78, nothing made" sh -c "[ \$('$bin' -d '$tmp/none' retire >/dev/null 2>&1; echo \$?) = 78 ] && [ ! -e '$tmp/none' ]"
done_testing

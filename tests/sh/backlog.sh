#!/bin/sh
# backlog: replies go out as soon as they can.  With the SMTP server (the
# aiosmtpd sink of tests/smtpd/sink.py) down, mails are handled and their
# replies queue; with it back, the next mail's process delivers its own
# reply, then the backlog that is due, in queue order, whatever each
# reply's own backoff said (a delivery to the host resets the host's
# backoff: src/outbox/hosts.h), within flush_backlog_max; the hosts file
# shows the backoff while the host is down and its reset after.
. "$(dirname "$0")/lib.sh"
tmpdir
need "$bin" "$PY"
export OUSTPBM_TEST_TIME=$T0

stop() { # PID
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

stored() { # messages the sink stored
	ls "$tmp/s" | grep -c '\.eml$'
}

run() { # HOME SUBJECT FROM [TIME]: feed a mail, print the exit status
	mail "$3" "$2" | OUSTPBM_TEST_TIME=${4:-$T0} timeout 60 "$bin" -d "$1" >/dev/null 2>>"$tmp/stderr"
	echo $?
}

# the recipients of the messages the sink started as PID stored, in the order it took them
order() {
	for f in $(ls "$tmp/s" | grep "^$1\..*\.env\$" | sort); do
		sed 's/.*"rcpt_tos": \["\([^"]*\)".*/\1/' "$tmp/s/$f"
		echo	# the file has no line end
	done | tr '\n' ' '
}

sink s
sport=$port
spid=$pid
h=$tmp/home
mkhome "$h" "smtp_url = smtp://127.0.0.1:$sport" 'smtp_connect_timeout = 2' 'smtp_timeout = 10'
check "register alice with the server up: exit 0" [ "$(run "$h" "register alice secret" alice@example.org)" = 0 ]
up=$(stored)
check "... her reply was delivered at once" [ "$up" = 1 ]

# ---- the server down: three mails, their replies queue
stop "$spid"
check "carol's mail with the server down: exit 0" [ "$(run "$h" help carol@example.org $((T0 + 10)))" = 0 ]
check "dave's: exit 0" [ "$(run "$h" help dave@example.org $((T0 + 20)))" = 0 ]
check "erin's: exit 0" [ "$(run "$h" help erin@example.org $((T0 + 30)))" = 0 ]
check "three replies wait in the outbox" [ "$(ls "$h/outbox/new" | wc -l)" = 3 ]
check "each marked with the host that was down" \
    [ "$(grep -l "^host 127.0.0.1:$sport\$" "$h/outbox/new"/* | wc -l)" = 3 ]
check "the hosts file counts the failed runs and says the next" \
    grep -q "^127.0.0.1:$sport 3 $((T0 + 10)) $((T0 + 30 + 240)) 0 smtp: " "$h/outbox/hosts"
"$bin" -d "$h" status >"$tmp/st1" 2>&1
check "status shows the host's backoff" grep -q "host 127.0.0.1:$sport: down since .*3 failed runs, next in" "$tmp/st1"

# ---- the server back: the next mail's process sends its reply, then the backlog in order
sink s --port "$sport"
spid=$pid
check "frank's mail with the server back, before any reply's backoff is over: exit 0" \
    [ "$(run "$h" help frank@example.org $((T0 + 40)))" = 0 ]
check "his reply first, then carol's, dave's and erin's, in order" \
    [ "$(order "$spid")" = "frank@example.org carol@example.org dave@example.org erin@example.org " ]
check "nothing left in the outbox" [ "$(ls "$h/outbox/new" | wc -l)" = 0 ]
check "the log says the host works again" grep -q "outbox host 127.0.0.1:$sport works again after 3 failed runs" "$h/log"
check "the hosts file: the host reset" grep -q "^127.0.0.1:$sport 0 0 0 $((T0 + 40)) -\$" "$h/outbox/hosts"
check "the backlog logged as delivered after its failed attempt" \
    grep -q 'rcpt=carol@example.org delivered: after 1 failed attempt since' "$h/log"

# ---- flush_backlog_max: the backlog a mail's process takes is capped
h2=$tmp/capped
mkhome "$h2" "smtp_url = smtp://127.0.0.1:$sport" 'smtp_connect_timeout = 2' 'smtp_timeout = 10' \
    'flush_backlog_max = 1'
stop "$spid"
for who in p1 p2 p3; do
	run "$h2" help $who@example.org $((T0 + 10)) >/dev/null
done
sink s --port "$sport"
spid=$pid
was=$(stored)
check "with flush_backlog_max = 1 the mail is handled: exit 0" [ "$(run "$h2" help q@example.org $((T0 + 20)))" = 0 ]
check "... its reply and one of the backlog went" [ "$(stored)" = $((was + 2)) ]
check "... two are left for flush, logged" sh -c "[ \$(ls '$h2/outbox/new' | wc -l) = 2 ] &&
    grep -q '2 left for flush' '$h2/log'"
OUSTPBM_TEST_TIME=$((T0 + 21)) "$bin" -d "$h2" flush >/dev/null 2>&1
check "... and flush sends them at once, backoff or not (the host works)" [ "$(stored)" = $((was + 4)) ]

# ---- flush_backlog_seconds = 0: a mail's process sends its own replies only
h3=$tmp/mine
mkhome "$h3" "smtp_url = smtp://127.0.0.1:$sport" 'smtp_connect_timeout = 2' 'smtp_timeout = 10' \
    'flush_backlog_seconds = 0'
stop "$spid"
run "$h3" help r1@example.org $((T0 + 10)) >/dev/null
sink s --port "$sport"
spid=$pid
was=$(stored)
check "flush_backlog_seconds = 0: the mail is handled" [ "$(run "$h3" help r2@example.org $((T0 + 20)))" = 0 ]
check "... only its own reply went" sh -c "[ $(stored) = $((was + 1)) ] && [ \$(ls '$h3/outbox/new' | wc -l) = 1 ]"
printf 'flush_backlog_max = 100001\n' >>"$h3/oustpbm.conf"
check "a value of flush_backlog_max out of range is a configuration error" \
    sh -c "'$bin' -d '$h3' queue >/dev/null 2>'$tmp/err'; [ \$? = 78 ] && grep -q \"flush_backlog_max '100001' is out of range\" '$tmp/err'"

done_testing

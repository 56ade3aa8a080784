#!/bin/sh
# bounces: a 5xx answer to RCPT TO at SMTP time (the aiosmtpd sink of
# tests/smtpd/sink.py answers rcpt550@ with "550 5.1.1 no such user")
# counts a bounce of the address; at bounce_limit its replies go to
# outbox/failed/ unsent; a mail from the address clears the count; a 5.7.x
# policy refusal (rcpt550ml@: "550-5.7.1 ...") is not counted.
. "$(dirname "$0")/lib.sh"
tmpdir
need "$bin" "$PY"
export OUSTPBM_TEST_TIME=$T0

run() { # HOME FROM SUBJECT: feed a mail, print the exit status
	mail "$2" "$3" | timeout 60 "$bin" -d "$1" >/dev/null 2>>"$tmp/stderr"
	echo $?
}

reg() { # HOME FROM SUBJECT: a register, confirmed from FROM (lib.sh's deliver); print the exit status
	mail "$2" "$3" | deliver "$1"
	echo $?
}

to_bob() { # the mails the sink took for bob
	grep -l '"rcpt_tos": \["bob@example.com"\]' "$tmp/s"/*.env 2>/dev/null | wc -l | tr -d ' '
}

count() { # HOME ADDRESS: its bounces, 0 if none
	awk -v a="$2" '$1 == a { print $2; f = 1 } END { if (!f) print 0 }' "$1/bounces" 2>/dev/null || echo 0
}

sink s
h=$tmp/home
mkhome "$h" "smtp_url = smtp://127.0.0.1:$port" 'smtp_connect_timeout = 2' 'smtp_timeout = 10'
dead=rcpt550@example.org
check "bob registers: exit 0" [ "$(reg "$h" bob@example.com 'register bob hunter2')" = 0 ]
# its confirm, from the address, clears the code's bounce: its welcome's is the one counted
check "an account whose address the server refuses registers: exit 0" [ "$(reg "$h" $dead 'register dead secret')" = 0 ]
check "... its reply refused with 550 5.1.1 at RCPT: one bounce" [ "$(count "$h" $dead)" = 1 ]
check "... logged" grep -q "rcpt=$dead the address bounced: bounce 1 of 3 (5.1.1)" "$h/log"
check "... the reply in outbox/failed/" sh -c "grep -l 'rcpt $dead' '$h/outbox/failed'/* >/dev/null"
bob0=$(to_bob)	# his registration's code and welcome
check "bob challenges it: exit 0" [ "$(run "$h" bob@example.com 'challenge bob hunter2 dead -size=5')" = 0 ]
check "... a second bounce" [ "$(count "$h" $dead)" = 2 ]
check "bob challenges again: exit 0" [ "$(run "$h" bob@example.com 'challenge bob hunter2 dead -size=5')" = 0 ]
check "... the third: the address stopped" sh -c "[ $(count "$h" $dead) = 3 ] &&
    grep -q 'bounce 3 of 3 (5.1.1), no more mail to it until it writes' '$h/log'"
was=$(grep -c "rcpt=$dead refused" "$h/log")
check "bob's third challenge: exit 0" [ "$(run "$h" bob@example.com 'challenge bob hunter2 dead -size=5')" = 0 ]
check "... the reply to the stopped address not sent, moved to failed/" \
    grep -q "rcpt=$dead not sent, moved to failed/: the address bounced 3 times (bounce_limit 3)" "$h/log"
check "... no RCPT tried for it" [ "$(grep -c "rcpt=$dead refused" "$h/log")" = "$was" ]
check "... the count unchanged" [ "$(count "$h" $dead)" = 3 ]
check "... bob's own reply delivered" [ "$(to_bob)" = $((bob0 + 3)) ]
check "status: warnings (exit 1), the address named" sh -c "'$bin' -d '$h' status >'$tmp/st'; [ \$? = 1 ] &&
    grep -q '^warning  *bounces: $dead (account dead) gets no mail: 3 bounces' '$tmp/st'"
check "the address writes: exit 0" [ "$(run "$h" $dead 'whoami dead secret')" = 0 ]
check "... its bounces cleared, logged" grep -q "the address's 3 bounces cleared: it wrote" "$h/log"
check "... its reply tried again (refused again: one bounce)" [ "$(count "$h" $dead)" = 1 ]

# a policy refusal (5.7.x) is about the server, not the address
check "a reply refused with 550 5.7.1 at RCPT: exit 0" [ "$(run "$h" rcpt550ml@example.org help)" = 0 ]
check "... refused, in failed/" sh -c "grep -l 'rcpt rcpt550ml@example.org' '$h/outbox/failed'/* >/dev/null"
check "... no bounce counted" [ "$(count "$h" rcpt550ml@example.org)" = 0 ]

# bounce_limit = 0: counted, never stopped
h2=$tmp/nolimit
mkhome "$h2" "smtp_url = smtp://127.0.0.1:$port" 'smtp_connect_timeout = 2' 'smtp_timeout = 10' 'bounce_limit = 0'
reg "$h2" bob@example.com 'register bob hunter2' >/dev/null
reg "$h2" $dead 'register dead secret' >/dev/null
# the confirm from the address cleared the code's bounce, its welcome bounced: 1
was=$(grep -c "rcpt=$dead refused" "$h2/log")
for i in 1 2 3; do
	run "$h2" bob@example.com 'challenge bob hunter2 dead -size=5' >/dev/null
done
check "bounce_limit = 0: four bounces counted" [ "$(count "$h2" $dead)" = 4 ]
check "... each reply tried" [ "$(grep -c "rcpt=$dead refused" "$h2/log")" = $((was + 3)) ]
check "... none stopped" sh -c "! grep -q 'not sent' '$h2/log'"

done_testing

#!/bin/sh
# bounces: a 5xx answer to RCPT TO at SMTP time (the aiosmtpd sink of
# tests/smtpd/sink.py answers rcpt550@ with "550 5.1.1 no such user")
# counts a bounce of the address; at bounce_limit its replies go to
# outbox/failed/ unsent; a mail from the address clears the count; a 5.7.x
# policy refusal (rcpt550ml@: "550-5.7.1 ...") is not counted.  A delivery
# report counts only for the address its mail's Message-ID was sent to,
# once, and never for robot_address or admin_address (the admin is alerted).
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

# ---- delivery reports (src/commands/pipeline/bounce.h, src/mail/idmac.h):
# one counts only when it names a mail the server sent to that address (its
# Message-ID's mac), each address once, a report once; robot_address and
# admin_address are never silenced: the admin is alerted instead
h3=$tmp/reports
mkhome "$h3" "smtp_url = smtp://127.0.0.1:$port" 'smtp_connect_timeout = 2' 'smtp_timeout = 10'
# sent_id ADDRESS: the Message-ID of the newest mail the sink took for ADDRESS
sent_id() {
	lib_f=$(grep -l "\"rcpt_tos\": \\[\"$1\"\\]" "$tmp/s"/*.env | sort -t/ -k1 -V | tail -n 1)
	tr -d '\r' <"${lib_f%.env}.eml" | sed -n 's/^Message-I[Dd]: *<\(.*\)>.*/\1/p' | head -n 1
}
# report HOME ID REPORT-ID ADDRESS...: a Postfix-like report about the mail ID naming each ADDRESS; prints the exit status
report() {
	lib_h=$1 lib_id=$2 lib_rid=$3
	shift 3
	{
		printf 'From: MAILER-DAEMON@mx.example.org\nTo: oust@example.net\nSubject: Undelivered Mail Returned to Sender\n'
		printf 'Auto-Submitted: auto-replied\nMessage-ID: <%s>\nMIME-Version: 1.0\n' "$lib_rid"
		printf 'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n--b\n'
		printf 'Content-Type: text/plain\n\nNot delivered.\n\n--b\nContent-Type: message/delivery-status\n\n'
		printf 'Reporting-MTA: dns; mx.example.org\n'
		for lib_a in "$@"; do
			printf '\nFinal-Recipient: rfc822; %s\nAction: failed\nStatus: 5.1.1\n' "$lib_a"
		done
		printf '\n--b\nContent-Type: text/rfc822-headers\n\nFrom: oust@example.net\nMessage-ID: <%s>\n\n--b--\n' "$lib_id"
	} | timeout 60 "$bin" -d "$lib_h" >/dev/null 2>>"$tmp/stderr"
	echo $?
}
reg "$h3" carol@example.org 'register carol secret' >/dev/null
run "$h3" carol@example.org 'whoami carol secret' >/dev/null
cid=$(sent_id carol@example.org)
check "the reply's Message-ID carries a mac" sh -c "echo '$cid' | grep -E -q '\\.[0-9a-f]{16}@example\\.net\$'"
# one hex digit of the mac changed: the id keeps its shape
forged=$(echo "$cid" | sed 's/[1-9a-f]\(@example\.net\)$/0\1/; t; s/0\(@example\.net\)$/1\1/')
check "a report of a mail to carol with its mac changed: exit 0" [ "$(report "$h3" "$forged" r1@x carol@example.org)" = 0 ]
check "... not counted" [ "$(count "$h3" carol@example.org)" = 0 ]
check "... logged as such" grep -q "<r1@x>.*carol@example.org failed (5.1.1): not counted, the report names no mail of ours to it" "$h3/log"
rc=$(report "$h3" "$cid" r2@x dave@example.org)
check "a report of carol's mail naming dave: not counted" sh -c "[ $rc = 0 ] && ! grep -q '^dave@' '$h3/bounces' 2>/dev/null"
check "the genuine report naming carol three times: exit 0" \
    [ "$(report "$h3" "$cid" r3@x carol@example.org Carol@Example.org carol@example.org)" = 0 ]
check "... one bounce" [ "$(count "$h3" carol@example.org)" = 1 ]
rc=$(report "$h3" "$cid" r4@x carol@example.org)
check "the same report again, under another Message-ID: still one" sh -c "[ $rc = 0 ] &&
    [ \$(awk '\$1 == \"carol@example.org\" { print \$2 }' '$h3/bounces') = 1 ] &&
    grep -q '<r4@x>.* this report was counted before (bounce 1), not again' '$h3/log'"
# bounces.lock held past lock_timeout_ms: exit 75, nothing counted; the MTA's next try counts it once
run "$h3" carol@example.org 'whoami carol secret' >/dev/null
cid2=$(sent_id carol@example.org)
echo 'lock_timeout_ms = 300' >>"$h3/oustpbm.conf"
if hold_lock "$h3/bounces.lock"; then
	rc=$(report "$h3" "$cid2" r7@x carol@example.org)
	release_lock
	check "a report while bounces.lock is held: exit 75" [ "$rc" = 75 ]
	check "... nothing counted, logged" sh -c "[ $(count "$h3" carol@example.org) = 0 ] &&
	    grep -q '<r7@x>.* tempfail: .*carol@example.org failed (5.1.1), bounce not recorded: ' '$h3/log'"
	rc=$(report "$h3" "$cid2" r7@x carol@example.org)
	check "... delivered again: counted once" sh -c "[ $rc = 0 ] && [ $(count "$h3" carol@example.org) = 1 ]"
else
	check "bounces.lock held" false
fi
# the admin plays too: a genuine report of a mail to the player's address, once it is admin_address
reg "$h3" boss@example.org 'register boss secret' >/dev/null
run "$h3" boss@example.org 'whoami boss secret' >/dev/null
bid=$(sent_id boss@example.org)
reg "$h3" robot@example.org 'register robbie secret' >/dev/null
run "$h3" robot@example.org 'whoami robbie secret' >/dev/null
rid=$(sent_id robot@example.org)
printf 'admin_address = boss@example.org\nrobot_address = robot@example.org\nrobot_secret_file = robot.secret\n' >>"$h3/oustpbm.conf"
# robot_address needs the secret shared with the robot host (src/mail/robotmac.h)
(umask 077 && printf '%s\n' bounces-test-robot-secret-0123456789abcdef >"$h3/robot.secret")
admin0=$(grep -l '"rcpt_tos": \["boss@example.org"\]' "$tmp/s"/*.env | wc -l)
check "a genuine report naming robot_address: exit 0" [ "$(report "$h3" "$rid" r5@x robot@example.org)" = 0 ]
check "... not counted" [ "$(count "$h3" robot@example.org)" = 0 ]
check "... the admin alerted, logged" sh -c "grep -q '<r5@x>.*robot@example.org failed (5.1.1): robot_address is never silenced, the admin is alerted' '$h3/log' &&
    grep -q 'alert bounce-robot-address: ' '$h3/log'"
check "... the alert mailed to admin_address" [ "$(grep -l '"rcpt_tos": \["boss@example.org"\]' "$tmp/s"/*.env | wc -l)" -gt "$admin0" ]
rc=$(report "$h3" "$bid" r6@x boss@example.org)
check "a genuine report naming admin_address: not counted, alerted" sh -c "[ $rc = 0 ] &&
    ! grep -q '^boss@example.org ' '$h3/bounces' &&
    grep -q '<r6@x>.*boss@example.org failed (5.1.1): admin_address is never silenced, the admin is alerted' '$h3/log'"

done_testing

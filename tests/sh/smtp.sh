#!/bin/sh
# smtp: oustpbm with the smtp transport against a real SMTP server, the sink
# of tests/smtpd/sink.py (Debian's aiosmtpd on 127.0.0.1): replies parsed
# back with GMime, the move standing while the server is down, flush and
# queue, backoff, 550 and 451, a slow server, a hand-made queue file with
# CR/LF in its recipient, STARTTLS with AUTH and a password file, a wrong CA,
# a missing libcurl, two flushes at once, and ./oustpbm not linked with
# libcurl.  Every server is killed on exit; every wait is bounded.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

stop() { # PID
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

stored() { # NAME: messages the sink stored
	ls "$tmp/$1" | grep -c '\.eml$'
}

run() { # HOME SUBJECT [FROM]: feed a mail, print the exit status
	mail "${3:-alice@example.org}" "$2" | deliver "$1"
	echo $?
}

conf() { # HOME PORT [more lines]: a home sending through 127.0.0.1:PORT
	h=$1
	p=$2
	shift 2
	mkhome "$h" "smtp_url = smtp://127.0.0.1:$p" 'helo_name = games.example.net' 'smtp_connect_timeout = 2' \
	    'smtp_timeout = 10' "$@"
}

# the GMime check helper
mc=$tmp/mimecheck
${CC:-cc} -std=c11 -o "$mc" tests/smtpd/mimecheck.c $(pkg-config --cflags --libs gmime-3.0) ||
    { echo "not ok - cannot build tests/smtpd/mimecheck.c"; exit 1; }

# parsed NAME RCPT: the GMime view of the last message the sink NAME stored for RCPT
parsed() {
	f=$(cd "$tmp/$1" && grep -l "\"rcpt_tos\": \[\"$2\"\]" *.env 2>/dev/null | sort | tail -n 1)
	[ -n "$f" ] && "$mc" "$tmp/$1/${f%.env}.eml"
}

# ---- ./oustpbm and libcurl
check "./oustpbm is not linked with libcurl" sh -c "! ldd '$bin' | grep -q libcurl"

# ---- plain SMTP: register two players, play a move
sink plain
pport=$port
ppid=$pid
h=$tmp/home
conf "$h" "$pport"
check "register through smtp: exit 0" [ "$(run "$h" "register alice secret")" = 0 ]
check "register bob: exit 0" [ "$(run "$h" "register bob hunter2" bob@example.com)" = 0 ]
check "challenge: exit 0" [ "$(run "$h" "challenge alice secret bob -size=5")" = 0 ]
check "the replies reached the server" [ "$(stored plain)" -ge 4 ]
check "nothing left in the outbox" [ "$(ls "$h/outbox/new" | wc -l)" = 0 ]
check "copies kept in outbox/sent" [ "$(ls "$h/outbox/sent" | wc -l)" = "$(stored plain)" ]
parsed plain alice@example.org >"$tmp/p1" 2>&1
check "a reply parses with GMime" grep -q '^To: alice@example.org$' "$tmp/p1"
check "From and Subject as sent" sh -c "grep -q '^From: oustpbm <oust@example.net>\$' '$tmp/p1' &&
    grep -qE '^Subject: Oust Board 101 alice vs bob \[[-0-9A-Z]+\]\$' '$tmp/p1'"
check "text/plain utf-8 body with the board" sh -c "grep -q '^Content-Type: text/plain; charset=utf-8\$' '$tmp/p1' &&
    grep -q 'alice' '$tmp/p1'"
check "the envelope: sender, EHLO name" sh -c "grep -h '\"alice@example.org\"' '$tmp/plain'/*.env |
    grep -q '\"mail_from\": \"oust@example.net\", .*\"helo\": \"games.example.net\"'"
check "CRLF on the wire, no bare LF" awk '!/\r$/ { bad = 1 } END { exit bad }' "$tmp/plain"/*.eml
check "all replies over few connections" [ "$(wc -l <"$tmp/plain/connections")" -le "$(stored plain)" ]

# ---- the server down: the move stands, the replies wait
stop "$ppid"
before=$(cksum <"$h/games/101.game")
check "a move with the server down: exit 0" [ "$(run "$h" "move 101 alice secret C3")" = 0 ]
check "the move stands" [ "$(cksum <"$h/games/101.game")" != "$before" ]
check "its two replies wait in the outbox" [ "$(ls "$h/outbox/new" | wc -l)" = 2 ]
"$bin" -d "$h" queue >"$tmp/q1"
check "queue: exit 0" [ $? = 0 ]
check "queue lists recipient, subject, attempts, next, error" sh -c "grep -q '  to:       alice@example.org' '$tmp/q1' &&
    grep -q '  subject:  Oust Board 101' '$tmp/q1' && grep -q '  attempts: 1' '$tmp/q1' &&
    grep -q '  next:     2023-11-14T22:14:20Z' '$tmp/q1' && grep -q '  error:    smtp: ' '$tmp/q1' &&
    grep -q '^2 mails waiting' '$tmp/q1'"
check "only the first mail was tried (server unavailable)" grep -q '  attempts: 0' "$tmp/q1"
check "the log says deferred" grep -q 'deferred: smtp: ' "$h/log"

# the server back on the same port; flush, as cron does
sink plain --port "$pport"
ppid=$pid
was=$(stored plain)
"$bin" -d "$h" flush >"$tmp/f1"
check "flush: exit 0" [ $? = 0 ]
check "the mail not yet due waits, the other goes" [ "$(stored plain)" = $((was + 1)) ]
OUSTPBM_TEST_TIME=1700000060 "$bin" -d "$h" flush >/dev/null
check "a minute later both are delivered" [ "$(stored plain)" = $((was + 2)) ]
OUSTPBM_TEST_TIME=1700000120 "$bin" -d "$h" flush >/dev/null
check "flushing again sends nothing twice" [ "$(stored plain)" = $((was + 2)) ]
check "the outbox is empty" sh -c "'$bin' -d '$h' queue | grep -q '^0 mails waiting'"
# the move's replies: the board after turn 1, their Message-IDs <101.1.USER...> (the Subject is the game's)
check "each player got the move's reply exactly once" sh -c "[ \$(grep -l '^Message-I[dD]: <101\.1\.' '$tmp/plain'/*.eml |
    sed 's/eml\$/env/' | xargs grep -ho 'rcpt_tos.: .[^]]*' | sort -u | wc -l) = 2 ] &&
    [ \$(grep -l '^Message-I[dD]: <101\.1\.' '$tmp/plain'/*.eml | wc -l) = 2 ]"

# ---- two flushes at once never send a mail twice
i=0
while [ "$i" -lt 20 ]; do
	run "$h" "games" "p$i@example.org" >/dev/null
	i=$((i + 1))
done
stop "$ppid"
for i in 1 2 3 4 5 6; do
	mail "q$i@example.org" help | OUSTPBM_TEST_TIME=1700000200 "$bin" -d "$h" >/dev/null 2>&1
done
sink plain --port "$pport"
ppid=$pid
was=$(stored plain)
OUSTPBM_TEST_TIME=1700009999 "$bin" -d "$h" flush >/dev/null &
f1=$!
OUSTPBM_TEST_TIME=1700009999 "$bin" -d "$h" flush >/dev/null &
f2=$!
wait "$f1" "$f2"
check "two flushes at once: every mail once" [ "$(stored plain)" = $((was + 6)) ]
check "no duplicate Message-ID" sh -c "[ -z \"\$(grep -h '^Message-I[dD]:' '$tmp/plain'/*.eml | sort | uniq -d)\" ]"

# ---- 550 and 451 answers
check "a reply refused with 550 at RCPT: the mail is handled (exit 0)" \
    [ "$(run "$h" help rcpt550@example.org)" = 0 ]
check "... the reply is in outbox/failed" sh -c "grep -l 'rcpt rcpt550@example.org' '$h/outbox/failed'/* >/dev/null"
check "... logged" grep -q 'rcpt=rcpt550@example.org refused, moved to failed/: smtp: .*550' "$h/log"
check "a reply refused with 550 at DATA: exit 0" [ "$(run "$h" help data550@example.org)" = 0 ]
check "... in failed/" sh -c "grep -l 'rcpt data550@example.org' '$h/outbox/failed'/* >/dev/null"
run "$h" help rcpt451@example.org >/dev/null
run "$h" help data451@example.org >/dev/null
"$bin" -d "$h" queue >"$tmp/q2"
check "451 at RCPT and at DATA: both kept with their error" sh -c "grep -A5 'rcpt451@' '$tmp/q2' | grep -q 'error: .*451' &&
    grep -A5 'data451@' '$tmp/q2' | grep -q 'error: .*451'"
OUSTPBM_TEST_TIME=$((1700000000 + 6 * 86400)) "$bin" -d "$h" flush >"$tmp/f2"
check "after retry_days they move to failed/" sh -c "grep -l 'rcpt rcpt451@example.org' '$h/outbox/failed'/* >/dev/null &&
    grep -l 'rcpt data451@example.org' '$h/outbox/failed'/* >/dev/null"
check "flush says so on stdout" grep -q 'failed (see the log)' "$tmp/f2"
OUSTPBM_TEST_TIME=$((1700000000 + 20 * 86400)) "$bin" -d "$h" flush >/dev/null
check "old copies are pruned from sent/" [ "$(ls "$h/outbox/sent" | wc -l)" = 0 ]

# ---- requeue: replies in failed/ back into the queue
nfailed=$(ls "$h/outbox/failed" | wc -l)
id=$(cd "$h/outbox/failed" && grep -l 'rcpt rcpt550@example.org' * | head -n 1)
rc=$("$bin" -d "$h" requeue "$id" >"$tmp/rq" 2>&1; echo $?)
check "requeue ID: exit 0, the reply is back in outbox/new" [ "$rc" = 0 -a -f "$h/outbox/new/$id" -a ! -f "$h/outbox/failed/$id" ]
check "... with its retries reset" sh -c "grep -q '^attempts 0$' '$h/outbox/new/$id' && grep -q '^next 0$' '$h/outbox/new/$id'"
check "... said on stdout and logged" sh -c "grep -q '1 mail moved back' '$tmp/rq' && grep -q '$id.*requeued from failed/' '$h/log'"
check "requeue of an id not in failed/: exit 66, named" \
    sh -c "'$bin' -d '$h' requeue 1700000000.M1P1Q1.nosuch >/dev/null 2>'$tmp/rqe'; [ \$? = 66 ] && grep -q 'no reply 1700000000.M1P1Q1.nosuch in outbox/failed/' '$tmp/rqe'"
rc=$("$bin" -d "$h" requeue all >"$tmp/rq" 2>&1; echo $?)
check "requeue all: every reply of failed/ moved back" [ "$rc" = 0 -a "$(ls "$h/outbox/failed" | wc -l)" = 0 ]
check "... $nfailed of them" grep -q "$((nfailed - 1)) mails moved back" "$tmp/rq"
OUSTPBM_TEST_TIME=$((1700000000 + 20 * 86400)) "$bin" -d "$h" flush >/dev/null
check "... and the next flush tries them again (550 again: back in failed/)" \
    sh -c "grep -l 'rcpt rcpt550@example.org' '$h/outbox/failed'/* >/dev/null"

# ---- a 5xx about the server or the session defers the run, it fails no reply
for mode in greeting ehlo mail; do
	sink refuse-$mode --refuse $mode
	h5=$tmp/refuse-$mode
	conf "$h5" "$port"
	run "$h5" "register alice secret" >/dev/null
	rc=$(run "$h5" help)
	check "5xx at $mode: the mail is handled (exit $rc)" [ "$rc" = 0 ]
	check "... no reply moved to failed/" [ "$(ls "$h5/outbox/failed" | wc -l)" = 0 ]
	check "... the three replies (code, welcome, help) wait in the queue" [ "$(ls "$h5/outbox/new" | wc -l)" = 3 ]
	check "... logged as deferred with the server's answer" grep -q "deferred.*5[35][0-9]" "$h5/log"
	stop "$pid"
done
# the relay fixed: flush waits for the backoff, flush --all does not
conf "$h5" "$pport"
was=$(stored plain)
OUSTPBM_TEST_TIME=1700000010 "$bin" -d "$h5" flush >/dev/null 2>&1
check "after the fix, flush keeps to the backoff: nothing sent" [ "$(stored plain)" = "$was" ]
rc=$(OUSTPBM_TEST_TIME=1700000010 "$bin" -d "$h5" flush --all 2>&1; echo $?)
check "flush --all sends them at once (exit $rc)" [ "$rc" = 0 -a "$(stored plain)" = $((was + 3)) -a "$(ls "$h5/outbox/new" | wc -l)" = 0 ]
check "flush with another argument: usage, exit 64" \
    sh -c "'$bin' -d '$h5' flush --now >/dev/null 2>&1; [ \$? = 64 ]"

# ---- a multi-line 550: the server's whole reply kept with the failed reply, listed and logged
h6=$tmp/ml550
conf "$h6" "$pport"
run "$h6" "register alice secret" >/dev/null
l1='550-5.7.1 The mailbox rcpt550ml is refused: "policy" says no.'
l2='550-5.7.1 See https://sink.test/why?id=42 for the reasons,'
l3='550 5.7.1 and write to postmaster@sink.test if this is wrong.'
check "a multi-line 550 at RCPT: the mail is handled (exit 0)" [ "$(run "$h6" help rcpt550ml@example.org)" = 0 ]
f6=$(grep -l 'rcpt rcpt550ml@example.org' "$h6/outbox/failed"/* 2>/dev/null | head -n 1)
check "... the reply is in outbox/failed with the server's three lines, in order" \
    sh -c "[ -n '$f6' ] && sed -n '/^\$/q;/^reply /p' '$f6' >'$tmp/r6' &&
    printf 'reply %s\nreply %s\nreply %s\n' '$l1' '$l2' '$l3' | cmp -s - '$tmp/r6'"
check "... and its error line" grep -q '^error smtp: RCPT failed: 550 (server answered 550)$' "$f6"
"$bin" -d "$h6" queue >"$tmp/q6"
check "queue lists it as failed with the server's whole reply" \
    sh -c "grep -q '^  failed:   smtp: RCPT failed: 550 (server answered 550)\$' '$tmp/q6' &&
    grep -A1 '^  failed: ' '$tmp/q6' | grep -qxF '  server:   $l1' &&
    grep -qxF '            $l2' '$tmp/q6' && grep -qxF '            $l3' '$tmp/q6' &&
    grep -q '^1 mail failed, kept in outbox/failed/' '$tmp/q6' && grep -q '^0 mails waiting' '$tmp/q6'"
check "the log line holds it whole, quoted on one line" \
    grep -qF 'rcpt=rcpt550ml@example.org refused, moved to failed/: smtp: RCPT failed: 550 (server answered 550) server="550-5.7.1 The mailbox rcpt550ml is refused: \"policy\" says no.\n550-5.7.1 See https://sink.test/why?id=42 for the reasons,\n550 5.7.1 and write to postmaster@sink.test if this is wrong."' "$h6/log"
check "a multi-line 550 to the message (end of DATA): exit 0" [ "$(run "$h6" help data550ml@example.org)" = 0 ]
f7=$(grep -l 'rcpt data550ml@example.org' "$h6/outbox/failed"/* 2>/dev/null | head -n 1)
check "... kept with its three lines" sh -c "[ -n '$f7' ] && [ \$(sed -n '/^\$/q;/^reply 550[- ]5.7.1 /p' '$f7' | wc -l) = 3 ] &&
    grep -q '^reply 550-5.7.1 The message to data550ml is refused' '$f7'"
"$bin" -d "$h6" requeue "$(basename "$f6")" >/dev/null 2>&1
check "requeue drops the old reply with the error" sh -c "! grep -q '^reply ' '$h6/outbox/new/$(basename "$f6")'"

# ---- one mail delivers its own replies, then at most a few seconds of the backlog
sink slowbl --slow 2
hb=$tmp/backlog
conf "$hb" 9	# the discard port: nothing listens, every reply waits
run "$hb" "register alice secret" >/dev/null
for i in 1 2 3 4 5 6; do
	run "$hb" help slow@example.org >/dev/null
done
check "a backlog of 6 replies to a slow recipient" [ "$(ls "$hb/outbox/new" | grep -c .)" -ge 6 ]
conf "$hb" "$port"
start=$(date +%s)
rc=$(mail alice@example.org help | OUSTPBM_TEST_TIME=1700009999 timeout 60 "$bin" -d "$hb" 2>/dev/null; echo $?)
took=$(($(date +%s) - start))
check "a mail beside the backlog: exit $rc in $took s, less than the 12 s of the whole backlog" [ "$rc" = 0 -a "$took" -lt 12 ]
check "... its own reply was sent" sh -c "grep -l '\"rcpt_tos\": \[\"alice@example.org\"\]' '$tmp/slowbl'/*.env | grep -q ."
check "... part of the backlog is left for flush" [ "$(ls "$hb/outbox/new" | wc -l)" -ge 2 ]
check "... and the log says so" grep -q "left for flush" "$hb/log"
OUSTPBM_TEST_TIME=1700009999 timeout 60 "$bin" -d "$hb" flush >/dev/null 2>&1
check "oustpbm flush sends the rest" [ "$(ls "$hb/outbox/new" | wc -l)" = 0 ]
stop "$pid"

# ---- a hand-made queue file with CR/LF in the recipient never reaches libcurl
was=$(stored plain)
printf 'oustpbm-queue 1\nfrom oust@example.net\nrcpt x@example.org\rRCPT TO:<evil@example.org>\nsize 3\n\nhi\n' \
    >"$h/outbox/new/1700000000.M1P1Q1.crlf"
printf 'oustpbm-queue 1\nfrom oust@example.net\nrcpt <evil@example.org>\nsize 3\n\nhi\n' \
    >"$h/outbox/new/1700000000.M1P1Q2.junk"
"$bin" -d "$h" queue >"$tmp/q3"
check "queue shows them as damaged" [ "$(grep -c '  damaged:  bad rcpt' "$tmp/q3")" = 2 ]
OUSTPBM_TEST_TIME=$((1700000000 + 20 * 86400)) "$bin" -d "$h" flush >/dev/null
check "refused: moved to failed/, nothing sent" sh -c "[ -f '$h/outbox/failed/1700000000.M1P1Q1.crlf' ] &&
    [ -f '$h/outbox/failed/1700000000.M1P1Q2.junk' ] && [ \$(ls '$tmp/plain' | grep -c 'eml\$') = $was ]"
check "the server never saw evil@" sh -c "! grep -q evil '$tmp/plain'/*.env"

# ---- a slow server: timeout, the mail kept
sink slow --slow 4
h2=$tmp/slowhome
conf "$h2" "$port"
sed -i 's/^smtp_timeout = .*/smtp_timeout = 1/' "$h2/oustpbm.conf"
start=$(date +%s)
check "handled with a slow server: exit 0" [ "$(run "$h2" help slow@example.org)" = 0 ]
check "within the timeout (the server takes 4 s an answer)" [ $(($(date +%s) - start)) -lt 10 ]
check "the reply is kept, the timeout recorded" sh -c "'$bin' -d '$h2' queue | grep -q 'error:    smtp: .*imeout'"
stop "$pid"

# ---- libcurl missing: a clear temporary failure
h3=$tmp/nocurl
conf "$h3" "$pport"
check "no libcurl: the mail is still handled (exit 0)" \
    [ "$(mail alice@example.org help | OUSTPBM_TEST_LIBCURL=libcurl-none.so.4 "$bin" -d "$h3" >/dev/null 2>&1; echo $?)" = 0 ]
check "the reply waits, the reason in queue" sh -c "'$bin' -d '$h3' queue | grep -q 'error:    cannot load libcurl-none.so.4'"
check "then delivered once libcurl is there" sh -c "OUSTPBM_TEST_TIME=1700001000 '$bin' -d '$h3' flush &&
    '$bin' -d '$h3' queue | grep -q '^0 mails waiting'"

# ---- STARTTLS with a CA made here, AUTH with a password file; a wrong CA
(cd "$tmp" && for ca in good other; do
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$ca-ca" -keyout $ca-ca.key -out $ca-ca.pem
done && openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout srv.key -out srv.csr &&
    printf 'subjectAltName=IP:127.0.0.1\n' >srv.ext &&
    openssl x509 -req -in srv.csr -CA good-ca.pem -CAkey good-ca.key -CAcreateserial -days 2 -extfile srv.ext \
    -out srv.pem) >/dev/null 2>&1
check "certificates made with openssl" [ -s "$tmp/srv.pem" ]
sink tls --tls "$tmp/srv.pem" "$tmp/srv.key" --auth "oust:Pa55-w0rd-x"
h4=$tmp/tlshome
conf "$h4" "$port" "smtp_starttls = required" "smtp_cafile = $tmp/good-ca.pem" "smtp_user = oust" \
    "smtp_password_file = smtp.pw"
printf 'Pa55-w0rd-x\n' >"$h4/smtp.pw"
check "STARTTLS + AUTH: exit 0" [ "$(run "$h4" help)" = 0 ]
check "delivered over TLS after AUTH" sh -c "grep -q '\"tls\": true, \"auth\": \"oust\"' '$tmp/tls'/*.env"
parsed tls alice@example.org >"$tmp/p2" 2>&1
check "and parses with GMime" grep -q '^Subject: Oust help$' "$tmp/p2"
sed -i "s|smtp_cafile = .*|smtp_cafile = $tmp/other-ca.pem|" "$h4/oustpbm.conf"
check "a wrong CA: the mail is handled (exit 0)" [ "$(run "$h4" help)" = 0 ]
check "its reply kept, the certificate refused" sh -c "'$bin' -d '$h4' queue | grep -q 'error:    smtp: .*\\(certificate\\|SSL\\)'"
check "nothing more stored" [ "$(stored tls)" = 1 ]
sed -i "s|smtp_cafile = .*|smtp_cafile = $tmp/good-ca.pem|" "$h4/oustpbm.conf"
printf 'wrong-Pa55\n' >"$h4/smtp.pw"
OUSTPBM_TEST_TIME=1700001000 "$bin" -d "$h4" flush >/dev/null
check "a wrong password: kept" sh -c "'$bin' -d '$h4' queue | grep -q 'attempts: 2'"
check "the password is in no log, error or queue file" sh -c "! grep -rq 'Pa55' '$h4/log' '$h4/outbox' &&
    ! '$bin' -d '$h4' queue | grep -q Pa55"
printf 'Pa55-w0rd-x\n' >"$h4/smtp.pw"
OUSTPBM_TEST_TIME=1700009000 "$bin" -d "$h4" flush >/dev/null
check "the right password: delivered" [ "$(stored tls)" = 2 ]

# ---- command line
check "flush with extra words: usage, exit 64" [ "$("$bin" -d "$h" extra flush 2>/dev/null; echo $?)" = 64 ]
check "queue with a bad configuration: exit 78" sh -c "mkdir -p '$tmp/bad' && echo 'transport = smtp' >'$tmp/bad/oustpbm.conf' &&
    '$bin' -d '$tmp/bad' queue 2>/dev/null; [ \$? = 78 ]"
stop "$ppid"

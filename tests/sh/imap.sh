#!/bin/sh
# imap: oustpbm fetch against a private Dovecot (Debian's dovecot-imapd, run
# here as root with its own configuration, base_dir and Maildirs under $tmp,
# listening on loopback ports only; the system's instance neither used nor
# touched).  Mails placed in a mailbox are answered (the maildir transport),
# moved to the done folder, never handled twice: again after a copy comes
# back, after fetch is killed (-9) at each named point and at each durable
# step of the pipeline, and when Dovecot goes away in the middle of a run.
# A mail that can never be handled goes to the failed folder and the admin
# is told; a mail over the cap is answered "too large"; a passing failure
# leaves the mail for the next run.  imaps:// with a CA made here and a
# wrong one; a server without MOVE, UIDPLUS and IDLE (COPY, STORE, EXPUNGE,
# and --idle's plain poll); --idle with IDLE; the errors of the settings.
# Every server is stopped at exit; every wait is bounded.
. "$(dirname "$0")/lib.sh"
tmpdir
need "$bin" dovecot openssl
[ "$(id -u)" -eq 0 ] || skip_all "Dovecot runs its mail processes as nobody: run as root"
# nobody (Dovecot's mail user) walks through $tmp to its Maildirs
chmod 711 "$tmp"
PW=Imap-s3cret-pw

freeport() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# the certificates: a CA, a server certificate for 127.0.0.1 it signs, another CA
(cd "$tmp" && for ca in good other; do
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$ca-ca" -keyout $ca-ca.key -out $ca-ca.pem
done && openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout srv.key -out srv.csr &&
    printf 'subjectAltName=IP:127.0.0.1\n' >srv.ext &&
    openssl x509 -req -in srv.csr -CA good-ca.pem -CAkey good-ca.key -CAcreateserial -days 2 -extfile srv.ext \
    -out srv.pem) >/dev/null 2>&1
check "certificates made with openssl" [ -s "$tmp/srv.pem" ]

# dc_conf DIR PORT SPORT [CAPABILITY]: a Dovecot of its own in DIR, IMAP on PORT, IMAPS on SPORT;
# any user name logs in with $PW (passdb static), its Maildir DIR/mail/USER owned by nobody
dc_conf() {
	mkdir -p "$1/run" "$1/state" "$1/mail"
	chown nobody:nogroup "$1/mail"
	chmod 755 "$1" "$1/run"
	cat >"$1/dovecot.conf" <<CONF
base_dir = $1/run
state_dir = $1/state
log_path = $1/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <$tmp/srv.pem
ssl_key = <$tmp/srv.key
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
mail_location = maildir:$1/mail/%u
passdb {
  driver = static
  args = password=$PW
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=$1/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $2
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $3
  }
}
service pop3-login {
}
service lmtp {
}
CONF
	[ -z "${4:-}" ] || printf 'protocol imap {\n  imap_capability = %s\n}\n' "$4" >>"$1/dovecot.conf"
}

dc_start() { # DIR: started, true once its port answers
	dovecot -c "$1/dovecot.conf" || return 1
	dc_i=0
	while ! "$PY" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
	    "$(sed -n 's/^    port = //p' "$1/dovecot.conf" | head -n 1)" 2>/dev/null; do
		dc_i=$((dc_i + 1))
		[ "$dc_i" -gt 100 ] && return 1
		sleep 0.1
	done
}

children() { # PID: the ids of its child processes (from /proc: no procps needed)
	ch_p=$1
	if [ -r "/proc/$ch_p/task/$ch_p/children" ]; then
		{ read -r ch_l <"/proc/$ch_p/task/$ch_p/children"; } 2>/dev/null
		echo ${ch_l:-}
		return 0
	fi
	for ch_s in /proc/[0-9]*/stat; do
		{ read -r ch_l <"$ch_s"; } 2>/dev/null || continue
		# the fields after "(comm) ": state, ppid, ...
		set -- ${ch_l##*) }
		ch_i=${ch_s#/proc/}
		[ "${2:-}" != "$ch_p" ] || echo "${ch_i%/stat}"
	done
	return 0
}

dc_kill() { # DIR: the master and its processes killed (-9), as a crash takes them
	dc_m=$(cat "$1/run/master.pid" 2>/dev/null) || return 0
	for dc_c in $(children "$dc_m"); do
		kill -9 "$dc_c" 2>/dev/null
	done
	kill -9 "$dc_m" 2>/dev/null
	dc_i=0
	while kill -0 "$dc_m" 2>/dev/null && [ "$dc_i" -lt 100 ]; do
		sleep 0.1
		dc_i=$((dc_i + 1))
	done
	rm -f "$1/run/master.pid"
}

dc_stop() { # DIR
	dc_m=$(cat "$1/run/master.pid" 2>/dev/null) || return 0
	kill "$dc_m" 2>/dev/null
	dc_i=0
	while kill -0 "$dc_m" 2>/dev/null && [ "$dc_i" -lt 100 ]; do
		sleep 0.1
		dc_i=$((dc_i + 1))
	done
}

dc=$tmp/dovecot
port=$(freeport)
sport=$(freeport)
dc_conf "$dc" "$port" "$sport"
at_exit "dc_stop '$dc'"
dc_start "$dc" || { sed 's/^/# /' "$dc/dovecot.log"; echo "not ok - Dovecot did not start"; exit 1; }
pass "a private Dovecot on 127.0.0.1:$port (imaps: $sport)"

# the second one announces none of MOVE, UIDPLUS and IDLE
dc2=$tmp/dovecot2
port2=$(freeport)
sport2=$(freeport)
dc_conf "$dc2" "$port2" "$sport2" "IMAP4rev1 LITERAL+ SASL-IR"
at_exit "dc_stop '$dc2'"
dc_start "$dc2" || { sed 's/^/# /' "$dc2/dovecot.log"; echo "not ok - the second Dovecot did not start"; exit 1; }

put_seq=0
put() { # DC USER FILE: the mail FILE delivered into USER's INBOX as Dovecot's own LDA would (tmp/, then new/)
	put_seq=$((put_seq + 1))
	put_d=$1/mail/$2
	mkdir -p "$put_d/tmp" "$put_d/new" "$put_d/cur"
	put_n=$(date +%s).M${put_seq}P$$.test
	cp "$3" "$put_d/tmp/$put_n"
	chown -R nobody:nogroup "$put_d"
	chmod 600 "$put_d/tmp/$put_n"
	mv "$put_d/tmp/$put_n" "$put_d/new/$put_n"
}

inbox() { # DC USER: messages in the INBOX
	find "$1/mail/$2/new" "$1/mail/$2/cur" -type f 2>/dev/null | wc -l | tr -d ' '
}

folder() { # DC USER FOLDER: messages in a folder (Maildir++: .FOLDER)
	find "$1/mail/$2/.$3/new" "$1/mail/$2/.$3/cur" -type f 2>/dev/null | wc -l | tr -d ' '
}

home() { # HOME USER [DC-PORT] [LINE...]: a home reading USER's mailbox
	hh=$1
	hu=$2
	hp=${3:-$port}
	shift 3
	mkhome "$hh" "imap_url = imap://$hu@127.0.0.1:$hp/INBOX" 'imap_password_file = imap.pw' \
	    'admin_address = admin@example.net' "$@"
	(umask 077 && printf '%s\n' "$PW" >"$hh/imap.pw")
}

fetch() { # HOME [ARGS...]: oustpbm fetch, its stderr in $tmp/fetch.err; prints the exit status
	fh=$1
	shift
	"$bin" -d "$fh" fetch "$@" >/dev/null 2>"$tmp/fetch.err"
	echo $?
}

mail alice@example.org help a1@example.org >"$tmp/alice.eml"
mail bob@example.org help b1@example.org >"$tmp/bob.eml"
mail carol@example.org help c1@example.org >"$tmp/carol.eml"
mail dave@example.org 'register dave Dave' d1@example.org >"$tmp/dave.eml"

# ---- two mails answered and moved; the next run finds nothing
h=$tmp/h1
home "$h" u1 ""
put "$dc" u1 "$tmp/alice.eml"
put "$dc" u1 "$tmp/bob.eml"
check "fetch: exit 0" [ "$(fetch "$h")" = 0 ]
check "both answered once" [ "$(replies "$h" alice@example.org) $(replies "$h" bob@example.org)" = "1 1" ]
check "the answer is help's" grep -q -i 'commands' "$(newest "$h" alice@example.org)"
check "both moved to oustpbm-done, the INBOX empty" [ "$(inbox "$dc" u1) $(folder "$dc" u1 oustpbm-done)" = "0 2" ]
check "the failed folder made, empty" sh -c "[ -d '$dc/mail/u1/.oustpbm-failed' ] && [ \"\$(ls '$dc/mail/u1/.oustpbm-failed/new')\" = '' ]"
check "the log tells each move" [ "$(grep -c 'admin fetch UID [0-9]* ([0-9]* bytes): handled, moved to oustpbm-done' "$h/log")" = 2 ]
check "the pipeline logged each mail" [ "$(grep -c ' mail <[ab]1@example.org> ' "$h/log")" = 2 ]
check "a second run: exit 0, nothing more" [ "$(fetch "$h") $(replies "$h" alice@example.org)" = "0 1" ]
check "no password in the log or on stderr" sh -c "! grep -q '$PW' '$h/log' '$tmp/fetch.err'"

# ---- a copy of a handled mail (the same Message-ID) comes back: dropped, moved, no second answer
put "$dc" u1 "$tmp/alice.eml"
check "a copy: exit 0" [ "$(fetch "$h")" = 0 ]
check "... not answered again" [ "$(replies "$h" alice@example.org)" = 1 ]
check "... moved" [ "$(inbox "$dc" u1) $(folder "$dc" u1 oustpbm-done)" = "0 3" ]

# ---- a mail without a sender can never be handled: the failed folder, the admin told
printf 'To: oust@example.net\nSubject: help\nMessage-ID: <nofrom@example.org>\n\nhelp\n' >"$tmp/nofrom.eml"
put "$dc" u1 "$tmp/nofrom.eml"
check "no sender: exit 0" [ "$(fetch "$h")" = 0 ]
check "... moved to oustpbm-failed" [ "$(inbox "$dc" u1) $(folder "$dc" u1 oustpbm-failed)" = "0 1" ]
check "... the admin told by mail" sh -c "grep -l 'oustpbm-failed' '$h/mail/admin@example.net/new/'* | xargs grep -q 'can never be handled'"
check "... in the log" grep -q 'alert imap-failed: admin told by mail admin@example.net' "$h/log"
check "... as a notice: no word of mail kept by the mail system" sh -c "f=\$(grep -l 'oustpbm-failed' '$h/mail/admin@example.net/new/'*) && grep -q '^Subject: .*to look at' \$f && ! grep -q 'exits 75' \$f"

# ---- a mail over max_message_bytes: fetched up to the cap, answered "too large", moved
home "$h" u1 "" 'max_message_bytes = 2048'
{ mail carol@example.org help big@example.org; i=0; while [ $i -lt 200 ]; do echo "a line of an attachment, $i"; i=$((i + 1)); done; } >"$tmp/big.eml"
put "$dc" u1 "$tmp/big.eml"
check "too large: exit 0" [ "$(fetch "$h")" = 0 ]
check "... answered that it is too large" grep -q 'larger than 2048 bytes' "$(newest "$h" carol@example.org)"
check "... moved to the done folder" [ "$(inbox "$dc" u1) $(folder "$dc" u1 oustpbm-done)" = "0 4" ]

# ---- imap_max_per_run: the rest waits for the next run
h=$tmp/hmax
home "$h" umax "" 'imap_max_per_run = 2'
for f in alice bob carol; do put "$dc" umax "$tmp/$f.eml"; done
check "imap_max_per_run = 2: exit 0" [ "$(fetch "$h")" = 0 ]
check "... two handled, one left" [ "$(inbox "$dc" umax) $(folder "$dc" umax oustpbm-done)" = "1 2" ]
check "... the next run takes it" [ "$(fetch "$h") $(inbox "$dc" umax)" = "0 0" ]
check "... each answered once" [ "$(reply_sums "$h" | wc -l)" = 3 ]

# ---- a passing failure (a lock held past lock_timeout_ms): the mail stays, exit 75; then handled
h=$tmp/htemp
home "$h" utemp "" 'lock_timeout_ms = 300'
put "$dc" utemp "$tmp/dave.eml"
hold_lock "$h/accounts.lock" || fail "accounts.lock taken"
check "a lock held: exit 75" [ "$(fetch "$h")" = 75 ]
release_lock
check "... the mail left in the INBOX, unanswered" [ "$(inbox "$dc" utemp) $(replies "$h" dave@example.org)" = "1 0" ]
check "... the log says it is left" grep -q 'left in the mailbox for the next run' "$h/log"
check "... the next run answers it" [ "$(OUSTPBM_TEST_CODE=$REG_CODE fetch "$h")" = 0 ]
check "... once, moved" [ "$(replies "$h" dave@example.org) $(inbox "$dc" utemp) $(folder "$dc" utemp oustpbm-done)" = "1 0 1" ]

# ---- a retired server (oustpbm retire) takes no mail: it stays in the INBOX, unanswered
h=$tmp/hret
home "$h" uret ""
put "$dc" uret "$tmp/dave.eml"
"$bin" -d "$h" retire >/dev/null 2>&1
check "retired: exit 75, the mail left" [ "$(fetch "$h") $(inbox "$dc" uret) $(replies "$h" dave@example.org)" = "75 1 0" ]
check "... the log says why" grep -q 'fetch UID [0-9]* .*retired.*left in the mailbox' "$h/log"
"$bin" -d "$h" retire --undo >/dev/null 2>&1
check "... retire --undo: the next run answers it, once" [ "$(OUSTPBM_TEST_CODE=$REG_CODE fetch "$h") $(replies "$h" dave@example.org) $(inbox "$dc" uret)" = "0 1 0" ]

# ---- killed (-9) at each named point of the first mail: the next run moves it, no second answer
for point in fetched processed moved; do
	h=$tmp/hk-$point
	home "$h" "uk$point" ""
	put "$dc" "uk$point" "$tmp/alice.eml"
	put "$dc" "uk$point" "$tmp/bob.eml"
	check "killed at $point: exit 137" [ "$(OUSTPBM_TEST_FETCH_KILL=$point fetch "$h")" = 137 ]
	check "... the next run: exit 0" [ "$(fetch "$h")" = 0 ]
	check "... each answered once, both moved" [ "$(replies "$h" alice@example.org) $(replies "$h" bob@example.org) $(inbox "$dc" "uk$point") $(folder "$dc" "uk$point" oustpbm-done)" = "1 1 0 2" ]
done

# a mail without a Message-ID, killed between its handling and its move: fetch names it for good
h=$tmp/hk-noid
home "$h" uknoid ""
mail erin@example.org help - >"$tmp/noid.eml"
put "$dc" uknoid "$tmp/noid.eml"
check "no Message-ID, killed at processed: exit 137" [ "$(OUSTPBM_TEST_FETCH_KILL=processed fetch "$h")" = 137 ]
check "... the next run: exit 0, answered once, moved" [ "$(fetch "$h") $(replies "$h" erin@example.org) $(inbox "$dc" uknoid)" = "0 1 0" ]
check "... by the Message-ID fetch gave it (UIDVALIDITY, UID)" grep -q ' mail <oustpbm-fetch\.[0-9]*\.1@127\.0\.0\.1> .* dropped: a copy' "$h/log"

# ---- killed at each durable step (OUSTPBM_TEST_CRASH: the pipeline's, fetch's log) of a register,
# which commits: the next run gives the answer a run never killed gives, once, and moves the mail
h0=$tmp/hc0
home "$h0" uc0 ""
put "$dc" uc0 "$tmp/dave.eml"
OUSTPBM_TEST_TIME=$T0 OUSTPBM_TEST_CODE=$REG_CODE fetch "$h0" >/dev/null
reply_sums "$h0" >"$tmp/want"
k=1
bad=
while [ "$k" -lt 80 ]; do
	h=$tmp/hc$k
	home "$h" "uc$k" ""
	# the same secret as the run never killed: the replies' Message-IDs carry its MAC (idmac.h)
	cp "$h0/token.secret" "$h/token.secret"
	put "$dc" "uc$k" "$tmp/dave.eml"
	r=$(OUSTPBM_TEST_TIME=$T0 OUSTPBM_TEST_CODE=$REG_CODE OUSTPBM_TEST_CRASH=$k fetch "$h")
	[ "$r" = 0 ] && break
	[ "$r" = 137 ] || [ "$r" = 75 ] || bad="$bad; step $k: exit $r"
	r=$(OUSTPBM_TEST_TIME=$T0 OUSTPBM_TEST_CODE=$REG_CODE fetch "$h")
	[ "$r" = 0 ] || bad="$bad; step $k: the next run exits $r"
	[ "$(reply_sums "$h")" = "$(cat "$tmp/want")" ] || bad="$bad; step $k: replies $(reply_sums "$h" | wc -l)"
	[ "$(inbox "$dc" "uc$k") $(folder "$dc" "uc$k" oustpbm-done)" = "0 1" ] || bad="$bad; step $k: not moved"
	k=$((k + 1))
done
check "killed at each of $((k - 1)) durable steps: the answer once, the mail moved${bad:+ ($bad)}" \
    sh -c "[ -z '$bad' ] && [ $k -gt 3 ] && [ $k -lt 80 ] && [ -s '$tmp/want' ]"

# ---- Dovecot goes away in the middle of a run, and while fetch is not running
h=$tmp/hgone
home "$h" ugone ""
for f in dave carol; do put "$dc" ugone "$tmp/$f.eml"; done
hold_lock "$h/accounts.lock" || fail "accounts.lock taken"
OUSTPBM_TEST_CODE=$REG_CODE "$bin" -d "$h" fetch >/dev/null 2>"$tmp/gone.err" &
fpid=$!
# the register waits for accounts.lock in fetch's child: the mail is being handled
i=0
while [ -z "$(children "$fpid")" ] && [ "$i" -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
dc_kill "$dc"
release_lock
wait "$fpid"
check "Dovecot killed in the middle of a run: exit 75" [ "$?" = 75 ]
check "... the mail it was handling answered (queued before the move)" [ "$(replies "$h" dave@example.org)" = 1 ]
check "... stderr says the mail waits" grep -q 'waits in the mailbox' "$tmp/gone.err"
check "Dovecot down: exit 75" [ "$(fetch "$h")" = 75 ]
check "... saying it cannot reach it" grep -q 'cannot reach 127.0.0.1' "$tmp/fetch.err"
dc_start "$dc" || fail "Dovecot restarted"
check "Dovecot back: the next run, exit 0" [ "$(OUSTPBM_TEST_CODE=$REG_CODE fetch "$h")" = 0 ]
check "... each answered once, both moved" [ "$(replies "$h" dave@example.org) $(replies "$h" carol@example.org) $(inbox "$dc" ugone) $(folder "$dc" ugone oustpbm-done)" = "1 1 0 2" ]

# ---- imaps:// with the CA made here; a wrong CA refused
h=$tmp/htls
mkhome "$h" "imap_url = imaps://utls@127.0.0.1:$sport/INBOX" 'imap_password_file = imap.pw' \
    "imap_cafile = $tmp/good-ca.pem"
(umask 077 && printf '%s\n' "$PW" >"$h/imap.pw")
put "$dc" utls "$tmp/alice.eml"
check "imaps:// with its CA: exit 0" [ "$(fetch "$h")" = 0 ]
check "... answered, moved" [ "$(replies "$h" alice@example.org) $(inbox "$dc" utls)" = "1 0" ]
sed -i "s|imap_cafile = .*|imap_cafile = $tmp/other-ca.pem|" "$h/oustpbm.conf"
put "$dc" utls "$tmp/bob.eml"
check "imaps:// with another CA: exit 75" [ "$(fetch "$h")" = 75 ]
check "... the certificate refused" grep -q -i 'certificate\|SSL' "$tmp/fetch.err"
check "... the mail waits" [ "$(inbox "$dc" utls) $(replies "$h" bob@example.org)" = "1 0" ]

# ---- a server without MOVE, UIDPLUS and IDLE: COPY, STORE \Deleted, EXPUNGE
h=$tmp/hold
home "$h" uold "$port2"
put "$dc2" uold "$tmp/alice.eml"
put "$dc2" uold "$tmp/bob.eml"
check "no MOVE: exit 0" [ "$(fetch "$h")" = 0 ]
check "... both answered, copied to the done folder, expunged" [ "$(replies "$h" alice@example.org) $(replies "$h" bob@example.org) $(inbox "$dc2" uold) $(folder "$dc2" uold oustpbm-done)" = "1 1 0 2" ]
grep -q 'UID MOVE\|cmd=UID MOVE' "$dc2/dovecot.log" && fail "... MOVE used where it was not announced"

# waits: a reply to a mail placed while fetch --idle runs; the seconds it took (a figure, not a check)
wait_reply() { # HOME ADDR: true once ADDR has a reply (60 s at most)
	i=0
	while [ "$(replies "$1" "$2")" = 0 ] && [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(replies "$1" "$2")" != 0 ]
}

# ---- --idle on the server without IDLE: a plain poll every imap_poll_seconds
home "$h" uold "$port2" 'imap_poll_seconds = 2'
"$bin" -d "$h" fetch --idle >/dev/null 2>"$tmp/idle2.err" &
ipid=$!
bg "$ipid"
sleep 1
put "$dc2" uold "$tmp/carol.eml"
t=$(date +%s%N)
check "--idle without IDLE (a poll every 2 s): the new mail answered" wait_reply "$h" carol@example.org
echo "# polling: answered $(( ($(date +%s%N) - t) / 1000000 )) ms after it was placed"
check "... a second fetch ends at once, the mailbox being read" [ "$(fetch "$h")" = 0 ]
kill "$ipid"
wait "$ipid" 2>/dev/null

# ---- --idle with IDLE: a new mail answered within a few seconds, more than once
h=$tmp/hidle
home "$h" uidle ""
"$bin" -d "$h" fetch --idle >/dev/null 2>"$tmp/idle.err" &
ipid=$!
bg "$ipid"
sleep 1
put "$dc" uidle "$tmp/alice.eml"
t=$(date +%s%N)
# IDLE is renewed after 25 minutes: within the 60 s bound only IDLE's wake-up can bring the mail in
check "--idle with IDLE: the new mail answered" wait_reply "$h" alice@example.org
echo "# IDLE: answered $(( ($(date +%s%N) - t) / 1000000 )) ms after it was placed"
put "$dc" uidle "$tmp/bob.eml"
check "... and the next one" wait_reply "$h" bob@example.org
check "... both moved" sh -c "i=0; while [ \"\$(find '$dc/mail/uidle/new' '$dc/mail/uidle/cur' -type f | wc -l)\" != 0 ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done; [ \$i -lt 100 ]"
kill "$ipid"
wait "$ipid" 2>/dev/null

# ---- --idle with imap_max_per_run = 1 and three mails waiting: the runs follow one another,
# with no new mail to wake the IDLE (renewed after 25 minutes), within the 60 s bound
h=$tmp/hidlemax
home "$h" uidlemax "" 'imap_max_per_run = 1'
for f in alice bob carol; do put "$dc" uidlemax "$tmp/$f.eml"; done
"$bin" -d "$h" fetch --idle >/dev/null 2>"$tmp/idlemax.err" &
ipid=$!
bg "$ipid"
check "--idle, one a run: the first answered" wait_reply "$h" alice@example.org
check "... the second" wait_reply "$h" bob@example.org
check "... the third" wait_reply "$h" carol@example.org
kill "$ipid"
wait "$ipid" 2>/dev/null

# ---- --idle renewing its IDLE every second (OUSTPBM_TEST_IDLE_SECONDS): still answers after renewals
h=$tmp/hrenew
home "$h" urenew ""
OUSTPBM_TEST_IDLE_SECONDS=1 "$bin" -d "$h" fetch --idle >/dev/null 2>"$tmp/renew.err" &
ipid=$!
bg "$ipid"
sleep 3
put "$dc" urenew "$tmp/alice.eml"
check "--idle after IDLE renewed: the new mail answered" wait_reply "$h" alice@example.org
check "... nothing on stderr" [ ! -s "$tmp/renew.err" ]
kill "$ipid"
wait "$ipid" 2>/dev/null

# ---- the errors of the settings
h=$tmp/herr
mkhome "$h"
check "no imap_url: exit 78" [ "$(fetch "$h")" = 78 ]
check "... saying so" grep -q 'fetch needs imap_url' "$tmp/fetch.err"
check "a bad option: exit 64" [ "$(fetch "$h" --bogus)" = 64 ]
mkhome "$h" "imap_url = imap://127.0.0.1:$port/INBOX"
check "imap_url without a user: exit 78" [ "$(fetch "$h")" = 78 ]
check "... naming the line" grep -q 'imap_url .* has no user name' "$tmp/fetch.err"
mkhome "$h" "imap_url = imap://u:pw@127.0.0.1:$port/INBOX"
check "a password in imap_url: exit 78" [ "$(fetch "$h")" = 78 ]
check "... saying where it goes, not showing it" sh -c "grep -q 'imap_password_file' '$tmp/fetch.err' && ! grep -q ':pw@' '$tmp/fetch.err'"
mkhome "$h" "imap_url = imap://uerr@127.0.0.1:$port/INBOX" 'admin_address = admin@example.net'
check "no imap_password_file: exit 78" [ "$(fetch "$h")" = 78 ]
check "... saying so" grep -q 'needs imap_password_file' "$tmp/fetch.err"
home "$h" uerr ""
printf 'wrong-password\n' >"$h/imap.pw"
check "a wrong password: exit 78" [ "$(fetch "$h")" = 78 ]
check "... the login refused" grep -q 'refused the login of uerr' "$tmp/fetch.err"
check "... the admin told" grep -q 'alert imap: admin told by mail admin@example.net' "$h/log"
check "... the password nowhere" sh -c "! grep -r -q 'wrong-password' '$tmp/fetch.err' '$h/log' '$h/mail'"
mkhome "$h" "imap_url = imap://uerr@127.0.0.1:$port/NoSuchBox" 'imap_password_file = imap.pw' 'admin_address = admin@example.net'
(umask 077 && printf '%s\n' "$PW" >"$h/imap.pw")
check "a mailbox that is not there: exit 78" [ "$(fetch "$h")" = 78 ]
check "... the server's answer told" grep -q 'SELECT' "$tmp/fetch.err"
check "... told once: the next run's alert is within the hour (its key is the mailbox's, not the text's)" \
    [ "$(fetch "$h") $(grep 'alert imap: ' "$h/log" | tail -n 1 | sed 's/.*: admin //; s/ within.*//')" = "78 already told" ]
home "$h" uerr "" 'imap_done_folder = a"b'
check "a bad folder name: exit 78" [ "$(fetch "$h")" = 78 ]
check "... naming the key" grep -q 'imap_done_folder .* is not a folder name' "$tmp/fetch.err"

# ---- a server that misbehaves (what Dovecot never does): a scripted one on loopback
cat >"$tmp/fakeimap.py" <<'PY'
# fakeimap MODE PORTFILE: logs any user in, has one message (UID 5), then at
# UID FETCH: hang (no answer), biglit (a literal larger than asked), bye (BYE, closed),
# no (NO), gone (OK without the message: another client took it)
import socket, sys, time
mode, portfile = sys.argv[1], sys.argv[2]
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(5)
with open(portfile, "w") as pf:
    pf.write("%d\n" % srv.getsockname()[1])
while True:
    c, _ = srv.accept()
    f = c.makefile("rb")
    c.sendall(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] fake ready\r\n")
    for line in f:
        words = line.rstrip(b"\r\n").split(b" ")
        tag, cmd = words[0], words[1].upper() if len(words) > 1 else b""
        sub = words[2].upper() if len(words) > 2 else b""
        if cmd == b"AUTHENTICATE" and len(words) == 3:
            c.sendall(b"+ \r\n")
            f.readline()
            c.sendall(tag + b" OK logged in\r\n")
        elif cmd == b"CAPABILITY":
            c.sendall(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n")
        elif cmd == b"SELECT":
            c.sendall(b"* 1 EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n" + tag + b" OK [READ-WRITE] selected\r\n")
        elif cmd == b"LIST":
            c.sendall(b'* LIST () "/" x\r\n' + tag + b" OK listed\r\n")
        elif cmd == b"UID" and sub == b"SEARCH":
            c.sendall(b"* SEARCH 5\r\n" + tag + b" OK searched\r\n")
        elif cmd == b"UID" and sub == b"FETCH":
            if mode == "hang":
                time.sleep(30)
            elif mode == "biglit":
                c.sendall(b"* 1 FETCH (UID 5 BODY[]<0> {99999999}\r\nFrom: x\r\n")
            elif mode == "no":
                c.sendall(tag + b" NO [SERVERBUG] cannot read it\r\n")
                continue
            elif mode == "gone":
                c.sendall(tag + b" OK nothing fetched\r\n")
                continue
            else:
                c.sendall(b"* BYE going away\r\n")
            break
        elif cmd == b"LOGOUT":
            c.sendall(b"* BYE bye\r\n" + tag + b" OK bye\r\n")
            break
        else:
            c.sendall(tag + b" OK done\r\n")
    f.close()
    c.close()
PY
for mode in hang biglit bye; do
	rm -f "$tmp/fake.port"
	"$PY" "$tmp/fakeimap.py" "$mode" "$tmp/fake.port" &
	bg "$!"
	i=0
	while [ ! -s "$tmp/fake.port" ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$tmp/fake.port" ] || { echo "not ok - the scripted IMAP server did not start"; exit 1; }
	h=$tmp/hfake-$mode
	home "$h" ufake "$(cat "$tmp/fake.port")" 'imap_timeout = 2'
	check "a server that goes $mode at FETCH: exit 75" [ "$(fetch "$h")" = 75 ]
	case $mode in
	hang) check "... no answer within imap_timeout" grep -q 'did not answer within 2 s' "$tmp/fetch.err" ;;
	biglit) check "... more bytes than asked refused" grep -q 'sent 99999999 bytes where 262145 were asked for' "$tmp/fetch.err" ;;
	bye) check "... the session ended, the server's word told" grep -q 'ended the session: BYE going away' "$tmp/fetch.err" ;;
	esac
	check "... nothing answered" [ ! -d "$h/mail" ]
done
rm -f "$tmp/fake.port"
"$PY" "$tmp/fakeimap.py" no "$tmp/fake.port" &
bg "$!"
i=0
while [ ! -s "$tmp/fake.port" ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
h=$tmp/hfake-no
home "$h" ufake "$(cat "$tmp/fake.port")"
check "a FETCH refused (NO): exit 75, the message left" [ "$(fetch "$h")" = 75 ]
check "... the server's answer told" grep -q 'message UID 5 cannot be fetched, left in the mailbox: UID: NO \[SERVERBUG\] cannot read it' "$tmp/fetch.err"
rm -f "$tmp/fake.port"
"$PY" "$tmp/fakeimap.py" gone "$tmp/fake.port" &
bg "$!"
i=0
while [ ! -s "$tmp/fake.port" ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
h=$tmp/hfake-gone
home "$h" ufake "$(cat "$tmp/fake.port")"
check "a message gone before its FETCH (another client): exit 0, nothing done" sh -c "'$bin' -d '$h' fetch && [ ! -d '$h/mail' ]"

done_testing

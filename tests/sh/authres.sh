#!/bin/sh
# authres: trusted_authserv_id through a real mail system (doc/admin.md,
# "Trusting the receiving server").  Debian's Postfix in an instance of its
# own (lib.sh's pf_*), its header_checks holding the admin guide's line that
# removes the Authentication-Results fields of its own authserv-id
# (mx.oust.test) that come in with a mail; oust@oust.test delivered by the
# pipe to procmail with scripts/procmailrc, which runs oustpbm with
# trusted_authserv_id = mx.oust.test; the replies go out through the same
# Postfix into the players' Maildirs.
#   - a forger's register carrying "Authentication-Results: mx.oust.test;
#     dmarc=pass" (and the same folded, in other case) reaches oustpbm
#     without it: no verdict, refused with a reply saying so; no account;
#   - a field of another authserv-id goes through untouched and is not
#     trusted: refused the same way;
#   - a mail without any field: help is answered (other commands run);
#   - the field a milter would write, on top of the mail as Postfix's pipe
#     hands it on: dmarc=pass registers (the code mail arrives through
#     Postfix), dmarc=fail is dropped without any reply, exit 0.
# Skipped, saying so, where Postfix is not installed or not root.
. "$(dirname "$0")/lib.sh"
[ -x /usr/sbin/postfix ] && [ -x /usr/lib/postfix/sbin/pipe ] ||
    skip_all "Postfix is not installed (as root, scripts/install-deps --test installs it)"
[ "$(id -u)" = 0 ] || skip_all "Postfix's master must run as root; run make check as root for this test"
need procmail setpriv
unset OUSTPBM_TEST_TIME

# Postfix's own users (postfix, nobody) walk the spool and the Maildirs this
# script makes: under a caller's umask 077 they could not
umask 022
tmpdir
chmod 755 "$tmp"
# what the pipe's user reads: a world-readable copy, never the checkout
public
pf_init "$tmp/pf"

nobody_gid=$(id -g nobody)
asowner() { # the home's owner runs it
	setpriv --reuid=nobody --regid="$nobody_gid" --clear-groups "$@"
}

# ---- the home, owned by nobody, the account the pipe runs as
h=$tmp/oust/oustpbm
mkdir -p "$tmp/oust"
chown nobody "$tmp/oust"
asowner "$pbin" init "$h" >"$tmp/init.out" || { echo "not ok - oustpbm init failed"; exit 1; }
cat >"$h/oustpbm.conf" <<EOC
from_address = oust@oust.test
templates = $ptemplates
smtp_url = smtp://127.0.0.1:$port
helo_name = oust.test
max_mails_per_hour = 0
trusted_authserv_id = mx.oust.test
EOC
chown nobody "$h/oustpbm.conf"

# ---- the Postfix instance, with the admin guide's header_checks line
{
	pf_main_cf
	cat <<EOC
myhostname = mx.oust.test
mydomain = oust.test
myorigin = oust.test
mydestination = oust.test
local_recipient_maps =
transport_maps = texthash:$conf/transport
virtual_mailbox_maps = texthash:$conf/vmailbox
oustpbm_destination_recipient_limit = 1
header_checks = regexp:$conf/header_checks
EOC
} >"$conf/main.cf"
printf '/^Authentication-Results:[[:space:]]*mx\\.oust\\.test([[:space:];(]|$)/ IGNORE\n' >"$conf/header_checks"
printf 'oust@oust.test oustpbm:\n' >"$conf/transport"
printf 'alice@example.org example.org/alice/\nbob@example.com example.com/bob/\n' >"$conf/vmailbox"
{
	pf_master_cf
	echo "oustpbm   unix  - n n - - pipe flags=R user=nobody argv=/usr/bin/procmail -m DEFAULT=$tmp/oust/mbox OUSTPBM=$pbin OUSTPBM_HOME=$h $pscripts/procmailrc"
} >"$conf/master.cf"
pfstart() { pf_start || { sed 's/^/# /' "$tmp/postfix.out" "$pf/maillog" 2>/dev/null | tail -n 20; false; }; }
check "Postfix starts in its own instance on 127.0.0.1:$port" pfstart

# smtp FILE: a whole mail, in through Postfix's SMTP port
smtp() {
	"$PY" - "$port" "$1" <<'EOP'
import smtplib, sys
port, path = sys.argv[1:3]
data = open(path, "rb").read()
with smtplib.SMTP("127.0.0.1", int(port), timeout=30) as s:
    s.sendmail("mallory@evil.example", ["oust@oust.test"], data)
EOP
}
# direct FILE: a whole mail handed to procmail as Postfix's pipe would
direct() {
	asowner /usr/bin/procmail -m DEFAULT="$tmp/oust/mbox" OUSTPBM="$pbin" OUSTPBM_HOME="$h" "$pscripts/procmailrc" \
	    <"$1" 2>>"$tmp/procmail.err"
}
box() { # ADDRESS: its Maildir
	case $1 in
	alice@example.org) echo "$pf/vmail/example.org/alice" ;;
	bob@example.com) echo "$pf/vmail/example.com/bob" ;;
	esac
}
count() { # ADDRESS: replies in its Maildir
	ls "$(box "$1")/new" 2>/dev/null | wc -l
}
# wait_log N: until the home's log has N lines more than after init (60 s at most)
logbase=$(cat "$h/log" 2>/dev/null | wc -l)
wait_log() {
	i=0
	while [ "$(wc -l <"$h/log")" -lt $((logbase + $1)) ] && [ "$i" -lt 600 ]; do
		if grep -q 'status=bounced' "$pf/maillog" 2>/dev/null; then
			echo "# Postfix bounced a mail: $(grep 'status=bounced' "$pf/maillog" | tail -n 1)"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(wc -l <"$h/log")" -ge $((logbase + $1)) ]
}
# wait_for ADDRESS N: until the Maildir holds N mails (60 s at most)
wait_for() {
	i=0
	while [ "$(count "$1")" -lt "$2" ] && [ "$i" -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(count "$1")" -ge "$2" ]
}
a=alice@example.org
b=bob@example.com

# ---- 1. forged fields of the trusted authserv-id: removed by Postfix, no verdict
cat >"$tmp/forged.eml" <<EOF
Authentication-Results: mx.oust.test; dmarc=pass (p=reject dis=none) header.from=example.org
Authentication-Results: MX.Oust.Test
	(the forger's own); dkim=pass header.d=example.org header.i=@example.org
From: Alice <$a>
To: oust@oust.test
Subject: register alice mallorys-password
Message-ID: <forged.$$@evil.example>

sent by the test
EOF
check "a register with forged trusted fields goes in through Postfix" smtp "$tmp/forged.eml"
check "... oustpbm handles it" wait_log 1
check "... it reached oustpbm without them: no verdict, refused" \
    grep -q 'refused: register needs proof.*\[no verdict: no Authentication-Results header from mx.oust.test\]' "$h/log"
check "... no registration" sh -c "! grep -q alice '$h/pending' 2>/dev/null"
check "... alice is told, once" wait_for "$a" 1
check "... what was missing" sh -c "cat '$(box "$a")'/new/* | tr '\n' ' ' | grep -q 'and it found no verdict'"

# ---- 2. another authserv-id: through Postfix untouched, not trusted
cat >"$tmp/other.eml" <<EOF
Authentication-Results: mx.oust.test.evil.example; dmarc=pass header.from=example.org
From: Alice <$a>
To: oust@oust.test
Subject: forgot alice
Message-ID: <other.$$@evil.example>

sent by the test
EOF
check "a forgot with a field of another authserv-id goes in through Postfix" smtp "$tmp/other.eml"
check "... oustpbm handles it" wait_log 2
check "... not trusted: refused as without a verdict" \
    sh -c "tail -n 1 '$h/log' | grep -q 'refused: forgot needs proof.*\[no verdict'"

# ---- 3. no field at all: other commands run
cat >"$tmp/help.eml" <<EOF
From: $b
To: oust@oust.test
Subject: help
Message-ID: <help.$$@example.com>

sent by the test
EOF
check "help without any field goes in through Postfix" smtp "$tmp/help.eml"
check "... bob gets the help" wait_for "$b" 1
check "... answered ok" sh -c "tail -n 1 '$h/log' | grep -q ' ok: '"

# ---- 4. the field a milter writes on top, as the pipe hands the mail on
cat >"$tmp/pass.eml" <<EOF
Return-Path: <$a>
Received: from mail.example.org (mail.example.org [192.0.2.10])
	by mx.oust.test (Postfix) with ESMTPS id 4SVx1k2Lx9z9s
	for <oust@oust.test>; Tue, 14 Nov 2023 23:13:19 +0000 (UTC)
Authentication-Results: mx.oust.test; dmarc=pass (p=reject dis=none)
	header.from=example.org
From: Alice <$a>
To: oust@oust.test
Subject: register alice secret
Message-ID: <pass.$$@example.org>

sent by the test
EOF
check "a register with the trusted dmarc=pass on top" direct "$tmp/pass.eml"
check "... registered, the code mailed through Postfix" wait_for "$a" 2
check "... the log says so" sh -c "tail -n 1 '$h/log' | grep -q 'ok: registration of alice pending'"

cat >"$tmp/fail.eml" <<EOF
Return-Path: <mallory@evil.example>
Received: from smtp.evil.example (smtp.evil.example [198.51.100.66])
	by mx.oust.test (Postfix) with ESMTP id 4SVx1k2Lx9z9t
	for <oust@oust.test>; Tue, 14 Nov 2023 23:13:19 +0000 (UTC)
Authentication-Results: mx.oust.test; dmarc=fail (p=reject dis=none)
	header.from=example.com
Authentication-Results: mx.oust.test; dmarc=pass header.from=example.com
From: $b
To: oust@oust.test
Subject: help
Message-ID: <fail.$$@evil.example>

sent by the test
EOF
lines=$(wc -l <"$h/log")
sent=$(ls "$h/outbox/sent" 2>/dev/null | wc -l)
check "a mail with the trusted dmarc=fail on top, a forged pass below: procmail exits 0" direct "$tmp/fail.eml"
check "... logged as dropped, a forged sender" \
    sh -c "[ \$(wc -l <'$h/log') -eq $((lines + 1)) ] && tail -n 1 '$h/log' | grep -q 'dropped: a forged sender: the receiving server mx.oust.test found DMARC fail'"
check "... no reply queued or sent" sh -c "[ -z \"\$(ls '$h/outbox/new' 2>/dev/null)\" ] &&
    [ \$(ls '$h/outbox/sent' 2>/dev/null | wc -l) -eq $sent ]"
check "... procmail filed nothing" sh -c "[ ! -s '$tmp/oust/mbox' ]"

done_testing

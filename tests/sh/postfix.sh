#!/bin/sh
# postfix: a whole game through a real mail system.  Debian's Postfix runs
# on 127.0.0.1 in an instance of its own (config_directory, queue and data
# under a temporary directory, a free port; the system's Postfix is neither
# used nor touched), with the players' mailboxes as virtual Maildirs
# (alice@example.org, bob@example.com).  The players' mails go in through
# Postfix's SMTP port; the server's address, oust@oust.test, is delivered
# by Postfix's pipe(8) to procmail with the shipped scripts/procmailrc,
# which runs oustpbm (as the home's owner, nobody); the replies go out
# through the same Postfix by SMTP (smtp_url) into the players' Maildirs.
# The players register as the README says: a register, then a confirm with
# the one-time code read from the code mail in their Maildir.  On the way:
#   - a board lock held by another process: oustpbm exits 75 after
#     lock_timeout_ms, procmail passes 75 on, Postfix defers the mail and
#     delivers it again once the lock is free: the move is played once;
#   - Postfix stopped while the game goes on (mails handed to procmail as
#     the pipe would): the replies wait in the outbox; Postfix started
#     again, the next move's replies wait behind them (same board, same
#     address), and the crontab's flush line, run under env -i with the
#     crontab's PATH as cron runs it, sends them all;
#   - every reply reaches its Maildir exactly once, and each player gets
#     the same replies, in the same order, as a run without any outage.
# Skipped, saying so, where Postfix is not installed and cannot be (not
# root: `scripts/install-deps --test` installs it as root).
. "$(dirname "$0")/lib.sh"
[ -x /usr/sbin/postfix ] && [ -x /usr/lib/postfix/sbin/pipe ] ||
    skip_all "Postfix is not installed (as root, scripts/install-deps --test installs it)"
[ "$(id -u)" = 0 ] || skip_all "Postfix's master must run as root; run make check as root for this test"
need procmail setpriv
unset OUSTPBM_TEST_TIME

tmpdir
# what the pipe's user reads: a world-readable copy, never the checkout
public
pf_init "$tmp/pf"
holder=
stop_postfix() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	pf_stop
	wait 2>/dev/null
}
at_exit stop_postfix

nobody_uid=$(id -u nobody)
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
lock_timeout_ms = 1000
max_mails_per_hour = 0
EOC
chown nobody "$h/oustpbm.conf"

# ---- the Postfix instance
{
	pf_main_cf
	cat <<EOC
myhostname = oust.test
mydomain = oust.test
myorigin = oust.test
mydestination = oust.test
local_recipient_maps =
transport_maps = texthash:$conf/transport
virtual_mailbox_maps = texthash:$conf/vmailbox
virtual_destination_concurrency_limit = 1
oustpbm_destination_recipient_limit = 1
# every 4xx/5xx reply gets a second line: a multi-line reply from a real server
smtpd_reject_footer = \\c\\nSee https://oust.test/postmaster for help.
EOC
} >"$conf/main.cf"
printf 'oust@oust.test oustpbm:\n' >"$conf/transport"
printf 'alice@example.org example.org/alice/\nbob@example.com example.com/bob/\n' >"$conf/vmailbox"
{
	pf_master_cf
	echo "oustpbm   unix  - n n - - pipe flags=R user=nobody argv=/usr/bin/procmail -m DEFAULT=$tmp/oust/mbox OUSTPBM=$pbin OUSTPBM_HOME=$h $pscripts/procmailrc"
} >"$conf/master.cf"
pfstart() { pf_start; }
check "Postfix starts in its own instance on 127.0.0.1:$port" pfstart
check "... the system's instance is not running" sh -c "! /usr/sbin/postfix status >/dev/null 2>&1 || [ -f /etc/postfix/main.cf ]"

# mail FROM SUBJECT: a player's mail, in through Postfix's SMTP port
mail() {
	/usr/bin/python3 - "$port" "$1" "$2" <<'EOP'
import smtplib, sys
from email.message import EmailMessage
port, sender, subject = sys.argv[1:4]
m = EmailMessage()
m["From"] = sender
m["To"] = "oust@oust.test"
m["Subject"] = subject
m.set_content("sent by the test\n")
with smtplib.SMTP("127.0.0.1", int(port), timeout=30) as s:
    s.send_message(m)
EOP
}
# direct FROM SUBJECT: the same mail handed to procmail as Postfix's pipe would
direct() {
	printf 'From: %s\nTo: oust@oust.test\nSubject: %s\nMessage-ID: <%s.%s@example.net>\n\nsent by the test\n' \
	    "$1" "$2" "$(echo "$2" | tr -c 'a-z0-9' '-')" "$$" |
	    asowner /usr/bin/procmail -m DEFAULT="$tmp/oust/mbox" OUSTPBM="$pbin" OUSTPBM_HOME="$h" "$pscripts/procmailrc" \
	    2>>"$tmp/procmail.err"
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
# wait_for ADDRESS N: until the Maildir holds N mails (60 s at most); at
# once, saying why, when they cannot come: Postfix bounced a mail, or
# procmail filed one in its default mailbox, or Postfix is down
wait_for() {
	i=0
	while [ "$(count "$1")" -lt "$2" ] && [ "$i" -lt 600 ]; do
		if grep -q 'status=bounced' "$pf/maillog" 2>/dev/null; then
			echo "# waiting for $2 mails to $1: Postfix bounced a mail: $(grep 'status=bounced' "$pf/maillog" | tail -n 1)"
			return 1
		elif [ -s "$tmp/oust/mbox" ]; then
			echo "# waiting for $2 mails to $1: a mail was filed in procmail's default mailbox"
			return 1
		elif ! kill -0 "$(cat "$pf/spool/pid/master.pid" 2>/dev/null)" 2>/dev/null; then
			echo "# waiting for $2 mails to $1: Postfix is not running"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(count "$1")" -ge "$2" ]
}
# subjects ADDRESS: the Subjects in the order Postfix delivered them (the
# Maildir names: <time>.V<dev>I<inode>M<usec>.<host>)
subjects() {
	ls "$(box "$1")/new" | awk -F. '{ m = $2; sub(/.*M/, "", m); printf "%d %06d %s\n", $1, m, $0 }' | sort -n -k1,1 -k2,2 |
	    while read -r _ _ f; do
		sed -n '/^$/q; s/^Subject: //p' "$(box "$1")/new/$f"
	    done | untoken
}
# the reply tokens of the Subjects (two homes, two secrets) left out
untoken() { sed 's/ \[[A-Z0-9-]*\]$//'; }
a=alice@example.org
b=bob@example.com

# ---- the reference: the same mails, no mail system, no outage (maildir transport)
ref=$tmp/ref
"$bin" init "$ref" >/dev/null
printf 'from_address = oust@oust.test\ntemplates = %s/templates\nmax_mails_per_hour = 0\n' "$top" >"$ref/oustpbm.conf"
game="$a|register alice secret
$b|register bob hunter2
$a|challenge alice secret bob -size=5
$a|move 101 alice secret C3
$b|move 101 bob hunter2 A1
$a|move 101 alice secret A5
$b|move 101 bob hunter2 E5
$a|move 101 alice secret E1
$b|resign 101 bob hunter2"
echo "$game" | while IFS='|' read -r from subject; do
	printf 'From: %s\nSubject: %s\n\n' "$from" "$subject" | "$bin" -d "$ref" >/dev/null 2>&1
	# a register is confirmed with the code mailed and its password (register.c)
	case $subject in
	register*)
		printf 'From: %s\nSubject: confirm %s %s %s\n\n' "$from" "$(echo "$subject" | cut -d' ' -f2)" \
		    "$(code_in "$ref" "$from")" "$(echo "$subject" | cut -d' ' -f3)" | "$bin" -d "$ref" >/dev/null 2>&1
		;;
	esac
done
refsubjects() { # ADDRESS: the reference run's Subjects, in queue order
	ls "$ref/mail/$1/new" | awk -F'[.MPQ]' '{ printf "%d %06d %06d %s\n", $1, $3, $5, $0 }' | sort -n |
	    while read -r _ _ _ f; do
		sed -n '/^$/q; s/^Subject: //p' "$ref/mail/$1/new/$f"
	    done | untoken
}
refsubjects $a >"$tmp/want.alice"
refsubjects $b >"$tmp/want.bob"
check "the reference game: 9 replies to each player (a code first)" [ "$(wc -l <"$tmp/want.alice") $(wc -l <"$tmp/want.bob")" = "9 9" ]

# ---- the game through Postfix
na=0
nb=0
play() { # FROM SUBJECT REPLIES-TO-ALICE REPLIES-TO-BOB: one mail in by SMTP, its replies out
	mail "$1" "$2" 2>>"$tmp/smtp.err"
	na=$((na + $3))
	nb=$((nb + $4))
	wait_for $a $na && wait_for $b $nb
	check "'$2' in by SMTP: its replies in the Maildirs ($na for alice, $nb for bob; got $(count $a), $(count $b))" \
	    [ "$(count $a) $(count $b)" = "$na $nb" ]
}
# the Maildirs as a home's mail/ADDRESS/ folders, for lib.sh's code_in
mkdir -p "$tmp/boxes/mail"
ln -s "$(box $a)" "$tmp/boxes/mail/$a"
ln -s "$(box $b)" "$tmp/boxes/mail/$b"
# confirm FROM USERID PASSWORD REPLIES-TO-ALICE REPLIES-TO-BOB: as a player
# does, the code read from the code mail in FROM's Maildir sent back in a
# confirm by SMTP with the register's password (register.c: the account
# exists only then); no code: fails at once
confirm() {
	if code=$(code_in "$tmp/boxes" "$1"); then
		play "$1" "confirm $2 $code $3" "$4" "$5"
	else
		fail "'confirm $2 <code> <password>': no one-time code in the mails to $1 ($(count "$1") of them)"
		na=$((na + $4))
		nb=$((nb + $5))
	fi
	check "... $2 is registered, with $1" grep -q "^$2:$1:" "$h/users"
}
play $a "register alice secret" 1 0
check "... a registration by mail is pending: no account yet" \
    sh -c "grep -q 'ok: registration of alice pending' '$h/log' && ! grep -qs '^alice:' '$h/users'"
confirm $a alice secret 1 0
play $b "register bob hunter2" 0 1
confirm $b bob hunter2 0 1
play $a "challenge alice secret bob -size=5" 1 1
play $a "move 101 alice secret C3" 1 1
check "the replies left through Postfix's SMTP port" grep -q "postfix/smtpd.*connect from localhost\[127.0.0.1\]" "$pf/maillog"
check "... were delivered by virtual(8)" grep -q "postfix/virtual.*to=<alice@example.org>.*status=sent (delivered to maildir)" "$pf/maillog"
check "the server's mail went through pipe(8) to procmail" grep -q "postfix/pipe.*to=<oust@oust.test>.*relay=oustpbm.*status=sent" "$pf/maillog"

# ---- a board lock held: oustpbm exits 75, Postfix defers, then delivers again
"$PY" -c '
import fcntl, os, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
' "$h/games/101.lock" "$tmp/locked" "$tmp/release" &
holder=$!
i=0
while [ ! -f "$tmp/locked" ] && [ "$i" -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
mail $b "move 101 bob hunter2 A1" 2>>"$tmp/smtp.err"
i=0
while ! grep -q "postfix/pipe.*to=<oust@oust.test>.*status=deferred" "$pf/maillog" && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the board locked: Postfix defers the move (procmail exited 75)" \
    grep -q "postfix/pipe.*to=<oust@oust.test>.*status=deferred" "$pf/maillog"
check "... oustpbm logged the lock timeout" grep -q 'cmd="move 101 bob \*\*\*\* A1" tempfail' "$h/log"
check "... no reply yet" [ "$(count $a) $(count $b)" = "$na $nb" ]
touch "$tmp/release"
wait "$holder"
holder=
na=$((na + 1))
nb=$((nb + 1))
wait_for $a $na && wait_for $b $nb
check "the lock free: Postfix delivered it again, the move answered ($na each; got $(count $a), $(count $b))" \
    [ "$(count $a) $(count $b)" = "$na $nb" ]
check "... played once" [ "$(grep -c '^[0-9]* [^ ]* o bob A1$' "$h/games/101.game")" = 1 ]
check "... nothing in procmail's default mailbox" [ ! -s "$tmp/oust/mbox" ]

# ---- Postfix stopped while the game goes on
/usr/sbin/postfix -c "$conf" stop >>"$tmp/postfix.out" 2>&1
i=0
while "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null &&
    [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "Postfix stopped" sh -c "! /usr/sbin/postfix -c '$conf' status 2>/dev/null"
direct $a "move 101 alice secret A5"
check "a move while Postfix is down: handled (procmail exits 0)" [ $? = 0 ]
direct $b "move 101 bob hunter2 E5"
check "... and the next one" [ $? = 0 ]
check "... their four replies wait in the outbox" [ "$(ls "$h/outbox/new" | wc -l)" = 4 ]
check "... deferred, logged" [ "$(grep -c 'outbox .* deferred: smtp: ' "$h/log")" -ge 1 ]
check "... none reached a player" [ "$(count $a) $(count $b)" = "$na $nb" ]

check "Postfix started again" pfstart
mail $a "move 101 alice secret E1" 2>>"$tmp/smtp.err"
i=0
while [ "$(ls "$h/outbox/new" | wc -l)" -lt 6 ] && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the next move, in by SMTP: its replies wait behind the earlier ones (same board, same address)" \
    [ "$(ls "$h/outbox/new" | wc -l)" = 6 ]
check "... no player got a reply out of order" [ "$(count $a) $(count $b)" = "$na $nb" ]

# the crontab's flush line, as cron runs it: env -i, the crontab's PATH (with
# @BINDIR@ standing for where oustpbm is installed), HOME and the
# crontab's variables; two minutes later, when the first replies are due
mkdir -p "$tmp/usrlocal/bin"
ln -s "$pbin" "$tmp/usrlocal/bin/oustpbm"
path=$(sed -n 's/^PATH=//p' "$top/scripts/crontab" | sed "s#@BINDIR@#$tmp/usrlocal/bin#")
line=$(grep '	oustpbm flush$' "$top/scripts/crontab" | cut -f2)
check "the crontab has the flush line" [ "$line" = "oustpbm flush" ]
asowner env -i HOME="$tmp/oust" LOGNAME=nobody SHELL=/bin/sh PATH="$path" \
    OUSTPBM_TEST_TIME=$(($(date +%s) + 120)) /bin/sh -c "$line" >"$tmp/cron.out" 2>&1
check "the crontab's flush line under env -i: exit 0" [ $? = 0 ]
check "... the outbox is empty" [ "$(ls "$h/outbox/new" | wc -l)" = 0 ]
na=$((na + 3))
nb=$((nb + 3))
wait_for $a $na && wait_for $b $nb
check "... the six replies reached the players ($na each; alice $(count $a), bob $(count $b))" [ "$(count $a) $(count $b)" = "$na $nb" ]
check "... each deferred reply's final delivery logged" sh -c "
    [ -n \"\$(grep -o 'outbox [^ ]* rcpt=[^ ]* deferred:' '$h/log')\" ] &&
    [ \"\$(sed -n 's/.* outbox \([^ ]*\) rcpt=.* deferred: .*/\1/p' '$h/log' | sort -u)\" = \"\$(sed -n 's/.* outbox \([^ ]*\) rcpt=.* delivered: after .*/\1/p' '$h/log' | sort -u)\" ]"

play $b "resign 101 bob hunter2" 1 1
check "the game is over" grep -q '^status: .*won' "$h/games/101.game"

# ---- a reply Postfix refuses for good: its whole multi-line 550 kept, listed, logged
mail ghost@example.org "help" 2>>"$tmp/smtp.err"
i=0
while [ -z "$(ls "$h/outbox/failed")" ] && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
gf=$(grep -l '^rcpt ghost@example.org$' "$h/outbox/failed"/* 2>/dev/null | head -n 1)
check "a reply to an address Postfix does not know: in outbox/failed/" [ -n "$gf" ]
check "... with Postfix's two reply lines" sh -c "sed -n '/^\$/q;/^reply /p' '$gf' >'$tmp/gr' &&
    sed -n 1p '$tmp/gr' | grep -q '^reply 550-5.1.1 <ghost@example.org>: Recipient address rejected: User unknown in virtual mailbox table\$' &&
    sed -n 2p '$tmp/gr' | grep -q '^reply 550 5.1.1 See https://oust.test/postmaster for help.\$' && [ \$(wc -l <'$tmp/gr') = 2 ]"
asowner "$pbin" -d "$h" queue >"$tmp/gq" 2>&1
check "... oustpbm queue shows them under the failure" sh -c "grep -A4 '^  to:       ghost@example.org' '$tmp/gq' |
    grep -q '^  server:   550-5.1.1 <ghost@example.org>: Recipient address rejected' &&
    grep -q '^            550 5.1.1 See https://oust.test/postmaster for help.\$' '$tmp/gq'"
check "... and the log line holds both" grep -qF 'rcpt=ghost@example.org refused, moved to failed/: smtp: RCPT failed: 550 (server answered 550) server="550-5.1.1 <ghost@example.org>: Recipient address rejected: User unknown in virtual mailbox table\n550 5.1.1 See https://oust.test/postmaster for help."' "$h/log"

check "... the address is marked as bouncing (a 5xx to RCPT counts)" grep -q '^ghost@example.org 1 ' "$h/bounces"
asowner "$pbin" -d "$h" status >"$tmp/gs" 2>&1
check "... and oustpbm status counts it, below bounce_limit" grep -q 'bounces: no address stopped (1 below bounce_limit 3)' "$tmp/gs"

# ---- each reply exactly once, in order
sleep 1
subjects $a >"$tmp/got.alice"
subjects $b >"$tmp/got.bob"
check "alice: every reply exactly once, in commit order" cmp -s "$tmp/want.alice" "$tmp/got.alice"
check "bob: every reply exactly once, in commit order" cmp -s "$tmp/want.bob" "$tmp/got.bob"
for f in alice bob; do
	cmp -s "$tmp/want.$f" "$tmp/got.$f" || paste "$tmp/want.$f" "$tmp/got.$f" | sed 's/^/# want, got: /'
done
check "no Message-ID twice" [ -z "$(cat "$(box $a)"/new/* "$(box $b)"/new/* | grep -i '^Message-ID:' | sort | uniq -d)" ]
check "Postfix bounced nothing" sh -c "! grep -q 'status=bounced' '$pf/maillog'"
check "nothing went to procmail's default mailbox" [ ! -s "$tmp/oust/mbox" ]
check "oustpbm logged no error" sh -c "! grep -q ' error: ' '$h/log'"

#!/bin/sh
# deb: the Debian package (debian/, `make deb`, doc/admin.md: the package),
# installed on this machine as an admin installs it.  As root:
#   - builds the package (or reuses build/deb/ when it is newer than every
#     source), lintian on the .changes: no error, no warning;
#   - dpkg -i: the user oustpbm, its home /var/lib/oustpbm made an oustpbm
#     home by the user itself (nothing in it root's), /etc/oustpbm/oustpbm.conf
#     a conffile, the timers enabled, /etc/cron.d/oustpbm, logrotate, the
#     man page (no @BINDIR@ left), the docs;
#   - a game by mail through Debian's Postfix in an instance of its own
#     (as postfix.sh and deploy.sh: the system's Postfix neither used nor
#     touched): the alias the package prints (oust: oustpbm), local(8),
#     the user's ~/.forward and ~/.procmailrc the package wrote, the
#     installed /usr/bin/oustpbm reading the settings of
#     /etc/oustpbm/oustpbm.conf; the replies back by SMTP into the players'
#     virtual Maildirs;
#   - the timers' commands (the ExecStart of the installed .service files)
#     and the cron.d lines, as the package's user in cron's bare
#     environment; logrotate's file run at once;
#   - dpkg -r keeps the data and the settings; dpkg --purge leaves nothing.
# The install and the purge hold /run/lock/oustpbm-deb.lock, so two checks
# (two checkouts) on one machine take turns.  Skipped, saying so, when not
# root, and when oustpbm is installed here already (the test would purge it).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "the package is installed on this machine: as root only"
[ -x /usr/sbin/postfix ] && [ -x /usr/lib/postfix/sbin/local ] ||
    skip_all "Postfix is not installed (as root, scripts/install-deps --test installs it)"
need dpkg-buildpackage dh lintian procmail setpriv flock logrotate postalias
unset OUSTPBM_TEST_TIME
tmpdir
chmod 755 "$tmp"
lib=/var/lib/oustpbm
etc=/etc/oustpbm

# ---- the package: built unless build/deb/ holds one newer than every source
mkdir -p build
exec 8>build/deb.lock
flock 8
deb=$(ls build/deb/oustpbm_*.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ] || [ -n "$(find Makefile debian src templates scripts doc README.md -newer "$deb" | head -n 1)" ]; then
	# a make of its own, not a part of the make check that may run this test
	check "make deb builds the package" sh -c "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory deb >'$tmp/make.out' 2>&1"
	sed 's/^/# /' "$tmp/make.out" | tail -n 5
	deb=$(ls build/deb/oustpbm_*.deb 2>/dev/null | head -n 1)
else
	pass "the package of build/deb/ is newer than every source: reused"
fi
changes=$(ls build/deb/oustpbm_*.changes 2>/dev/null | head -n 1)
check "... build/deb/ holds the .deb and the .changes" sh -c "[ -f '$deb' ] && [ -f '$changes' ]"
check "... nothing left beside the checkout" sh -c "! ls '$top'/../oustpbm_* >/dev/null 2>&1"
check "... build/deb/ is the checkout's owner's" [ -z "$(find build/deb ! -user "$(stat -c %u .)" | head -n 1)" ]
[ -f "$deb" ] || done_testing
cp "$deb" "$tmp/oustpbm.deb"
flock -u 8

# lintian at its default level: an E: or W: line fails (I: and N: are notes)
lintian "$changes" >"$tmp/lintian.out" 2>&1
sed 's/^/# lintian: /' "$tmp/lintian.out"
check "lintian on the .changes and the .deb: no error, no warning" sh -c "! grep -q '^[EW]: ' '$tmp/lintian.out'"

# ---- installed on this machine, one check at a time
exec 9>/run/lock/oustpbm-deb.lock
flock 9
if dpkg-query -W -f='${Status}' oustpbm 2>/dev/null | grep -q 'installed\|config-files' || getent passwd oustpbm >/dev/null ||
    [ -e "$lib" ] || [ -e "$etc" ]; then
	skip_all "oustpbm (or its user, $lib, $etc) is on this machine already: the test would remove it"
fi
at_exit "dpkg --purge oustpbm >/dev/null 2>&1"
pf_init "$tmp/pf"

started=$(date +%s%N)
dpkg -i "$tmp/oustpbm.deb" >"$tmp/dpkg.out" 2>&1
check "dpkg -i installs the package" [ $? = 0 ]
echo "# dpkg -i took $((($(date +%s%N) - started) / 1000000)) ms"
sed 's/^/# /' "$tmp/dpkg.out" | grep -v '^# \((Reading\|Selecting\|Preparing\|Unpacking\|Processing\)'
check "... it prints the alias line to add and where from_address is set" sh -c "
    grep -q '^ *oust: oustpbm\$' '$tmp/dpkg.out' && grep -q 'from_address.*/etc/oustpbm/oustpbm.conf' '$tmp/dpkg.out'"
check "the user oustpbm: a system user, home $lib, shell nologin" sh -c "
    [ \$(id -u oustpbm) -lt 1000 ] && [ \"\$(getent passwd oustpbm | cut -d: -f6,7)\" = '$lib:/usr/sbin/nologin' ]"
check "$lib: the user's, 0700" [ "$(stat -c '%U %a' "$lib")" = "oustpbm 700" ]
check "... an oustpbm home (init: games/, the log)" sh -c "[ -d '$lib/games' ] && grep -q 'admin init $lib' '$lib/log'"
check "... nothing in it is root's" [ -z "$(find "$lib" ! -user oustpbm | head -n 1)" ]
check "$etc/oustpbm.conf is a conffile" sh -c "dpkg-query -W -f='\${Conffiles}\n' oustpbm | grep -q '^ $etc/oustpbm.conf '"
check "the timers are installed and enabled" sh -c "for t in flush robot cleanup; do
    [ -f /lib/systemd/system/oustpbm-\$t.timer ] && [ -f /lib/systemd/system/oustpbm-\$t.service ] &&
    [ -L /etc/systemd/system/timers.target.wants/oustpbm-\$t.timer ] || exit 1; done"
check "/etc/cron.d/oustpbm and /etc/logrotate.d/oustpbm are installed" sh -c "[ -f /etc/cron.d/oustpbm ] && [ -f /etc/logrotate.d/oustpbm ]"
check "man oustpbm: the page, with the installed paths (no @BINDIR@)" sh -c "
    [ \"\$(man -w oustpbm)\" = /usr/share/man/man1/oustpbm.1.gz ] &&
    ! zgrep -q '@[A-Z]*DIR@' /usr/share/man/man1/oustpbm.1.gz && zgrep -q '^OUSTPBM=\${OUSTPBM:\\\\-/usr/bin/oustpbm}' /usr/share/man/man1/oustpbm.1.gz &&
    zgrep -q '/etc/oustpbm/oustpbm.conf' /usr/share/man/man1/oustpbm.1.gz"
check "the docs in /usr/share/doc/oustpbm" sh -c "[ -f /usr/share/doc/oustpbm/copyright ] &&
    ls /usr/share/doc/oustpbm/admin.md* /usr/share/doc/oustpbm/README.md* >/dev/null 2>&1"

# ---- the settings: /etc/oustpbm/oustpbm.conf, as the admin edits it
sed -i -e "s|^#from_address = .*|from_address = oust@oust.test|" -e "s|^smtp_url = .*|smtp_url = smtp://127.0.0.1:$port|" \
    -e "s|^#admin_address = .*|admin_address = admin@example.org|" "$etc/oustpbm.conf"
printf 'helo_name = oust.test\npassword_cost = 1\n' >>"$etc/oustpbm.conf"
check "from_address, smtp_url and admin_address set in $etc/oustpbm.conf" sh -c "
    grep -q '^from_address = oust@oust.test\$' '$etc/oustpbm.conf' && grep -q '^smtp_url = smtp://127.0.0.1:$port\$' '$etc/oustpbm.conf'"

# ---- the Postfix instance: oust@oust.test by the alias to the local user oustpbm
{
	pf_main_cf | grep -v '^alias_'
	cat <<EOC
myhostname = oust.test
mydomain = oust.test
myorigin = oust.test
mydestination = oust.test
alias_maps = hash:$conf/aliases
alias_database = hash:$conf/aliases
local_recipient_maps = unix:passwd.byname \$alias_maps
allow_mail_to_commands = alias, forward
virtual_mailbox_maps = texthash:$conf/vmailbox
EOC
} >"$conf/main.cf"
echo 'oust: oustpbm' >"$conf/aliases"
postalias -c "$conf" "$conf/aliases"
printf 'alice@example.org example.org/alice/\nbob@example.com example.com/bob/\nadmin@example.org example.org/admin/\n' \
    >"$conf/vmailbox"
pf_master_cf >"$conf/master.cf"
# the tables are read by daemons that run as postfix or nobody (under umask 077 they would not be)
chmod 644 "$conf/main.cf" "$conf/master.cf" "$conf/vmailbox" "$conf/aliases" "$conf/aliases.db"
pfstart() { pf_start; }
check "Postfix starts in its own instance on 127.0.0.1:$port" pfstart
[ $fails = 0 ] || { sed 's/^/# /' "$tmp/postfix.out"; done_testing; }

smtp_mail() { # FROM SUBJECT: a player's mail to oust@oust.test, in by SMTP
	"$PY" - "$port" "$1" "$2" <<'EOP'
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
box() { # ADDRESS: its virtual Maildir
	echo "$pf/vmail/${1#*@}/${1%@*}"
}
count() {
	ls "$(box "$1")/new" 2>/dev/null | wc -l
}
# hopeless: why no wait can succeed any more, or nothing
hopeless() {
	if grep -q 'status=deferred' "$pf/maillog" 2>/dev/null; then
		echo "Postfix deferred a mail: $(grep 'status=deferred' "$pf/maillog" | tail -n 1 | sed 's/.*: to=/to=/')"
	elif grep -q 'status=bounced' "$pf/maillog" 2>/dev/null; then
		echo "Postfix bounced a mail: $(grep 'status=bounced' "$pf/maillog" | tail -n 1 | sed 's/.*status=//')"
	elif [ -s /var/mail/oustpbm ]; then
		echo "a mail was filed in /var/mail/oustpbm (procmail's default mailbox)"
	elif ! kill -0 "$(cat "$pf/spool/pid/master.pid" 2>/dev/null)" 2>/dev/null; then
		echo "Postfix is not running"
	fi
}
# wait_for ADDRESS N: until its Maildir holds N mails (60 s at most)
wait_for() {
	i=0
	while [ "$(count "$1")" -lt "$2" ] && [ "$i" -lt 600 ]; do
		why=$(hopeless)
		[ -z "$why" ] || { echo "# waiting for $2 mails to $1: $why"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(count "$1")" -ge "$2" ]
}
a=alice@example.org
b=bob@example.com
na=0
nb=0
play() { # FROM SUBJECT REPLIES-TO-ALICE REPLIES-TO-BOB
	smtp_mail "$1" "$2" 2>>"$tmp/smtp.err"
	na=$((na + $3))
	nb=$((nb + $4))
	wait_for $a $na && wait_for $b $nb
	check "'$2' to oust@oust.test: its replies in the Maildirs ($na for alice, $nb for bob; got $(count $a), $(count $b))" \
	    [ "$(count $a) $(count $b)" = "$na $nb" ]
}
# the Maildirs as a home's mail/ADDRESS/ folders, for lib.sh's code_in
mkdir -p "$tmp/boxes/mail"
ln -s "$(box $a)" "$tmp/boxes/mail/$a"
ln -s "$(box $b)" "$tmp/boxes/mail/$b"
confirm() { # FROM USERID PASSWORD: the code of the code mail sent back, with the register's password
	if code=$(code_in "$tmp/boxes" "$1"); then
		play "$1" "confirm $2 $code $3" $([ "$1" = $a ] && echo "1 0" || echo "0 1")
	else
		fail "'confirm $2 <code>': no one-time code in the mails to $1"
	fi
}

play $a "register alice secret" 1 0
first=$(date +%s%N)
echo "# from dpkg -i to the first reply (the settings edited and Postfix started between): $(((first - started) / 1000000)) ms"
f=$(ls "$(box $a)/new" | head -n 1)
check "... the reply's From is /etc/oustpbm/oustpbm.conf's from_address" grep -q '^From: .*oust@oust.test' "$(box $a)/new/$f"
check "... it went through the alias, local(8) and the user's .forward" \
    grep -q "postfix/local.*to=<oustpbm@oust.test>, orig_to=<oust@oust.test>.*status=sent (delivered to command: exec /usr/bin/procmail)" "$pf/maillog"
confirm $a alice secret
play $b "register bob hunter2" 0 1
confirm $b bob hunter2
play $a "challenge alice secret bob -size=5" 1 1
play $a "move 101 alice secret C3" 1 1
play $b "move 101 bob hunter2 A1" 1 1

# ---- a reply that has to wait: Postfix stopped, a move handed to procmail
# as local(8) would; the flush timer's command sends it once Postfix is back
pf_stop
asuser() { # CMD...: as the package's user in cron's bare environment
	setpriv --reuid=oustpbm --regid=oustpbm --init-groups env -i HOME="$lib" LOGNAME=oustpbm USER=oustpbm \
	    SHELL=/bin/sh PATH=/usr/bin:/bin "$@"
}
printf 'From: %s\nTo: oust@oust.test\nSubject: move 101 alice secret A5\nMessage-ID: <deb.%s@example.net>\n\nsent by the test\n' \
    $a $$ | (cd "$lib" && asuser /usr/bin/procmail) 2>"$tmp/procmail.err"
check "Postfix down: the move is handled (procmail exits 0)" [ $? = 0 ]
check "... its two replies wait in the outbox" [ "$(ls "$lib/outbox/new" | wc -l)" = 2 ]
check "Postfix started again" pfstart
# ExecStart=PROGRAM ARGS of each installed service, run as the package's user as cron would
for t in flush robot cleanup; do
	line=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/oustpbm-$t.service)
	before=$(wc -l <"$lib/log")
	asuser /bin/sh -c "$line" >"$tmp/$t.out" 2>&1
	check "oustpbm-$t.service's ExecStart ($line) as oustpbm under env -i: exit 0" [ $? = 0 ]
	check "... it logged its run" [ "$(wc -l <"$lib/log")" -gt "$before" ]
done
na=$((na + 1))
nb=$((nb + 1))
wait_for $a $na && wait_for $b $nb
check "... the flush sent the waiting replies ($na, $nb; got $(count $a), $(count $b))" [ "$(count $a) $(count $b)" = "$na $nb" ]
check "... the outbox is empty" [ -z "$(ls "$lib/outbox/new")" ]
# the cron.d lines: the command after the user field, in cron's environment (SHELL, PATH of the file)
grep -E '^[0-9*]' /etc/cron.d/oustpbm | cut -f3 >"$tmp/cron.lines"
check "/etc/cron.d/oustpbm: three lines, each run as oustpbm" sh -c "[ \$(wc -l <'$tmp/cron.lines') = 3 ] &&
    [ \"\$(grep -E '^[0-9*]' /etc/cron.d/oustpbm | cut -f2 | sort -u)\" = oustpbm ]"
while IFS= read -r line; do
	before=$(wc -l <"$lib/log")
	asuser /bin/sh -c "$line" >"$tmp/cronline.out" 2>&1
	rc=$?
	if [ -d /run/systemd/system ]; then
		check "cron.d: '$line' with systemd running: does nothing (exit 0)" [ "$rc $(wc -l <"$lib/log")" = "0 $before" ]
	else
		check "cron.d: '$line' without systemd: runs (exit 0, logged)" sh -c "[ $rc = 0 ] && [ $(wc -l <"$lib/log") -gt $before ]"
	fi
done <"$tmp/cron.lines"

play $b "resign 101 bob hunter2" 1 1
check "the game is over" grep -q '^status: .*won' "$lib/games/101.game"
check "no error in the home's log" sh -c "! grep -q ' error: ' '$lib/log'"
check "nothing bounced, nothing in /var/mail/oustpbm" sh -c "! grep -q 'status=bounced' '$pf/maillog' && [ ! -s /var/mail/oustpbm ]"

# ---- logrotate's file, forced: the log renamed, the next mail's line in a new log of the user's
logrotate -f -s "$tmp/logrotate.state" /etc/logrotate.d/oustpbm >"$tmp/logrotate.out" 2>&1
check "logrotate -f /etc/logrotate.d/oustpbm: the log rotated" sh -c "[ -f '$lib/log.1' ] && [ ! -e '$lib/log' ]"
play $a "games alice" 1 0
check "... the next mail starts a new log, the user's" [ "$(stat -c %U "$lib/log" 2>/dev/null)" = oustpbm ]
check "nothing in $lib is root's after it all" [ -z "$(find "$lib" ! -user oustpbm | head -n 1)" ]
pf_stop

# ---- remove keeps the data and the settings; purge leaves nothing
dpkg -r oustpbm >"$tmp/remove.out" 2>&1
check "dpkg -r oustpbm" [ $? = 0 ]
check "... the program is gone" [ ! -e /usr/bin/oustpbm ]
check "... the games, the accounts, the settings and the user are kept" sh -c "[ -f '$lib/games/101.game' ] &&
    grep -q '^alice:' '$lib/users' && [ -f '$etc/oustpbm.conf' ] && getent passwd oustpbm >/dev/null"
dpkg --purge oustpbm >"$tmp/purge.out" 2>&1
check "dpkg --purge oustpbm" [ $? = 0 ]
sed 's/^/# /' "$tmp/purge.out" | grep -iv '^# (Reading\|^# Purging\|^# Removing'
left=
for p in "$lib" "$etc" /usr/bin/oustpbm /usr/share/oustpbm /usr/share/doc/oustpbm /usr/share/man/man1/oustpbm.1.gz \
    /etc/cron.d/oustpbm /etc/logrotate.d/oustpbm /var/mail/oustpbm /lib/systemd/system/oustpbm-flush.timer \
    /lib/systemd/system/oustpbm-flush.service /etc/systemd/system/timers.target.wants/oustpbm-flush.timer; do
	[ -e "$p" ] || [ -L "$p" ] && left="$left $p"
done
left="$left $(ls -d /etc/systemd/system/*/oustpbm* /lib/systemd/system/oustpbm* /var/lib/systemd/deb-systemd-helper-enabled/*oustpbm* \
    /var/lib/systemd/deb-systemd-helper-enabled/*/oustpbm* 2>/dev/null | tr '\n' ' ')"
getent passwd oustpbm >/dev/null && left="$left user:oustpbm"
getent group oustpbm >/dev/null && left="$left group:oustpbm"
dpkg-query -W -f='${Status}' oustpbm 2>/dev/null | grep -q 'installed\|config-files' && left="$left dpkg:oustpbm"
left=$(echo $left)
check "... nothing is left (${left:-nothing})" [ -z "$left" ]
done_testing

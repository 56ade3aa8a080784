#!/bin/sh
# deploy: a deployment as the README describes it, on a real mail system.
# As root: `make install` with a PREFIX of its own (under the temporary
# directory), a dedicated system account made for the test (removed after)
# whose ~/.forward and ~/.procmailrc are the lines `oustpbm init` printed,
# and Debian's Postfix in an instance of its own on 127.0.0.1 (as in
# postfix.sh: the system's Postfix is neither used nor touched) delivering
# the account's mail with local(8), through the .forward, to procmail and
# the installed oustpbm; the replies go back by SMTP into the players'
# virtual Maildirs.  It shows:
#   - a configuration typo (remind_day = 3): every mail exits 75, Postfix
#     defers it (not bounced, nothing in procmail's default mailbox), the
#     admin (admin_address) is mailed once however often Postfix retries;
#   - the typo fixed and `postqueue -f`: every kept mail is answered (a
#     register with its one-time code: each player confirms by mail with the
#     code read from that mail, as the installed program has no test hooks);
#   - the web pages written from a mail (procmail's umask 077) are readable
#     by another account;
#   - `make uninstall` leaves nothing under the PREFIX.
# Every wait gives up at once, saying why, when what it waits for can no
# longer come (Postfix bounced the mail, filed it, or died).
# Skipped, saying so, without Postfix, procmail or root.
. "$(dirname "$0")/lib.sh"
[ -x /usr/sbin/postfix ] && [ -x /usr/lib/postfix/sbin/local ] ||
    skip_all "Postfix is not installed (as root, scripts/install-deps --test installs it)"
[ "$(id -u)" = 0 ] || skip_all "a deployment needs root: make install, a system account, Postfix's master"
need procmail setpriv useradd userdel
unset OUSTPBM_TEST_TIME
started=$(date +%s)
MAKE=${MAKE:-make}

tmpdir
chmod 755 "$tmp"
pf_init "$tmp/pf"
user=oustd$$
pre=$tmp/prefix
www=$tmp/www

stop_postfix() { pf_stop; }
at_exit stop_postfix

# ---- make install under a PREFIX of its own, as root, from a copy of the
# checkout (its objects too: only those holding a path are compiled again)
src=$tmp/src
mkdir -p "$src/build"
cp -p Makefile "$src/"
cp -pr src templates scripts doc "$src/"
cp -pr build/obj build/paths "$src/build/" 2>/dev/null
check "make install PREFIX=$pre" sh -c "$MAKE -s -C '$src' install PREFIX='$pre' >'$tmp/make.out' 2>&1"
sed 's/^/# /' "$tmp/make.out" | grep -v '^# cc ' | tail -n 3

# ---- the account the server runs as, its home readable by it alone
mkdir -p "$tmp/users"
useradd --system --user-group --create-home --home-dir "$tmp/users/$user" --shell /bin/sh "$user" ||
    { echo "not ok - useradd $user failed"; exit 1; }
at_exit "userdel $user 2>/dev/null; rm -f /var/mail/$user"
uhome=$tmp/users/$user
asuser() { # CMD...: as the account, with its environment
	setpriv --reuid="$user" --regid="$user" --init-groups env -i HOME="$uhome" LOGNAME="$user" USER="$user" \
	    PATH=/usr/bin:/bin SHELL=/bin/sh "$@"
}
check "the account $user exists, its home $uhome" [ "$(stat -c %U "$uhome")" = "$user" ]
asuser "$pre/bin/oustpbm" init "$uhome/oustpbm" >"$tmp/init.out" 2>&1
check "oustpbm init as the account (the installed program)" [ $? = 0 ]
# the printed lines: the .forward's line, then the .procmailrc's three
sed -n '/^# ~\/.forward/,/^$/p' "$tmp/init.out" | grep -v '^#' | grep . >"$tmp/forward"
sed -n '/^# ~\/.procmailrc/,/^$/p' "$tmp/init.out" | grep -v '^#' | grep . >"$tmp/procmailrc"
check "... it prints the installed procmailrc and program" sh -c "
    grep -qx 'INCLUDERC=$pre/share/oustpbm/scripts/procmailrc' '$tmp/procmailrc' &&
    grep -qx 'OUSTPBM=$pre/bin/oustpbm' '$tmp/procmailrc' && [ -r '$pre/share/oustpbm/scripts/procmailrc' ]"
asuser sh -c "cat >'$uhome/.forward' && chmod 644 '$uhome/.forward'" <"$tmp/forward"
asuser sh -c "cat >'$uhome/.procmailrc' && chmod 644 '$uhome/.procmailrc'" <"$tmp/procmailrc"
check "~/.forward and ~/.procmailrc are the printed lines" sh -c "[ -s '$uhome/.forward' ] && [ \$(wc -l <'$uhome/.procmailrc') = 3 ]"
mkdir -p "$www"
chown "$user:" "$www"

good_conf() {
	cat <<EOC
from_address = $user@oust.test
smtp_url = smtp://127.0.0.1:$port
helo_name = oust.test
admin_address = admin@example.org
web_dir = $www
web_url = https://oust.test/site/
max_mails_per_hour = 0
password_cost = 1
EOC
}
# the typo of the issue: remind_day for remind_days
{ good_conf; echo 'remind_day = 3'; } | asuser sh -c "cat >'$uhome/oustpbm/oustpbm.conf'"

# ---- the Postfix instance: the account's mail by local(8), the players' and the admin's virtual
{
	pf_main_cf
	cat <<EOC
myhostname = oust.test
mydomain = oust.test
myorigin = oust.test
mydestination = oust.test
local_recipient_maps = unix:passwd.byname
allow_mail_to_commands = forward
virtual_mailbox_maps = texthash:$conf/vmailbox
EOC
} >"$conf/main.cf"
printf 'alice@example.org example.org/alice/\nbob@example.com example.com/bob/\nadmin@example.org example.org/admin/\n' \
    >"$conf/vmailbox"
pf_master_cf >"$conf/master.cf"
pfstart() { pf_start; }
check "Postfix starts in its own instance on 127.0.0.1:$port" pfstart
[ $fails = 0 ] || { sed 's/^/# /' "$tmp/postfix.out"; done_testing; }

smtp_mail() { # FROM SUBJECT: a player's mail to the account, in by SMTP
	"$PY" - "$port" "$1" "$2" "$user@oust.test" <<'EOP'
import smtplib, sys
from email.message import EmailMessage
port, sender, subject, to = sys.argv[1:5]
m = EmailMessage()
m["From"] = sender
m["To"] = to
m["Subject"] = subject
m.set_content("sent by the test\n")
with smtplib.SMTP("127.0.0.1", int(port), timeout=30) as s:
    s.send_message(m)
EOP
}
maildir() { # ADDRESS: its virtual Maildir
	echo "$pf/vmail/${1#*@}/${1%@*}/new"
}
count() { # ADDRESS: mails in its Maildir
	ls "$(maildir "$1")" 2>/dev/null | wc -l
}
ulog() { # the lines of the account's mail in Postfix's log
	grep "to=<$user@oust.test>" "$pf/maillog" 2>/dev/null
}
# hopeless: why no wait can succeed any more, or nothing
hopeless() {
	if ulog | grep -q 'status=bounced'; then
		echo "Postfix bounced the account's mail: $(ulog | grep 'status=bounced' | tail -n 1 | sed 's/.*status=//')"
	elif [ -s "/var/mail/$user" ]; then
		echo "a mail was filed in /var/mail/$user (procmail's default mailbox)"
	elif ! kill -0 "$(cat "$pf/spool/pid/master.pid" 2>/dev/null)" 2>/dev/null; then
		echo "Postfix is not running"
	fi
}
# wait_until DESC CMD...: CMD true within 30 s, else fails at once when hopeless says why
waited=
wait_until() {
	lib_w=$1
	shift
	i=0
	while ! "$@"; do
		waited=$(hopeless)
		[ -z "$waited" ] || { echo "# waiting for $lib_w: $waited"; return 1; }
		[ "$i" -lt 300 ] || { waited="not within 30 s"; echo "# waiting for $lib_w: $waited"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}
at_least() { # N CMD...: CMD's output, a number, is at least N
	lib_n=$1
	shift
	[ "$("$@")" -ge "$lib_n" ]
}
deferred() { ulog | grep -c 'relay=local.*status=deferred'; }
a=alice@example.org
b=bob@example.com

# ---- the typo: kept by Postfix, the admin told once
smtp_mail $a "register alice secret" 2>>"$tmp/smtp.err"
smtp_mail $b "register bob hunter2" 2>>"$tmp/smtp.err"
wait_until "Postfix's deferrals" at_least 6 deferred
check "a configuration typo: Postfix defers the mails (oustpbm exited 75 through procmail and the .forward)" \
    [ "$(deferred)" -ge 6 ]
check "... Postfix logged oustpbm's message and procmail's exit 75" sh -c "grep 'to=<$user@oust.test>' '$pf/maillog' |
    grep 'status=deferred (temporary failure. Command output: oustpbm: oustpbm.conf line [0-9]*: unknown key .remind_day.' |
    grep -q 'Program failure (75) of \"$pre/bin/oustpbm\"'"
check "... not bounced, not delivered" sh -c "! grep 'to=<$user@oust.test>' '$pf/maillog' | grep -q 'status=bounced\\|status=sent'"
/usr/sbin/postqueue -c "$conf" -j >"$tmp/queue.json" 2>/dev/null
check "... both mails wait in Postfix's queue" [ "$(grep -c "\"address\": *\"$user@oust.test\"" "$tmp/queue.json")" = 2 ]
check "... nothing in procmail's default mailbox" [ ! -s "/var/mail/$user" ]
check "... the log of the home says why" grep -q "error: configuration error: oustpbm.conf line [0-9]*: unknown key 'remind_day'" "$uhome/oustpbm/log"
wait_until "the admin's mail" at_least 1 count admin@example.org
check "the admin is told (admin_address, through the configured SMTP server)" [ "$(count admin@example.org)" = 1 ]
check "... about the typo" sh -c "grep -q \"^Subject: .*unknown key 'remind_day'\" '$(maildir admin@example.org)'/*"
check "... once, after $(deferred) deferrals" [ "$(count admin@example.org)" = 1 ]
check "no player got anything" [ "$(count $a) $(count $b)" = "0 0" ]

# ---- fixed: the kept mails answered at Postfix's next try
good_conf | asuser sh -c "cat >'$uhome/oustpbm/oustpbm.conf'"
fixed=$(date +%s)
/usr/sbin/postqueue -c "$conf" -f
wait_until "the replies to the kept mails" sh -c "[ \$(ls '$(maildir $a)' 2>/dev/null | wc -l) -ge 1 ] && [ \$(ls '$(maildir $b)' 2>/dev/null | wc -l) -ge 1 ]"
answered=$(date +%s)
check "fixed, postqueue -f: both kept mails are answered" [ "$(count $a) $(count $b)" = "1 1" ]
check "... Postfix delivered them to the account" sh -c "grep 'to=<$user@oust.test>' '$pf/maillog' | grep -q 'relay=local.*status=sent (delivered to command: exec /usr/bin/procmail)'"
echo "# from the fix to the last reply: $((answered - fixed)) s"

# ---- the registrations pending: each confirmed by mail with its code
check "the registrations are pending (register.c): no account yet" sh -c "
    grep -q 'ok: registration of alice pending' '$uhome/oustpbm/log' &&
    grep -q 'ok: registration of bob pending' '$uhome/oustpbm/log' && ! grep -qs '^alice:\|^bob:' '$uhome/oustpbm/users'"
# the Maildirs as a home's mail/ADDRESS/ folders, for lib.sh's code_in
mkdir -p "$tmp/boxes/mail"
ln -s "$pf/vmail/example.org/alice" "$tmp/boxes/mail/$a"
ln -s "$pf/vmail/example.com/bob" "$tmp/boxes/mail/$b"
# the real codes (random: OUSTPBM_TEST_CODE does nothing in an installed program)
ca=$(code_in "$tmp/boxes" $a)
cb=$(code_in "$tmp/boxes" $b)
check "... each player's reply holds a one-time code" sh -c "[ -n '$ca' ] && [ -n '$cb' ]"
if [ -n "$ca" ] && [ -n "$cb" ]; then
	# with the password of each one's register (confirm.c)
	smtp_mail $a "confirm alice $ca secret" 2>>"$tmp/smtp.err"
	smtp_mail $b "confirm bob $cb hunter2" 2>>"$tmp/smtp.err"
	wait_until "the confirms' replies" sh -c "[ \$(ls '$(maildir $a)' | wc -l) -ge 2 ] && [ \$(ls '$(maildir $b)' | wc -l) -ge 2 ]"
else
	echo "# no confirm sent: no code in the mails to alice ($(count $a)) or bob ($(count $b))"
fi
check "confirm by mail with the mailed code: both answered" [ "$(count $a) $(count $b)" = "2 2" ]
check "... alice is registered" grep -q "^alice:$a:" "$uhome/oustpbm/users"
check "... bob is registered" grep -q "^bob:$b:" "$uhome/oustpbm/users"

# ---- a game: the web pages written from the mails, readable by another account
smtp_mail $a "challenge alice secret bob -size=5" 2>>"$tmp/smtp.err"
wait_until "the challenge's replies" sh -c "[ \$(ls '$(maildir $b)' | wc -l) -ge 3 ]"
smtp_mail $a "move 101 alice secret C3" 2>>"$tmp/smtp.err"
wait_until "the move's replies" sh -c "[ \$(ls '$(maildir $a)' | wc -l) -ge 4 ] && [ \$(ls '$(maildir $b)' | wc -l) -ge 4 ]"
check "a challenge and a move by mail: answered" [ "$(count $a) $(count $b)" = "4 4" ]
check "the web pages are written" sh -c "[ -f '$www/index.html' ] && [ -f '$www/board/101.html' ]"
check "... readable by another account (nobody)" setpriv --reuid=nobody --regid=nogroup --clear-groups \
    sh -c "cat '$www/index.html' '$www/board/101.html' '$www/player/alice.html' >/dev/null"
check "... every page 0644 and folder 0755 under procmail's umask" \
    sh -c "[ -z \"\$(find '$www' -type f ! -name .lock ! -perm 0644; find '$www' -type d ! -perm 0755)\" ]"
check "... the home stays private (0700)" [ "$(stat -c %a "$uhome/oustpbm")" = 700 ]
check "the board mails link the board's page" grep -q '^The board on the web: https://oust.test/site/board/101.html$' \
    "$(maildir $b)/$(ls -t "$(maildir $b)" | head -n 1)"
check "nothing in procmail's default mailbox" [ ! -s "/var/mail/$user" ]
check "Postfix bounced nothing" sh -c "! grep -q 'status=bounced' '$pf/maillog'"

# ---- make uninstall: nothing left under the PREFIX
stop_postfix
check "make uninstall PREFIX=$pre" sh -c "$MAKE -s -C '$src' uninstall PREFIX='$pre' >'$tmp/make.out' 2>&1"
check "... leaves nothing under the PREFIX" [ -z "$(find "$pre" -mindepth 1 2>/dev/null)" ]
echo "# the whole test: $(($(date +%s) - started)) s"
done_testing

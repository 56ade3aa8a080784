#!/bin/sh
# sysconf: the system's oustpbm.conf (SYSCONFDIR/oustpbm/oustpbm.conf,
# /etc/oustpbm/oustpbm.conf in the Debian package) under a home's own
# (src/base/config.h): a key the home sets wins, a key it does not set
# comes from the system file, a key neither sets has its default.  The test
# build reads the file OUSTPBM_TEST_SYSCONF names, and no system file when
# it is unset; the installed program ignores the variable (tests/sh/deb.sh
# shows it reading /etc/oustpbm/oustpbm.conf).
. "$(dirname "$0")/lib.sh"
tmpdir
plain=$top/oustpbm
if [ ! -x "$plain" ] || [ -n "$(find src Makefile -newer "$plain" 2>/dev/null | head -n 1)" ]; then
	flock build/test-bin.lock make -s --no-print-directory oustpbm >&2 || { fail "make oustpbm"; done_testing; }
fi
sys=$tmp/etc/oustpbm.conf
mkdir -p "$tmp/etc"

# home NAME [LINE...]: a new home whose oustpbm.conf holds only the lines
# given (the templates of the checkout and the cheapest hash besides), so
# from_address and the rest are left to the system file
home() {
	h=$tmp/$1
	shift
	"$bin" init "$h" >/dev/null || { fail "oustpbm init $h"; done_testing; }
	printf '%s\n' "templates = $top/templates" 'password_cost = 1' "$@" >"$h/oustpbm.conf"
}
# help HOME [PROGRAM]: a help mail from alice, with the system file $sys; prints the exit status
help() {
	mail alice@example.org help | OUSTPBM_TEST_SYSCONF=$sys "${2:-$bin}" -d "$1" >/dev/null 2>"$tmp/stderr"
	echo $?
}
# from HOME: the From of the newest reply to alice
from() {
	sed -n '/^$/q; s/^From: //p' "$(newest "$1" alice@example.org)"
}

printf '%s\n' '# the system file' 'from_address = sys@example.net' 'server_name = Club' 'max_mails_per_hour = 7' >"$sys"

home a
check "a home that sets no from_address: help answered (exit 0)" [ "$(help "$tmp/a")" = 0 ]
f=$(from "$tmp/a")
check "... From: is the system file's from_address ($f)" sh -c "echo '$f' | grep -q '<sys@example.net>\$\|^sys@example.net\$'"

home b 'from_address = home@example.net'
help "$tmp/b" >/dev/null
f=$(from "$tmp/b")
check "a home that sets from_address: its own wins ($f)" sh -c "echo '$f' | grep -q 'home@example.net'"

# a key neither sets: its default (oust@localhost), the test build reading no system file by itself
home c
mail alice@example.org help | "$bin" -d "$tmp/c" >/dev/null 2>&1
f=$(from "$tmp/c")
check "OUSTPBM_TEST_SYSCONF unset: the test build reads no system file, from_address is the default ($f)" \
    sh -c "echo '$f' | grep -q 'oust@localhost'"

# the installed program ignores the variable: it reads SYSCONFDIR's file alone
home d
help "$tmp/d" "$plain" >/dev/null
f=$(from "$tmp/d")
check "the installed program ignores OUSTPBM_TEST_SYSCONF ($f)" sh -c "! echo '$f' | grep -q 'sys@example.net'"

# errors in the system file: exit 75 (the MTA keeps the mail), named by its path
printf '%s\n' 'from_address = sys@example.net' 'remind_day = 3' >"$sys"
home e
check "a bad line in the system file: exit 75" [ "$(help "$tmp/e")" = 75 ]
check "... the message names the file by its path and the line" \
    grep -qF "$sys line 2: unknown key 'remind_day'" "$tmp/stderr"
check "... nothing answered" [ ! -d "$tmp/e/mail/alice@example.org" ]
check "... logged" grep -qF "$sys line 2: unknown key 'remind_day'" "$tmp/e/log"
# a typo in the home's file: the admin_address of the system file is told (config_salvage reads both)
printf '%s\n' 'from_address = sys@example.net' 'admin_address = admin@example.org' >"$sys"
home s 'remind_day = 3'
check "a bad line in the home's file under a good system file: exit 75" [ "$(help "$tmp/s")" = 75 ]
check "... the system file's admin_address is mailed, naming the line" \
    sh -c "grep -q \"oustpbm.conf line 3: unknown key 'remind_day'\" '$tmp/s/mail/admin@example.org/new/'*"
rm -f "$sys"
mkdir "$sys"
check "the system file is a directory: exit 75" [ "$(help "$tmp/e")" = 75 ]
check "... the message says it cannot be read" grep -qF "cannot read $sys: Is a directory" "$tmp/stderr"
rmdir "$sys"
check "no system file at the path given: help answered with the defaults" [ "$(help "$tmp/e")" = 0 ]
f=$(from "$tmp/e")
check "... From: the default ($f)" sh -c "echo '$f' | grep -q 'oust@localhost'"

# the transport: smtp_url in the system file sends the replies by SMTP...
sink out
printf '%s\n' 'from_address = sys@example.net' "smtp_url = smtp://127.0.0.1:$port" 'helo_name = oust.test' >"$sys"
home f
check "smtp_url in the system file: help answered" [ "$(help "$tmp/f")" = 0 ]
check "... the reply went by SMTP (in the sink, not in the home's mail/)" \
    sh -c "grep -rlq 'sys@example.net' '$tmp/out' && [ ! -d '$tmp/f/mail/alice@example.org' ]"
# ... and a home's transport = maildir keeps them on the machine
home g 'transport = maildir'
check "transport = maildir in the home over the system's smtp_url: help answered" [ "$(help "$tmp/g")" = 0 ]
check "... the reply is in the home's Maildir" [ -n "$(ls "$tmp/g/mail/alice@example.org/new" 2>/dev/null)" ]
# a home's smtp_password_file replaces the system file's smtp_password (the
# program uses smtp_password over the file when both are set): the relay
# takes the home's password alone
(cd "$tmp" && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout srv.key -out srv.pem) >/dev/null 2>&1
check "a certificate made with openssl (AUTH needs STARTTLS)" [ -s "$tmp/srv.pem" ]
sink auth --tls "$tmp/srv.pem" "$tmp/srv.key" --auth club:other
printf '%s\n' 'from_address = sys@example.net' "smtp_url = smtp://127.0.0.1:$port" 'smtp_user = club' \
    'smtp_password = s3cret' 'helo_name = oust.test' 'smtp_starttls = required' "smtp_cafile = $tmp/srv.pem" >"$sys"
home h 'smtp_password_file = pw'
echo 'other' >"$tmp/h/pw"
check "smtp_password in the system file, smtp_password_file in the home: help answered" [ "$(help "$tmp/h")" = 0 ]
check "... the relay took the home's password: the reply is in its sink" grep -rlq 'sys@example.net' "$tmp/auth"
check "... the system file's password is in no message" sh -c "! grep -rq s3cret '$tmp/stderr' '$tmp/h/log'"
# a relative path of the system file is taken from the home
printf '%s\n' 'from_address = sys@example.net' 'templates = tpl' >"$sys"
home i
sed -i '/^templates = /d' "$tmp/i/oustpbm.conf"
cp -r "$top/templates" "$tmp/i/tpl"
sed -i 's/^/TPL-MARK /' "$tmp/i/tpl/help.txt" 2>/dev/null
check "templates = tpl in the system file: help answered" [ "$(help "$tmp/i")" = 0 ]
check "... with the home's tpl/ (relative to the home)" grep -q 'TPL-MARK' "$(newest "$tmp/i" alice@example.org)"
done_testing

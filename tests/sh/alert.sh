#!/bin/sh
# alert: a mail that cannot be answered is kept by the mail system (exit
# 75) and the admin is told (src/commands/pipeline/alert.h):
#   - a configuration typo: exit 75, logged, admin_address mailed once
#     (maildir transport), not again within the hour, again after it; a
#     second, different cause is told at once; fixed, the mail is answered;
#   - no admin_address: standard error says how to be told;
#   - an unusable home: the stamp goes to /tmp/oustpbm-alerts.<uid>;
#   - missing templates: exit 75 and told;
#   - a full disk (ulimit -f 0): exit 75, the admin's mail tried;
# and the web site written from a mail is readable whatever the umask
# (files 0644, folders 0755), every board mail linking its page (web_url).
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
mkhome "$h" 'admin_address = admin@example.org'
adm=$h/mail/admin@example.org/new
told() { ls "$adm" 2>/dev/null | wc -l; }

cp "$h/oustpbm.conf" "$tmp/conf.good"
echo 'remind_day = 3' >>"$h/oustpbm.conf"
check "a configuration typo: exit 75" [ "$(rc send "$h" alice@example.org help)" = 75 ]
check "... standard error names the line" grep -q "oustpbm.conf line [0-9]*: unknown key 'remind_day'" "$tmp/stderr"
check "... logged" grep -q "error: configuration error: oustpbm.conf line [0-9]*: unknown key 'remind_day'" "$h/log"
check "... the admin is mailed" [ "$(told)" = 1 ]
f=$(ls "$adm"/* | head -n 1)
check "... a mail to admin_address from the server naming the cause" sh -c "grep -q '^To: admin@example.org' '$f' &&
    grep -q '^From: .*<oust@example.net>' '$f' && grep -q '^Subject: .*unknown key .remind_day.' '$f' &&
    grep -q '^Auto-Submitted: auto-generated' '$f' && grep -q 'exits 75' '$f'"
check "... the stamp is in the home" grep -q '^[0-9]* config-' "$h/alerts"
OUSTPBM_TEST_TIME=$((T0 + 600)) sh -c "mail bob@example.com help | '$bin' -d '$h'" >/dev/null 2>&1
check "the same cause within the hour: exit 75, the admin not mailed again" [ "$(told)" = 1 ]
check "... the log says so" grep -q "alert config-.*: admin already told within the hour" "$h/log"
rc=$(mail carol@example.org help | OUSTPBM_TEST_TIME=$((T0 + 3700)) "$bin" -d "$h" 2>/dev/null; echo $?)
check "an hour later: exit 75 and told again" [ "$rc $(told)" = "75 2" ]
echo 'colour = red' >>"$h/oustpbm.conf"
sed -i '/remind_day/d' "$h/oustpbm.conf"
rc=$(mail carol@example.org help | OUSTPBM_TEST_TIME=$((T0 + 3800)) "$bin" -d "$h" 2>/dev/null; echo $?)
check "another cause: told at once" [ "$rc $(told)" = "75 3" ]
cp "$tmp/conf.good" "$h/oustpbm.conf"
check "fixed: the mail system's next try is answered (exit 0)" [ "$(rc send "$h" alice@example.org help)" = 0 ]
check "... a reply to alice" [ -n "$(ls "$h/mail/alice@example.org/new")" ]

# no admin_address: standard error only
h2=$tmp/home2
mkhome "$h2"
echo 'remind_day = 3' >>"$h2/oustpbm.conf"
check "no admin_address: exit 75" [ "$(rc send "$h2" alice@example.org help)" = 75 ]
check "... standard error says how to be told" grep -q "set admin_address in oustpbm.conf" "$tmp/stderr"
check "... nothing mailed" [ ! -d "$h2/mail" ]

# missing templates
h3=$tmp/home3
mkhome "$h3" 'admin_address = admin@example.org'
sed -i "s|^templates = .*|templates = $tmp/none|" "$h3/oustpbm.conf"
check "missing templates: exit 75" [ "$(rc send "$h3" alice@example.org help)" = 75 ]
check "... the admin is mailed about the templates" sh -c "grep -q '^Subject: .*template' '$h3/mail/admin@example.org/new/'*"

# a full disk (the file size limit, ulimit -f 0: EFBIG, as ENOSPC): 75, the
# admin's mail tried (it cannot be written either: said on standard error)
h6=$tmp/home6
mkhome "$h6" 'admin_address = admin@example.org'
mail alice@example.org "register alice secret" >"$tmp/m6"
rc=$(sh -c 'ulimit -f 0; exec "$1" -d "$2" <"$3" >/dev/null 2>&1' sh "$bin" "$h6" "$tmp/m6"; echo $?)
err=$(sh -c 'ulimit -f 0; exec "$1" -d "$2" <"$3" 2>&1 >/dev/null' sh "$bin" "$h6" "$tmp/m6" | cat)
check "a full disk: exit 75" [ "$rc" = 75 ]
check "... the admin's mail tried, its failure said" sh -c "echo '$err' | grep -q 'cannot tell admin@example.org: .*File too large'"
check "... alice not registered" sh -c "! grep -q '^alice:' '$h6/users' 2>/dev/null"

# each cause is limited on its own (issue 41 item 5): after a full disk is
# told, a permission failure within the hour is told too, and the
# causes are told by their errno, not by words of a message.  The alerts
# go to an SMTP sink: a full disk could not write them into the home.
sink adm
h7=$tmp/home7
mkhome "$h7" 'admin_address = admin@example.org' "smtp_url = smtp://127.0.0.1:$port" 'transport = smtp'
alerts7() { grep -l '^Subject: .*mail kept unanswered' "$tmp/adm/"*.eml 2>/dev/null | wc -l; }
mail alice@example.org "register alice secret" >"$tmp/m7"
# the replies (over a block) cannot be written, the stamp (a line) can
rc=$(OUSTPBM_TEST_TIME=$((T0 + 100)) sh -c 'ulimit -f 1; exec "$1" -d "$2" <"$3" >/dev/null 2>&1' sh "$bin" "$h7" "$tmp/m7"; echo $?)
check "a full disk (a file over its size limit): exit 75, the admin told" [ "$rc $(alerts7)" = "75 1" ]
check "... under the cause disk" grep -q '^[0-9]* disk$' "$h7/alerts"
rc=$(OUSTPBM_TEST_TIME=$((T0 + 200)) sh -c 'ulimit -f 1; exec "$1" -d "$2" <"$3" >/dev/null 2>&1' sh "$bin" "$h7" "$tmp/m7"; echo $?)
check "... again within the hour: exit 75, not told again" [ "$rc $(alerts7)" = "75 1" ]
# a file of the home its owner may not read (EACCES); root reads every
# file, so as root the home is nobody's and oustpbm runs as nobody, from
# world-readable copies of the program and the templates
if [ "$(id -u)" != 0 ]; then
	chmod 000 "$h7/users"
	rc=$(mail bob@example.com "register bob hunter2" | OUSTPBM_TEST_TIME=$((T0 + 300)) "$bin" -d "$h7" 2>/dev/null; echo $?)
	chmod 600 "$h7/users"
elif command -v setpriv >/dev/null; then
	mkdir -p "$tmp/pub"
	cp "$bin" "$tmp/pub/oustpbm"
	cp -r "$top/templates" "$tmp/pub/templates"
	chmod -R a+rX "$tmp/pub"
	chmod 711 "$tmp"
	sed -i "s|^templates = .*|templates = $tmp/pub/templates|" "$h7/oustpbm.conf"
	touch "$h7/users"
	chown -R nobody "$h7"
	chmod 000 "$h7/users"
	rc=$(mail bob@example.com "register bob hunter2" | OUSTPBM_TEST_TIME=$((T0 + 300)) setpriv --reuid=nobody --regid=nogroup --clear-groups "$tmp/pub/oustpbm" -d "$h7" 2>/dev/null; echo $?)
	chmod 600 "$h7/users"
	chown -R "$(id -u)" "$h7"
else
	rc="no setpriv"
fi
check "then a permission failure within the hour: exit 75 and told (its own cause)" [ "$rc $(alerts7)" = "75 2" ]
check "... under the cause permission" grep -q '^[0-9]* permission$' "$h7/alerts"
check "... the second alert names the permission failure" sh -c "grep -l '^Subject: .*Permission denied' '$tmp/adm/'*.eml | grep -q ."

# the outbox unusable (outbox/new a file, not a folder): its own cause, told too
rm -rf "$h7/outbox/new" && touch "$h7/outbox/new"
rc=$(mail carol@example.org help | OUSTPBM_TEST_TIME=$((T0 + 400)) "$bin" -d "$h7" 2>/dev/null; echo $?)
check "then the outbox unusable within the hour: exit 75 and told (its own cause)" [ "$rc $(alerts7)" = "75 3" ]
check "... under the cause outbox" grep -q '^[0-9]* outbox$' "$h7/alerts"
rm -f "$h7/outbox/new"

# the home unusable for its user: the stamp in /tmp (root: as nobody)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	h4=$tmp/home4
	mkhome "$h4" 'admin_address = admin@example.org' 'smtp_url = smtp://127.0.0.1:9'
	chmod 755 "$tmp"
	chown -R nobody "$h4"
	chmod 500 "$h4"
	uid=$(id -u nobody)
	rm -f "/tmp/oustpbm-alerts.$uid"
	at_exit "rm -f /tmp/oustpbm-alerts.$uid"
	rc=$(mail alice@example.org "register alice secret" | setpriv --reuid=nobody --regid=nogroup --clear-groups "$bin" -d "$h4" 2>"$tmp/stderr4"; echo $?)
	check "a home its owner cannot write: exit 75" [ "$rc" = 75 ]
	check "... the alert could not be sent (no SMTP server), said on standard error" grep -q "cannot tell admin@example.org" "$tmp/stderr4"
	chmod 700 "$h4"
else
	skip "the unwritable home needs root (a home of another user)"
fi

# ---- the web site: readable whatever the umask, linked from every board mail
h5=$tmp/home5
mkhome "$h5" 'web_dir = site' 'web_url = https://oust.example.org/games/'
(
	umask 077
	send "$h5" alice@example.org "register alice secret" >/dev/null
	send "$h5" bob@example.com "register bob hunter2" >/dev/null
	send "$h5" alice@example.org "challenge alice secret bob -size=5" >/dev/null
	send "$h5" bob@example.com "move 101 bob hunter2 C3" >/dev/null
)
check "umask 077: the pages written from a mail are 0644" sh -c "[ -z \"\$(find '$h5/site' -type f ! -name .lock ! -perm 0644)\" ] &&
    [ -f '$h5/site/index.html' ] && [ -f '$h5/site/board/101.html' ]"
check "... and the folders 0755" [ -z "$(find "$h5/site" -type d ! -perm 0755)" ]
check "... no temporary file left" [ -z "$(find "$h5/site" -name '*.tmp')" ]
check "web_url: the board mails link the board's page" sh -c "grep -l '^The board on the web: https://oust.example.org/games/board/101.html\$' '$h5/mail/bob@example.com/new/'* | grep -q ."
check "... in the HTML part too" sh -c "grep -l 'href=\"https://oust.example.org/games/board/101.html\">The board on the web</a>' '$h5/mail/bob@example.com/new/'* | grep -q ."
check "... a mail about no board does not" sh -c "! grep -q 'on the web' \"\$(ls '$h5/mail/alice@example.org/new/'* | head -n 1)\""
sed -i 's|^web_url = .*|web_url = ftp://x|' "$h5/oustpbm.conf"
check "web_url must be http(s)" sh -c "'$bin' -d '$h5' list 2>&1 >/dev/null | grep -q \"web_url 'ftp://x' does not start with http:// or https://\""
done_testing

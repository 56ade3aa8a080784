#!/bin/sh
# bidi: invisible and bidirectional characters (U+200B..U+200F,
# U+202A..U+202E, U+2066..U+2069, U+FEFF inside a text) in a player's words
# reach other people's mail and the admin's log shown as <U+202E>, never
# obeyed (issue 31, finding 7; src/base/utf8.h utf8_visible): the text part
# of a chat mail and the log line of a mail; the HTML part drops them.
. "$(dirname "$0")/lib.sh"
tmpdir

A=alice@example.org
B=bob@example.com
h=$tmp/home
mkhome "$h" 'max_mails_per_hour = 0'
t=$T0
run() { # FROM SUBJECT [BODY]
	t=$((t + 60))
	mail "$1" "$2" "" "${3:-}" | deliver "$h" $t
	echo $?
}
run $A "register alice secret" >/dev/null
run $B "register bob hunter2" >/dev/null
run $A "challenge alice secret bob -size=5 -noswap" >/dev/null
run $A "move 101#1 alice secret C3" >/dev/null
rlo=$(printf '\342\200\256')	# U+202E RIGHT-TO-LEFT OVERRIDE
zw=$(printf '\342\200\213')	# U+200B ZERO WIDTH SPACE
bom=$(printf '\357\273\277')	# U+FEFF
rm -rf "$h/mail/$B"
check "chat-bidi-escaped: the chat is handled" [ "$(run $A "chat 101 alice secret" "pay to ${rlo}txt.exe${zw} now${bom}!")" = 0 ]
m=$(ls "$h/mail/$B/new/"* 2>/dev/null | head -n 1)
# the text part: quoted-printable, decoded for the check
$PY - "$m" >"$tmp/plain" 2>"$tmp/html" <<'PY'
import email, sys
msg = email.message_from_binary_file(open(sys.argv[1], 'rb'))
for part in msg.walk():
    if part.get_content_type() == 'text/plain':
        sys.stdout.write(part.get_payload(decode=True).decode('utf-8'))
    elif part.get_content_type() == 'text/html':
        sys.stderr.write(part.get_payload(decode=True).decode('utf-8'))
PY
check "... bob's text part shows <U+202E>, <U+200B> and <U+FEFF>" sh -c "grep -q 'pay to <U+202E>txt.exe<U+200B> now<U+FEFF>!' '$tmp/plain'"
check "... and holds none of them raw" sh -c "! grep -q -e '$rlo' -e '$zw' -e '$bom' '$tmp/plain'"
check "... an HTML part, if any, holds none of them" sh -c "! grep -q -e '$rlo' -e '$zw' -e '$bom' '$tmp/html'"
t=$((t + 60))
mail $A "games ${rlo}done" | deliver "$h" $t
check "log: a Subject with U+202E is logged as <U+202E>" sh -c "tail -n 1 '$h/log' | grep -q '<U+202E>done. is not a user id'"
check "... and never raw" sh -c "! grep -q '$rlo' '$h/log'"
done_testing

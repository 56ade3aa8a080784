#!/bin/sh
# unsubscribe: the way out of an observer's mails that needs no password
# (src/commands/keywords/unsubscribe.c, src/mail/unsubtoken.h).  The List-Unsubscribe
# mailto of a watcher's board mail, decoded as a mail program does and sent
# from another address, stops the board's mails; the next move mails the
# watcher nothing; a wrong token counts against the account it names as a
# wrong password does; a home without a secret gets one, 0600.
. "$(dirname "$0")/lib.sh"
need "$bin" "$PY"
tmpdir
h=$tmp/h
mkhome "$h" "max_password_failures = 3"
send "$h" alice@example.org "register alice secret" >/dev/null
send "$h" bob@example.com "register bob hunter2" >/dev/null
send "$h" carol@example.net "register carol pw3" >/dev/null
send "$h" alice@example.org "challenge alice secret bob -size=5" >/dev/null
send "$h" carol@example.net "subscribe 101 carol pw3" >/dev/null
send "$h" alice@example.org "move 101 alice secret C3" >/dev/null
check "setup: carol observes board 101" sh -c 'grep "^observers:" "$1/games/101.game" | grep -q carol' sh "$h"
before=$(replies "$h" carol@example.net)
m=$(newest "$h" carol@example.net)
# a mail program's button: the mailto's subject, percent-decoded (RFC 6068)
subject=$("$PY" -c '
import email, sys, urllib.parse
v = email.message_from_binary_file(open(sys.argv[1], "rb"))["List-Unsubscribe"].strip()
assert v.startswith("<mailto:") and v.endswith(">"), v
u = urllib.parse.urlsplit(v[1:-1])
assert u.path == "oust@example.net", u.path
print(urllib.parse.parse_qs(u.query)["subject"][0])' "$m")
check "the board mail's List-Unsubscribe is a mailto to the server" sh -c 'case $1 in "unsubscribe carol.101."*) ;; *) exit 1 ;; esac' sh "$subject"
check "its text says how, with the same token" grep -q "^    $subject\$" "$m"
mail stranger@elsewhere.example "$subject" | deliver "$h"
check "the token's mail from another address stops the board's mails" sh -c '! grep "^observers:" "$1/games/101.game" | grep -q carol' sh "$h"
check "the confirmation goes to carol's address, not the sender" \
    [ "$(replies "$h" carol@example.net) $(replies "$h" stranger@elsewhere.example)" = "$((before + 1)) 0" ]
send "$h" bob@example.com "move 101 bob hunter2 E5" >/dev/null
check "the next move mails carol nothing" [ "$(replies "$h" carol@example.net)" = $((before + 1)) ]
check "the log masks the token" sh -c '! grep -q "${2#unsubscribe }" "$1/log"' sh "$h" "$subject"
check "the secret is 0600" [ "$(stat -c %a "$h/secret")" = 600 ]

# wrong tokens naming carol count as wrong passwords: the third locks her password out
for i in 1 2 3; do
	mail stranger@elsewhere.example "unsubscribe carol.101.00000000000000000000000$i" | deliver "$h"
done
check "a wrong token is refused" grep -q 'unsubscribe \*\*\*\*" refused: that is not an unsubscribe token' "$h/log"
mail carol@example.net "subscribe 101 carol pw3" | deliver "$h"
check "three wrong tokens lock carol's password out" sh -c 'tail -1 "$1/log" | grep -q "refused: password attempts for carol"' sh "$h"

# a home without a secret makes one on the first observer's mail
h2=$tmp/h2
mkhome "$h2"
rm -f "$h2/secret"
send "$h2" alice@example.org "register alice secret" >/dev/null
send "$h2" bob@example.com "register bob hunter2" >/dev/null
send "$h2" carol@example.net "register carol pw3" >/dev/null
send "$h2" alice@example.org "challenge alice secret bob -size=5" >/dev/null
send "$h2" carol@example.net "subscribe 101 carol pw3" >/dev/null
send "$h2" alice@example.org "move 101 alice secret C3" >/dev/null
check "a new secret, 0600, 64 hex digits" sh -c '[ "$(stat -c %a "$1/secret")" = 600 ] && grep -Eqx "[0-9a-f]{64}" "$1/secret"' sh "$h2"
check "... whose token is not the fixed secret's" sh -c '! grep -q "unsubscribe carol.101.e2ab695c9ec39ebc47a2dfee" "$1"' sh "$(newest "$h2" carol@example.net)"

# a secret that cannot be read: the board mails go without the header, the token mail waits
rm -f "$h2/secret"
mkdir "$h2/secret"
send "$h2" bob@example.com "move 101 bob hunter2 E5" >/dev/null
m=$(newest "$h2" carol@example.net)
check "without a secret the board mail still goes, without List-Unsubscribe" sh -c \
    'grep -q "^Subject: .*Board 101" "$1" && ! grep -q "^List-Unsubscribe:" "$1"' sh "$m"
mail carol@example.net "unsubscribe carol.101.e2ab695c9ec39ebc47a2dfee" | deliver "$h2"
st=$?
check "... and a token mail is tried again later (75)" [ "$st" = 75 ]
done_testing

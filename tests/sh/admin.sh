#!/bin/sh
# admin: the command-line commands adduser, passwd, list and show, and
# --help / --version: output, effects on the store and exit statuses.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
mkhome "$h"

# ---- adduser
pw=$("$bin" -d "$h" adduser alice alice@example.org Alice Liddell </dev/null)
check "adduser prints a generated password" sh -c "echo '$pw' | grep -Eqx '[a-zA-Z2-9]{12}'"
check "... the account is in the users file, full name joined" grep -q '^alice:alice@example.org:\$y\$[^:]*:Alice Liddell	since=[-0-9T:]*Z$' "$h/users"
check "... logged" grep -q 'admin adduser alice <alice@example.org>' "$h/log"
pw2=$("$bin" -d "$h" adduser carol carol@example.org </dev/null)
check "two generated passwords differ" [ "$pw" != "$pw2" ]
check "adduser --stdin takes the password from standard input" [ "$(echo 'hunter2' | "$bin" -d "$h" adduser --stdin bob bob@example.com)" = "" ]
check "... and it works by mail" [ "$(rc send "$h" alice@example.org "challenge alice $pw bob -size=5")" = 0 ]
check "... the generated one too: board 101 created" [ -f "$h/games/101.game" ]
check "... alice plays" [ "$(rc send "$h" alice@example.org "move 101 alice $pw C3")" = 0 ]
check "... bob plays with his" sh -c "[ \$(printf 'From: bob@example.com\nSubject: show 101\n\n' | '$bin' -d '$h'; echo \$?) = 0 ]"
check "the user id taken: exit 73" [ "$(rc "$bin" -d "$h" adduser alice other@example.org)" = 73 ]
check "a bad user id: exit 65" [ "$(rc "$bin" -d "$h" adduser 'Al!ce' a@example.org)" = 65 ]
check "a bad address: exit 65" [ "$(rc "$bin" -d "$h" adduser dave dave@)" = 65 ]
check "an empty --stdin: exit 65" [ "$(printf '' | "$bin" -d "$h" adduser --stdin dave dave@example.org 2>/dev/null; echo $?)" = 65 ]
check "a password with a space: exit 65" [ "$(echo 'two words' | "$bin" -d "$h" adduser --stdin dave dave@example.org 2>/dev/null; echo $?)" = 65 ]
check "a full name with a control character: exit 65" [ "$(rc "$bin" -d "$h" adduser dave dave@example.org "$(printf 'a\tb')")" = 65 ]
check "... nothing was added" sh -c "! grep -q '^dave:' '$h/users'"
hb=$tmp/bom
mkdir -p "$hb"
printf '\357\273\277from_address = oust@example.net\r\ntemplates = %s/templates\r\n' "$top" >"$hb/oustpbm.conf"
check "an oustpbm.conf starting with a UTF-8 byte order mark is read" [ "$(rc "$bin" -d "$hb" list)" = 0 ]
check "... and a mail is handled with it" sh -c "printf 'From: a@example.org\nSubject: help\n\n' | '$bin' -d '$hb' && grep -q '^From: .*oust@example.net' '$hb'/mail/a@example.org/new/*"
e64=$(printf '\303\251%.0s' $(seq 64))
check "an address the maildir transport cannot deliver to (a/b@example.org): exit 65" \
    [ "$(rc "$bin" -d "$h" adduser dave a/b@example.org)" = 65 ]
check "... named in the error" sh -c "'$bin' -d '$h' adduser dave a/b@example.org 2>&1 | grep -q \"address 'a/b@example.org' contains '/'\""
check "a full name of 64 characters (128 bytes of UTF-8) is taken" \
    [ "$(rc "$bin" -d "$h" adduser erin erin@example.org "$e64")" = 0 ]
check "... whole in the users file" grep -q "^erin:erin@example.org:[^:]*:$e64	since=[-0-9T:]*Z$" "$h/users"
check "65 characters: exit 65" [ "$(rc "$bin" -d "$h" adduser frank frank@example.org "$e64" x)" = 65 ]
check "... counted and reported in characters, as by mail" sh -c "'$bin' -d '$h' adduser frank frank@example.org '${e64}x' 2>&1 |
    grep -qx 'oustpbm: adduser frank: the full name is longer than 64 characters'"
check "a bidi override in the full name: exit 65" \
    [ "$(rc "$bin" -d "$h" adduser frank frank@example.org "$(printf 'Frank \342\200\256knarF')")" = 65 ]
check "... nothing was added" sh -c "! grep -Eq '^(dave|frank):' '$h/users'"
check "adduser without an address: exit 64" [ "$(rc "$bin" -d "$h" adduser dave)" = 64 ]

# ---- passwd
new=$("$bin" -d "$h" passwd bob </dev/null)
check "passwd prints a new password" sh -c "echo '$new' | grep -Eqx '[a-zA-Z2-9]{12}'"
check "... the old one no longer works" sh -c "[ \$(printf 'From: bob@example.com\nSubject: move 101 bob hunter2 A1\n\n' | '$bin' -d '$h'; echo \$?) = 0 ] && grep -q 'wrong password for bob' '$h/mail/bob@example.com/new/'*"
check "... the new one does" sh -c "printf 'From: bob@example.com\nSubject: move 101 bob $new A1\n\n' | '$bin' -d '$h' && grep -q '^Subject: Oust Board 101 alice' '$h/mail/bob@example.com/new/'*"
check "... and the move was applied" grep -q 'ok: turn [0-9]*: bob played A1' "$h/log"
check "passwd --stdin" [ "$(echo s3cret | "$bin" -d "$h" passwd --stdin bob)" = "" ]
check "... works by mail" sh -c "printf 'From: bob@example.com\nSubject: games bob\n\n' | '$bin' -d '$h' && printf 'From: bob@example.com\nSubject: resign 101 bob s3cret\n\n' | '$bin' -d '$h' && grep -q 'is over: alice won' '$h/mail/bob@example.com/new/'*"
check "... logged" grep -q 'admin passwd bob' "$h/log"
check "passwd for nobody: exit 67" [ "$(rc "$bin" -d "$h" passwd nobody)" = 67 ]
check "passwd with two ids: exit 64" [ "$(rc "$bin" -d "$h" passwd bob alice)" = 64 ]

# ---- list
send "$h" alice@example.org "challenge alice $pw carol -size=7 -white" >/dev/null
send "$h" carol@example.org "move 102 carol $pw2 D4" >/dev/null
list=$("$bin" -d "$h" list)
want="board     black  white  size    turn  state                  last move (UTC)
101       alice  bob    5x5        4  won by alice (resign)  2023-11-14 22:13
102       carol  alice  7x7        2  alice to move          2023-11-14 22:13"
check "list: an aligned table of every board" [ "$list" = "$want" ]
check "list active: the boards still playing" [ "$("$bin" -d "$h" list active | cut -c1-3 | tr '\n' ' ')" = "boa 102 " ]
check "list finished: the boards over" [ "$("$bin" -d "$h" list finished | cut -c1-3 | tr '\n' ' ')" = "boa 101 " ]
check "list other: exit 64" [ "$(rc "$bin" -d "$h" list some)" = 64 ]
"$bin" init "$tmp/empty" >/dev/null
check "list in an empty home: the heading only" [ "$("$bin" -d "$tmp/empty" list | wc -l)" = 1 ]

# ---- show
send "$h" alice@example.org "show 102" >/dev/null
# the text/plain part of the reply (a text/html alternative follows it)
mailbody=$(/usr/bin/python3 -c 'import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
sys.stdout.write(m.get_body(("plain",)).get_content())' "$(newest "$h" alice@example.org)")
check "show: the text of the show reply" [ "$("$bin" -d "$h" show 102)" = "$mailbody" ]
check "show BOARD#TURN: the position after that turn" sh -c "'$bin' -d '$h' show 101#1 | grep -q 'the position after turn 1 of 3'"
check "show a board that does not exist: exit 66" [ "$(rc "$bin" -d "$h" show 555)" = 66 ]
check "show a turn not played yet: exit 66" [ "$(rc "$bin" -d "$h" show 102#9)" = 66 ]
check "show abc: exit 64" [ "$(rc "$bin" -d "$h" show abc)" = 64 ]
sed -i 's/^status: playing/status: plying/' "$h/games/102.game"
check "show a damaged board: exit 65" [ "$(rc "$bin" -d "$h" show 102)" = 65 ]
check "list with a damaged board: exit 65, the others listed" sh -c "'$bin' -d '$h' list 2>'$tmp/err' | grep -q '^101 '; [ \$? = 0 ] && grep -q 'games/102.game line 7' '$tmp/err'"
mkdir -p "$tmp/notemplates"
printf 'templates = /nonexistent\n' >"$tmp/notemplates/oustpbm.conf"
cp -r "$h/games" "$tmp/notemplates/"
check "show without templates: exit 78" [ "$(rc "$bin" -d "$tmp/notemplates" show 101)" = 78 ]

# ---- --help, --version, unknown words
check "--help: usage on stdout, exit 0" sh -c "'$bin' --help | grep -q 'oustpbm \[-d DIR\] fsck'"
check "--version: the version" sh -c "[ \"\$('$bin' --version)\" = \"oustpbm \$(sed -n 's/^#define OUSTPBM_VERSION \"\(.*\)\"/\1/p' '$top/src/base/version.h')\" ]"
check "an unknown word is a usage error (64)" [ "$(rc "$bin" -d "$h" frobnicate)" = 64 ]
check "output to a full device: exit 74" [ "$("$bin" -d "$h" list >/dev/full 2>/dev/null; echo $?)" = 74 ]

# ---- every log line starts with its time: oustpbm web's, and a web failure's from a mail
"$bin" -d "$h" web "$tmp/site" >/dev/null 2>&1
check "oustpbm web: its log line has its time" grep -q '^[0-9-]*T[0-9:]*Z admin web ' "$h/log"
check "no line of the log without a time" sh -c "! grep -v '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z ' '$h/log'"

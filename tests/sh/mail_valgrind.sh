#!/bin/sh
# The mail handler (./oustpbm < mail) under valgrind (memcheck, full leak
# check, glib's suppression file): registrations, a challenge, moves, a
# refusal, show, a password change, preview, moves, chat, games, finished,
# a challenge with its own time limits, notify of several boards (one
# refused), subscribe ... all (and its copy), notify of every board, a redelivered copy, a mail too big,
# one nested too deeply and one with two From headers; a game against the
# robot player (its think in a child process, traced too), a fault of the AI
# and `oustpbm robot` playing the turn left over.  Each must exit as
# it does without valgrind, with no memory error and no leak.  Delivery
# reports (Gmail, Microsoft, a delay, Exim's plain text) too.  Prints "ok"/"not ok" lines.
. "$(dirname "$0")/lib.sh"
need valgrind "$bin"
tmpdir
supp=
for s in /usr/share/glib-2.0/valgrind/glib.supp; do
	[ -f "$s" ] && supp="--suppressions=$s"
done
export G_SLICE=always-malloc G_DEBUG=gc-friendly
h=$tmp/home
mkhome "$h"
k=0
# vg FROM SUBJECT [ID]: one mail under valgrind; exit 0 expected
vg() {
	k=$((k + 1))
	n=$((n + 1))
	mail "$1" "$2" "${3:-vg$k@x}" 'A comment.' >"$tmp/in"
	vgfile "$tmp/in" "$2" 0
}
# vgfile FILE DESC EXIT
vgfile() {
	OUSTPBM_TEST_TIME=$((1700000000 + 60 * k)) valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect $supp \
	    "$bin" -d "$h" <"$1" >/dev/null 2>"$tmp/vg.err"
	rc=$?
	if [ $rc = "$3" ] && ! grep -q '==[0-9]*==' "$tmp/vg.err"; then
		echo "ok $n - valgrind clean: $2"
	else
		echo "not ok $n - $2: exit $rc (want $3)"
		head -n 40 "$tmp/vg.err" | sed 's/^/#   /'
	fi
}
# the codes of the registrations fixed, to confirm them (register.c)
export OUSTPBM_TEST_CODE=$REG_CODE
vg alice@example.org "register alice secret Alice"
vg alice@example.org "confirm alice $REG_CODE secret"
vg bob@example.com "register bob hunter2"
mail bob@example.com "Re: Oust registration code for bob" "vg-reply@x" "$REG_CODE hunter2" >"$tmp/in"
k=$((k + 1))
n=$((n + 1))
vgfile "$tmp/in" "the code and the password in a reply" 0
vg alice@example.org "challenge alice secret bob -size=5"
vg alice@example.org "move 101 alice secret C3" copy@x
vg alice@example.org "move 101 alice secret C3" copy@x
vg bob@example.com "move 101 bob hunter2 C3"
vg alice@example.org "show 101#2"
# the robot player (robot.h): its turns thought in a child process, also traced
export OUSTPBM_TEST_ROBOT_PLAYOUTS=16
vg alice@example.org "challenge alice secret robot -size=9 -white"
vg alice@example.org "move 102#2 alice secret H8"
OUSTPBM_TEST_ROBOT=fail vg alice@example.org "move 102#4 alice secret A9"
n=$((n + 1))
OUSTPBM_TEST_TIME=$((1700000000 + 60 * k)) valgrind -q --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect $supp \
    "$bin" -d "$h" robot >/dev/null 2>"$tmp/vg.err"
rc=$?
if [ $rc = 0 ] && ! grep -q '==[0-9]*==' "$tmp/vg.err"; then
	echo "ok $n - valgrind clean: oustpbm robot"
else
	echo "not ok $n - oustpbm robot: exit $rc (want 0)"
	head -n 40 "$tmp/vg.err" | sed 's/^/#   /'
fi
unset OUSTPBM_TEST_ROBOT_PLAYOUTS
vg alice@example.org "password alice secret better"
# the commands that try turns, talk and list (preview, moves, chat, games, finished) and a board's own time limits
vg bob@example.com "preview 101 A1"
vg bob@example.com "preview 101#2 A1,B1"
vg carol@example.net "preview new -hex=3 c3,c4"
vg carol@example.net "preview new 12 C3"
vg bob@example.com "moves 101"
vg bob@example.com "chat 101 bob hunter2"
vg alice@example.org "games alice next"
vg carol@example.net "finished"
vg alice@example.org "challenge alice better bob -size=5 -remind=1 -timeout=2"
vg alice@example.org "show 103"
vg carol@example.net "register carol pw3"
vg carol@example.net "confirm $REG_CODE"
vg carol@example.net "confirm carol $REG_CODE pw3"
vg carol@example.net "notify carol pw3 on 103 101"
vg carol@example.net "notify carol pw3 off 101 104 103"
vg carol@example.net "notify carol pw3 off 103 101"
vg carol@example.net "subscribe carol pw3 all" watch@x
vg carol@example.net "subscribe carol pw3 all" watch@x
vg carol@example.net "notify carol pw3 on"
n=$((n + 1))
k=$((k + 1))
{
	printf 'From: alice@example.org\nSubject: help\nMessage-ID: <big@x>\n\n'
	head -c 400000 /dev/zero | tr '\0' 'x' | fold -w 76
} >"$tmp/big"
vgfile "$tmp/big" "a mail too big" 0
n=$((n + 1))
k=$((k + 1))
{
	printf 'From: alice@example.org\nSubject:\nMessage-ID: <deep@x>\nMIME-Version: 1.0\n'
	i=0
	while [ $i -lt 100 ]; do
		printf 'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' $i $i
		i=$((i + 1))
	done
	printf 'Content-Type: text/plain\n\nhelp\n'
} >"$tmp/deep"
vgfile "$tmp/deep" "a mail nested too deeply" 0
n=$((n + 1))
vgfile tests/hostile/two-from.eml "two From headers (exit 65)" 65
# delivery reports, read by mail/dsn.c: a bounce counted, a delay warning, an Exim plain-text bounce
for c in dsn-gmail dsn-exchange dsn-delayed-not-a-bounce dsn-exim-plain-text; do
	n=$((n + 1))
	vgfile tests/golden/$c/in.eml "a delivery report ($c)" 0
done
done_testing

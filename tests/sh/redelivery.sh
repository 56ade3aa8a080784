#!/bin/sh
# redelivery: the same mail delivered again (same Message-ID) is dropped
# without a second answer, whatever its command; a mail without a
# Message-ID is answered each time; the per-sender limit
# (max_mails_per_hour) drops mails beyond it without a reply (src/seen.h).
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=${OUSTPBM_BIN:-$top/oustpbm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-redelivery.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
T0=1700000000
unset OUSTPBM_HOME

n=0
check() { # description, then a command that must succeed
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
	fi
}

# mail FROM SUBJECT ID: a mail on stdout ("" ID: no Message-ID header)
mail() {
	printf 'From: %s\nTo: oust@example.net\nSubject: %s\n' "$1" "$2"
	[ -n "$3" ] && printf 'Message-ID: <%s>\n' "$3"
	printf '\nhello\n'
}

# run HOME TIME FROM SUBJECT ID: feed a mail, print the exit status
run() {
	mail "$3" "$4" "$5" | OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" >/dev/null 2>"$tmp/stderr"
	echo $?
}

sum() {
	(cd "$1" && find . -type f ! -path ./log ! -path ./seen ! -path ./throttle ! -path './mail/*' ! -name '*.lock' \
	    -exec cksum {} + | LC_ALL=C sort)
}

replies() { # HOME ADDRESS: number of replies delivered to ADDRESS
	ls "$1/mail/$2/new" 2>/dev/null | wc -l | tr -d ' '
}

home() { # HOME [CONF LINE]
	mkdir -p "$1"
	printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = 1\n' "$top" >"$1/oustpbm.conf"
	[ -n "$2" ] && printf '%s\n' "$2" >>"$1/oustpbm.conf"
	return 0
}

A=alice@example.org
B=bob@example.com

# ---- a move delivered twice, without #turn
h=$tmp/move
home "$h"
run "$h" $T0 $A "register alice secret" r1@x >/dev/null
run "$h" $T0 $B "register bob hunter2" r2@x >/dev/null
run "$h" $T0 $A "challenge alice secret bob -size=5" c1@x >/dev/null
check "a move is handled" [ "$(run "$h" $((T0 + 60)) $A "move 101 alice secret C3" m1@x)" = 0 ]
before=$(sum "$h")
ra=$(replies "$h" $A)
rb=$(replies "$h" $B)
check "the same move again: exit 0" [ "$(run "$h" $((T0 + 120)) $A "move 101 alice secret C3" m1@x)" = 0 ]
check "... the store is unchanged" [ "$(sum "$h")" = "$before" ]
check "... no reply to the mover" [ "$(replies "$h" $A)" = "$ra" ]
check "... none to the opponent" [ "$(replies "$h" $B)" = "$rb" ]
check "... logged as a dropped copy" \
    grep -q '^2023-11-14T22:15:20Z mail <m1@x> from=alice@example.org board=- cmd="" dropped: a copy of the mail handled at 2023-11-14T22:14:20Z (same Message-ID)$' "$h/log"
check "a challenge delivered again makes no second board" \
    [ "$(run "$h" $((T0 + 130)) $A "challenge alice secret bob -size=5" c1@x)" = 0 ] && [ ! -f "$h/games/102.game" ]
check "a register delivered again is not answered again" \
    [ "$(run "$h" $((T0 + 140)) $A "register alice secret" r1@x)" = 0 ] && [ "$(replies "$h" $A)" = "$ra" ]

# ---- refusals, show and help are not answered twice either
for cmd in "show 101" "help" "move 101 alice wrong C4" "nonsense words"; do
	id=$(echo "$cmd" | tr -c 'a-z0-9' '-')@x
	run "$h" $((T0 + 200)) $A "$cmd" "$id" >/dev/null
	r=$(replies "$h" $A)
	check "'$cmd' delivered again: exit 0" [ "$(run "$h" $((T0 + 210)) $A "$cmd" "$id")" = 0 ]
	check "... and not answered again" [ "$(replies "$h" $A)" = "$r" ]
done

# ---- no Message-ID: no record, answered each time
r=$(replies "$h" $A)
run "$h" $((T0 + 300)) $A "help" "" >/dev/null
run "$h" $((T0 + 301)) $A "help" "" >/dev/null
check "a mail without Message-ID is answered each time" [ "$(replies "$h" $A)" = $((r + 2)) ]

# ---- crash after the commit, before anything else: the record says pending
h=$tmp/crash
home "$h"
run "$h" $T0 $A "register alice secret" r1@x >/dev/null
run "$h" $T0 $B "register bob hunter2" r2@x >/dev/null
run "$h" $T0 $A "challenge alice secret bob -size=5" c1@x >/dev/null
run "$h" $((T0 + 60)) $A "move 101 alice secret C3" m1@x >/dev/null
check "the move's entry is pending until the next change of the board" grep -q ' 101 [0-9]*:[0-9a-f]* alice@example.org m1@x$' "$h/seen"
cp "$h/games/101.game" "$tmp/101.after"
run "$h" $((T0 + 120)) $B "move 101 bob hunter2 A1" m2@x >/dev/null
check "the next move settles it" grep -q '^[0-9]* 101 = alice@example.org m1@x$' "$h/seen"
check "redelivering the first move after the board moved on: dropped" \
    [ "$(run "$h" $((T0 + 180)) $A "move 101 alice secret E5" m1@x)" = 0 ] && [ "$(grep -c 'm1@x.*dropped' "$h/log")" = 1 ]

# ---- a move with a wrong password: recorded pending before the verdict, then voided
cp "$h/games/101.game" "$tmp/101.before-wrong"
run "$h" $((T0 + 240)) $A "move 101 alice wrong E5" w1@x >/dev/null
check "a wrong password changes no board" cmp -s "$h/games/101.game" "$tmp/101.before-wrong"
check "its pending entry is settled void at once" grep -q '^[0-9]* 101 x alice@example.org w1@x$' "$h/seen"
check "and the refusal is recorded as a handled mail" grep -q '^[0-9]* 0 - alice@example.org w1@x$' "$h/seen"
check "redelivered, it is dropped, not answered again" \
    [ "$(run "$h" $((T0 + 300)) $A "move 101 alice wrong E5" w1@x)" = 0 ] && [ "$(grep -c 'w1@x.*dropped' "$h/log")" = 1 ]

# ---- a pending move whose game file was never written is handled when redelivered
h=$tmp/lost
home "$h"
run "$h" $T0 $A "register alice secret" r1@x >/dev/null
run "$h" $T0 $B "register bob hunter2" r2@x >/dev/null
run "$h" $T0 $A "challenge alice secret bob -size=5" c1@x >/dev/null
printf '%s 101 99:0123456789abcdef alice@example.org m1@x\n' $((T0 + 50)) >>"$h/seen"
check "a move recorded pending but never written: handled on redelivery" \
    [ "$(run "$h" $((T0 + 60)) $A "move 101 alice secret C3" m1@x)" = 0 ] && grep -q '^turn: 2$' "$h/games/101.game"

# ---- the per-sender limit
h=$tmp/rate
home "$h" "max_mails_per_hour = 3"
for i in 1 2 3; do
	run "$h" $((T0 + i)) $A help "h$i@x" >/dev/null
done
check "three mails in the hour are answered" [ "$(replies "$h" $A)" = 3 ]
check "the fourth: exit 0" [ "$(run "$h" $((T0 + 10)) $A help h4@x)" = 0 ]
check "... not answered" [ "$(replies "$h" $A)" = 3 ]
check "... logged as dropped" grep -q 'mail <h4@x> from=alice@example.org board=- cmd="" dropped: alice@example.org sent 3 mails in the last hour (max_mails_per_hour = 3)$' "$h/log"
check "mails without Message-ID count too" [ "$(run "$h" $((T0 + 11)) $A help "")" = 0 ] && [ "$(replies "$h" $A)" = 3 ]
check "another sender is still answered" [ "$(run "$h" $((T0 + 12)) $B help h5@x)" = 0 ] && [ "$(replies "$h" $B)" = 1 ]
check "an hour after the first, answered again" [ "$(run "$h" $((T0 + 3601)) $A help h6@x)" = 0 ] && [ "$(replies "$h" $A)" = 4 ]
check "dropped mails are not recorded" [ "$(grep -c 'alice@example.org' "$h/seen")" = 4 ]
h=$tmp/norate
home "$h" "max_mails_per_hour = 0"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
	run "$h" $((T0 + i)) $A help "n$i@x" >/dev/null
done
check "max_mails_per_hour = 0: no limit (32 answered)" [ "$(replies "$h" $A)" = 32 ]
h=$tmp/defrate
home "$h"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
	run "$h" $((T0 + i)) $A help "d$i@x" >/dev/null
done
check "the default limit is 30 an hour" [ "$(replies "$h" $A)" = 30 ]

echo "1..$n"

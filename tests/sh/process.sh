#!/bin/sh
# process: what the golden cases cannot show: the command line and the home
# directory, configuration and template errors, the templates found beside
# the executable, a full disk, an unwritable mail directory, and the
# recovery of replies a crashed run left behind.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

# run HOME SUBJECT [FROM]: feed a mail, print the exit status (its Message-ID
# made of the Subject: the same command again is a redelivery)
run() {
	mail "${3:-alice@example.org}" "$2" "$(echo "$2" | tr -c 'a-z0-9' '-').$$@example.net" | deliver "$1"
	echo $?
}

# sum HOME: stricter than store_sum: the seen record and the sent copies count
sum() {
	(cd "$1" && find . -type f ! -path ./log ! -path './mail/*' ! -name '*.lock' -exec cksum {} + | LC_ALL=C sort)
}

# a home with alice, bob and board 101 (5x5) after alice's first turn
base() {
	mkhome "$1"
	run "$1" "register alice secret" >/dev/null
	run "$1" "register bob hunter2" bob@example.com >/dev/null
	run "$1" "challenge alice secret bob -size=5" >/dev/null
	run "$1" "move 101 alice secret C3" >/dev/null
}

# ---- command line and home directory
h=$tmp/args
check "no -d argument: usage, exit 64" [ "$(mail a@example.org help | "$bin" -x 2>/dev/null; echo $?)" = 64 ]
check "extra arguments: exit 64" [ "$(mail a@example.org help | "$bin" -d "$h" extra 2>/dev/null; echo $?)" = 64 ]
check "usage message on stderr" sh -c "echo | '$bin' -d 2>&1 | grep -q 'usage: oustpbm'"
mkhome "$h"
check "-d DIR is the home" [ "$(run "$h" help)" = 0 ]
check "the reply is delivered under DIR/mail" [ -n "$(ls "$h/mail/alice@example.org/new")" ]
check "-dDIR works too" [ "$(mail a@example.org help | "$bin" -d"$h" >/dev/null 2>&1; echo $?)" = 0 ]
h2=$tmp/env
mkhome "$h2"
check "\$OUSTPBM_HOME is the home without -d" [ "$(mail a@example.org help | OUSTPBM_HOME=$h2 "$bin"; echo $?)" = 0 ]
check "... and the reply is there" [ -n "$(ls "$h2/mail/a@example.org/new")" ]
h3=$tmp/user/oustpbm
mkhome "$h3"
check "else ~/oustpbm" [ "$(cd / && mail a@example.org help | HOME=$tmp/user "$bin"; echo $?)" = 0 ]
check "... and the reply is there" [ -n "$(ls "$h3/mail/a@example.org/new")" ]
check "the log has a line for each mail" [ "$(grep -c ' mail <' "$h/log")" = 2 ]

# ---- configuration
h=$tmp/badconf
mkdir -p "$h"
printf 'colour = red\n' >"$h/oustpbm.conf"
check "a bad oustpbm.conf: exit 75 (the MTA keeps the mail)" [ "$(run "$h" help)" = 75 ]
check "... and stderr names the line" grep -q "oustpbm.conf line 1: unknown key 'colour'" "$tmp/stderr"
check "bad OUSTPBM_TEST_TIME: exit 75" [ "$(mail a@example.org help | OUSTPBM_TEST_TIME=soon "$bin" -d "$h" 2>/dev/null; echo $?)" = 75 ]

# ---- templates
h=$tmp/beside
mkdir -p "$h/games"	# a home without oustpbm.conf
check "templates found beside the executable without configuration" [ "$(run "$h" help)" = 0 ]
check "... and the help came from them" grep -q "Oust, by Mark Steere" "$h"/mail/alice@example.org/new/*
h=$tmp/homet
mkdir -p "$h/templates" "$h/games"
cp "$top"/templates/*.txt "$h/templates/"
printf 'Help from the home, {server}.\n' >"$h/templates/help.txt"
check "<home>/templates comes first" [ "$(run "$h" help)" = 0 ]
check "... and was used" grep -q "Help from the home, oustpbm." "$h"/mail/alice@example.org/new/*
h=$tmp/relt
mkdir -p "$h/my"
printf 'templates = my\n' >"$h/oustpbm.conf"
printf 'Relative {address}\n' >"$h/my/help.txt"
check "a relative templates key is taken from the home" [ "$(run "$h" help)" = 0 ]
check "... and was used" grep -q "Relative oust@localhost" "$h"/mail/alice@example.org/new/*

h=$tmp/missing
base "$h"
mkdir -p "$tmp/t"
cp "$top"/templates/*.txt "$tmp/t/"
rm "$tmp/t/game.txt"
printf 'templates = %s/t\n' "$tmp" >>"$h/oustpbm.conf"
sed -i '/templates = .*\/templates$/d' "$h/oustpbm.conf"
rm -rf "$h/mail"
sum "$h" >"$tmp/before"
check "a missing template: exit 75" [ "$(run "$h" "move 101 bob hunter2 A5" bob@example.com)" = 75 ]
check "... stderr names the template" grep -q "game.txt" "$tmp/stderr"
sum "$h" >"$tmp/after"
check "... and the store is unchanged" cmp -s "$tmp/before" "$tmp/after"
check "... and nobody got mail" [ ! -d "$h/mail" ]
check "... and the log says why" sh -c "tail -n 1 '$h/log' | grep -q 'error: cannot make the reply: template game'"
printf 'Bad {placeholder}\n' >"$tmp/t/error.txt"
check "a malformed template: exit 75" [ "$(run "$h" "move 101 bob hunter2 C3" bob@example.com)" = 75 ]
check "... stderr names the line and the placeholder" grep -q "error.txt line 1: unknown placeholder '{placeholder}'" "$tmp/stderr"
sum "$h" >"$tmp/after"
check "... and the store is unchanged" cmp -s "$tmp/before" "$tmp/after"

# ---- delivery that fails after the commit
h=$tmp/nodeliver
base "$h"
rm -rf "$h/mail"
mkdir -p "$h/mail"
chmod 500 "$h/mail"
if [ "$(id -u)" = 0 ]; then
	echo "ok $((n + 1)) - # skip root ignores directory permissions"
	echo "ok $((n + 2)) - # skip"
	echo "ok $((n + 3)) - # skip"
	n=$((n + 3))
else
	check "maildir not writable: the move is still handled, exit 0" [ "$(run "$h" "move 101 bob hunter2 A5" bob@example.com)" = 0 ]
	check "... the move was committed" grep -q "^turn: 3" "$h/games/101.game"
	check "... and the replies wait in outbox/new" [ "$(ls "$h/outbox/new" | wc -l)" = 2 ]
fi
chmod 700 "$h/mail"

# ---- replies a crashed run left in outbox/tmp are settled by the next mail for the board
h4=$tmp/crash2
base "$h4"
rm -rf "$h4/mail"
# a run killed between writing its replies and the game file: the tagged
# reply stays in tmp/ and the game file is the old one
printf 'oustpbm-queue 1\nfrom oust@example.net\nrcpt bob@example.com\nboard 101\ncommit 5 0123456789abcdef\nsize 6\n\nhello\n' \
    >"$h4/outbox/tmp/1700000000.M000001P1Q1.test"
check "a stale tagged reply of an uncommitted move" [ -f "$h4/outbox/tmp/1700000000.M000001P1Q1.test" ]
check "the next move on the board" [ "$(run "$h4" "move 101 bob hunter2 A5" bob@example.com)" = 0 ]
check "... discards the reply of the move that never happened" [ ! -f "$h4/outbox/tmp/1700000000.M000001P1Q1.test" ]
check "... and nobody got it" sh -c "! grep -rqs '^hello' '$h4/mail'"

# ---- a full disk: exit 75, nothing changed
if command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null; then
	h=$tmp/full
	base "$h"
	rm -rf "$h/mail"
	cat >"$tmp/full.sh" <<EOF
set -e
mnt=$tmp/mnt
mkdir -p \$mnt
mount -t tmpfs -o size=1m tmpfs \$mnt
cp -a $h \$mnt/home
(cd \$mnt/home && find . -type f ! -path ./log ! -path './mail/*' ! -name '*.lock' -exec cksum {} + | LC_ALL=C sort) >$tmp/full.before
dd if=/dev/zero of=\$mnt/filler bs=4096 2>/dev/null || true
set +e
printf 'From: bob@example.com\nSubject: move 101 bob hunter2 A5\nMessage-ID: <full.1@example.com>\n\n' | $bin -d \$mnt/home >/dev/null 2>$tmp/full.err
echo \$? >$tmp/full.rc
printf 'From: bob@example.com\nSubject: move 101 bob hunter2 C3\nMessage-ID: <full.2@example.com>\n\n' | $bin -d \$mnt/home >/dev/null 2>>$tmp/full.err
echo \$? >$tmp/full.rc2
(cd \$mnt/home && find . -type f ! -path ./log ! -path './mail/*' ! -name '*.lock' -exec cksum {} + | LC_ALL=C sort) >$tmp/full.after
EOF
	unshare -rm sh "$tmp/full.sh"
	check "disk full during a move: exit 75" [ "$(cat "$tmp/full.rc" 2>/dev/null)" = 75 ]
	check "disk full during a refusal: exit 75" [ "$(cat "$tmp/full.rc2" 2>/dev/null)" = 75 ]
	check "... and the store is unchanged" cmp -s "$tmp/full.before" "$tmp/full.after"
else
	skip "unshare cannot mount a small tmpfs here"
fi
done_testing

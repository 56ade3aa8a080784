#!/bin/sh
# hostile: the hostile and broken mail corpus of tests/hostile/ (see its
# README.md).  Each case is fed to ./oustpbm in a copy of one prepared home
# and must give what tests/hostile/cases says: the exit status, the replies
# (to whom, with which phrase) or none, whether the store changed, and a
# fragment of its log line.  Besides, for every case: no crash, no reply
# carries a Bcc header or goes to anyone not listed, the outbox is empty,
# and every game file still loads in `oustpbm engine`.
# Usage: sh tests/sh/hostile.sh [case...]; HOSTILE_SHOW=1 prints what each
# case does instead of checking it.
. "$(dirname "$0")/lib.sh"
need "$bin"
hdir=$top/tests/hostile
tmpdir

# The prepared home: alice, bob and carol; board 101 (5x5), alice (x) has
# played C3 and bob is to move; board 102 is over (alice resigned).
base=$tmp/base
mkhome "$base" 'server_name = Oust test server'
# the golden cases' secret (tests/sh/golden.sh): the loop cases carry ids of
# ours with their MACs (src/mail/idmac.h), made by tests/tools/idmac.py
printf '%s\n' 0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210 >"$base/token.secret"
k=0
for line in "alice@example.org|register alice secret" "bob@example.com|register bob hunter2" \
    "carol@example.net|register carol sesame" "alice@example.org|challenge alice secret bob -size=5" \
    "alice@example.org|move 101 alice secret C3" "alice@example.org|challenge alice secret bob -size=5" \
    "alice@example.org|resign 102 alice secret"; do
	k=$((k + 1))
	mail "${line%%|*}" "${line#*|}" "setup.$k@example.org" | deliver "$base" $((T0 + 60 * k)) ||
	    { echo "not ok - hostile: setup mail '${line#*|}' failed"; exit 1; }
done
rm -rf "$base/mail"
[ -f "$base/games/102.game" ] && grep -q '^status: white-won' "$base/games/102.game" ||
    { echo "not ok - hostile: setup did not make the boards"; exit 1; }

# Generated cases, too big or too deep to keep in git.
gen() { # NAME FILE
	case $1 in
	nested-1000)
		{
			printf 'From: alice@example.org\nSubject:\nMessage-ID: <n1000@h>\nMIME-Version: 1.0\n'
			i=0
			while [ $i -lt 1000 ]; do
				printf 'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' $i $i
				i=$((i + 1))
			done
			printf 'Content-Type: text/plain\n\nhelp\n'
		} >"$2"
		;;
	nested-1000-closed)
		{
			printf 'From: alice@example.org\nSubject: show 101\nMessage-ID: <n1000c@h>\nMIME-Version: 1.0\n'
			i=0
			while [ $i -lt 1000 ]; do
				printf 'Content-Type: multipart/alternative; boundary="b%d"\n\n--b%d\n' $i $i
				i=$((i + 1))
			done
			printf 'Content-Type: text/plain\n\nx\n'
			while [ $i -gt 0 ]; do
				i=$((i - 1))
				printf '\n--b%d--\n' $i
			done
		} >"$2"
		;;
	body-20mb)
		{
			printf 'From: alice@example.org\nSubject: help\nMessage-ID: <big@h>\n\n'
			head -c 20971520 /dev/zero | tr '\0' 'x' | fold -w 76
		} >"$2"
		;;
	body-20mb-one-line)
		{
			printf 'From: alice@example.org\nSubject: help\nMessage-ID: <big1@h>\n\n'
			head -c 20971520 /dev/zero | tr '\0' 'y'
		} >"$2"
		;;
	header-20mb)
		{
			printf 'From: alice@example.org\nMessage-ID: <bigh@h>\nSubject: help '
			head -c 20971520 /dev/zero | tr '\0' 'z'
			printf '\n\n'
		} >"$2"
		;;
	*)
		return 1
		;;
	esac
}


# run_case NAME EXIT REPLIES STORE LOGFRAG
# unwrapped FILE: its lines joined, a line break and the next line's indent
# as one space, so a phrase the reply wrapped (72 columns) is still found
unwrapped() {
	sed -e ':a' -e 'N' -e '$!ba' -e 's/\n */ /g' "$1"
}

run_case() {
	name=$1
	work=$tmp/$name
	home=$work/home
	mkdir -p "$work"
	cp -R "$base" "$home"
	in=$hdir/$name.eml
	if [ ! -f "$in" ]; then
		in=$work/in.eml
		gen "$name" "$in" || { fail "$name: no tests/hostile/$name.eml and no generator"; return; }
	fi
	logsize=$(wc -c <"$home/log")
	store_sum "$home" >"$work/sum.before"
	OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$home" <"$in" >"$work/stdout" 2>"$work/stderr"
	rc=$?
	store_sum "$home" >"$work/sum.after"
	store=unchanged
	cmp -s "$work/sum.before" "$work/sum.after" || store=changed
	tail -c +$((logsize + 1)) "$home/log" >"$work/log"
	got=
	for d in "$home"/mail/*/; do
		[ -d "$d/new" ] || continue
		for f in "$d"/new/*; do
			[ -f "$f" ] && got="$got $(basename "$d")"
		done
	done
	got=${got# }
	if [ -n "$HOSTILE_SHOW" ]; then
		echo "$name|$rc|$got|$store|$(cut -d' ' -f5- "$work/log" | head -c 200)"
		for f in "$home"/mail/*/new/*; do
			[ -f "$f" ] && grep -m1 '^Subject:' "$f" | sed 's/^/#   /' && sed -n '/^$/,$p' "$f" | grep -v '^$' | head -n 3 | sed 's/^/#   /'
		done
		return
	fi
	why=
	[ "$rc" -lt 128 ] || why="$why; crashed (exit $rc)"
	[ "$rc" = "$2" ] || why="$why; exit $rc, expected $2"
	[ "$store" = "$4" ] || why="$why; store $store, expected $4"
	[ "$(wc -l <"$work/log" | tr -d ' ')" = 1 ] || why="$why; $(wc -l <"$work/log" | tr -d ' ') log lines"
	grep -qF -- "$5" "$work/log" || why="$why; log line lacks '$5': $(head -c 300 "$work/log")"
	# the replies: "none", or "ADDRESS: phrase" items joined by " ; "
	want=
	if [ "$3" != none ]; then
		rest=$3
		while [ -n "$rest" ]; do
			item=${rest%% ; *}
			if [ "$item" = "$rest" ]; then rest=; else rest=${rest#* ; }; fi
			addr=${item%%: *}
			phrase=${item#*: }
			want="$want $addr"
			f=$(ls "$home/mail/$addr/new" 2>/dev/null | head -n 1)
			if [ -z "$f" ]; then
				why="$why; no reply to $addr"
			elif ! unwrapped "$home/mail/$addr/new/$f" | grep -qF -- "$phrase"; then
				why="$why; the reply to $addr lacks '$phrase'"
			fi
		done
	fi
	want=${want# }
	[ "$(echo "$got" | tr ' ' '\n' | LC_ALL=C sort)" = "$(echo "$want" | tr ' ' '\n' | LC_ALL=C sort)" ] ||
	    why="$why; replies to '$got', expected '$want'"
	if grep -il '^bcc:' "$home"/mail/*/new/* >/dev/null 2>&1; then
		why="$why; a reply has a Bcc header"
	fi
	if [ -n "$(find "$home/outbox/new" "$home/outbox/tmp" -type f 2>/dev/null)" ]; then
		why="$why; replies left in the outbox"
	fi
	if [ -n "$(find "$home" -name '*.tmp' -type f)" ]; then
		why="$why; a temp file left behind"
	fi
	# every game file loads: one engine for them all (lib.sh)
	games_load "$home" >"$work/load"
	while IFS= read -r line; do
		why="$why; $line"
	done <"$work/load"
	if [ -z "$why" ]; then
		pass "$name"
	else
		fail "$name${why}"
		sed 's/^/#   stderr: /' "$work/stderr" | head -n 5
	fi
	rm -rf "$work"
}

count=0
while IFS='|' read -r name ex replies st logfrag; do
	case $name in
	'' | '#'*) continue ;;
	esac
	count=$((count + 1))
	if [ $# -gt 0 ]; then
		match=
		for c in "$@"; do
			[ "$c" = "$name" ] && match=1
		done
		[ -n "$match" ] || continue
	fi
	run_case "$name" "$ex" "$replies" "$st" "$logfrag"
done <"$hdir/cases"
# every committed mail has its line in the table
for f in "$hdir"/*.eml; do
	b=$(basename "$f" .eml)
	grep -q "^$b|" "$hdir/cases" || fail "tests/hostile/$b.eml has no line in tests/hostile/cases"
done
[ -n "$HOSTILE_SHOW" ] || [ "$count" -ge 40 ] || fail "only $count hostile cases"
[ -n "$HOSTILE_SHOW" ] || done_testing

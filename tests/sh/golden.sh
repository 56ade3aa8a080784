#!/bin/sh
# golden: end-to-end tests of mail handling (tests/golden/README.md).
# Every directory tests/golden/<case>/ (names starting with '_' excepted) is
# run in a fresh temporary home: its setup, then in.eml fed to ./oustpbm with
# OUSTPBM_TEST_TIME set, and what came out (exit status, whether the store
# changed, the log line, the game files, the users file with the hashes
# masked, every reply) is compared with <case>/out/.  Prints "ok - <case>" or
# "not ok - <case>" with a diff.  UPDATE_GOLDEN=1 rewrites <case>/out/
# instead (review the result by eye before committing it).
# Usage: sh tests/sh/golden.sh [case...]
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=${OUSTPBM_BIN:-$top/oustpbm}
gdir=$top/tests/golden
T0=1700000000
PY=/usr/bin/python3

[ -x "$bin" ] || { echo "not ok - golden: $bin is missing (run make)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-golden.XXXXXX") || exit 2
lockpid=
cleanup() {
	if [ -n "$lockpid" ]; then
		kill "$lockpid" 2>/dev/null
		wait "$lockpid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# Checksum of every file of the home that is data: the log, the record of
# handled mails (seen), the wrong passwords (throttle), the delivered mail, the copies of sent mail (and the
# time of their last pruning) and the
# (always empty) lock files are left out.
store_sum() {
	(cd "$1" && find . -type f ! -path ./log ! -path ./seen ! -path ./throttle ! -path './mail/*' ! -path './outbox/sent/*' ! -path ./outbox/.pruned ! -name '*.lock' -exec cksum {} + |
	    LC_ALL=C sort)
}

# feed HOME TIME FILE: one mail of the setup, which must be handled (exit 0).
feed() {
	env $caseenv OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$3" >/dev/null 2>"$tmp/feed.err"
	frc=$?
	if [ "$frc" -ne 0 ]; then
		echo "setup mail $(basename "$3") exited $frc: $(cat "$tmp/feed.err")"
		return 1
	fi
	return 0
}

# start_lock FILE: hold an fcntl lock on FILE (conflicts with the store's OFD locks).
start_lock() {
	"$PY" -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' "$1" >"$tmp/lock.ready" &
	lockpid=$!
	i=0
	while ! grep -q locked "$tmp/lock.ready" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt 200 ] && return 1
		sleep 0.05
	done
	return 0
}

stop_lock() {
	if [ -n "$lockpid" ]; then
		kill "$lockpid" 2>/dev/null
		wait "$lockpid" 2>/dev/null
		lockpid=
	fi
}

# run_case DIR: prints one ok / not ok line; returns 1 on failure.
run_case() {
	case=$1
	name=$(basename "$case")
	work=$tmp/$name
	home=$work/home
	act=$work/out
	mkdir -p "$home" "$act" || return 1
	printf 'from_address = oust@example.net\nserver_name = Oust test server\ntemplates = %s/templates\n' \
	    "$top" >"$home/oustpbm.conf"
	# yescrypt's cheapest cost keeps the run short, unless the case is about the cost
	grep -q '^conf password_cost' "$case/setup" 2>/dev/null || echo 'password_cost = 1' >>"$home/oustpbm.conf"
	n=0
	lockboard=
	ago=0
	caseenv=
	why=
	if [ -f "$case/setup" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			kind=${line%% *}
			rest=${line#* }
			case $kind in
			'' | '#'*)
				;;
			conf)
				printf '%s\n' "$rest" >>"$home/oustpbm.conf"
				;;
			send)
				# send FROM SUBJECT...: a plain mail with that Subject
				n=$((n + 1))
				from=${rest%% *}
				subject=${rest#* }
				printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <setup.%d@example.net>\n\n' \
				    "$from" "$subject" "$n" >"$work/setup.eml"
				feed "$home" $((T0 + 60 * n - ago)) "$work/setup.eml" >"$work/why" || { why=$(cat "$work/why"); break; }
				;;
			lock)
				lockboard=$rest
				;;
			ago)
				# ago SECONDS: the setup mails after it are sent that much earlier
				ago=$rest
				;;
			env)
				# env NAME=VALUE: set for the setup's mails and in.eml (a test setting)
				caseenv="$caseenv $rest"
				;;
			*)
				why="unknown setup line '$line'"
				break
				;;
			esac
		done <"$case/setup"
	fi
	if [ -n "$why" ]; then
		echo "not ok - $name: $why"
		return 1
	fi
	# only what in.eml produces is compared
	rm -rf "$home/mail"
	logsize=0
	[ -f "$home/log" ] && logsize=$(wc -c <"$home/log")
	store_sum "$home" >"$work/sum.before"
	if [ -n "$lockboard" ]; then
		if [ ! -x "$PY" ]; then
			echo "ok - $name # skip $PY is needed to hold a lock"
			return 0
		fi
		start_lock "$home/games/$lockboard.lock" || { stop_lock; echo "not ok - $name: the lock was not taken"; return 1; }
	fi
	env $caseenv OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$home" <"$case/in.eml" >"$work/stdout" 2>"$work/stderr"
	echo $? >"$act/exit"
	stop_lock
	store_sum "$home" >"$work/sum.after"
	if cmp -s "$work/sum.before" "$work/sum.after"; then
		echo unchanged >"$act/store"
	else
		echo changed >"$act/store"
	fi
	if [ -f "$home/log" ]; then
		# a queue id holds the time, the pid and the host name: masked
		tail -c +$((logsize + 1)) "$home/log" | sed -e "s|$home|HOME|g" -e 's/^\([^ ]* outbox \)[^ ]* /\1QUEUEID /' >"$act/log"
	fi
	for g in "$home"/games/*.game; do
		[ -f "$g" ] || continue
		mkdir -p "$act/games"
		cp "$g" "$act/games/"
	done
	if [ -f "$home/users" ]; then
		# yescrypt salts are random: the hashes are masked
		sed 's/^\([^#:][^:]*:[^:]*:\)[^:]*:/\1HASH:/' "$home/users" >"$act/users"
	fi
	for d in "$home"/mail/*/; do
		[ -d "$d/new" ] || continue
		rcpt=$(basename "$d")
		i=0
		for f in $(ls "$d/new" | LC_ALL=C sort); do
			i=$((i + 1))
			mkdir -p "$act/mail/$rcpt"
			cp "$d/new/$f" "$act/mail/$rcpt/$i"
		done
	done
	if [ -d "$home/outbox" ] && [ -n "$(find "$home/outbox/new" "$home/outbox/tmp" -type f)" ]; then
		echo "not ok - $name: replies left in the outbox"
		find "$home/outbox" -type f | sed 's/^/#   /'
		return 1
	fi
	# an error reply means nothing changed, whatever out/ says
	if [ "$(cat "$act/store")" = changed ] &&
	    grep -l -E '^Subject: (Oust error|Oust Board [0-9]+ error)$' "$act"/mail/*/* >/dev/null 2>&1; then
		echo "not ok - $name: an error reply, but the store changed"
		diff "$work/sum.before" "$work/sum.after"
		return 1
	fi
	if [ -n "$UPDATE_GOLDEN" ]; then
		rm -rf "$case/out"
		cp -R "$act" "$case/out"
		echo "ok - $name (updated)"
		return 0
	fi
	if diff -ru "$case/out" "$act" >"$work/diff" 2>&1; then
		echo "ok - $name"
		return 0
	fi
	echo "not ok - $name"
	head -n 80 "$work/diff" | sed 's/^/#   /'
	if [ -s "$work/stderr" ]; then
		echo "#   stderr:"
		sed 's/^/#   /' "$work/stderr"
	fi
	return 1
}

fails=0
if [ $# -gt 0 ]; then
	cases=
	for c in "$@"; do
		cases="$cases $gdir/$c"
	done
else
	cases=$(ls -d "$gdir"/*/ | LC_ALL=C sort)
fi
for c in $cases; do
	c=${c%/}
	case $(basename "$c") in
	_*) continue ;;
	esac
	[ -f "$c/in.eml" ] || continue
	run_case "$c" || fails=$((fails + 1))
done
[ "$fails" -eq 0 ]

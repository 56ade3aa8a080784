#!/bin/sh
# bench_token: one move made by reply token (the reply to a board mail
# whose Subject carries the token, its text the placement alone: no
# password hashed), whole process as bench_mail.sh measures it, on the
# 5x5 board of a game just started, and the syncs it makes, counted by
# strace on one more run (fsync, fdatasync and syncfs calls):
#   move_ms       the median of $BENCH_RUNS runs (default 11)
#   syncs         every sync of the process
#   commit_syncs  those of its commit (txn.h): not the throttle's count of
#                 replies, nor the maildir transport's delivery (mail/),
#                 which an smtp transport does not make
# Each run restores the game file, the redelivery record and the
# throttle's counts, and removes the delivered replies and the log.
# Prints one line per repetition ($REPS, default 5):
#   token move_ms=... syncs=... commit_syncs=...
. "$(dirname "$0")/lib.sh"
REPS=${REPS:-5}
RUNS=${BENCH_RUNS:-11}
command -v strace >/dev/null || { echo "bench_token: strace is missing (scripts/install-deps --test)" >&2; exit 1; }

h=$tmp/token
players "$h" 'password_cost = 0'
mail alice@example.org "challenge alice secret bob -size=5" c1@example.org | "$bin" -d "$h" >/dev/null || exit 1
# the board mail to alice: its Subject's token and its Message-ID
bm=$(grep -l '^Subject: Oust Board 101 .*\[' "$h"/mail/alice@example.org/new/* | tail -1)
[ -n "$bm" ] || { echo "bench_token: no board mail to alice" >&2; exit 1; }
subject=$(sed -n 's/^Subject: //p' "$bm" | head -1)
msgid=$(sed -n 's/^Message-I[Dd]: //p' "$bm" | head -1)
printf 'From: alice@example.org\nTo: oust@example.net\nSubject: Re: %s\nMessage-ID: <tok.bench@example.org>\nIn-Reply-To: %s\n\nC3\n' \
    "$subject" "$msgid" >"$tmp/token.eml"
rm -rf "$h/mail" "$h/log"
for f in games/101.game seen throttle; do
	[ -f "$h/$f" ] && cp "$h/$f" "$tmp/$(basename "$f").keep"
done

# restore: the home as before the move
restore() {
	cp "$tmp/101.game.keep" "$h/games/101.game"
	for f in seen throttle; do
		if [ -f "$tmp/$f.keep" ]; then cp "$tmp/$f.keep" "$h/$f"; else rm -f "$h/$f"; fi
	done
	rm -f "$h"/mail/*/new/* "$h/log"
}

# once: one run; prints the time in ms
once() {
	restore
	sync
	"$mb" time "$tmp/token.eml" "$bin" -d "$h" || exit 1
	grep -q ' ok: turn 1: alice played C3' "$h/log" || { echo "bench_token: the move was not applied: $(cat "$h/log")" >&2; exit 1; }
}

# the syncs of one run, by file: "ALL COMMIT"
count_syncs() {
	restore
	strace -f -y -e trace=fsync,fdatasync,syncfs -o "$tmp/strace" "$bin" -d "$h" <"$tmp/token.eml" >/dev/null || exit 1
	grep -q ' ok: turn 1: alice played C3' "$h/log" || { echo "bench_token: the move was not applied under strace" >&2; exit 1; }
	awk '
	/(fsync|fdatasync|syncfs)\(/ && / = 0/ {
		all++
		f = $0; sub(/^[^<]*</, "", f); sub(/>.*/, "", f)
		# the maildir transport, the throttle file and the home synced after its rename
		if (f ~ /\/mail\// || f ~ /\/\.throttle\./ || prev ~ /\/\.throttle\./) {
			prev = $0
			next
		}
		commit++
	}
	{ prev = $0 }
	END { print all + 0, commit + 0 }' "$tmp/strace"
	[ -n "$BENCH_TOKEN_TRACE" ] && cat "$tmp/strace" >&2
}

once >/dev/null	# warm the page cache
rep=0
while [ "$rep" -lt "$REPS" ]; do
	rep=$((rep + 1))
	: >"$tmp/t"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		once >>"$tmp/t"
	done
	set -- $(count_syncs)
	echo "token move_ms=$(median <"$tmp/t") syncs=$1 commit_syncs=$2"
done

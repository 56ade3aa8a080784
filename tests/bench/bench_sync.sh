#!/bin/sh
# bench_sync: the time of one move mail (turn 2 of an 11x11 game, whole
# process, as bench_mail.sh measures it) with the two ways of making writes
# durable (config.h's sync key):
#   file        fsync of each file and its directory, as it comes (default)
#   filesystem  the writes of a mail grouped, paid by one syncfs(2)
# each quiet, and beside a writer that keeps dirtying WRITER_MB of page cache
# on the same filesystem (dd rewriting one file over and over, never
# syncing: what a backup or a log shipper does).  The writer is scaled to
# the disk: at most a quarter of the free space and of the memory, and at
# most BENCH_SYNC_WRITER_MB (default 3072).  The two modes alternate run by
# run, so both see the same machine.  Prints one line:
#   sync file_quiet_p50_ms=... file_quiet_p99_ms=... fs_quiet_p50_ms=...
#        fs_quiet_p99_ms=... file_busy_p50_ms=... (and p99) fs_busy_p50_ms=...
# from BENCH_SYNC_RUNS runs of each (default 60; p99 of 60 is the largest
# but one).  It runs once whatever $REPS says: each run of it takes minutes.
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
RUNS=${BENCH_SYNC_RUNS:-60}
bin=$top/oustpbm
[ -x "$bin" ] || { echo "bench_sync: run make first" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-bench-sync.XXXXXX") || exit 2
wpid=
trap '[ -n "$wpid" ] && kill "$wpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

mb=$tmp/mailbench
objs=
for o in game/rules game/game game/gamefile game/board base/ident base/msgid base/mailaddr base/utf8; do
	objs="$objs build/obj/$o.o"
done
${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Isrc -o "$mb" tests/bench/mail/mailbench.c $objs ||
    { echo "bench_sync: cannot build the helper" >&2; exit 1; }

# two homes, one per mode, each with alice, bob and board 101 after turn 1
for mode in file filesystem; do
	h=$tmp/$mode
	mkdir -p "$h"
	printf 'from_address = oust@example.net\ntemplates = %s/templates\nsync = %s\n' "$top" "$mode" >"$h/oustpbm.conf"
	for u in "alice secret" "bob hunter2"; do
		printf 'From: %s@example.org\nSubject: register %s\nMessage-ID: <reg.%s@example.org>\n\n' \
		    "${u%% *}" "$u" "${u%% *}" | "$bin" -d "$h" >/dev/null || exit 1
	done
	rm -rf "$h/mail" "$h/log"
	next=$("$mb" game 1 "$h/games/101.game") || exit 1
	cp "$h/games/101.game" "$tmp/$mode.game"
	set -- $next
	pw=secret
	[ "$1" = bob ] && pw=hunter2
	printf 'From: %s@example.org\nSubject: move 101#%s %s %s %s\nMessage-ID: <bench@example.org>\n\n' \
	    "$1" "$2" "$1" "$pw" "$3" >"$tmp/$mode.eml"
done

# once MODE: one move on a fresh copy of the board; prints the time in ms
once() {
	h=$tmp/$1
	cp "$tmp/$1.game" "$h/games/101.game"
	rm -f "$h"/mail/*/new/* "$h/log" "$h/seen"
	"$mb" time "$tmp/$1.eml" "$bin" -d "$h" || exit 1
	grep -q ' ok: turn ' "$h/log" || { echo "bench_sync: $1: the move was not applied: $(cat "$h/log")" >&2; exit 1; }
}

# pct P FILE: the P-th percentile (nearest rank) of the numbers in FILE
pct() {
	sort -n "$2" | awk -v p="$1" '{ v[NR] = $1 } END { r = int((p * NR + 99) / 100); if (r < 1) r = 1; print v[r] }'
}

# series COND: RUNS runs of each mode, alternating
series() {
	: >"$tmp/file.$1"
	: >"$tmp/filesystem.$1"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		once file >>"$tmp/file.$1"
		once filesystem >>"$tmp/filesystem.$1"
	done
}

sync
once file >/dev/null
once filesystem >/dev/null
series quiet

# the writer: scaled to the free space and the memory
free_mb=$(df -Pm "$tmp" | awk 'NR == 2 { print $4 }')
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
w=${BENCH_SYNC_WRITER_MB:-3072}
[ $((free_mb / 4)) -lt "$w" ] && w=$((free_mb / 4))
[ $((mem_mb / 4)) -lt "$w" ] && w=$((mem_mb / 4))
[ "$w" -ge 64 ] || { echo "bench_sync: no room for a writer ($free_mb MB free)" >&2; exit 1; }
(
	while :; do
		dd if=/dev/zero of="$tmp/writer" bs=1M count="$w" conv=notrunc status=none 2>/dev/null || exit 0
	done
) &
wpid=$!
sleep 3	# let it dirty its first gigabytes
series busy
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
wpid=
rm -f "$tmp/writer"

echo "sync file_quiet_p50_ms=$(pct 50 "$tmp/file.quiet") file_quiet_p99_ms=$(pct 99 "$tmp/file.quiet")" \
    "fs_quiet_p50_ms=$(pct 50 "$tmp/filesystem.quiet") fs_quiet_p99_ms=$(pct 99 "$tmp/filesystem.quiet")" \
    "file_busy_p50_ms=$(pct 50 "$tmp/file.busy") file_busy_p99_ms=$(pct 99 "$tmp/file.busy")" \
    "fs_busy_p50_ms=$(pct 50 "$tmp/filesystem.busy") fs_busy_p99_ms=$(pct 99 "$tmp/filesystem.busy")" \
    "writer_mb=$w"

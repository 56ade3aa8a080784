#!/bin/sh
# review-cpu: the CPU time and memory of one game review, done as the review
# queue does it.  A game of SIZE x SIZE is played by `oustpbm engine` against
# itself (level LEVEL at PLAYOUTS a placement, seed SEED: the same game every
# run), then by mail in a test home (alice against bob, a turn a mail); alice
# asks for its review, and `oustpbm robot` does it at review_seconds SECONDS
# under /usr/bin/time -v.  Prints the game's turns, the CPU time (user + sys),
# the wall-clock time and the largest resident set, and keeps the review mail
# in OUT (default /tmp/review-SIZE-SEED.eml).  Not part of check: a review
# searches for SECONDS of wall-clock time on two threads.
#
# usage: sh tests/strength/review-cpu.sh SIZE LEVEL PLAYOUTS SEED [SECONDS [OUT]]
# e.g.   sh tests/strength/review-cpu.sh 11 2 300 25 60    (a game of 148 turns)
. "$(dirname "$0")/../sh/lib.sh"
[ $# -ge 4 ] || { echo "usage: $0 SIZE LEVEL PLAYOUTS SEED [SECONDS [OUT]]" >&2; exit 2; }
size=$1 level=$2 playouts=$3 seed=$4 seconds=${5:-60}
out=${6:-/tmp/review-$size-$seed.eml}
need "$PY" /usr/bin/time
tmpdir



# the game's turns, one line each: "b C3" or "w A5,B4" (a capture goes on placing)
"$PY" - "$top/oustpbm" "$size" "$level" "$playouts" "$seed" >"$tmp/turns" <<'EOP'
import subprocess, sys
prog, size, level, playouts, seed = sys.argv[1:]
p = subprocess.Popen([prog, "engine", "--level", level, "--playouts", playouts, "--seed", seed,
                      "--seconds", "86400"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(c):
    p.stdin.write(c + "\n")
    p.stdin.flush()
    out = []
    while True:
        line = p.stdout.readline().rstrip("\n")
        if line == "" and out:
            return "\n".join(out)[2:]
        if line:
            out.append(line)
send("boardsize " + size)
turns = []
while send("gogui-rules_final_result") == "unknown":
    side = send("gogui-rules_side_to_move")
    v = send("genmove " + side)
    if turns and turns[-1][0] == side[0]:
        turns[-1][1].append(v)
    else:
        turns.append((side[0], [v]))
send("quit")
for c, pl in turns:
    print(c, ",".join(pl))
EOP
[ -s "$tmp/turns" ] || { echo "no game: build ./oustpbm (make oustpbm)" >&2; exit 1; }

h=$tmp/home
mkhome "$h" "review_seconds = $seconds"
t=$T0
k=0
send() {
	k=$((k + 1))
	t=$((t + 300)) # under the hourly mail limit of each player
	mail "$1" "$2" "cpu.$k@example.org" | deliver "$h" $t
}
send alice@example.org "register alice secret Alice"
send bob@example.com "register bob hunter2 Bob"
send alice@example.org "challenge alice secret bob -size=$size"
while read -r c pl; do
	if [ "$c" = b ]; then
		send alice@example.org "move 101 alice secret $pl"
	else
		send bob@example.com "move 101 bob hunter2 $pl"
	fi
done <"$tmp/turns"
! grep -q '^status: playing' "$h/games/101.game" || { echo "the game did not end by mail" >&2; exit 1; }
send alice@example.org "review 101 alice secret"
grep -q " 101 alice waiting" "$h/reviews" || { echo "the review was not queued" >&2; exit 1; }
OUSTPBM_TEST_TIME=$((t + 60)) /usr/bin/time -v "$bin" -d "$h" robot >"$tmp/robot.out" 2>"$tmp/time"
grep -q " 101 alice done" "$h/reviews" || { echo "the review was not done" >&2; cat "$tmp/robot.out" "$tmp/time" >&2; exit 1; }
cp "$(newest "$h" alice@example.org)" "$out"
awk -F': ' -v turns="$(wc -l <"$tmp/turns")" -v size="$size" -v s="$seconds" '
/User time/ { u = $2 } /System time/ { sy = $2 } /Elapsed/ { w = $2 } /Maximum resident/ { rss = $2 }
END { printf "%dx%d, %d turns, review_seconds %d: CPU %.1f s (user %.1f + sys %.1f), wall %s, max RSS %d MB\n",
      size, size, turns, s, u + sy, u, sy, w, rss / 1024 }' "$tmp/time"
echo "the review mail: $out"

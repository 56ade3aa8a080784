#!/bin/sh
# robot: the robot player by mail, end to end (src/commands/services/robot.h).  Whole games
# against the real AI (a small fixed playout budget, OUSTPBM_TEST_ROBOT_PLAYOUTS,
# so the run stays fast), the human's turns found with `oustpbm engine`;
# the think time against robot_seconds; every fault of the AI (an error, a
# crash, a hang, an illegal turn) caught, logged and the game left as it was
# for `oustpbm robot` to retry; `oustpbm robot` and `oustpbm cleanup` (from
# cron's bare environment) playing the turns left over, a held lock
# respected; many humans at once, concurrent deliveries and runs never
# playing a robot turn twice; the per-sender limit counting the human's
# mails only; the account robot refused to admins too.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_ROBOT_PLAYOUTS=64
A=alice@example.org

header() { # FILE KEY
	sed -n "s/^$2: //p" "$1" | head -1
}
home() { # HOME [conf lines...]: a home with alice
	h1=$1
	shift
	mkhome "$h1" "$@"
	send at=$T0 "$h1" $A "register alice secret" >/dev/null
}

# human_turn GAMEFILE [greedy]: a legal whole turn for the side to move, the first
# legal placement at each step, as `oustpbm engine` lists them ("" if over), or
# with greedy the greedy test player's
human_turn() {
	"$PY" - "$bin" "$@" <<'EOF'
import subprocess, sys
greedy = sys.argv[3:] == ["greedy"]
p = subprocess.Popen([sys.argv[1], "engine"] + (["--player", "greedy", "--seed", "1"] if greedy else []),
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def gtp(c):
    p.stdin.write(c + "\n"); p.stdin.flush()
    lines = []
    while True:
        l = p.stdout.readline()
        if l in ("\n", ""):
            break
        lines.append(l.rstrip("\n"))
    r = "\n".join(lines)
    if not r.startswith("="):
        sys.exit("gtp %s: %s" % (c, r))
    return r[1:].strip()
gtp("loadgame " + sys.argv[2])
side = gtp("gogui-rules_side_to_move")
turn = []
while gtp("gogui-rules_final_result") == "unknown" and gtp("gogui-rules_side_to_move") == side:
    legal = gtp("gogui-rules_legal_moves").split()
    if not legal:
        break
    if greedy:
        turn.append(gtp("genmove %s" % side).upper())
        continue
    gtp("play %s %s" % (side, legal[0]))
    turn.append(legal[0])
print(",".join(turn))
gtp("quit")
EOF
}

if [ ! -x "$PY" ]; then
	echo "ok 1 # skip $PY is needed"
	exit 0
fi

# ---- a whole game against the AI, the robot answering each mail in it
h=$tmp/game
home "$h"
rc=$(rc send at=$T0 "$h" $A "challenge alice secret robot -size=5 -level=1")
check "challenge robot: exit 0" [ "$rc" = 0 ]
check "the board stores level 1" [ "$(header "$h/games/101.game" robot-level)" = 1 ]
moves=0
bad=
while [ "$(header "$h/games/101.game" status)" = playing ] && [ $moves -lt 40 ]; do
	[ "$(header "$h/games/101.game" to-move)" = black ] || { bad="$bad; robot (white) to move after a mail"; break; }
	t=$(header "$h/games/101.game" turn)
	turn=$(human_turn "$h/games/101.game") || { bad="$bad; no human turn found"; break; }
	before=$(replies "$h" $A)
	rc=$(rc send at=$T0 "$h" $A "move 101#$t alice secret $turn")
	[ "$rc" = 0 ] || bad="$bad; move $t exits $rc"
	[ "$(replies "$h" $A)" = $((before + 1)) ] || bad="$bad; move $t: $(($(replies "$h" $A) - before)) replies"
	f=$(newest "$h" $A)
	if [ "$(header "$h/games/101.game" status)" = playing ] || grep -q "^$((t + 1)) .* o robot " "$h/games/101.game"; then
		grep -q "^Turn $((t + 1)): robot \(played\|resigned\)" "$f" ||
		    grep -q "^Turn $((t + 2)): robot played" "$f" || bad="$bad; the reply to move $t does not show the robot's turn"
	fi
	moves=$((moves + 1))
done
check "a game played to its end, each reply showing the robot's answer${bad}" \
    [ -z "$bad" -a "$(header "$h/games/101.game" status)" != playing ]
check "fsck: the whole history replays (the robot made no illegal placement)" \
    "$bin" -d "$h" fsck
check "no fault logged" sh -c "! grep -q 'fault\|could not play' '$h/log'"
check "every robot turn logged with the mail that caused it" \
    [ "$(grep -c "ok: turn [0-9]*: alice played [A-Z0-9,]*\(, capturing [0-9]*\)*; turn [0-9]*: robot played" "$h/log")" -ge 1 ]
check "no reply to the robot, none left in the outbox" \
    [ -z "$(ls "$h/mail" | grep -v "^$A\$")" -a -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f)" ]

# ---- the think time: robot_seconds with the AI's own deadline (no fixed budget)
h=$tmp/time
home "$h" "robot_seconds = 1"
s=$(date +%s%N)
rc=$(mail $A "challenge alice secret robot -size=9 -white" | env -u OUSTPBM_TEST_ROBOT_PLAYOUTS \
    OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" 2>>"$tmp/stderr"; echo $?)
ms=$((($(date +%s%N) - s) / 1000000))
check "robot_seconds = 1: the robot answered in the challenge's delivery, in $ms ms (at most 6000)" \
    [ "$rc" = 0 -a "$(header "$h/games/101.game" turn)" = 2 -a "$ms" -le 6000 ]

# ---- faults of the AI: caught, logged, the game left for oustpbm robot
for fault in fail crash hang illegal; do
	h=$tmp/$fault
	home "$h" "robot_seconds = 1"
	send at=$T0 "$h" $A "challenge alice secret robot -size=5" >/dev/null
	rc=$(mail $A "move 101#1 alice secret C3" | OUSTPBM_TEST_ROBOT=$fault OUSTPBM_TEST_TIME=$T0 \
	    "$bin" -d "$h" 2>"$tmp/fault.err"; echo $?)
	check "$fault: the move is handled (exit $rc), the robot's turn left: turn 2, robot to move" \
	    [ "$rc" = 0 -a "$(header "$h/games/101.game" turn)" = 2 -a "$(header "$h/games/101.game" to-move)" = white ]
	check "$fault: logged and on stderr" \
	    sh -c "grep -q 'turn 2: the robot could not play (.*): left for oustpbm robot' '$h/log' && grep -q 'could not play' '$tmp/fault.err'"
	check "$fault: alice got the reply to her move, saying the robot's answer comes by mail" \
	    sh -c "tr '\n' ' ' <'$(newest "$h" $A)' | grep -q \"Waiting for robot (White, o) to play turn 2: its answer  *comes  *by  *mail.\""
	sum=$(cksum <"$h/games/101.game")
	mails=$(replies "$h" $A)
	rc=$(OUSTPBM_TEST_ROBOT=$fault OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" robot 2>/dev/null; echo $?)
	check "$fault: oustpbm robot, the fault still there: exit 75, the game and the mail unchanged" \
	    [ "$rc" = 75 -a "$(cksum <"$h/games/101.game")" = "$sum" -a "$(replies "$h" $A)" = "$mails" ]
	check "$fault: and logged as a fault" grep -q "robot board=101 fault: turn 2: the robot could not play" "$h/log"
	rc=$(OUSTPBM_TEST_TIME=$((T0 + 120)) "$bin" -d "$h" robot 2>/dev/null; echo $?)
	check "$fault: oustpbm robot retries: exit 0, the robot played turn 2" \
	    [ "$rc" = 0 -a "$(header "$h/games/101.game" turn)" = 3 -a "$(replies "$h" $A)" = $((mails + 1)) ]
	check "$fault: its mail to alice shows the turn, threaded under the board, auto-generated" \
	    sh -c "f='$(newest "$h" $A)'; grep -q '^Turn 2: robot \(played\|swapped\)' \"\$f\" &&
	        grep -q '^Auto-Submitted: auto-generated' \"\$f\" && grep -q '^References: <board-101\.' \"\$f\""
	sum=$(cksum <"$h/games/101.game")
	rc=$(OUSTPBM_TEST_TIME=$((T0 + 180)) "$bin" -d "$h" robot 2>/dev/null; echo $?)
	check "$fault: a second oustpbm robot plays nothing" \
	    [ "$rc" = 0 -a "$(cksum <"$h/games/101.game")" = "$sum" -a "$(replies "$h" $A)" = $((mails + 1)) ]
done

# ---- cron: oustpbm cleanup in a bare environment plays the robot's first move
h=$tmp/cron
home "$h"
mail $A "challenge alice secret robot -size=7 -white" | OUSTPBM_TEST_ROBOT=crash OUSTPBM_TEST_TIME=$T0 \
    "$bin" -d "$h" >/dev/null 2>&1
check "the robot's first move could not be played in the challenge's delivery" \
    [ "$(header "$h/games/101.game" turn)" = 1 -a "$(replies "$h" $A)" = 3 ]
env -i OUSTPBM_TEST_ROBOT_PLAYOUTS=64 "$bin" -d "$h" cleanup >/dev/null 2>"$tmp/cron.err"
rc=$?
check "cleanup from cron's bare environment: exit $rc, the robot played turn 1" \
    [ "$rc" = 0 -a "$(header "$h/games/101.game" turn)" = 2 -a "$(replies "$h" $A)" = 4 ]
check "cleanup logs the robot turn" grep -q "cleanup done: 1 boards, 1 robot turns" "$h/log"
check "a game against the robot with the robot to move is not reminded" \
    sh -c "! grep -q 'reminded robot\|no account to remind: robot' '$h/log'"

# ---- a held lock: the board is left for the next run
h=$tmp/lock
home "$h"
mail $A "challenge alice secret robot -size=5 -white" | OUSTPBM_TEST_ROBOT=fail OUSTPBM_TEST_TIME=$T0 \
    "$bin" -d "$h" >/dev/null 2>&1
hold_lock "$h/games/101.lock"
sum=$(cksum <"$h/games/101.game")
s=$(date +%s%N)
rc=$(OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" robot 2>/dev/null; echo $?)
ms=$((($(date +%s%N) - s) / 1000000))
check "oustpbm robot on a locked board: exit 75 at once ($ms ms), nothing changed" \
    [ "$rc" = 75 -a "$(cksum <"$h/games/101.game")" = "$sum" -a "$ms" -lt 10000 ]
check "and the log says the turn is left for the next run" grep -q "robot board=101 tempfail: the board is locked" "$h/log"
release_lock
rc=$(OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" robot 2>/dev/null; echo $?)
check "the lock released, the next run plays it" [ "$rc" = 0 -a "$(header "$h/games/101.game" turn)" = 2 ]

# ---- many humans at once, and concurrent deliveries never play a robot turn twice
h=$tmp/many
# a slot for each (robot_max_thinking defaults to the processors: robot_cap.sh tests the cap)
home "$h" 'robot_max_thinking = 4'
for u in bob carol dave erin; do
	send at=$T0 "$h" $u@example.com "register $u pw$u" >/dev/null
	send at=$T0 "$h" $u@example.com "challenge $u pw$u robot -size=7" >/dev/null
done
b=101
for u in bob carol dave erin; do
	( mail $u@example.com "move $b#1 $u pw$u D4" | OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" >/dev/null 2>&1 ) &
	b=$((b + 1))
done
wait
bad=
b=101
for u in bob carol dave erin; do
	[ "$(header "$h/games/$b.game" turn)" = 3 ] || bad="$bad; board $b at turn $(header "$h/games/$b.game" turn)"
	[ "$(replies "$h" $u@example.com)" = 4 ] || bad="$bad; $u got $(replies "$h" $u@example.com) mails"
	grep -q "^Turn 2: robot" "$(newest "$h" $u@example.com)" || bad="$bad; $u's reply does not show the robot's turn"
	b=$((b + 1))
done
check "four humans moving at once: each board answered once by the robot${bad}" [ -z "$bad" ]

# the same mail delivered three times at once, with oustpbm robot running beside
mail $A "challenge alice secret robot -size=7" c9@example.org | OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" >/dev/null 2>&1
mail $A "move 105#1 alice secret D4" same >"$tmp/same.eml"
for i in 1 2 3; do
	( OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" <"$tmp/same.eml" >/dev/null 2>&1 ) &
done
( OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" robot >/dev/null 2>&1 ) &
mail $A "move 105#1 alice secret B2" other | OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" >/dev/null 2>&1 &
wait
check "one mail delivered three times, another for the same turn and oustpbm robot at once: two turns, not more" \
    [ "$(header "$h/games/105.game" turn)" = 3 ]
check "the robot's turn logged once" [ "$(grep -c "board=105 .*robot played\|board=105 ok: turn 2: robot" "$h/log")" = 1 ]
check "fsck: every board replays" "$bin" -d "$h" fsck

# ---- a mail answered by the robot, delivered again later: recognised (seen.h), not played again
h=$tmp/again
home "$h"
send at=$T0 "$h" $A "challenge alice secret robot -size=7" >/dev/null
mail $A "move 101 alice secret D4" again@example.org >"$tmp/again.eml"
OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" <"$tmp/again.eml" >/dev/null 2>&1
sum=$(cksum <"$h/games/101.game")
mails=$(replies "$h" $A)
OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" <"$tmp/again.eml" >/dev/null 2>&1
check "the same move mail (no #turn) delivered again after the robot's answer: dropped as a copy, nothing played" \
    [ "$(cksum <"$h/games/101.game")" = "$sum" -a "$(replies "$h" $A)" = "$mails" ]
check "and logged as a copy" grep -q "<again@example.org>.* dropped: a copy of the mail handled" "$h/log"

# ---- the per-sender limit applies to the human; the robot's turns are not counted
h=$tmp/rate
home "$h" "max_mails_per_hour = 5"
send at=$T0 "$h" $A "challenge alice secret robot -size=7 -white" >/dev/null
for t in 2 4; do
	turn=$(human_turn "$h/games/101.game" greedy) # a game long enough for the limit
	send at=$T0 "$h" $A "move 101#$t alice secret $turn" >/dev/null
done
check "max_mails_per_hour = 5: register, confirm, challenge and two moves answered, the robot at turn 5" \
    [ "$(replies "$h" $A)" = 5 -a "$(header "$h/games/101.game" turn)" = 6 ]
turn=$(human_turn "$h/games/101.game" greedy)
send at=$T0 "$h" $A "move 101#6 alice secret $turn" >/dev/null
check "the sixth mail of the hour is not played, the board unchanged, alice told once" \
    [ "$(replies "$h" $A)" = 6 -a "$(header "$h/games/101.game" turn)" = 6 ]
send at=$T0 "$h" $A "move 101#6 alice secret $turn" >/dev/null
check "the seventh is dropped without a word" \
    [ "$(replies "$h" $A)" = 6 -a "$(header "$h/games/101.game" turn)" = 6 ]

# ---- resigning against the robot: no robot turn after
h=$tmp/resign
home "$h"
send at=$T0 "$h" $A "challenge alice secret robot -size=5 -white" >/dev/null
send at=$T0 "$h" $A "resign 101 alice secret" >/dev/null
check "alice resigns: robot won, nothing more played" \
    [ "$(header "$h/games/101.game" status)" = black-won -a "$(header "$h/games/101.game" turn)" = 3 ]

# ---- the account is built in: an admin cannot add it either
"$bin" -d "$h" adduser robot robot@example.org >/dev/null 2>"$tmp/add.err"
rc=$?
check "adduser robot: exit 73, says why" [ "$rc" = 73 -a -n "$(grep 'robot player' "$tmp/add.err")" ]
"$bin" -d "$h" robot 99x >/dev/null 2>&1
check "oustpbm robot with a bad board number: exit 64" [ $? = 64 ]

done_testing

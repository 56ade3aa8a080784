#!/bin/sh
# robot_cap: robot_max_thinking, the thinks at once on a host, counted with
# the lock files robot-thinking.N.lock of the home.  With every slot held
# by another process, a human's move is answered alone (the robot's answer
# "comes by mail within minutes"), the robot's turn left for `oustpbm
# robot`, which plays it once a slot is free; a slot freed by a process
# that died is free again; and a review waits for a slot the same way.
# Six games whose moves come at once with the cap reached: every robot
# turn is left to `oustpbm robot`, which plays each of them once.
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
export OUSTPBM_TEST_ROBOT=first

h=$tmp/home
mkhome "$h" 'robot_max_thinking = 1' 'robot_seconds = 1' 'max_mails_per_hour = 0'
send at=next "$h" alice@example.org 'register alice secret'
send at=next "$h" alice@example.org 'challenge alice secret robot -size=5 -noswap'
send at=next "$h" alice@example.org 'move 101#1 alice secret C3'
check "a free slot: the robot answers in the same delivery" grep -q 'turn 2: robot played' "$h/log"

hold_lock "$h/robot-thinking.0.lock"
send at=next "$h" alice@example.org 'move 101#3 alice secret E5'
check "... every slot held: the move is handled, exit 0" test $? = 0
check "... the log says the robot's turn is left for oustpbm robot" sh -c \
    "tail -1 '$h/log' | grep -q 'turn 3: alice played E5; turn 4: the robot could not play (the robot thinks on 1 board already (robot_max_thinking)): left for oustpbm robot'"
check "... nothing on stderr: a busy host is no fault" test ! -s "$tmp/stderr"
m=$(newest "$h" alice@example.org)
check "... the human's reply says the robot answers by mail within minutes" grep -q 'its answer comes by mail within minutes' "$m"
check "... the board waits for the robot" grep -q '^turn: 4' "$h/games/101.game"
OUSTPBM_TEST_TIME=$((T0 + 3600)) OUSTPBM_TEST_ROBOT=first "$bin" -d "$h" robot >/dev/null 2>&1
check "oustpbm robot with the slot still held leaves it for the next run" sh -c \
    "grep -q 'robot board=101 tempfail: the robot thinks on 1 board already' '$h/log' && grep -q '^turn: 4' '$h/games/101.game'"
release_lock
OUSTPBM_TEST_TIME=$((T0 + 3700)) OUSTPBM_TEST_ROBOT=first "$bin" -d "$h" robot >/dev/null 2>&1
check "the slot freed (its holder died): oustpbm robot plays the turn" sh -c \
    "grep -q 'robot board=101 ok: turn 4: robot played' '$h/log' && grep -q '^turn: 5' '$h/games/101.game'"
check "... and mails it to alice" grep -q 'Turn 4: robot played' "$(newest "$h" alice@example.org)"

# a second slot: one held, the other free, the robot answers at once
sed -i 's/^robot_max_thinking = 1$/robot_max_thinking = 2/' "$h/oustpbm.conf"
hold_lock "$h/robot-thinking.0.lock"
send at=next "$h" alice@example.org 'move 101#5 alice secret E3'
check "robot_max_thinking = 2, one slot held: the robot answers in the same delivery" sh -c \
    "tail -1 '$h/log' | grep -q 'turn 6: robot played'"
release_lock

# ---- many games at once, the cap reached: the turns beyond it are left to
# oustpbm robot (cron), which plays every one of them, each once
h=$tmp/many
mkhome "$h" 'robot_max_thinking = 1' 'robot_seconds = 1' 'max_mails_per_hour = 0'
for i in 1 2 3 4 5 6; do
	send at=next "$h" p$i@example.org "register p$i pw$i" >/dev/null
	send at=next "$h" p$i@example.org "challenge p$i pw$i robot -size=5 -noswap" >/dev/null
done
# every slot held: each of the six moves, delivered at once, leaves its robot turn
hold_lock "$h/robot-thinking.0.lock"
b=101
pids=
for i in 1 2 3 4 5 6; do
	( mail p$i@example.org "move $b#1 p$i pw$i C3" "many.$i@example.org" | OUSTPBM_TEST_TIME=$((T0 + 9000)) "$bin" -d "$h" >/dev/null 2>&1 ) &
	pids="$pids $!"
	b=$((b + 1))
done
# the six deliveries only: a bare wait would wait for hold_lock's holder too
wait $pids
left=$(grep -c 'turn 2: the robot could not play (the robot thinks on 1 board already (robot_max_thinking)): left for oustpbm robot' "$h/log")
check "six moves at once, the cap reached: each handled, its robot turn left for oustpbm robot ($left of 6)" [ "$left" = 6 ]
release_lock
# the slot free again: the next oustpbm robot (cron) waits for it before each think
OUSTPBM_TEST_TIME=$((T0 + 9100)) "$bin" -d "$h" robot >/dev/null 2>&1
bad=
b=101
for i in 1 2 3 4 5 6; do
	[ "$(grep -c '^[0-9]* [^ ]* o robot ' "$h/games/$b.game")" = 1 ] || bad="$bad; board $b: $(grep -c '^[0-9]* [^ ]* o robot ' "$h/games/$b.game") robot turns"
	grep -q "^Turn 2: robot" "$(newest "$h" p$i@example.org)" || bad="$bad; p$i was not mailed the robot's turn"
	b=$((b + 1))
done
check "oustpbm robot (cron) then plays every turn left, each once, and mails it${bad}" [ -z "$bad" ]
check "... its log counts them" grep -q 'robot done: 6 boards, 6 robot turns played, 0 left for the next run' "$h/log"
done_testing

#!/bin/sh
# `oustpbm engine` under valgrind (memcheck, full leak check): a script that
# runs every command, their errors, loadgame of good and bad files, and the
# first conformance game of tests/data/public.trace.gz.  The answers must be
# those of a run without valgrind.  Prints "ok"/"not ok" lines.
. "$(dirname "$0")/lib.sh"
need valgrind "$bin"
tmpdir

# A game file with an error on its status line.
sed 's/^status: playing$/status: plying/' tests/data/engine/edge2.game >"$tmp/bad.game"
printf 'a\tb\001\r\n' >"$tmp/junk.game"

{
	printf '%s\n' "# every command" protocol_version name version "1 known_command play" \
	    "known_command nothing" list_commands gogui-analyze_commands gogui-rules_game_id \
	    gogui-rules_board_size "boardsize 4" "boardsize x" "boardsize 5" "play b c3" \
	    "play w c3" "play w pass" "play w i9" "play w z9" "play red a1" "play b a1" \
	    "play w a1" "play w c4" "genmove b" "genmove w" showboard gogui-rules_board \
	    gogui-rules_legal_moves gogui-rules_side_to_move gogui-rules_final_result \
	    "loadgame tests/data/figure7.game" showboard "loadgame $tmp/bad.game" \
	    "loadgame $tmp/junk.game" "loadgame $tmp/missing.game" "loadgame $tmp" \
	    "loadgame tests/data/engine/edge2.game" "play b b3" "play b d3" "play b e5" \
	    "loadgame tests/data/engine/edge1.game" "play b b3" "genmove w" "play w a1" \
	    gogui-rules_final_result "loadgame tests/data/engine/edge5.game" "play w e1" \
	    gogui-rules_side_to_move "frobnicate" "7" "clear_board" "boardsize 25" \
	    gogui-rules_legal_moves
	# a line longer than the cap
	head -c 5000 /dev/zero | tr '\0' 'x'
	printf '\n'
	# the first conformance game
	gzip -dc tests/data/public.trace.gz | awk '
		function v(c,   xy) { split(c, xy, "."); return substr("ABCDEFGHJKLMNOPQRSTUVWXYZ", xy[1], 1) xy[2] }
		$1 == "game" { if (++n > 1) exit; split($2, s, "="); print "boardsize " s[2]; next }
		$1 == "L" { print "gogui-rules_side_to_move"; if ($3 != "-") print "gogui-rules_legal_moves"; next }
		$1 == "P" { print "play " $2 " " v($3); next }
		$1 == "END" { print "gogui-rules_final_result"; next }'
	echo quit
} >"$tmp/script"

# The computer player with a fixed small budget, so that valgrind's slowness changes no answer.
opts="--level 3 --playouts 300 --seconds 600"
OUSTPBM_ENGINE_SEED=valgrind "$bin" engine $opts <"$tmp/script" >"$tmp/plain.out" 2>&1
if OUSTPBM_ENGINE_SEED=valgrind valgrind -q --error-exitcode=1 --leak-check=full \
    --log-file="$tmp/valgrind.log" "$bin" engine $opts <"$tmp/script" >"$tmp/vg.out"; then
	echo "ok - engine under valgrind: no errors, no leaks ($(grep -c '' "$tmp/script") commands)"
else
	echo "not ok - engine under valgrind"
	sed 's/^/# /' "$tmp/valgrind.log" | head -n 40
fi
if cmp -s "$tmp/plain.out" "$tmp/vg.out"; then
	echo "ok - the same answers under valgrind"
else
	echo "not ok - answers differ under valgrind"
	diff "$tmp/plain.out" "$tmp/vg.out" | head -n 20 | sed 's/^/# /'
fi
# The script really ran: the conformance game ended with its result, and errors were answered.
want=$(gzip -dc tests/data/public.trace.gz | awk '$1 == "END" { print ($2 == "b" ? "B+" : $2 == "w" ? "W+" : "0"); exit }')
last=$(grep '^= [BW0]' "$tmp/vg.out" | tail -n 1)
if [ "$last" = "= $want" ] && grep -q '^? line longer than' "$tmp/vg.out" &&
    grep -q "^? $tmp/bad.game line [0-9]*: unknown status 'plying'" "$tmp/vg.out"; then
	echo "ok - the script ran to its end (result $want)"
else
	echo "not ok - the script did not run as expected (last result '$last', want '$want')"
fi

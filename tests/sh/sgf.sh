#!/bin/sh
# sgf: game records end to end.  Three conformance games (tests/data: a
# 5x5 with a swap, a 9x9, a hex board of side 3) are played by mail; for
# each, `oustpbm export` writes its SGF, and Debian's sgf2dg, an SGF reader
# of its own, draws every node: the position after each turn must be the
# one `oustpbm show BOARD#TURN` shows, and the last the game file's.
# A fourth, 9x9, has notes in its history (a chat, a draw offer
# rejected, a turn undone and replayed), which sgf2dg must read past.
# `oustpbm import` of each record gives the same game file under another
# number; the mail command `sgf` sends the same record as an attachment;
# and every error (no such board, a bad argument, a broken or foreign
# record, a board that exists, a missing file) is said and changes nothing.
. "$(dirname "$0")/lib.sh"
need "$PY" sgf2dg
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
mkhome "$h" 'max_mails_per_hour = 0' 'max_open_challenges = 0'
echo 0 >"$tmp/k"
play() { # FROM SUBJECT: prints the exit status (it runs in $(...): the count is kept in a file)
	k=$(($(cat "$tmp/k") + 1))
	echo $k >"$tmp/k"
	mail "$1" "$2" "sgf.$k@example.org" | deliver "$h" $((T0 + 60 * k))
	echo $?
}
play alice@example.org 'register alice secret' >/dev/null
play bob@example.com 'register bob hunter2' >/dev/null

# turns TRACE N [swap]: the turns of game N of a trace as mails "FROM SUBJECT", one a
# line, BOARD standing for the board; with swap, bob swaps after turn 1 and plays Black
turns() {
	gzip -dc "$1" | "$PY" -c '
import sys
n, swap = int(sys.argv[1]), sys.argv[2] == "swap"
letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
game, turns, side, cur = 0, [], None, []
for line in sys.stdin:
    w = line.split()
    if w[0] == "game":
        game += 1
    if game != n or w[0] != "P":
        continue
    cell = w[2]
    if "." in cell:
        x, y = cell.split(".")
        cell = letters[int(x) - 1] + y
    if w[1] != side and cur:
        turns.append(cur)
        cur = []
    side = w[1]
    cur.append(cell)
turns.append(cur)
player = {"alice": "alice@example.org alice secret", "bob": "bob@example.com bob hunter2"}
for i, cells in enumerate(turns):
    black, white = ("bob", "alice") if swap and i > 0 else ("alice", "bob")
    who = player[black if i % 2 == 0 else white].split()
    print("%s move BOARD %s %s %s" % (who[0], who[1], who[2], ",".join(cells)))
    if i == 0 and swap:
        print("bob@example.com swap BOARD bob hunter2")
' "$2" "${3:-}"
}

# playgame BOARD CHALLENGE-OPTIONS TRACE N [swap]: the game by mail; every mail must be handled
playgame() {
	bad=0
	[ "$(play alice@example.org "challenge alice secret bob $2")" = 0 ] || bad=1
	gzip -dc "$3" >/dev/null || bad=1
	turns "$3" "$4" "${5:-}" >"$tmp/turns.$1"
	while read -r from subject; do
		subject=$(echo "$subject" | sed "s/BOARD/$1/")
		[ "$(play "$from" "$subject")" = 0 ] || bad=1
	done <"$tmp/turns.$1"
	[ "$bad" = 0 ] && ! grep -q "board=$1 .* refused" "$h/log"
}
check "board 101: a 5x5 conformance game, with a swap, played by mail" \
    playgame 101 '-size=5' tests/data/public.trace.gz 4 swap
check "board 102: a 9x9 game played by mail" playgame 102 '-size=9' tests/data/public.trace.gz 2
check "board 103: a hex game of side 3 played by mail" playgame 103 '-hex=3' tests/data/public-hex.trace.gz 1
check "... the first two are over, with captures on the way" sh -c \
    "grep -q '^status: .*won' '$h/games/101.game' && grep -q '^status: .*won' '$h/games/102.game' &&
     grep -q '^[0-9]* [^ ]* [xo] [a-z]* [A-Z0-9]*,' '$h/games/102.game'"
check "... board 101 has a swap" grep -q '^2 .* o bob swap$' "$h/games/101.game"

# board 104: a 9x9 game with notes in its history (a chat, a draw offered and
# rejected, a turn undone and played again), exported as OUSTNOTE nodes that
# change no stone: sgf2dg must still draw every turn's position
notes() {
	bad=0
	[ "$(play alice@example.org "challenge alice secret bob -size=9")" = 0 ] || bad=1
	turns tests/data/public.trace.gz 6 | sed 's/BOARD/104/' >"$tmp/turns.104"
	i=0
	while read -r from subject; do
		i=$((i + 1))
		[ "$(play "$from" "$subject")" = 0 ] || bad=1
		case $i in
		2)
			k=$(($(cat "$tmp/k") + 1))
			echo $k >"$tmp/k"
			mail bob@example.com 'chat 104 bob hunter2' "sgf.$k@example.org" 'Good luck.' |
			    deliver "$h" $((T0 + 60 * k)) || bad=1
			;;
		4)
			[ "$(play alice@example.org 'move 104 alice secret propose')" = 0 ] || bad=1
			[ "$(play bob@example.com 'move 104 bob hunter2 reject')" = 0 ] || bad=1
			;;
		5)
			[ "$(play alice@example.org 'move 104 alice secret undo')" = 0 ] || bad=1
			[ "$(play bob@example.com 'move 104 bob hunter2 accept')" = 0 ] || bad=1
			[ "$(play "$from" "$subject")" = 0 ] || bad=1
			;;
		esac
	done <"$tmp/turns.104"
	[ "$bad" = 0 ] && ! grep -q "board=104 .* refused" "$h/log"
}
check "board 104: a 9x9 game with a chat, a draw offered and rejected, a turn undone and played again" notes
check "... its history holds the five notes" sh -c \
    "[ \$(grep -c '^- .* \\(chat\\|propose\\|reject draw\\|undo\\|accept undo:[0-9]*\\)$' '$h/games/104.game') = 5 ]"

# positions BOARD: the stones after each turn as `oustpbm show BOARD#TURN` draws
# them, one line per turn "TURN row/row/...", rows top first, cells x o .
positions() {
	last=$(sed -n 's/^turn: //p' "$h/games/$1.game")
	rows=$(sed -n 's/^size: //p' "$h/games/$1.game")
	grep -q '^shape: hex' "$h/games/$1.game" && rows=$((2 * rows - 1))
	# every turn's drawing in one file, read by one Python (a process less a turn)
	t=1
	while [ "$t" -lt "$last" ]; do
		# (after a line break: a drawing's last line may lack its own)
		printf '\n@turn %s\n' "$t"
		"$bin" -d "$h" show "$1#$t"
		t=$((t + 1))
	done >"$tmp/shows.$1"
	"$PY" -c '
import re, sys
turns = []
for line in sys.stdin:
    if line.startswith("@turn "):
        turns.append((line.split()[1], []))
        continue
    if not turns:
        continue
    rows = turns[-1][1]
    m = re.match(r"^\s*([0-9]+|[a-z])\s\s((?:[.,xoXO] )*[.,xoXO])(?:\s|$)", line)
    if m and len(rows) < int(sys.argv[1]):
        rows.append(m.group(2).replace(" ", "").replace(",", ".").lower())
for t, rows in turns:
    print(t, "/".join(rows))' "$rows" <"$tmp/shows.$1"
}

# sgf2dg_positions SGF: after the last node of each turn (OUSTTURN), the stones as
# sgf2dg draws them, one line per turn "TURN row/row/..." (hex: the hexagon's cells)
sgf2dg_positions() {
	sgf2dg -converter ASCII -movesPerDiagram 1 -i "$1" -o - >"$tmp/dg.txt" 2>/dev/null || return 1
	"$PY" - "$1" "$tmp/dg.txt" <<'EOP'
import re, sys
sgf = open(sys.argv[1]).read()
size = int(re.search(r"SZ\[(\d+)\]", sgf).group(1))
hexside = (size + 1) // 2 if "GM[11]" in sgf else 0
# the nodes after the root, one a line in oustpbm's records; the turn each ends
ends, turn, last = {}, 0, 0
node = 0
for line in sgf.splitlines():
    if not line.startswith(";"):
        continue
    node += 1
    m = re.match(r";OUSTTURN\[(\d+)", line)
    if m:
        turn = int(m.group(1))
    ends[turn] = node
# sgf2dg's diagrams: "Diagram N", then the grid; diagram 1 is the root
diagrams, cur = {}, None
for line in open(sys.argv[2]):
    m = re.match(r"Diagram (\d+)", line)
    if m:
        cur = int(m.group(1))
        diagrams[cur] = []
        continue
    if cur is not None and re.match(r"^ [+|XO#@-]", line):
        diagrams[cur].append(line.rstrip("\n"))
for t in sorted(ends):
    d = diagrams.get(ends[t] + 1)
    if d is None:
        print(t, "missing")
        continue
    grid = [d[2 * r] for r in range(size)]
    rows = []
    for r in range(size):
        y = size - 1 - r
        cells = ""
        first, length = 0, size
        if hexside:
            first = y - hexside + 1 if y >= hexside else 0
            length = hexside + y if y < hexside else 3 * hexside - 2 - y
        for x in range(first, first + length):
            ch = grid[r][1 + 4 * x] if 1 + 4 * x < len(grid[r]) else " "
            cells += "x" if ch in "X#" else "o" if ch in "O@" else "."
        rows.append(cells)
    print(t, "/".join(rows))
EOP
}

for b in 101 102 103 104; do
	check "export $b: exit 0" sh -c "'$bin' -d '$h' export $b >'$tmp/$b.sgf'"
	check "... an SGF record with setup properties only (no B[] or W[] move)" sh -c \
	    "head -c 9 '$tmp/$b.sgf' | grep -q '^(;FF\[4\]' && ! grep -q ';[BW]\[' '$tmp/$b.sgf'"
	positions $b >"$tmp/want.$b"
	sgf2dg_positions "$tmp/$b.sgf" >"$tmp/got.$b"
	check "... sgf2dg reads it: after every turn the position oustpbm shows ($(wc -l <"$tmp/want.$b") turns)" \
	    sh -c "[ -s '$tmp/want.$b' ] && cmp -s '$tmp/want.$b' '$tmp/got.$b'"
	cmp -s "$tmp/want.$b" "$tmp/got.$b" || diff "$tmp/want.$b" "$tmp/got.$b" | head -n 6 | sed 's/^/# /'
	# the board moved aside meanwhile: import refuses a copy of a game the home holds
	mv "$h/games/$b.game" "$tmp/$b.aside"
	check "import of it as board $((b + 100)): exit 0" sh -c "'$bin' -d '$h' import '$tmp/$b.sgf' $((b + 100)) >/dev/null"
	mv "$tmp/$b.aside" "$h/games/$b.game"
	check "... the same game file but for its number" sh -c \
	    "sed 2d '$h/games/$b.game' >'$tmp/a' && sed 2d '$h/games/$((b + 100)).game' >'$tmp/b' && cmp -s '$tmp/a' '$tmp/b' &&
	     grep -qx 'board: $((b + 100))' '$h/games/$((b + 100)).game'"
done
check "the imported boards pass fsck" sh -c "'$bin' -d '$h' fsck 201 202 203 >/dev/null 2>&1"
rm -rf "$h/mail"
check "... and in the players' lists (games alice lists 203)" sh -c \
    "[ '$(play alice@example.org 'games alice')' = 0 ] && grep -q '^ *203 ' '$h'/mail/alice@example.org/new/*"
sed 2d "$h/games/102.game" >"$tmp/102.nonumber"
check "import of a copy of a game the home holds: exit 73, the board named" sh -c \
    "'$bin' -d '$h' import - 301 <'$tmp/102.sgf' 2>'$tmp/err' >/dev/null; [ \$? = 73 ] && grep -q 'board 102 is the same game' '$tmp/err' && [ ! -e '$h/games/301.game' ]"
mv "$h/games/102.game" "$h/games/202.game" "$tmp/"
check "an import from standard input" sh -c "'$bin' -d '$h' import - 301 <'$tmp/102.sgf' >/dev/null &&
    sed 2d '$h/games/301.game' | cmp -s - '$tmp/102.nonumber'"
mv "$tmp/102.game" "$tmp/202.game" "$h/games/"

# ---- errors: said, exit status, nothing changed
before=$(store_sum "$h")
check "export of a board that does not exist: exit 66" [ "$(rc "$bin" -d "$h" export 999)" = 66 ]
check "export of a malformed board: exit 64, named" sh -c "'$bin' -d '$h' export 10x 2>&1 >/dev/null | grep -q \"'10x' is not a board\"; [ \"\$('$bin' -d '$h' export 10x >/dev/null 2>&1; echo \$?)\" = 64 ]"
check "import into a board that exists: exit 73" sh -c "'$bin' -d '$h' import '$tmp/101.sgf' 2>'$tmp/err' >/dev/null; [ \$? = 73 ] && grep -q 'board 101 exists' '$tmp/err'"
check "import of a missing file: exit 66" [ "$(rc "$bin" -d "$h" import "$tmp/nothing.sgf" 401)" = 66 ]
sed 's/AE\[\([a-y][a-y]\)\]/AE[\1][aa]/' "$tmp/102.sgf" >"$tmp/bad.sgf"
check "import of a record whose setup was edited: exit 65, the line and column said" sh -c \
    "'$bin' -d '$h' import '$tmp/bad.sgf' 401 2>'$tmp/err'; [ \$? = 65 ] && grep -q 'bad.sgf: line [0-9]*, column [0-9]*: AE\[\] removes' '$tmp/err'"
printf '(;FF[4]GM[1]SZ[19];B[dd];W[pp])\n' >"$tmp/go.sgf"
check "import of a Go game record: exit 65, what is missing said" sh -c \
    "'$bin' -d '$h' import '$tmp/go.sgf' 401 2>'$tmp/err'; [ \$? = 65 ] && grep -q 'go.sgf: line 1, column 2: the root node has no OUSTBOARD\[\]: not a record written by oustpbm export' '$tmp/err'"
check "import with a bad board number: exit 64" [ "$(rc "$bin" -d "$h" import "$tmp/101.sgf" x1)" = 64 ]
check "... nothing changed by any of them" [ "$(store_sum "$h")" = "$before" ]
check "... no board 401" [ ! -e "$h/games/401.game" ]

# ---- by mail: sgf <board>
rm -rf "$h/mail"
check "mail 'sgf 102': exit 0" [ "$(play bob@example.com 'sgf 102')" = 0 ]
"$PY" - "$(newest "$h" bob@example.com)" "$tmp/att.sgf" >"$tmp/parts" <<'EOP'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
print(m["Subject"])
print(m.get_content_type())
for p in m.iter_parts():
    print(p.get_content_type(), p.get_content_disposition() or "-", p.get_filename() or "-")
    if p.get_content_type() == "application/x-go-sgf":
        open(sys.argv[2], "wb").write(p.get_payload(decode=True))
EOP
check "... the reply: 'Oust Board 102 record', multipart/mixed" sh -c "sed -n '1,2p' '$tmp/parts' | tr '\n' '|' | grep -qx 'Oust Board 102 record|multipart/mixed|'"
check "... a short text, then the record attached as oust-102.sgf (application/x-go-sgf)" sh -c \
    "sed -n '3,4p' '$tmp/parts' | tr '\n' '|' | grep -qx 'text/plain - -|application/x-go-sgf attachment oust-102.sgf|'"
check "... the attachment is the record export writes" cmp -s "$tmp/att.sgf" "$tmp/102.sgf"
check "... logged" grep -q 'board=102 cmd="sgf 102" ok: record of [0-9]* turns sent' "$h/log"
rm -rf "$h/mail"
check "mail 'sgf 999': an error naming the board, nothing attached" sh -c \
    "[ '$(play alice@example.org 'sgf 999')' = 0 ] && grep -q 'board 999 does not exist' '$h'/mail/alice@example.org/new/* &&
     ! grep -q 'x-go-sgf' '$h'/mail/alice@example.org/new/*"
done_testing

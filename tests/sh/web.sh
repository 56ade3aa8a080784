#!/bin/sh
# web: the static web site (oustpbm web, web_dir): the pages of a played
# game, valid HTML5 (tidy), the update after each commit writing only the
# pages that changed, atomically, the same pages as a full rebuild, hostile
# full names escaped, and a site that cannot be written never costing a move.
. "$(dirname "$0")/lib.sh"
need tidy
tmpdir

h=$tmp/home
mkhome "$h" 'server_name = Oust & "test"' 'web_dir = site'
valid() { # FILE: tidy finds no error and no warning
	tidy -q -e --doctype html5 "$1" >"$tmp/tidy" 2>&1 && [ ! -s "$tmp/tidy" ]
}
# a fingerprint of every page: name, inode and checksum (a rewritten page has a new inode)
prints() {
	(cd "$h/site" && find . -type f ! -name .lock -exec sh -c 'for f; do echo "$f $(stat -c %i "$f") $(cksum <"$f")"; done' sh {} + |
	    LC_ALL=C sort)
}

send at=next "$h" alice@example.org 'register alice secret Alice <script>alert("x")</script> & Co'
# a bidi override is refused at registration; an older account, or an admin's edit, may still hold one
send at=next "$h" bob@example.com 'register bob hunter2 Bob Smith'
sed -i "/^bob:/s/:Bob Smith/:$(printf 'Bob \342\200\256evil\342\200\254 Smith')/" "$h/users"
send at=next "$h" carol@example.net 'register carol sesame Carol'
send at=next "$h" alice@example.org 'challenge alice secret bob -size=5'
send at=next "$h" alice@example.org 'move 101 alice secret C3'
send at=next "$h" bob@example.com 'move 101 bob hunter2 B2'
send at=next "$h" alice@example.org 'challenge alice secret carol -size=7'
s=$h/site
check "the site was written after each commit" test -f "$s/index.html" -a -f "$s/board/101.html" -a -f "$s/board/102.html"
check "... a page per turn" test -f "$s/board/101-1.html" -a -f "$s/board/101-2.html" -a ! -f "$s/board/101-3.html"
check "... a page per player" test -f "$s/player/alice.html" -a -f "$s/player/bob.html" -a -f "$s/player/carol.html"
check "... boards.txt lists both boards" sh -c "[ \$(wc -l <'$s/boards.txt') = 2 ]"
check "... no temp file is left" sh -c "[ -z \"\$(find '$s' -name '.*.tmp')\" ]"
for f in "$s/index.html" "$s/board/101.html" "$s/board/101-1.html" "$s/board/101-2.html" "$s/board/102.html" \
    "$s/player/alice.html" "$s/player/bob.html"; do
	check "tidy: ${f#$s/} is valid HTML5" valid "$f"
done
check "tidy does find a broken page" sh -c "printf '<p>x<div>' >'$tmp/bad.html'; ! tidy -q -e --doctype html5 '$tmp/bad.html' >/dev/null 2>&1"
b=$s/board/101.html
check "board page: the SVG with the ASCII board as its text alternative" sh -c \
    "grep -q '<svg [^>]*role=\"img\"[^>]*aria-describedby=\"ascii\"' '$b' && grep -q '<pre id=\"ascii\"' '$b'"
check "... two stones: one black, one white, marked as the last turn" sh -c \
    "[ \$(grep -c '<circle class=\"b\"' '$b') = 1 ] && [ \$(grep -c '<circle class=\"w\" data-point=\"B2\"' '$b') = 1 ] && [ \$(grep -c 'class=\"m\"' '$b') = 1 ]"
check "... whose turn and the command to play" sh -c \
    "grep -q 'Turn 3: <a href=\"../player/alice.html\">alice</a> (Black) to move' '$b' && grep -q 'move 101#3 alice &lt;password&gt; &lt;placements&gt;' '$b'"
check "... the history links each turn to the position after it" sh -c \
    "grep -q '<a href=\"101-1.html\">1</a>' '$b' && grep -q '<a href=\"101-2.html\">2</a>' '$b'"
check "... the ASCII board is the game's" sh -c \
    "'$bin' -d '$h' show 101 | sed -n '/^x: /,/^    A/p' >'$tmp/want' && sed -n '/<pre id=\"ascii\"/,/<\/pre>/p' '$b' | sed 's/^.*<pre[^>]*>//; s/<\/pre>.*//' | sed -n '/^x: /,/^    A/p' >'$tmp/got' && cmp -s '$tmp/want' '$tmp/got'"
check "turn page: the position after turn 1 with links back and on" sh -c \
    "grep -q '<circle class=\"b\" data-point=\"C3\"' '$s/board/101-1.html' && ! grep -q 'class=\"w\"' '$s/board/101-1.html' && grep -q 'href=\"101-2.html\"' '$s/board/101-1.html'"
check "index: both boards being played" sh -c \
    "grep -q 'href=\"board/101.html\"' '$s/index.html' && grep -q 'href=\"board/102.html\"' '$s/index.html'"
check "index: a link to the full list, which has both boards" sh -c \
    "grep -q '<a href=\"all-1.html\">101&ndash;600</a>' '$s/index.html' && grep -q 'href=\"board/102.html\"' '$s/all-1.html' && grep -q 'href=\"board/101.html\"' '$s/all-1.html'"
check "tidy: all-1.html is valid HTML5" valid "$s/all-1.html"
check "the server name is escaped" sh -c "grep -q 'Oust &amp; &quot;test&quot;' '$s/index.html'"
# hostile full names
a=$s/player/alice.html
check "hostile name: <script> escaped, no script element" sh -c \
    "grep -q 'Alice &lt;script&gt;alert(&quot;x&quot;)' '$a' && ! grep -qi '<script' '$a' '$b'"
check "hostile name: & escaped" grep -q '&amp; Co' "$a"
check "hostile name: the bidi override dropped, the name isolated" sh -c \
    "grep -q '<bdi>Bob evil Smith</bdi>' '$s/player/bob.html' && ! grep -q \"\$(printf '\342\200\256')\" '$s/player/bob.html' '$b'"

# one move: only the pages that changed are written
prints >"$tmp/before"
send at=next "$h" alice@example.org 'move 101 alice secret D4'
prints >"$tmp/after"
LC_ALL=C join -j1 -v2 "$tmp/before" "$tmp/after" | cut -d' ' -f1 >"$tmp/new"
diff "$tmp/before" "$tmp/after" | sed -n 's/^> \([^ ]*\) .*/\1/p' >"$tmp/changed"
check "one move writes its board, the new turn and the one before, the list, the index and its players" sh -c \
    "printf './all-1.html\n./board/101-2.html\n./board/101-3.html\n./board/101.html\n./boards.txt\n./index.html\n./player/alice.html\n./player/bob.html\n' | cmp -s - '$tmp/changed'"
check "... board 102 and carol's page are untouched" sh -c "grep -q '^./board/102.html' '$tmp/before' && ! grep -q '102\|carol' '$tmp/changed'"
check "a full rebuild (oustpbm web) gives the same pages" sh -c \
    "OUSTPBM_TEST_TIME=$((T0 + 6000)) '$bin' -d '$h' web '$tmp/full' >/dev/null && diff -r -x .lock '$s' '$tmp/full' >/dev/null"
check "... and rewriting an up-to-date site writes nothing" sh -c \
    "[ \"\$('$bin' -d '$h' web)\" = 'web: 0 pages written' ]"
# two turns each: a game resigned sooner is not rated (src/store/ratings.h)
send at=next "$h" alice@example.org 'move 101 alice secret E5'
send at=next "$h" bob@example.com 'move 101 bob hunter2 A1'
send at=next "$h" alice@example.org 'resign 101 alice secret'
check "a finished board moves to the finished list" sh -c \
    "sed -n '/Recently finished/,\$p' '$s/index.html' | grep -q 'href=\"board/101.html\"' && grep -q 'won by bob (resign)' '$s/index.html'"
check "... the board page says who won, and no command to play" sh -c \
    "grep -q 'bob</a> won: <a href=\"../player/alice.html\">alice</a> resigned' '$b' && ! grep -q 'To play' '$b'"
check "... bob's page counts the win" grep -q 'finished: 1 won, 0 lost, 0 drawn' "$s/player/bob.html"
for f in "$s/index.html" "$b" "$s/player/bob.html"; do
	check "tidy: ${f#$s/} is still valid" valid "$f"
done
# the standings (issue 19): rewritten when a rated game ends, one row per rated player
check "the rated game's end rewrote the standings" sh -c "grep -q '^./standings.html' '$tmp/before' &&
    grep -q '<td>1</td><td><a href=\"player/bob.html\">bob</a></td><td>1662</td><td>290</td><td>1</td><td>1-0-0</td>' '$s/standings.html'"
check "... one row per player of the ratings file" sh -c \
    "[ \$(grep -c '<tr class=\"player\">' '$s/standings.html') = \$(grep -c '^player: ' '$h/ratings') ]"
check "tidy: standings.html is valid HTML5" valid "$s/standings.html"
check "... linked from the index" grep -q '<a href="standings.html">Standings</a>' "$s/index.html"
check "... and from each player's page" sh -c \
    "grep -q '<a href=\"../standings.html\">Standings</a>' '$s/player/alice.html' && grep -q '<a href=\"../standings.html\">Standings</a>' '$s/player/carol.html'"
prints >"$tmp/before"
send at=next "$h" carol@example.net 'challenge carol sesame bob -size=5'
prints >"$tmp/after"
check "a commit that ends no rated game leaves the standings alone" sh -c \
    "diff '$tmp/before' '$tmp/after' | grep -q 'board/103' && ! diff '$tmp/before' '$tmp/after' | grep -q standings"
OUSTPBM_TEST_TIME=$((T0 + 7000)) "$bin" -d "$h" deluser bob >/dev/null 2>&1
check "a closed account (deluser) leaves the standings page at once" sh -c \
    "! grep -q 'player/bob.html' '$s/standings.html' && grep -q '<a href=\"player/alice.html\">alice</a>' '$s/standings.html'"
check "tidy: standings.html is still valid" valid "$s/standings.html"

# usage and failures
check "web without a directory and no web_dir: exit 64" sh -c \
    "h2='$tmp/h2'; '$bin' init \$h2 >/dev/null; '$bin' -d \$h2 web >/dev/null 2>'$tmp/e'; [ \$? = 64 ] && grep -q 'no web_dir' '$tmp/e'"
check "web with two directories: exit 64" sh -c "'$bin' -d '$h' web a b >/dev/null 2>&1; [ \$? = 64 ]"
check "a bad html_mail value is a configuration error" sh -c \
    "h3='$tmp/h3'; mkdir -p \$h3; echo 'html_mail = maybe' >\$h3/oustpbm.conf; '$bin' -d \$h3 list 2>'$tmp/e'; [ \$? = 78 ] && grep -q \"html_mail 'maybe' is not 'on' or 'off'\" '$tmp/e'"
# a site that cannot be written: the move stands all the same
rm -rf "$s" && echo 'not a directory' >"$s"
send at=next "$h" alice@example.org 'move 102 alice secret D4'
check "an unwritable site: the move is applied and answered" sh -c \
    "grep -q 'ok: turn 1: alice played D4' '$h/log' && grep -l 'Turn 1: alice played D4' '$h'/mail/carol@example.net/new/* >/dev/null"
check "... the failure is logged and said on standard error" sh -c \
    "grep -q 'web: board 102: input/output error' '$h/log' && grep -q 'oustpbm: web: board 102' '$tmp/stderr'"
check "an unwritable site: oustpbm web exits 74" sh -c "'$bin' -d '$h' web >/dev/null 2>&1; [ \$? = 74 ]"
send at=next "$h" dave@example.org 'register dave pw4'
check "an unwritable site: deluser closes the account all the same (exit 0)" sh -c \
    "grep -q '^dave:' '$h/users' && OUSTPBM_TEST_TIME=$((T0 + 8000)) '$bin' -d '$h' deluser dave >/dev/null 2>'$tmp/e' &&
     ! grep -q '^dave:' '$h/users'"
check "... the standings page's failure is logged and said on standard error" sh -c \
    "grep -q 'web: standings: input/output error' '$h/log' && grep -q 'oustpbm: web: standings: ' '$tmp/e'"

# a hex board: its page shows hexagons (SVG) and the hex drawing, the lists say "hex side 3"
h=$tmp/hexhome
mkhome "$h" 'web_dir = site'
send at=next "$h" alice@example.org 'register alice secret'
# a full name of one word as long as names go (64 characters)
send at=next "$h" bob@example.com "register bob hunter2 $(head -c 64 /dev/zero | tr '\0' w)"
send at=next "$h" alice@example.org 'challenge alice secret bob -hex=3'
send at=next "$h" alice@example.org 'move 101 alice secret c3'
s=$h/site
check "hex: the board page holds the hex SVG, its hexagons, and the hex drawing as its text" sh -c \
    "grep -q '^c  \. \. X \. \.  c\$' '$s/board/101.html' && grep -q '<svg [^>]*class=\"board hex\"' '$s/board/101.html' && [ \$(grep -o 'l16 9.33v18.67' '$s/board/101.html' | wc -l) = 19 ] && grep -q 'hex side 3, swap on' '$s/board/101.html'"
check "hex: c3 is the one black stone, marked" sh -c \
    "[ \$(grep -c '<circle class=\"b\" data-point=\"c3\"' '$s/board/101.html') = 1 ] && [ \$(grep -c '<circle class=\"[bw]\"' '$s/board/101.html') = 1 ] && grep -q 'class=\"m\"' '$s/board/101.html'"
check "hex: the index lists the board as hex side 3" grep -q '<td>hex side 3</td>' "$s/index.html"
check "hex: boards.txt keeps the shape" sh -c "cut -f2 '$s/boards.txt' | grep -qx hex3"
check "hex: a rebuild gives the same boards.txt" sh -c \
    "cp '$s/boards.txt' '$tmp/b1' && '$bin' -d '$h' web >/dev/null 2>&1 && cmp -s '$s/boards.txt' '$tmp/b1'"
check "a 64-character word in a full name may break every 24 characters" sh -c \
    "grep -q '(<bdi>w\{24\}<wbr>w\{24\}<wbr>w\{16\}</bdi>)' '$s/board/101.html'"
check "tidy: the hex board page is valid" valid "$s/board/101.html"
check "tidy: the hex turn page is valid" valid "$s/board/101-1.html"

# the replies go before the web pages: with the site's lock held by another
# writer (a slow site), bob's reply is delivered while the page still waits
hold=$tmp/hold.py
cat >"$hold" <<'PY'
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.lockf(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
PY
/usr/bin/python3 "$hold" "$s/.lock" "$tmp/held" 6 &
holder=$!
while [ ! -f "$tmp/held" ]; do sleep 0.1; done
before=$(ls "$h/mail/alice@example.org/new" | wc -l)
send at=next "$h" bob@example.com 'move 101 bob hunter2 a1' &
mover=$!
# alice's reply within 4 s (it needs well under one), the page not before the lock is let go at 6 s
i=0
while [ "$i" -lt 40 ] && [ "$(ls "$h/mail/alice@example.org/new" | wc -l)" -le "$before" ]; do sleep 0.1; i=$((i + 1)); done
check "a slow site: the move's reply is delivered while the web update waits" sh -c \
    "[ \$(ls '$h/mail/alice@example.org/new' | wc -l) = $((before + 1)) ] && ! grep -q 'data-point=\"a1\"' '$s/board/101.html' && kill -0 $mover 2>/dev/null"
wait "$holder"
wait "$mover"
check "... then the page is written, once the site is free" sh -c \
    "grep -q '<circle class=\"w\" data-point=\"a1\"' '$s/board/101.html' && grep -q 'ok: turn 2: bob played a1' '$h/log'"

# against the robot: its answer is committed in the same mail, and the
# pages, written after the flush, show it; a slow site delays no reply
export OUSTPBM_TEST_ROBOT_PLAYOUTS=64
send at=next "$h" alice@example.org 'challenge alice secret robot -size=5 -level=1'
rb=$(ls "$s/board" | sed -n 's/^\([0-9]*\)\.html$/\1/p' | sort -n | tail -1)
/usr/bin/python3 "$hold" "$s/.lock" "$tmp/held2" 6 &
holder=$!
while [ ! -f "$tmp/held2" ]; do sleep 0.1; done
before=$(ls "$h/mail/alice@example.org/new" | wc -l)
send at=next "$h" alice@example.org "move $rb alice secret C3" &
mover=$!
i=0
while [ "$i" -lt 40 ] && [ "$(ls "$h/mail/alice@example.org/new" | wc -l)" -le "$before" ]; do sleep 0.1; i=$((i + 1)); done
check "robot: alice's reply (with the robot's turn) is delivered while the web update waits" sh -c \
    "[ \$(ls '$h/mail/alice@example.org/new' | wc -l) -gt $before ] && [ ! -f '$s/board/$rb-2.html' ] && kill -0 $mover 2>/dev/null"
wait "$holder"
wait "$mover"
check "robot: then the pages show the robot's turn too" sh -c \
    "[ -f '$s/board/$rb-1.html' ] && [ -f '$s/board/$rb-2.html' ] && grep -q 'href=\"$rb-2.html\"' '$s/board/$rb.html'"

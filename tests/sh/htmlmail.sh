#!/bin/sh
# htmlmail: the text/html alternative of the mails that show a board: which
# replies have one, the text/plain part unchanged beside it (the same bytes
# as with html_mail = off), valid HTML5 (tidy), no script, image or
# external resource, every kind of hostile text from a player escaped, a
# 25x25 board with a stone on every point under 40 KB, and the template.
. "$(dirname "$0")/lib.sh"
need tidy
tmpdir

# $part FILE plain|html|type|count: a reply's text/plain or text/html part (decoded), its type, its number of parts
part=$tmp/part
cat >"$part" <<'PARTEOF'
#!/usr/bin/python3
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
w = sys.argv[2]
if w == "type":
    print(m.get_content_type())
elif w == "count":
    print(len(list(m.iter_parts())) if m.is_multipart() else 1)
else:
    b = m.get_body((w,))
    if b is None or b.get_content_type() != "text/" + w:
        sys.exit(1)
    sys.stdout.write(b.get_content())
PARTEOF
chmod +x "$part"
# the mails at T0 + 60 * sent: sent set where a part starts a clock of its own (lib.sh: send at=next)

players_home() { # DIR [conf line]: a home with alice and bob
	mkhome "$1" 'max_mails_per_hour = 0' ${2:+"$2"}
	send at=next "$1" alice@example.org 'register alice secret Alice'
	send at=next "$1" bob@example.com 'register bob hunter2 Bob'
}
h=$tmp/on
off=$tmp/off
players_home "$h"
players_home "$off" 'html_mail = off'
sent=10
for home in "$h" "$off"; do
	sent=10
	send at=next "$home" alice@example.org 'challenge alice secret bob -size=7'
	send at=next body='good luck' "$home" alice@example.org 'move 101 alice secret D4'
done
a=$(newest "$h" bob@example.com)
b=$(newest "$off" bob@example.com)
check "a move mail is multipart/alternative: text/plain, then text/html" sh -c \
    "[ \"\$('$part' '$a' type)\" = multipart/alternative ] && [ \"\$('$part' '$a' count)\" = 2 ] && grep -q '^Content-Type: text/html; charset=utf-8' '$a' && awk '/^Content-Type: text\\/plain/ { p = NR } /^Content-Type: text\\/html/ { h = NR } END { exit !(p && h && p < h) }' '$a'"
check "with html_mail = off it is text/plain alone" sh -c "[ \"\$('$part' '$b' type)\" = text/plain ]"
check "... and its text is the text/plain part of the other, byte for byte" sh -c \
    "'$part' '$a' plain >'$tmp/pa' && sed '1,/^\$/d' '$b' >'$tmp/pb' && cmp -s '$tmp/pa' '$tmp/pb'"
"$part" "$a" html >"$tmp/a.html"
check "the HTML is valid HTML5 (tidy)" sh -c "tidy -q -e --doctype html5 '$tmp/a.html' >'$tmp/tidy' 2>&1 && [ ! -s '$tmp/tidy' ]"
check "no script, no SVG, no image, no external style sheet or font" sh -c \
    "! grep -qiE '<script|<svg|<img|<link|url\\(|@import|@font-face|src=' '$tmp/a.html'"
check "explicit colours: a background and a colour on the body and the outer table" sh -c \
    "grep -q '<body style=\"[^\"]*background:#ffffff;color:#1a1a1a' '$tmp/a.html' && grep -q 'color-scheme\" content=\"light only' '$tmp/a.html'"
check "the board: D4 black, marked as the last turn's; the figures; whose turn; the command" sh -c \
    "[ \$(grep -o 'background:#111;border-radius:50%;color:#f43>&bull;' '$tmp/a.html' | wc -l) = 1 ] && grep -q '<b>alice</b> (Black, x) 1/1' '$tmp/a.html' && grep -q 'Turn 2, bob (White, o) to move' '$tmp/a.html' && grep -q 'move 101#2 bob &lt;password&gt; &lt;placements&gt;' '$tmp/a.html'"
check "the comment is shown to the opponent" grep -q '<bdi>good luck</bdi>' "$tmp/a.html"
check "the HTML part is 7bit when it can be (ASCII, short lines), never base64" sh -c \
    "grep -A1 '^Content-Type: text/html' '$a' | grep -q '^Content-Transfer-Encoding: 7bit'"

# a hex board: the table of offset rows, valid, with its one stone
send at=next "$h" alice@example.org 'challenge alice secret bob -hex=4'
send at=next body='hex' "$h" alice@example.org 'move 102 alice secret d4'
"$part" "$(newest "$h" bob@example.com)" html >"$tmp/hex.html"
check "hex: the HTML is valid HTML5 (tidy)" sh -c "tidy -q -e --doctype html5 '$tmp/hex.html' >'$tmp/tidy' 2>&1 && [ ! -s '$tmp/tidy' ]"
check "hex: 37 cells of two half-cell columns, d4 black and marked, 36 holes" sh -c \
    "[ \$(grep -o '<td colspan=2 style=background:#111;border-radius:50%;color:#f43>&bull;' '$tmp/hex.html' | wc -l) = 1 ] && [ \$(grep -o '<td colspan=2 style=background:#ebcd86;' '$tmp/hex.html' | wc -l) = 36 ]"
check "hex: the rows offset as drawn: g indented by three half cells, d not at all" sh -c \
    "grep -q '^<tr><td>g</td><td colspan=3></td><td colspan=2 style' '$tmp/hex.html' && grep -q '^<tr><td>d</td><td colspan=2 style' '$tmp/hex.html'"

# hostile comments: one each (boards 103 on: 102 is the hex board)
board=102
hostile() { # DESCRIPTION COMMENT then patterns that must (+) or must not (-) be in the HTML
	desc=$1
	comment=$2
	shift 2
	# a board of its own: alice opens, bob answers with the comment
	board=$((board + 1))
	send at=next "$h" alice@example.org 'challenge alice secret bob -size=7'
	send at=next "$h" alice@example.org "move $board alice secret D4"
	send at=next body="$comment" "$h" bob@example.com "move $board bob hunter2 C3"
	hf=$(newest "$h" alice@example.org)
	"$part" "$hf" html >"$tmp/h.html" || { check "$desc: the reply has an HTML part" false; return; }
	okay=true
	for pat in "$@"; do
		case $pat in
		+*) grep -qF -- "${pat#+}" "$tmp/h.html" || okay=false ;;
		-*) ! grep -qF -- "${pat#-}" "$tmp/h.html" || okay=false ;;
		esac
	done
	grep -q 'bob</b> writes' "$tmp/h.html" || okay=false
	tidy -q -e --doctype html5 "$tmp/h.html" >/dev/null 2>&1 || okay=false
	check "$desc" $okay
}
hostile "a <script> in a comment is escaped, the page stays valid" '<script>alert(1)</script>' \
    '+&lt;script&gt;alert(1)&lt;/script' '-<script>'
hostile "quotes in a comment are escaped" "\"double\" and 'single'" \
    '+&quot;double&quot; and &#39;single&#39;' '-"double"'
hostile "& in a comment is escaped" 'fish & chips &amp; &lt;' \
    '+fish &amp; chips &amp;amp; &amp;lt;'
hostile "bidi controls in a comment are dropped, the comment isolated in <bdi>" \
    "$(printf 'abc \342\200\256gnp.exe \342\201\247x\342\201\251')" \
    '+<bdi>abc gnp.exe x</bdi>' "-$(printf '\342\200\256')" "-$(printf '\342\201\247')"
word=$(head -c 2000 /dev/zero | tr '\0' w)
hostile "a 2,000-character word in a comment gets break opportunities" "$word" \
    "+www<wbr>www" "-$(head -c 100 /dev/zero | tr '\0' w)"
check "... the text/plain part has the word whole, as written" sh -c "'$part' '$hf' plain | grep -q '$word'"

# which replies carry a board
sent=100
send at=next "$h" alice@example.org 'show 101'
check "show: with HTML" sh -c "'$part' '$(newest "$h" alice@example.org)' html >/dev/null"
send at=next "$h" alice@example.org 'history 101'
check "history: with HTML" sh -c "'$part' '$(newest "$h" alice@example.org)' html >/dev/null"
send at=next "$h" alice@example.org 'move 101 alice wrong A1'
check "an error about a board (which it shows): with HTML" sh -c "'$part' '$(newest "$h" alice@example.org)' html >/dev/null"
send at=next "$h" alice@example.org 'help'
check "help: text only" sh -c "[ \"\$('$part' '$(newest "$h" alice@example.org)' type)\" = text/plain ]"
send at=next "$h" alice@example.org 'games alice'
check "games: text only" sh -c "[ \"\$('$part' '$(newest "$h" alice@example.org)' type)\" = text/plain ]"
send at=next "$h" alice@example.org 'move 999 alice secret A1'
check "an error about no board: text only" sh -c "[ \"\$('$part' '$(newest "$h" alice@example.org)' type)\" = text/plain ]"
# day 8: the reminder of day 7, before the unanswered challenge expires (challenge_expiry_days, 14)
OUSTPBM_TEST_TIME=$((T0 + 8 * 86400)) "$bin" -d "$h" cleanup >/dev/null 2>&1
who=$(sed -n 's/^to-move: //p' "$h/games/101.game")
r=$(grep -l '^Subject: Oust Board [0-9]* reminder ' "$h"/mail/*/new/* | head -1)
check "a reminder: with HTML" sh -c "[ -n '$r' ] && '$part' '$r' html >/dev/null"
# two turns each before the end: a game resigned sooner is not rated (src/store/ratings.h)
send at=next "$h" bob@example.com 'move 101 bob hunter2 A1'
send at=next "$h" alice@example.org 'move 101 alice secret F2'
send at=next "$h" bob@example.com 'move 101 bob hunter2 G7'
send at=next "$h" bob@example.com 'resign 101 bob hunter2'
f=$(newest "$h" alice@example.org)
check "the end of a game: with HTML, saying so" sh -c "'$part' '$f' html | grep -q 'Game over: alice won: bob resigned.'"
check "... with the ratings' change, as in its text part" sh -c \
    "l=\$('$part' '$f' plain | grep '^Ratings ' | head -n 1); [ -n \"\$l\" ] &&
     '$part' '$f' html | tr '\\n' ' ' | sed 's/<[^>]*>//g; s/&gt;/>/g' | grep -qF \"\$l\""

# the size: a 25x25 board with a stone on every point
big=$tmp/big
players_home "$big"
sent=200
send at=next "$big" alice@example.org 'challenge alice secret bob -size=25'
"$PY" - "$big/games/101.game" <<'PYEOF'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
out = []
for ln in lines:
    parts = ln.split()
    if len(parts) == 27 and parts[0].isdigit() and parts[0] == parts[-1]:
        y = int(parts[0])
        row = ["x" if ((x // 2 + y) % 2) else "o" for x in range(25)]
        ln = "%2d  %s  %2d" % (y, " ".join(row), y)
    elif ln == "status: playing":
        # no point is left to play: the game is drawn
        ln = "status: drawn\nend: no-placements"
    elif ln.startswith("to-move:") or ln.startswith("remind:"):
        continue
    elif ln.startswith("turn:"):
        ln = "turn: 2"
    out.append(ln)
# one turn played, the last: a placement
text = "\n".join(out).rstrip("\n")
if text.endswith("history:"):
    text = text[:-len("history:")].rstrip("\n")
text += "\n\nhistory:\n1 2023-11-15T01:34:20Z x alice A25\n"
open(p, "w").write(text)
PYEOF
send at=next "$big" alice@example.org 'show 101'
f=$(newest "$big" alice@example.org)
size=$(wc -c <"$f")
check "a 25x25 board with a stone on every point: the whole mail is under 40 KB ($size bytes)" [ "$size" -lt 40960 ]
check "... and shows 625 stones" sh -c "[ \$('$part' '$f' html | grep -o 'border-radius:50%' | wc -l) = 625 ]"
check "... a line a point: the part stays 7bit, no quoted-printable to make it longer" sh -c \
    "grep -A1 '^Content-Type: text/html' '$f' | grep -q '^Content-Transfer-Encoding: 7bit'"

# the template
mkdir -p "$tmp/tpl"
cp "$top"/templates/* "$tmp/tpl/"
sed -i 's|<h1 |<p>Edited by the admin</p>\n<h1 |' "$tmp/tpl/mail.html"
echo "templates = $tmp/tpl" >>"$h/oustpbm.conf"
sed -i "/^templates = $(echo "$top" | sed 's/[\/&]/\\&/g')\/templates\$/d" "$h/oustpbm.conf"
send at=next "$h" alice@example.org 'show 101'
check "the HTML comes from the template mail.html" sh -c "'$part' '$(newest "$h" alice@example.org)' html | grep -q 'Edited by the admin'"
mv "$tmp/tpl/mail.html" "$tmp/tpl/mail.html.away"
sent=$((sent + 1))
printf 'From: alice@example.org\nSubject: show 101\nMessage-ID: <hm.%d@example.org>\n\n' $sent |
    OUSTPBM_TEST_TIME=$((T0 + 60 * sent)) "$bin" -d "$h" >/dev/null 2>&1
rc=$?
check "a templates directory without mail.html (from before it): the text alone, exit 0 (got $rc)" sh -c \
    "[ $rc = 0 ] && [ \"\$('$part' '$(newest "$h" alice@example.org)' type)\" = text/plain ]"
mv "$tmp/tpl/mail.html.away" "$tmp/tpl/mail.html"
echo '<p>{nosuch}</p>' >>"$tmp/tpl/mail.html"
send at=next "$h" alice@example.org 'show 101'
check "a template with an unknown placeholder: no reply, the error logged naming the file and line" sh -c \
    "tail -1 '$h/log' | grep -q 'mail.html line [0-9]*: unknown placeholder .{nosuch}.'"

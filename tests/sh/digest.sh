#!/bin/sh
# digest: the players' digests (issue 43 items 6 and 8) with the test
# clock (OUSTPBM_TEST_TIME), sent by `oustpbm cleanup`: bob (Europe/Paris,
# digest=daily@08) gets no mail for his opponents' turns, then one digest
# at 08:00 Paris holding his three boards, none before the hour, none twice
# in the hour; a tap link of each board, sent back as the mail a client
# makes of it, plays on its own board; nothing when nothing waits; carol in
# New York (twice@08,18) gets hers at her hours; dave (digest off) a board
# mail for every turn as before; the digest killed at each durable step of
# its sending (OUSTPBM_TEST_CRASH) and run again: exactly one; grace with
# ten 11x11 boards waiting gets her digest in parts, each under 100 KB
# whole with every board's tap links in one of them (a tap from the last
# plays on its board), killed at each step too: each part once; seventeen
# boards: 8 parts and the 17th by number; and the mails a player with ten
# games gets in a day, with and without it.
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
A=alice@example.org
B=bob@example.com
C=carol@example.net
D=dave@example.net
H=3600
# T0 is 2023-11-14 22:13:20 UTC; 08:00 in Paris (UTC+1) the next day is 07:00 UTC
P8=$((T0 + 31600))

cleanup() { # HOME TIME [STEP]: its exit status
	if [ -n "${3:-}" ]; then
		OUSTPBM_TEST_CRASH=$3 OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	else
		OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	fi
	echo $?
}
digests() { # HOME ADDRESS: the digests ADDRESS got
	grep -l '^Subject: Oust: your move on ' "$1/mail/$2/new/"* 2>/dev/null | wc -l | tr -d ' '
}
turn() { # HOME BOARD: the game file's turn
	sed -n 's/^turn: //p' "$1/games/$2.game"
}

h=$tmp/h
mkhome "$h"
send at=$T0 "$h" $A "register alice secret"
send at=$T0 "$h" $B "register bob hunter2"
send at=$T0 "$h" $C "register carol pw3"
send at=$T0 "$h" $D "register dave pw4"
send at=$T0 "$h" $B "set bob hunter2 timezone=Europe/Paris digest=daily@08"
send at=$T0 "$h" $A "challenge alice secret bob"
send at=$T0 "$h" $C "challenge carol pw3 bob -size=7"
send at=$T0 "$h" $D "challenge dave pw4 bob -hex=4"
b0=$(replies "$h" $B)
check "game starts still come at once (three challenges)" [ "$b0" -ge 4 ]
send at=$T0 "$h" $A "move 101 alice secret C3"
send at=$T0 "$h" $C "move 102 carol pw3 D4"
send at=$T0 "$h" $D "move 103 dave pw4 d4"
check "digest=daily@08: no board mail for the opponents' three turns" [ "$(replies "$h" $B)" = "$b0" ]
check "07:30 in Paris: cleanup exits 0" [ "$(cleanup "$h" $((P8 - 1800)))" = 0 ]
check "... no digest before the hour" [ "$(digests "$h" $B)" = 0 ]
cp -R "$h" "$tmp/before-digest"
check "08:05 in Paris: cleanup exits 0" [ "$(cleanup "$h" $((P8 + 300)))" = 0 ]
check "... one digest to bob" [ "$(digests "$h" $B)" = 1 ]
dg=$(grep -l '^Subject: Oust: your move on ' "$h/mail/$B/new/"*)
check "... 'Oust: your move on 3 boards', auto-generated" \
    sh -c "grep -q '^Subject: Oust: your move on 3 boards$' '$dg' && grep -qx 'Auto-Submitted: auto-generated' '$dg'"
check "... logged with the hour in bob's zone" \
    grep -q 'cleanup board=0 ok: digest of 3 boards to bob (Wed 2023-11-15 08:00 Europe/Paris)' "$h/log"
check "... under 100 KB" [ "$(wc -c <"$dg")" -lt 102400 ]
check "08:40: no digest twice in the hour" sh -c "[ \$(OUSTPBM_TEST_TIME=$((P8 + 2400)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && [ \$(grep -l '^Subject: Oust: your move on ' '$h/mail/$B/new/'* | wc -l) = 1 ]"

# the digest's parts: each board with its last turn, command, token Subject, drawing; its HTML's tap links
"$PY" - "$dg" "$tmp" <<'PYEOF' >"$tmp/parts" 2>&1
import email, email.policy, html.parser, re, sys, urllib.parse
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
text = m.get_body(("plain",)).get_content()
page = m.get_body(("html",)).get_content()
open(sys.argv[2] + "/digest.txt", "w").write(text)
open(sys.argv[2] + "/digest.html", "w").write(page)
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []
    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("mailto:"):
            self.hrefs.append(href)
p = Links()
p.feed(page)
seen = {}
for href in p.hrefs:
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
    subj, body = q.get("subject", [""])[0], q.get("body", [""])[0]
    b = re.match(r"Oust Board (\d+) ", subj)
    # a placement's link: "#2" then the point (not swap, not resign)
    if b and body.count("\n") == 1 and body.split("\n")[1] not in ("swap", "resign yes"):
        seen.setdefault(b.group(1), (subj, body))
for board, (subj, body) in sorted(seen.items()):
    print(board, subj.replace(" ", "\x01"), body.replace("\n", "\x02"))
PYEOF
check "the digest's HTML has tap links for each of the three boards" \
    sh -c "[ \"\$(cut -d' ' -f1 '$tmp/parts' | tr '\n' ' ')\" = '101 102 103 ' ]"
for b in 101 102 103; do
	check "... board $b in the text: its last turn, command and token Subject" \
	    sh -c "grep -q '^== Board $b ' '$tmp/digest.txt' && grep -q '^Turn 1: .* played ' '$tmp/digest.txt' && grep -q '    move $b#2 bob <password> <placements>' '$tmp/digest.txt' && grep -q '^    Oust Board $b .* \[[2-9A-Z-]*\]\$' '$tmp/digest.txt'"
done
while read -r b subj body; do
	subj=$(printf '%s' "$subj" | tr '\001' ' ')
	body=$(printf '%s' "$body" | tr '\002' '\n')
	send at=$((P8 + 600)) body="$body" "$h" $B "Re: $subj"
done <"$tmp/parts"
check "each tap, sent back as a mail, plays on its own board (turn 3 on 101, 102, 103)" \
    [ "$(turn "$h" 101) $(turn "$h" 102) $(turn "$h" 103)" = "3 3 3" ]
check "... each logged as a token reply that played" [ "$(grep -c 'reply to board 10[123]#2 \[token\]: .* ok: turn 2: bob played' "$h/log")" = 3 ]
check "digest=off: dave got bob's turn at once, as before" grep -q '^Turn 2: bob played' "$h/mail/$D/new/"*

# nothing waits the next morning: no digest
cleanup "$h" $((P8 + 86400 + 300)) >/dev/null
check "the next day at 08:05, nothing waiting: no digest" [ "$(digests "$h" $B)" = 1 ]

# carol in New York, twice@08,18: 08:00 there is 13:00 UTC, 18:00 is 23:00 UTC
send at=$((P8 + 86400 + 400)) "$h" $C "set carol pw3 timezone=America/New_York digest=twice@08,18"
c0=$(digests "$h" $C)
cleanup "$h" $((P8 + 86400 + 5 * H + 1800)) >/dev/null
check "carol (New York): nothing at 07:30 her time" [ "$(digests "$h" $C)" = "$c0" ]
cleanup "$h" $((P8 + 86400 + 6 * H + 300)) >/dev/null
check "... her digest at 08:05 her time (13:05 UTC)" [ "$(digests "$h" $C)" = $((c0 + 1)) ]
check "... of board 102, where she is to move" grep -q 'cleanup board=0 ok: digest of 1 board to carol (Thu 2023-11-16 08:00 America/New_York)' "$h/log"
check "... while bob in Paris got none at that hour" [ "$(digests "$h" $B)" = 1 ]
cleanup "$h" $((P8 + 86400 + 16 * H + 300)) >/dev/null
check "... and her second at 18:05 her time" [ "$(digests "$h" $C)" = $((c0 + 2)) ]

# killed at each durable step of the digest's sending, run again within the hour: exactly one digest
k=0
bad=
rm -rf "$tmp/before-digest/mail"
while :; do
	k=$((k + 1))
	rm -rf "$tmp/w"
	cp -R "$tmp/before-digest" "$tmp/w"
	rc=$(cleanup "$tmp/w" $((P8 + 300)) $k)
	[ "$rc" = 0 ] && break
	[ "$rc" = 137 ] || { bad="$bad; step $k: exit $rc"; break; }
	rc=$(cleanup "$tmp/w" $((P8 + 1200)))
	[ "$rc" = 0 ] || bad="$bad; step $k: the next run exits $rc"
	[ "$(digests "$tmp/w" $B)" = 1 ] || bad="$bad; step $k: $(digests "$tmp/w" $B) digests"
	[ -z "$(find "$tmp/w/outbox/new" "$tmp/w/outbox/tmp" -type f)" ] || bad="$bad; step $k: mail left in the outbox"
	[ $k -lt 300 ] || { bad="$bad; no end after 300 steps"; break; }
done
check "killed at each of $((k - 1)) durable steps and run again: one digest${bad:+ ($bad)}" \
    sh -c '[ -z "$1" ] && [ "$2" -gt 3 ]' sh "$bad" $k

# ten 11x11 boards waiting: too many for one mail under 100 KB with their tap links (issue 40: Gmail
# clips past 102 KB), so the digest comes in parts, each board in full with its tap links in one of them
G=grace@example.org
ten() { # HOME [COUNT]: grace (Paris, daily@08) to move on COUNT (10) 11x11 boards the night before her digest
	mkhome "$1" 'max_open_challenges = 0' 'max_open_boards = 0' 'max_challenges_per_hour = 0' \
	    'max_mails_per_hour = 0'
	send at=$T0 "$1" $A "register alice secret"
	send at=$T0 "$1" $G "register grace pw"
	send at=$T0 "$1" $G "set grace pw timezone=Europe/Paris digest=daily@08"
	i=0
	while [ $i -lt "${2:-10}" ]; do
		send at=$T0 "$1" $A "challenge alice secret grace"
		send at=$((T0 + 60)) "$1" $A "move $((101 + i)) alice secret C3"
		i=$((i + 1))
	done
}
parts() { # HOME: the parts of grace's digest of ten
	grep -l '^Subject: Oust: your move on 10 boards (' "$1/mail/$G/new/"* 2>/dev/null | wc -l | tr -d ' '
}
t10=$tmp/ten
ten "$t10"
cp -R "$t10" "$tmp/before-ten"
check "ten boards: cleanup at 08:05 in Paris exits 0" [ "$(cleanup "$t10" $((P8 + 300)))" = 0 ]
np=$(parts "$t10")
check "... a digest in parts ($np), no single mail" \
    sh -c '[ "$1" -ge 2 ] && [ "$1" -le 8 ] && ! grep -q "^Subject: Oust: your move on 10 boards\$" "$2/mail/$3/new/"*' sh "$np" "$t10" $G
check "... logged once, with its parts" grep -q "cleanup board=0 ok: digest of 10 boards in $np parts to grace (Wed 2023-11-15 08:00 Europe/Paris)" "$t10/log"
"$PY" - "$tmp" $(grep -l '^Subject: Oust: your move on 10 boards (' "$t10/mail/$G/new/"*) <<'PYEOF' >"$tmp/tenparts" 2>&1
import email, email.policy, html.parser, os, re, sys, urllib.parse
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []
    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("mailto:"):
            self.hrefs.append(href)
parts = {}
for f in sys.argv[2:]:
    m = email.message_from_binary_file(open(f, "rb"), policy=email.policy.default)
    k, n = map(int, re.fullmatch(r"Oust: your move on 10 boards \((\d+) of (\d+)\)", m["Subject"]).groups())
    text = m.get_body(("plain",)).get_content()
    page = m.get_body(("html",)).get_content()
    p = Links()
    p.feed(page)
    taps = {}
    for href in p.hrefs:
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
        subj, body = q.get("subject", [""])[0], q.get("body", [""])[0]
        b = re.match(r"Oust Board (\d+) ", subj)
        if b and body.count("\n") == 1 and body.split("\n")[1] not in ("swap", "resign yes"):
            taps.setdefault(int(b.group(1)), (subj, body))
    drawn = sorted(int(b) for b in re.findall(r"^== Board (\d+) ", text, re.M))
    # its intro says which part it is and names every other part
    intro = " ".join(text.split("\n\n", 1)[0].split())
    named = ("This is part %d of %d" % (k, n)) in intro and all(
        ("part %d has board" % q) in intro for q in range(1, n + 1) if q != k)
    parts[k] = (n, os.path.getsize(f), sorted(taps), drawn, named, taps)
ks = sorted(parts)
n = parts[ks[0]][0]
print("numbered", "yes" if ks == list(range(1, n + 1)) and all(parts[k][0] == n for k in ks) else "no")
print("sizes", " ".join(str(parts[k][1]) for k in ks))
print("tapped", " ".join(str(b) for k in ks for b in parts[k][2]))
print("drawn", " ".join(str(b) for k in ks for b in parts[k][3]))
print("same", "yes" if all(parts[k][2] == parts[k][3] for k in ks) else "no")
print("intros", "yes" if all(parts[k][4] for k in ks) else "no")
last = parts[ks[-1]]
board = last[2][-1]
subj, body = last[5][board]
print("tap", board, subj.replace(" ", "\x01"), body.replace("\n", "\x02"))
PYEOF
sed -n 's/^sizes /# the parts of a digest of ten 11x11 boards, bytes whole: /p' "$tmp/tenparts"
check "... parts numbered 1 to $np, each Subject '(k of $np)'" grep -qx 'numbered yes' "$tmp/tenparts"
check "... every part under 100 KB whole (Gmail clips past 102 KB)" \
    sh -c 'set -- $(sed -n "s/^sizes //p" "$1"); [ $# -ge 2 ] || exit 1; for s; do [ "$s" -lt 102400 ] || exit 1; done' sh "$tmp/tenparts"
check "... each of the ten boards' tap links in exactly one part, in order" \
    grep -qx 'tapped 101 102 103 104 105 106 107 108 109 110' "$tmp/tenparts"
check "... each board drawn (text) in the part that has its tap links" \
    sh -c 'grep -qx "drawn 101 102 103 104 105 106 107 108 109 110" "$1" && grep -qx "same yes" "$1"' sh "$tmp/tenparts"
check "... each part's intro says which part it is and names the others" grep -qx 'intros yes' "$tmp/tenparts"
read -r _ tb subj body <<EOF2
$(grep '^tap ' "$tmp/tenparts")
EOF2
subj=$(printf '%s' "$subj" | tr '\001' ' ')
body=$(printf '%s' "$body" | tr '\002' '\n')
before=$(for i in 0 1 2 3 4 5 6 7 8 9; do turn "$t10" $((101 + i)); done | tr '\n' ' ')
send at=$((P8 + 600)) body="$body" "$t10" $G "Re: $subj"
after=$(for i in 0 1 2 3 4 5 6 7 8 9; do turn "$t10" $((101 + i)); done | tr '\n' ' ')
want=$(for i in 0 1 2 3 4 5 6 7 8 9; do [ $((101 + i)) = "$tb" ] && echo 3 || echo 2; done | tr '\n' ' ')
check "... a tap from the last part's last board ($tb), sent back, plays on that board alone" \
    [ "$before|$after|$tb" = "2 2 2 2 2 2 2 2 2 2 |$want|110" ]
check "... logged as a token reply that played" grep -q "reply to board $tb#2 \[token\]: .* ok: turn 2: grace played" "$t10/log"
rc=$(cleanup "$t10" $((P8 + 2400)))
check "08:40: no part sent twice in the hour" [ "$rc $(parts "$t10")" = "0 $np" ]

# the digest of ten in parts killed at each durable step of its sending, run again: every part once
k=0
bad=
while :; do
	k=$((k + 1))
	rm -rf "$tmp/w"
	cp -R "$tmp/before-ten" "$tmp/w"
	rc=$(cleanup "$tmp/w" $((P8 + 300)) $k)
	[ "$rc" = 0 ] && break
	[ "$rc" = 137 ] || { bad="$bad; step $k: exit $rc"; break; }
	rc=$(cleanup "$tmp/w" $((P8 + 1200)))
	[ "$rc" = 0 ] || bad="$bad; step $k: the next run exits $rc"
	got=$(grep -h '^Subject: Oust: your move on 10 boards' "$tmp/w/mail/$G/new/"* 2>/dev/null | sort | tr '\n' '|')
	want=$(i=1; while [ $i -le "$np" ]; do echo "Subject: Oust: your move on 10 boards ($i of $np)"; i=$((i + 1)); done | sort | tr '\n' '|')
	[ "$got" = "$want" ] || bad="$bad; step $k: parts $got"
	[ -z "$(find "$tmp/w/outbox/new" "$tmp/w/outbox/tmp" -type f)" ] || bad="$bad; step $k: mail left in the outbox"
	[ $k -lt 300 ] || { bad="$bad; no end after 300 steps"; break; }
done
check "the digest in $np parts killed at each of $((k - 1)) durable steps and run again: each part once${bad:+ ($bad)}" \
    sh -c '[ -z "$1" ] && [ "$2" -gt 3 ]' sh "$bad" $k

# seventeen 11x11 boards, two a part: the parts capped at 8, the 17th named by number at the end of the 8th
t17=$tmp/seventeen
ten "$t17" 17
cleanup "$t17" $((P8 + 300)) >/dev/null
p8=$(grep -l '^Subject: Oust: your move on 17 boards (8 of 8)$' "$t17/mail/$G/new/"* 2>/dev/null)
check "seventeen boards: 8 parts, no more" \
    [ "$(grep -l '^Subject: Oust: your move on 17 boards (' "$t17/mail/$G/new/"* | wc -l | tr -d ' ')" = 8 -a -n "$p8" ]
"$PY" - "$p8" <<'PYEOF' >"$tmp/p8" 2>&1
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
text = " ".join(m.get_body(("plain",)).get_content().split())
page = " ".join(m.get_body(("html",)).get_content().split())
print("intro", "yes" if "This is part 8 of 8, with boards 115 and 116;" in text and
      "and 1 more by number at the end of part 8." in text else "no")
print("listed", "yes" if "Your turn too on board 117 (this mail has room for no more)" in text and
      "board 117" in page and "Oust Board 117 " not in page else "no")
PYEOF
check "... the 8th names board 117 by number at its end (text and HTML), its intro says so" \
    sh -c 'grep -qx "intro yes" "$1" && grep -qx "listed yes" "$1"' sh "$tmp/p8"

# a day of a player with ten games, each with one turn of the opponent's (at night) and one of the
# player's (in the morning): the mails the player gets, with digest off and with digest=daily@08
day() { # HOME USERID ADDRESS SETTING: prints the mails USERID got in the day
	mkhome "$1" 'max_open_challenges = 0' 'max_open_boards = 0' 'max_challenges_per_hour = 0'
	send at=$T0 "$1" $A "register alice secret"
	send at=$T0 "$1" "$3" "register $2 pw"
	send at=$T0 "$1" "$3" "set $2 pw timezone=Europe/Paris $4"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		send at=$T0 "$1" $A "challenge alice secret $2 -size=5"
	done
	n0=$(replies "$1" "$3")
	for i in 0 1 2 3 4 5 6 7 8 9; do
		send at=$((T0 + 60)) "$1" $A "move $((101 + i)) alice secret C3"
	done
	cleanup "$1" $((P8 + 300)) >/dev/null
	for i in 0 1 2 3 4 5 6 7 8 9; do
		send at=$((P8 + 600)) "$1" "$3" "move $((101 + i)) $2 pw A1"
	done
	cleanup "$1" $((P8 + 86400 - 600)) >/dev/null
	echo $(($(replies "$1" "$3") - n0))
}
off=$(day "$tmp/off" erin erin@example.org digest=off)
on=$(day "$tmp/on" frank frank@example.org digest=daily@08)
echo "# ten games, a turn each way a day: $off mails a day with digest=off, $on with digest=daily@08"
check "ten games, a day: 20 mails without the digest (10 turns told, 10 answers), 11 with it (1 digest, 10 answers)" \
    [ "$off $on" = "20 11" ]
done_testing

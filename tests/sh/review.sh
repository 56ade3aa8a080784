#!/bin/sh
# review: game reviews end to end (the mail cases are golden cases named
# review-*).  A finished 5x5 game is reviewed by `oustpbm robot` with a
# fixed playout budget: the same review in two homes, kept beside the game
# and done once; its SGF attachment read by Debian's sgf2dg (every better
# turn a variation) and by `oustpbm import` (the main line is the game);
# the board's web page shows the chart as SVG and the table as text, valid
# HTML5.  A kept review is sent again, never recomputed, and does not count
# against max_reviews_per_day: the kept file is untouched (same inode,
# bytes and time), the second mail's review text is the first one's byte
# for byte, and the log says it was served from the kept file; a kept file
# with chances outside 0..1 (written before they were clamped) is repaired
# when read and served, not recomputed.  A review made during a game
# against the robot shows on the page once the game is over, saying which
# turns it covers.
. "$(dirname "$0")/lib.sh"
need "$PY" sgf2dg tidy
tmpdir
export OUSTPBM_TEST_ROBOT_PLAYOUTS=200

# game HOME: register, a finished game on board 101, and carol asks for its review
game() {
	k=0
	while read -r from subject; do
		k=$((k + 1))
		mail "$from" "$subject" "review.$k@example.org" | deliver "$1" $((T0 + 60 * k))
	done <<EOF
alice@example.org register alice secret Alice
bob@example.com register bob hunter2
carol@example.net register carol pw3 Carol
alice@example.org challenge alice secret bob -size=5
alice@example.org move 101#1 alice secret C3
bob@example.com move 101#2 bob hunter2 A5
alice@example.org move 101#3 alice secret E1
bob@example.com move 101#4 bob hunter2 D3
alice@example.org move 101#5 alice secret C2,A1
bob@example.com move 101#6 bob hunter2 B4
alice@example.org move 101#7 alice secret C4,B5
bob@example.com move 101#8 bob hunter2 D5
alice@example.org move 101#9 alice secret C5
carol@example.net review 101 carol pw3
EOF
}

h=$tmp/home
mkhome "$h" 'web_dir = site' 'max_reviews_per_day = 1'
game "$h"
check "the request is queued" grep -q "^[0-9]* 101 carol waiting" "$h/reviews"
check "oustpbm robot does it: exit 0" sh -c "OUSTPBM_TEST_TIME=$((T0 + 3600)) '$bin' -d '$h' robot"
check "... the request is done, the review kept beside the game" sh -c \
    "grep -q '^[0-9]* 101 carol done' '$h/reviews' && head -1 '$h/games/101.review' | grep -q '^oustpbm review 1'"
check "... a line a turn" sh -c "[ \$(grep -c '^turn ' '$h/games/101.review') = 9 ]"
m=$(newest "$h" carol@example.net)
check "... mailed to carol with the table and an SGF attachment" sh -c \
    "grep -q '^Subject: Oust Board 101 review' '$m' && grep -q 'Black.s chance' '$m' && grep -q 'filename=oust-101-review.sgf' '$m'"

# the same review in a second home: the fixed budget makes it deterministic
h2=$tmp/home2
mkhome "$h2"
game "$h2"
OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$h2" robot >/dev/null 2>&1
check "the same game reviewed in another home gives the same review" cmp -s "$h/games/101.review" "$h2/games/101.review"

# once: another request is answered at once from the kept review, the same bytes, no search
kept=$h/games/101.review
before=$(stat -c '%i %s %Y' "$kept")
sum=$(cksum <"$kept")
mail bob@example.com "review 101 bob hunter2" review.b@example.org | deliver "$h" $((T0 + 4000))
check "a second request is answered at once from the kept review" sh -c \
    "grep -q 'review.b@example.org.*review of 9 turns sent (kept): served from games/101.review, not recomputed' '$h/log' &&
     ! grep -q ' 101 bob ' '$h/reviews'"
check "... the kept file untouched: not recomputed" sh -c \
    "[ \"\$(stat -c '%i %s %Y' '$kept')\" = '$before' ] && [ \"\$(cksum <'$kept')\" = '$sum' ]"
mb=$(newest "$h" bob@example.com)
# the review's text part, from its first line to the signature
body() {
	"$PY" - "$1" <<'EOP'
import email, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
for part in msg.walk():
    if part.get_content_type() == "text/plain":
        text = part.get_payload(decode=True).decode()
        sys.stdout.write(text[text.index("Review of Oust board"):])
        break
EOP
}
body "$m" >"$tmp/first.txt"
body "$mb" >"$tmp/second.txt"
check "... the same review text, byte for byte" sh -c "[ -s '$tmp/first.txt' ] && cmp -s '$tmp/first.txt' '$tmp/second.txt'"
mail carol@example.net "review 101 carol pw3" review.c2@example.org | deliver "$h" $((T0 + 4060))
check "... and not counted: carol, at her daily limit of 1, gets it again" \
    grep -q 'review.c2@example.org.*served from games/101.review' "$h/log"
body "$(newest "$h" carol@example.net)" >"$tmp/third.txt"
check "... the same text again" cmp -s "$tmp/first.txt" "$tmp/third.txt"

# a kept file from before the clamp: repaired when read, served, not recomputed nor refused
cp "$kept" "$tmp/kept.orig"
sed 's/^turn 3 x \([0-9.]*\) [0-9.]*/turn 3 x 1.0000 -0.0123/' "$tmp/kept.orig" >"$kept"
check "(the kept file now says turn 3 x 1.0000 -0.0123)" grep -q '^turn 3 x 1.0000 -0.0123' "$kept"
sum=$(cksum <"$kept")
mail bob@example.com "review 101 bob hunter2" review.b2@example.org | deliver "$h" $((T0 + 4120))
check "a kept review with a chance under 0 is served from the file" sh -c \
    "grep -q 'review.b2@example.org.*served from games/101.review' '$h/log' && [ \"\$(cksum <'$kept')\" = '$sum' ]"
body "$(newest "$h" bob@example.com)" >"$tmp/repaired.txt"
check "... its chances shown in 0..100%" sh -c \
    "grep -q '^   3  alice (x)      E1                100%     0%' '$tmp/repaired.txt' && ! grep -q -- '-[0-9]*%\\|10[1-9]%' '$tmp/repaired.txt'"
cp "$tmp/kept.orig" "$kept"

"$PY" - "$m" "$tmp/review.sgf" <<'EOP'
import email, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
for part in msg.walk():
    if part.get_content_type() == "application/x-go-sgf":
        open(sys.argv[2], "wb").write(part.get_payload(decode=True))
EOP
nvar=$(grep -c ' better ' "$h/games/101.review")
check "the review has better turns ($nvar)" test "$nvar" -gt 0
check "sgf2dg reads the review's SGF, every better turn a variation" sh -c \
    "sgf2dg -converter ASCII -i '$tmp/review.sgf' -o '$tmp/dg.txt' >'$tmp/dg.log' 2>&1 &&
     [ \$(grep -c '^Converting Variation [0-9]*\$' '$tmp/dg.log') = $nvar ]"
check "... each turn's comment holds its figures" sh -c \
    "[ \$(grep -c \"Black's chance to win: [0-9]*% before, [0-9]*% after\" '$tmp/review.sgf') = 9 ]"
h3=$tmp/home3
mkhome "$h3"
# import takes a game of existing accounts only (a challenge's players)
"$bin" -d "$h3" adduser alice alice@example.org Alice </dev/null >/dev/null
"$bin" -d "$h3" adduser bob bob@example.com </dev/null >/dev/null
check "oustpbm import reads its main line: the game file of the board" sh -c \
    "'$bin' -d '$h3' import '$tmp/review.sgf' 101 >/dev/null 2>&1 && cmp -s '$h/games/101.game' '$h3/games/101.game'"

b=$h/site/board/101.html
check "the board's web page shows the review's chart as SVG" grep -q '<svg class="review"' "$b"
check "... and its table as text" sh -c "grep -q '<pre class=\"review\">turn  player' '$b' && grep -q '^   9  alice (x)' '$b'"
check "... valid HTML5" sh -c "tidy -q -e --doctype html5 '$b' >'$tmp/tidy' 2>&1 && [ ! -s '$tmp/tidy' ]"

# ---- issue 39 finding 4: two overlapping `oustpbm robot` runs (cron every
# 5 minutes, a long queue), three reviews waiting: three mails, each review
# computed once.  The one think slot is held, so that the first run waits
# in its first review while the second starts.
hc=$tmp/conc
mkhome "$hc" 'robot_max_thinking = 1' 'robot_seconds = 30' 'review_seconds = 1'
game "$hc"
mail alice@example.org "review 101 alice secret" review.ca@example.org | deliver "$hc" $((T0 + 2000))
mail bob@example.com "review 101 bob hunter2" review.cb@example.org | deliver "$hc" $((T0 + 2060))
check "three reviews wait" [ "$(grep -c ' waiting$' "$hc/reviews")" = 3 ]
has_slot() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'robot-thinking\.0\.lock'; }
# until the process $1 has exited or waits for the think slot (its lock file open), at most 20 s
waits() {
	lib_w=0
	while kill -0 "$1" 2>/dev/null && ! has_slot "$1" && [ "$lib_w" -lt 400 ]; do
		sleep 0.05
		lib_w=$((lib_w + 1))
	done
}
hold_lock "$hc/robot-thinking.0.lock"
OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$hc" robot >/dev/null 2>"$tmp/run1.err" &
p1=$!
waits "$p1"
check "the first run waits for the think slot in its first review" has_slot "$p1"
OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$hc" robot >/dev/null 2>"$tmp/run2.err" &
p2=$!
waits "$p2"
release_lock
wait "$p1" "$p2"
nmail=0
for a in carol@example.net alice@example.org bob@example.com; do
	nmail=$((nmail + $(grep -l '^Subject: Oust Board 101 review$' "$hc/mail/$a/new/"* 2>/dev/null | wc -l)))
done
check "two overlapping runs, three reviews waiting: exactly three review mails ($nmail)" [ "$nmail" = 3 ]
check "... each review done once" [ "$(grep -c 'robot review board=101 user=[a-z]* ok: review mailed' "$hc/log")" = 3 ]
check "... the second run left the reviews to the first" grep -q 'robot reviews: another oustpbm robot run does them: left to it' "$hc/log"
check "... every request done" [ "$(grep -c ' done$' "$hc/reviews")" = 3 ]

# the robot's turns have their run lock too
hold_lock "$hc/robot-turns.lock"
OUSTPBM_TEST_TIME=$((T0 + 3700)) "$bin" -d "$hc" robot >/dev/null 2>&1
check "a run while another plays the robot's turns: left to it, logged" grep -q "robot: another oustpbm robot run plays the robot's turns: left to it" "$hc/log"
release_lock

# a claim whose run died (kill -9 during the think) is taken again once stale:
# review_seconds x 2 + robot_seconds + 602 s (review.h), here 605 s
hs=$tmp/stale
mkhome "$hs" 'robot_seconds = 1' 'review_seconds = 1'
game "$hs"
sed -i "s/^\([0-9]* 101 carol\) waiting\$/\1 claimed $((T0 + 3600)) 999999/" "$hs/reviews"
check "a claimed request (its run died)" grep -q "^[0-9]* 101 carol claimed $((T0 + 3600)) 999999\$" "$hs/reviews"
OUSTPBM_TEST_TIME=$((T0 + 3600 + 604)) "$bin" -d "$hs" robot >/dev/null 2>&1
check "... not taken while the claim may still be thinking" sh -c \
    "grep -q 'robot review board=101 user=carol skipped: claimed by another run' '$hs/log' && ! grep -qs '^Subject: Oust Board 101 review\$' '$hs/mail/carol@example.net/new/'*"
OUSTPBM_TEST_TIME=$((T0 + 3600 + 606)) "$bin" -d "$hs" robot >/dev/null 2>&1
check "... taken again once stale: computed and mailed once" sh -c \
    "[ \$(grep -l '^Subject: Oust Board 101 review\$' '$hs/mail/carol@example.net/new/'* | wc -l) = 1 ] && grep -q '^[0-9]* 101 carol done\$' '$hs/reviews'"
# a review made during a game against the robot: once the game is over the page shows it, saying what it covers
h4=$tmp/home4
mkhome "$h4" 'web_dir = site'
j=0
while read -r from subject; do
	j=$((j + 1))
	mail "$from" "$subject" "robotgame.$j@example.org" | OUSTPBM_TEST_ROBOT=first deliver "$h4" $((T0 + 60 * j))
done <<EOF
alice@example.org register alice secret Alice
alice@example.org challenge alice secret robot -size=5
alice@example.org move 101#1 alice secret C3
alice@example.org move 101#3 alice secret E5
alice@example.org review 101 alice secret
EOF
OUSTPBM_TEST_TIME=$((T0 + 3600)) OUSTPBM_TEST_ROBOT=first "$bin" -d "$h4" robot >/dev/null 2>&1
nrev=$(grep -c '^turn ' "$h4/games/101.review")
mail alice@example.org "resign 101 alice secret" robotgame.r@example.org | OUSTPBM_TEST_ROBOT=first deliver "$h4" $((T0 + 3700))
b4=$h4/site/board/101.html
check "a review made during a robot game ($nrev turns) is shown once the game is over" sh -c \
    "grep -q 'resign' '$h4/games/101.game' && grep -q '<svg class=\"review\"' '$b4' &&
     grep -q 'it covers its first $nrev turns of $((nrev + 1))' '$b4'"

done_testing

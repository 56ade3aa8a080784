#!/bin/sh
# webtourn: the web site's tournament pages and its Atom feed (issue 44):
# a round robin by mail from its making to its end, its page after each
# step (players, pairings linking to the boards, the crosstable, the final
# standings), a name with <script> and & escaped everywhere, a leaver
# marked, tournaments.html and the index's links, the feed (RFC 4287) read
# by a feed reader (python3-feedparser: no error, the entries expected),
# well-formed (xmllint), with open challenges and players seeking games;
# the pages valid HTML5 (tidy); a rebuild writing the same site.
. "$(dirname "$0")/lib.sh"
need tidy
need xmllint
need "$PY"
"$PY" -c 'import feedparser' 2>/dev/null || skip_all "python3-feedparser is not installed (scripts/install-deps --test)"
tmpdir
h=$tmp/h
mkhome "$h" 'web_dir = site' 'web_url = https://oust.example.org/play' 'server_name = Oust & "Co"' \
    'max_challenges_per_hour = 0' 'max_open_challenges = 0'
s=$h/site
at=$T0
go() { # FROM COMMAND: one mail at the next minute; its exit status must be 0
	at=$((at + 60))
	mail "$1@example.org" "$2" | deliver "$h" $at || fail "'$2' from $1 exits $?: $(cat "$tmp/stderr")"
}
valid() { # FILE: tidy finds no error and no warning
	tidy -q -e --doctype html5 "$1" >"$tmp/tidy" 2>&1 && [ ! -s "$tmp/tidy" ]
}
# the feed as a feed reader reads it: bozo 0, then one line per entry "id|title|link|updated"
feedread() {
	"$PY" - "$s/feed.atom" <<'EOF'
import sys, feedparser
d = feedparser.parse(sys.argv[1])
if d.bozo:
    print("bozo: %s" % d.bozo_exception)
    sys.exit(1)
f = d.feed
assert d.version == "atom10", d.version
for k in ("id", "title", "updated", "author"):
    assert f.get(k), "the feed has no " + k
assert any(l.rel == "self" and l.href == "https://oust.example.org/play/feed.atom" for l in f.links), f.links
print("feed|%s|%s" % (f.title, f.id))
for e in d.entries:
    for k in ("id", "title", "updated", "link", "summary"):
        assert e.get(k), "an entry has no " + k
    assert e.id.startswith("tag:example.net,"), e.id
    print("%s|%s|%s|%s" % (e.id, e.title, e.link, e.updated))
EOF
}

for u in ann bob cat dan eve; do
	go "$u" "register $u pw$u"
done
name='<script>alert(1)</script> & Co'
go ann "tournament ann pwann roundrobin -size=5 -players=3-4 -timeout=30 $name"
t=$s/tournament/T1.html
check "the new tournament has its page" test -f "$t"
check "... its name escaped: no script element, & as &amp;" sh -c \
    "grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co' '$t' && ! grep -qi '<script' '$t' '$s/tournaments.html' '$s/feed.atom'"
check "... its format, options and state, and how to join" sh -c \
    "grep -q 'A round robin directed by ann' '$t' && grep -q '<code>-size=5 -timeout=30</code>' '$t' &&
     grep -q 'Players: 3 to 4' '$t' && grep -q '<strong>taking players</strong>' '$t' && grep -q 'join T1 &lt;userid&gt;' '$t'"
check "tidy: the tournament page is valid HTML5" valid "$t"
check "tournaments.html lists it, linked" sh -c \
    "grep -q '<a href=\"tournament/T1.html\">T1</a></td><td><bdi>&lt;script&gt;' '$s/tournaments.html'"
check "the index links the tournaments and the feed" sh -c \
    "grep -q '<a href=\"tournaments.html\">Tournaments</a>' '$s/index.html' && grep -q 'href=\"feed.atom\"' '$s/index.html'"
check "every page names the feed: <link rel=alternate type=application/atom+xml>" sh -c \
    "grep -q '<link rel=\"alternate\" type=\"application/atom+xml\" title=\"[^\"]*\" href=\"feed.atom\">' '$s/index.html' &&
     grep -q '<link rel=\"alternate\" type=\"application/atom+xml\" title=\"[^\"]*\" href=\"../feed.atom\">' '$t'"
check "xmllint: the feed is well-formed XML" xmllint --noout "$s/feed.atom"
feedread >"$tmp/f1" 2>&1
check "feedparser: no error, the feed's title and id" sh -c \
    "grep -qx 'feed|Oust & \"Co\": Oust tournaments and open challenges|tag:example.net,2026:oustpbm/feed' '$tmp/f1'"
check "feedparser: one entry, T1 made, its link absolute" sh -c \
    "[ \$(wc -l <'$tmp/f1') = 2 ] && grep -qx 'tag:example.net,2023-11-14:oustpbm/tournament/T1/made|New tournament T1: $name (round robin)|https://oust.example.org/play/tournament/T1.html|$(date -u -d @$at +%Y-%m-%dT%H:%M:%SZ)' '$tmp/f1'"

for u in ann bob cat; do
	go "$u" "join T1 $u pw$u"
done
check "each join is on the page" sh -c "grep -c '<tr><td>\(ann\|bob\|cat\)</td><td>1500</td></tr>' '$t' | grep -qx 3"
go ann "begin T1 ann pwann"
boards=$(sed -n 's/^game: .* \([0-9][0-9]*\) \*$/\1/p' "$h/tournaments/1" | sort -n | tr '\n' ' ')
check "begun: three boards (a bye each round)" sh -c "[ \$(echo $boards | wc -w) = 3 ]"
check "... the page: being played, the standings, the crosstable, the pairings of each round" sh -c \
    "grep -q '<strong>being played</strong>' '$t' && grep -q '<h2>Standings</h2>' '$t' && grep -q '<th>S-B</th><th>Direct</th>' '$t' &&
     grep -q '<h3 id=\"r1\">Round 1</h3>' '$t' && grep -q '<h3 id=\"r3\">Round 3</h3>' '$t' && grep -c '<td>bye</td>' '$t' | grep -qx 3"
for b in $boards; do
	check "... board $b linked from the pairings, and its page made at the start" sh -c \
	    "grep -q '<a href=\"../board/$b.html\">$b</a>' '$t' && test -f '$s/board/$b.html'"
done
check "tidy: the running tournament's page is valid HTML5" valid "$t"
feedread >"$tmp/f2" 2>&1
check "feedparser: T1 begun" sh -c "grep -q '^tag:example.net,2023-11-14:oustpbm/tournament/T1/begun|Tournament T1 has begun: ' '$tmp/f2'"

# the players seeking games and the open challenges
go dan "seek dan pwdan 2"
go eve "challenge eve pweve * -size=7 -noswap"
ob=$(ls "$h/games" | sed -n 's/^\([0-9]*\)\.game$/\1/p' | sort -n | tail -1)
feedread >"$tmp/f3" 2>&1
check "feedparser: dan seeks 2 games" grep -q '^tag:example.net,2026:oustpbm/seeking/dan|dan seeks 2 games|https://oust.example.org/play/tournaments.html#seeking|' "$tmp/f3"
check "feedparser: eve's open challenge, how to take it" sh -c \
    "grep -q '^tag:example.net,2023-11-14:oustpbm/board/$ob/open|Open challenge: board $ob, 7x7, no swap, eve waits for a White player|' '$tmp/f3' &&
     grep -q 'accept $ob &lt;userid&gt; &lt;password&gt;' '$s/feed.atom'"
check "tournaments.html lists the open challenge and the seeker" sh -c \
    "grep -q '<tr><td>$ob</td><td>7x7, no swap</td><td>eve</td><td>White</td>' '$s/tournaments.html' && grep -q '<p>dan (2)</p>' '$s/tournaments.html'"
check "tidy: tournaments.html is valid HTML5" valid "$s/tournaments.html"
go dan "accept $ob dan pwdan"
feedread >"$tmp/f4" 2>&1
check "an accepted challenge leaves the feed and the list" sh -c \
    "! grep -q 'board/$ob/open' '$tmp/f4' && ! grep -q '<td>$ob</td><td>7x7' '$s/tournaments.html'"
go eve "challenge eve pweve * -size=9"
ob2=$(ls "$h/games" | sed -n 's/^\([0-9]*\)\.game$/\1/p' | sort -n | tail -1)
check "a second open challenge is in the feed" grep -q "board/$ob2/open" "$s/feed.atom"
go eve "decline $ob2 eve pweve"
check "... and withdrawn (its board gone) leaves it" sh -c "! grep -q 'board/$ob2/open' '$s/feed.atom'"
go dan "seek dan pwdan 0"
check "a seek taken back leaves the feed" sh -c "! grep -q 'seeking/dan' '$s/feed.atom'"

# the games: ann wins hers, the third White resigns
prints() { (cd "$s" && find . -type f ! -name .lock -exec stat -c '%n %i' {} + | LC_ALL=C sort); }
for b in $boards; do
	wu=$(sed -n 's/^white: //p' "$h/games/$b.game")
	[ "$wu" != ann ] || wu=$(sed -n 's/^black: //p' "$h/games/$b.game")
	prints >"$tmp/before"
	go "$wu" "resign $b $wu pw$wu"
	prints >"$tmp/after"
done
check "a game's end rewrote its tournament's page and the board, not another tournament's" sh -c \
    "diff '$tmp/before' '$tmp/after' | grep -q 'tournament/T1.html' && diff '$tmp/before' '$tmp/after' | grep -q 'board/$b.html'"
check "the tournament ended" grep -q '^status: finished' "$h/tournaments/1"
check "... the page: ended, the final standings, the crosstable's marks linking to the boards" sh -c \
    "grep -q '<strong>ended</strong>' '$t' && grep -q '<h2>Final standings</h2>' '$t' &&
     grep -q '<td><a href=\"../board/[0-9]*.html\">1</a></td>' '$t' && grep -q '<td><a href=\"../board/[0-9]*.html\">0</a></td>' '$t' &&
     ! grep -q 'being played</td>' '$t'"
# the checker's winner: the first of the mail's standings
winner=$(grep -l 'final standings' "$h"/mail/ann@example.org/new/* | head -1 | xargs sed -n '/^Standings/,/^Pairings/p' | awk '$1 == "1" { print $2; exit }')
feedread >"$tmp/f5" 2>&1
check "feedparser: T1 ended, won by the first of the final standings ($winner)" sh -c \
    "[ '$winner' = ann ] && grep -q '^tag:example.net,2023-11-14:oustpbm/tournament/T1/ended|Tournament T1 has ended, won by ann: <script>' '$tmp/f5'"
check "... the newest entry first, stable ids (made, begun, ended)" sh -c \
    "sed -n 2p '$tmp/f5' | grep -q '/T1/ended|' && [ \$(grep -c '/T1/' '$tmp/f5') = 3 ]"
check "tournaments.html names the winner" grep -q "<td>ended</td><td>3</td><td>$winner</td>" "$s/tournaments.html"
check "tidy: the ended tournament's page is valid HTML5" valid "$t"
check "xmllint: the feed is still well-formed" xmllint --noout "$s/feed.atom"

# a leaver: withdrawn before half of their games, marked in the crosstable and the standings
go bob "tournament bob pwbob roundrobin -size=5 -players=4-4 Second & last"
for u in bob cat dan eve; do
	go "$u" "join T2 $u pw$u"
done
go eve "withdraw T2 eve pweve"
t2=$s/tournament/T2.html
check "T2 began when full, and eve's withdrawal is marked" sh -c \
    "grep -q '<strong>being played</strong>' '$t2' && grep -q 'eve <span class=\"left\">(left, annulled)</span>' '$t2' &&
     grep -q 'eve left before half of their games: none of their results counts' '$t2'"
check "... her games annulled in the crosstable (x)" sh -c "grep -q '<td>x</td>' '$t2'"
check "tidy: T2's page is valid HTML5" valid "$t2"
check "the feed has both tournaments, T2's name escaped" sh -c \
    "grep -q '<title>Tournament T2 has begun: Second &amp; last</title>' '$s/feed.atom' && xmllint --noout '$s/feed.atom'"

# a tie on everything: the first place shared, in the feed and the list
go cat "tournament cat pwcat roundrobin -size=5 -players=3-3 Three way"
for u in ann bob; do
	go "$u" "join T3 $u pw$u"
done
go cat "join T3 cat pwcat"
for b in $(sed -n 's/^game: .* \([0-9][0-9]*\) \*$/\1/p' "$h/tournaments/3"); do
	wu=$(sed -n 's/^white: //p' "$h/games/$b.game")
	go "$wu" "resign $b $wu pw$wu"
done
check "T3 ended in a three-way tie" sh -c "grep -q '^status: finished' '$h/tournaments/3' && [ \$(grep -c '<tr><td>1</td><td>[a-z]*</td><td>1500</td>' '$s/tournament/T3.html') = 3 ]"
feedread >"$tmp/f6" 2>&1
check "feedparser: the first place of T3 shared by the three" sh -c \
    "grep -q '/T3/ended|Tournament T3 has ended, the first place shared by [a-z]*, [a-z]* and [a-z]*: Three way|' '$tmp/f6'"
check "... and tournaments.html names them" sh -c "grep -q '<td>ended</td><td>3</td><td>[a-z]*, [a-z]* and [a-z]*</td>' '$s/tournaments.html'"

# a damaged tournament file keeps the others on the site, and is said
cp "$h/tournaments/3" "$tmp/t3"
echo 'game: nonsense' >>"$h/tournaments/3"
check "a rebuild with a damaged tournament file: done, the file named on standard error" sh -c \
    "OUSTPBM_TEST_TIME=$((at + 30)) '$bin' -d '$h' web '$tmp/damaged' >/dev/null 2>'$tmp/e' && grep -q 'web: tournaments/3' '$tmp/e' &&
     test -f '$tmp/damaged/tournament/T1.html' && test -f '$tmp/damaged/tournament/T2.html' && ! test -f '$tmp/damaged/tournament/T3.html'"
cp "$tmp/t3" "$h/tournaments/3"

# a site that cannot be written: a tournament's command is answered all the same, the failure logged
mv "$s" "$tmp/site.saved" && echo 'not a directory' >"$s"
go dan "tournament dan pwdan swiss -size=5 Unwritten"
check "an unwritable site: the tournament is made and answered" sh -c \
    "grep -q '^tournament: T4' '$h/tournaments/4' && grep -l 'Subject: Oust tournament T4 Unwritten' '$h'/mail/dan@example.org/new/* >/dev/null"
check "... the failure is logged and said on standard error" sh -c \
    "grep -q 'web: tournaments: input/output error' '$h/log' && grep -q 'oustpbm: web: tournaments: ' '$tmp/stderr'"
rm -f "$s" && mv "$tmp/site.saved" "$s"
go dan "tournaments"
check "... and the next mail writes the missed page" grep -q 'Unwritten' "$s/tournament/T4.html"

# cleanup: a tournament file changed behind the site (an admin's edit) is made again
sed -i 's/^name: Second & last$/name: Second \& final/' "$h/tournaments/2"
OUSTPBM_TEST_TIME=$((at + 60)) "$bin" -d "$h" cleanup >/dev/null 2>&1
check "cleanup remakes the page of a tournament whose file changed" grep -q 'Second &amp; final' "$t2"

# a rebuild writes the same site
check "a full rebuild (oustpbm web) gives the same pages and feed" sh -c \
    "OUSTPBM_TEST_TIME=$((at + 120)) '$bin' -d '$h' web '$tmp/full' >/dev/null && diff -r -x .lock '$s' '$tmp/full'"
check "... and rewriting an up-to-date site writes nothing" sh -c \
    "[ \"\$(OUSTPBM_TEST_TIME=$((at + 180)) '$bin' -d '$h' web)\" = 'web: 0 pages written' ]"
rm -f "$t2"
OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$h" web >/dev/null
check "a rebuild makes a missing tournament page again" test -f "$t2"
done_testing

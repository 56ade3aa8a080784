#!/bin/sh
# tournament-repeat: -repeat tournaments (issue 44) by mail: a round robin
# of 4 with -repeat, one player withdrawing, played to its end: its next
# edition begins at once with the 3 still in it (not the one who left),
# the same director, format and options, ", edition 2", boards and
# pairings mails; the final standings name it; `tournament <id>` and the
# web pages show the link both ways; fsck checks it (and names a broken one).  The second
# edition, a player leaving it, ends with too few for a third: the final
# mail says why.  A knockout's robot entrant is carried over at its level.
# Then the end of a -repeat edition killed with SIGKILL at every durable
# step (OUSTPBM_TEST_CRASH, src/store/store.h), each followed by a cleanup
# alone and, on another copy, by the mail delivered again and a cleanup:
# exactly one next edition, with every board of its start made, never two,
# never none; and the id reserved taken by a new tournament while the
# edition was cut short: another id reserved, still one edition.
# shards: 2
. "$(dirname "$0")/lib.sh"
tmpdir
need "$PY"
at=$T0
go() { # FROM COMMAND: one mail at the next minute; its exit status must be 0
	at=$((at + 60))
	mail "$1@example.org" "$2" | deliver "$h" $at || fail "'$2' from $1 exits $?: $(cat "$tmp/stderr" 2>/dev/null)"
}
# Ends every board of tournament $1 being played (Black resigns), until it is finished.
play() { # TID
	f=$h/tournaments/$1
	while grep -q '^status: running' "$f"; do
		line=$(grep '^game: .* [0-9][0-9]* \*$' "$f" | head -1)
		[ -n "$line" ] || { fail "T$1 runs with no game being played"; return; }
		set -- $line
		go "$5" "resign $7 $5 pw$5"
	done
}
mailto() { # USER SUBJECT-REGEX: the newest mail to USER whose subject matches
	grep -l "^Subject: $2" "$h/mail/$1@example.org/new/"* 2>/dev/null | tail -1
}
# The boards of tournament $2 in home $1 each made with its players: "" when so, else what is wrong.
boards_ok() { # HOME TID
	grep '^game: .* [0-9][0-9]* \*$' "$1/tournaments/$2" | while read -r _ _ _ _ b w board _; do
		grep -q "^black: $b$" "$1/games/$board.game" 2>/dev/null && grep -q "^white: $w$" "$1/games/$board.game" &&
		    grep -q "^tournament: T$2$" "$1/games/$board.game" || echo "board $board is not $b - $w of T$2"
	done | head -1
}

if part; then
h=$tmp/h
mkhome "$h" "max_challenges_per_hour = 0" "max_open_challenges = 0" 'web_dir = site' 'web_url = https://oust.example.org/play'
for u in ann bob cat dan; do
	go "$u" "register $u pw$u"
done
go ann "tournament ann pwann roundrobin -size=5 -noswap -players=3-4 -repeat Spring cup"
check "T1 keeps -repeat" grep -q '^repeat: yes$' "$h/tournaments/1"
m=$(mailto ann 'Oust tournament T1 Spring cup (round robin) made')
check "the reply says the option" grep -q '^Repeat: a new edition with the players still in it at its end$' "$m"
for u in ann bob cat dan; do
	go "$u" "join T1 $u pw$u"
done
check "T1 full: begun" grep -q '^status: running$' "$h/tournaments/1"
go dan "withdraw T1 dan pwdan"
check "dan left T1" grep -q '^player: dan .* left' "$h/tournaments/1"
play 1
check "T1 ended" grep -q '^status: finished$' "$h/tournaments/1"
check "T1 names its next edition" grep -q '^next: T2$' "$h/tournaments/1"
f=$h/tournaments/2
check "T2 is begun at once" grep -q '^status: running$' "$f"
check "T2: the edition's name" grep -q '^name: Spring cup, edition 2$' "$f"
check "T2: edition 2 of T1" sh -c "grep -q '^edition: 2$' '$f' && grep -q '^previous: T1$' '$f'"
check "T2: the same director, format and options" sh -c "grep -q '^director: ann$' '$f' && grep -q '^format: roundrobin$' '$f' &&
    grep -q '^options: -size=5 -noswap$' '$f' && grep -q '^players: 3-4$' '$f' && grep -q '^repeat: yes$' '$f'"
check "T2: ann, bob and cat, not dan who left" test "$(grep '^player:' "$f" | awk '{ print $2 }' | sort | tr '\n' ' ')" = \
    "ann bob cat "
check "T2: three boards, every round at once" test "$(grep -c '^game: .* [0-9][0-9]* \*$' "$f")" = 3
check "T2: each board made with its players" test -z "$(boards_ok "$h" 2)"
b=$(grep '^game: .* [0-9][0-9]* \*$' "$f" | head -1 | awk '{ print $7 }')
check "T2's boards are -size=5 -noswap" sh -c "grep -q '^size: 5$' '$h/games/$b.game' && grep -q '^swap: off$' '$h/games/$b.game'"
for u in ann bob cat; do
	check "$u: the pairings of T2" test -n "$(mailto "$u" 'Oust tournament T2 Spring cup, edition 2 (round robin) has begun')"
	m=$(mailto "$u" 'Oust tournament T1 .*final standings')
	check "$u: T1's final standings name the next edition" grep -q '^Next edition: T2, begun with the players' "$m"
done
check "dan: no pairings of T2" test -z "$(mailto dan 'Oust tournament T2')"
check "dan: the final standings of T1 all the same" test -n "$(mailto dan 'Oust tournament T1 .*final standings')"
go bob "tournament T1"
check "tournament T1 shows the next edition" grep -q '^Next edition: T2' "$(mailto bob 'Oust tournament T1 Spring cup')"
go bob "tournament T2"
check "tournament T2 shows the edition before" grep -q '^Edition 2: the edition of T1 before it\.$' \
    "$(mailto bob 'Oust tournament T2 Spring cup')"
check "the web page of T1 links its next edition" grep -q '<li>Next edition: <a href="T2.html">T2</a></li>' "$h/site/tournament/T1.html"
check "the web page of T2 links the edition before" \
    grep -q '<li>Edition 2: the edition before it is <a href="T1.html">T1</a></li>' "$h/site/tournament/T2.html"
"$bin" -d "$h" fsck >"$tmp/fsck" 2>&1
check "fsck: the editions' links hold" sh -c "! grep -q 'edition' '$tmp/fsck'"
# the second edition: cat leaves, two are left: no third edition, and the final mail says why
go cat "withdraw T2 cat pwcat"
play 2
check "T2 ended" grep -q '^status: finished$' "$f"
check "T2 has no next edition" sh -c "! grep -q '^next:' '$f' && test ! -f '$h/tournaments/3'"
# (the subject is folded: the body's own words find the mail)
m=$(grep -l '^T2 Spring cup, edition 2 (round robin), directed by ann: finished\.$' "$h/mail/ann@example.org/new/"* | tail -1)
check "T2's final standings say why" grep -q '^No next edition: 2 of its players were still in it at its end, and it$' "$m"
# fsck names a broken link
x=$tmp/x
cp -R "$h" "$x"
sed -i 's/^previous: T1$/previous: T9/' "$x/tournaments/2"
"$bin" -d "$x" fsck >"$tmp/fsck" 2>&1
check "fsck: a next edition naming another is a problem" grep -q '^tournaments/1: its next edition T2 says it follows T9$' "$tmp/fsck"
check "fsck: an edition before that does not exist is a problem" \
    grep -q '^tournaments/2: the edition before it, T9, does not exist$' "$tmp/fsck"
sed -i 's/^final-mailed: yes$/final-mailed: no/' "$x/tournaments/1"
sed -i 's/^next: T2$/next: T7/' "$x/tournaments/1"
"$bin" -d "$x" fsck >"$tmp/fsck" 2>&1
check "fsck: a next edition reserved, not made, before the final mail is a note" \
    grep -q '^tournaments/1: note: its next edition T7 is reserved, not made yet' "$tmp/fsck"
sed -i 's/^final-mailed: no$/final-mailed: yes/' "$x/tournaments/1"
"$bin" -d "$x" fsck >"$tmp/fsck" 2>&1
check "fsck: ... after it, a problem" grep -q '^tournaments/1: its next edition T7 does not exist$' "$tmp/fsck"

# a knockout with the robot: carried over at its level
go bob "tournament bob pwbob knockout -size=5 -players=2-2 -repeat Robot cup"
go bob "join T3 bob pwbob -robot=2"
go cat "join T3 cat pwcat"
check "T3 begun" grep -q '^status: running$' "$h/tournaments/3"
play 3
check "T3 ended, T4 its next edition" sh -c "grep -q '^next: T4$' '$h/tournaments/3' && grep -q '^previous: T3$' '$h/tournaments/4'"
check "T4: the robot at its level, and cat" sh -c "grep -q '^player: robot [0-9]* robot=2' '$h/tournaments/4' &&
    grep -q '^player: cat ' '$h/tournaments/4' && grep -q '^status: running$' '$h/tournaments/4'"
b=$(grep '^game: .* [0-9][0-9]* \*$' "$h/tournaments/4" | awk '{ print $7 }')
check "T4's board has the robot's level" grep -q '^robot-level: 2$' "$h/games/$b.game"
fi

# ---- the end of a -repeat edition killed at each durable step
if part; then
s=$tmp/end
mkhome "$s"
h=$s
for u in p1 p2 p3; do
	go "$u" "register $u pw$u"
done
go p1 "tournament p1 pwp1 roundrobin -size=5 -players=3-3 -repeat Crash Cup"
for u in p1 p2 p3; do
	go "$u" "join T1 $u pw$u"
done
for i in 1 2; do
	set -- $(grep '^game: .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
	go "$5" "resign $7 $5 pw$5"
done
set -- $(grep '^game: .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
mail "$5@example.org" "resign $7 $5 pw$5" crash-repeat@example.net >"$tmp/end.eml"
kills=0
by_cleanup=0
stolen=
one_edition() { # HOME K WHEN: exactly one next edition of T1, begun whole, the mails sent
	n=$(grep -l '^previous: T1$' "$1"/tournaments/[0-9]* 2>/dev/null | wc -l)
	[ "$n" = 1 ] || { bad="$bad; killed at step $2, $3: $n next editions"; return; }
	e=$(grep -l '^previous: T1$' "$1"/tournaments/[0-9]*)
	e=${e##*/}
	grep -q "^next: T$e$" "$1/tournaments/1" || bad="$bad; killed at step $2, $3: T1 does not name T$e"
	grep -q '^status: running$' "$1/tournaments/$e" || bad="$bad; killed at step $2, $3: T$e not begun"
	nb=$(grep -c '^game: .* [0-9][0-9]* \*$' "$1/tournaments/$e")
	[ "$nb" = 3 ] || bad="$bad; killed at step $2, $3: T$e has $nb boards of 3"
	why=$(boards_ok "$1" "$e")
	[ -z "$why" ] || bad="$bad; killed at step $2, $3: $why"
	grep -q '^final-mailed: yes$' "$1/tournaments/1" || bad="$bad; killed at step $2, $3: T1's standings not mailed"
	for u in p1 p2 p3; do
		grep -l "^Subject: Oust tournament T$e Crash Cup, edition 2 .* has begun" "$1/mail/$u@example.org/new/"* \
		    >/dev/null 2>&1 || bad="$bad; killed at step $2, $3: $u had no pairings of T$e"
		m=$(grep -l "^Subject: Oust tournament T1 .*final standings" "$1/mail/$u@example.org/new/"* 2>/dev/null | tail -1)
		grep -q "^Next edition: T$e," "$m" 2>/dev/null || bad="$bad; killed at step $2, $3: $u's final mail names no T$e"
	done
	[ -z "$(find "$1/outbox/new" -type f 2>/dev/null)" ] || bad="$bad; killed at step $2, $3: committed mail left unsent"
	"$bin" -d "$1" fsck >"$tmp/fsck" 2>&1
	grep '^tournaments/' "$tmp/fsck" | grep -q -v ': note: ' && bad="$bad; killed at step $2, $3: fsck: $(grep '^tournaments/' \
	    "$tmp/fsck" | head -1)"
	games_load "$1" | head -1 | grep . >/dev/null && bad="$bad; killed at step $2, $3: a board does not load"
}
after_kill() { # HOME K: the killed home reads; a copy of it, cleanup alone finishes it
	why=$("$bin" -d "$1" fsck 2>&1 | grep '^tournaments/' | grep -v ': note: ' | head -1)
	[ -z "$why" ] || bad="$bad; killed at step $2: $why"
	why=$(games_load "$1" | head -1)
	[ -z "$why" ] || bad="$bad; killed at step $2: $why"
	rm -rf "$tmp/c"
	cp -R "$1" "$tmp/c"
	# the id reserved, its file not written: a tournament made now takes it; cleanup reserves another
	if [ -z "$stolen" ] && grep -q '^next: T2$' "$1/tournaments/1" && [ ! -f "$1/tournaments/2" ]; then
		stolen=$2
		mail p2@example.org "tournament p2 pwp2 swiss -size=5 Other" crash-steal@example.net |
		    OUSTPBM_TEST_TIME=$((at + 100)) "$bin" -d "$tmp/c" >/dev/null 2>&1
		grep -q '^name: Other$' "$tmp/c/tournaments/2" || bad="$bad; killed at step $2: the new tournament is not T2"
	fi
	OUSTPBM_TEST_TIME=$((at + 200)) "$bin" -d "$tmp/c" cleanup >/dev/null 2>&1
	if grep -q '^status: running$' "$tmp/c/tournaments/1"; then
		# killed before the last game's end was committed: nothing ended, no edition (the mail again ends it)
		if grep -q '^previous: T1$' "$tmp/c"/tournaments/[0-9]* 2>/dev/null || grep -q '^next:' "$tmp/c/tournaments/1"; then
			bad="$bad; killed at step $2, then cleanup: an edition of T1 still running"
		fi
	else
		one_edition "$tmp/c" "$2" "then cleanup"
		by_cleanup=$((by_cleanup + 1))
	fi
}
after_redelivery() { # HOME K
	OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$1" cleanup >/dev/null 2>&1
	one_edition "$1" "$2" "then the mail again"
}
crash_each_step "$s" "$((at + 60)) $((at + 120)) $((at + 180))" "$tmp/end.eml" "" after_kill after_redelivery
check "the end of a -repeat edition killed at each of its $((k - 1)) steps, then cleanup or the mail again: one next edition, begun whole$bad" \
    test -z "$bad"
check "... the kills happened" test "$kills" -gt 10
check "... most of them finished by cleanup alone ($by_cleanup of $((k - 1)))" test "$by_cleanup" -gt $((k / 2))
check "... one of them between the id's reservation and the edition's file (then taken by a tournament)" test -n "$stolen"
fi

done_testing

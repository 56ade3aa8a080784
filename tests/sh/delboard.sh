#!/bin/sh
# delboard: `oustpbm delboard [--dry-run] BOARD` removes a board safely: the
# game file gone, a rated result taken out of the ratings (the file is the
# one --rebuild makes), both players told by mail, the board's web pages
# removed and the site made again, fsck content; --dry-run says what it
# would do and changes nothing; a board that does not exist is exit 66.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
mkhome "$h" 'web_dir = site'
send "$h" alice@example.org "register alice secret" >/dev/null
send "$h" bob@example.com "register bob hunter2" >/dev/null
send "$h" alice@example.org "challenge alice secret bob -size=5" >/dev/null
# two turns with placements each: a game resigned sooner is not rated
for m in "alice@example.org move 101 alice secret C3" "bob@example.com move 101 bob hunter2 A1" \
    "alice@example.org move 101 alice secret E5" "bob@example.com move 101 bob hunter2 A5" \
    "alice@example.org move 101 alice secret E1" "bob@example.com resign 101 bob hunter2"; do
	send "$h" ${m%% *} "${m#* }" >/dev/null
done
send "$h" alice@example.org "challenge alice secret bob -size=7" >/dev/null
check "the setting: board 101 over and rated, 102 being played" sh -c "grep -q '^game: 101 ' '$h/ratings' &&
    [ -f '$h/games/102.game' ] && [ -f '$h/site/board/101.html' ] && [ -f '$h/site/board/101-1.html' ]"
rm -rf "$h/mail"

before=$(store_sum "$h")
out=$("$bin" -d "$h" delboard --dry-run 101 2>&1)
check "delboard --dry-run 101: exit 0, says what it would do" sh -c "echo '$out' | grep -q '^delboard --dry-run: would remove board 101 (alice against bob, over), its result taken out of the ratings; would tell alice and bob by mail; nothing changed\$'"
check "... and changes nothing" sh -c "[ '$(store_sum "$h")' = '$before' ] && [ ! -d '$h/mail' ]"

out=$("$bin" -d "$h" delboard 101 2>&1)
check "delboard 101: exit 0" [ $? = 0 ]
check "... says what it did" sh -c "echo '$out' | grep -q '^board 101 removed (alice against bob), its result taken out of the ratings; 2 players told\$'"
check "... the game file is gone" [ ! -e "$h/games/101.game" ]
check "... its result is out of the ratings" sh -c "! grep -q '^game: 101 ' '$h/ratings'"
cp "$h/ratings" "$tmp/ratings.after"
"$bin" -d "$h" ratings --rebuild >/dev/null 2>&1
check "... the ratings file is the one --rebuild makes" cmp -s "$h/ratings" "$tmp/ratings.after"
check "... alice and bob are told" sh -c "grep -q '^Subject: Oust Board 101 removed' '$h/mail/alice@example.org/new/'* &&
    grep -q '^Subject: Oust Board 101 removed' '$h/mail/bob@example.com/new/'*"
check "... the board's pages are gone, the index no longer links them" sh -c "[ -z \"\$(ls '$h/site/board' | grep '^101[.-]')\" ] &&
    ! grep -q 'board/101.html' '$h/site/index.html' && [ -f '$h/site/board/102.html' ]"
check "... logged with its time" grep -q '^[0-9-]*T[0-9:]*Z admin delboard 101: alice against bob removed' "$h/log"
check "... fsck finds nothing wrong" sh -c "'$bin' -d '$h' fsck >/dev/null"
check "... board 102 goes on" [ "$(rc send "$h" bob@example.com "move 102 bob hunter2 C3")" = 0 ]
check "delboard 101 again: no such board, exit 66" [ "$(rc "$bin" -d "$h" delboard 101)" = 66 ]
check "delboard with a bad number: exit 64" [ "$(rc "$bin" -d "$h" delboard 10x)" = 64 ]
check "delboard with no board: exit 64" [ "$(rc "$bin" -d "$h" delboard)" = 64 ]
done_testing

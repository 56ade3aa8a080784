#!/bin/sh
# community: observers and open challenges seen by the admin's commands and
# by cron: fsck takes the open seat and the observers, list and show say an
# open challenge waits, cleanup reminds neither an open challenge nor an
# observer, the web site leaves an open challenge out until it is taken,
# and deluser drops the account from the boards it observes and from the
# watchers of every board.
. "$(dirname "$0")/lib.sh"
tmpdir
h=$tmp/h
mkhome "$h"
for m in "alice@example.org|register alice secret" "bob@example.com|register bob hunter2" \
    "carol@example.net|register carol pw3" "alice@example.org|challenge alice secret * -size=5" \
    "alice@example.org|challenge alice secret bob -size=5" "carol@example.net|subscribe 102 carol pw3" \
    "carol@example.net|subscribe carol pw3 all" "carol@example.net|notify carol pw3 on"; do
	mail "${m%%|*}" "${m#*|}" | deliver "$h" $T0 ||
	    fail "'${m#*|}' exits $?"
done
grep -q '^white: \*$' "$h/games/101.game" && pass "the open seat is * in the game file" ||
    fail "no open seat in board 101"
grep -q '^observers: carol$' "$h/games/102.game" && pass "the game file lists its observer" ||
    fail "board 102 does not list carol"

out=$("$bin" -d "$h" fsck 2>&1)
rc=$?
[ $rc = 0 ] && [ -z "$(printf '%s\n' "$out" | grep -v '^oustpbm: fsck: \|^fsck: no problems found$')" ] &&
    pass "fsck: an open seat and an observer are no problems" || fail "fsck ($rc): $out"
"$bin" -d "$h" list | grep -q '^101 .*open: nobody to move' && pass "list: the open challenge waits" ||
    fail "list: $("$bin" -d "$h" list | grep '^101')"
"$bin" -d "$h" show 101 | head -2 | tr '\n' ' ' | grep -q "an open challenge of alice's, waiting for a player" &&
    pass "show: the open challenge waits" || fail "show: $("$bin" -d "$h" show 101 | head -2)"

# cron ten days later (before challenge_expiry_days, expire.sh): board 102's alice is reminded; nobody for
# the open challenge; carol never
c=$tmp/c
cp -R "$h" "$c"
rm -rf "$c/mail"
OUSTPBM_TEST_TIME=$((T0 + 10 * 86400)) "$bin" -d "$c" cleanup >/dev/null 2>&1 || fail "cleanup exits $?"
grep -q 'cleanup board=102 ok: reminded alice' "$c/log" && pass "cleanup reminds the player to move" ||
    fail "cleanup did not remind alice on 102"
grep -q 'cleanup board=101 ' "$c/log" && fail "cleanup touched the open challenge: $(grep 'board=101' "$c/log")" ||
    pass "cleanup leaves the open challenge alone: no reminder, no time limit"
[ -z "$(ls "$c/mail/carol@example.net/new" 2>/dev/null)" ] && pass "an observer gets no reminder" ||
    fail "carol got mail from cleanup"
grep -q '^white: \*$' "$c/games/101.game" && grep -q '^status: playing$' "$c/games/101.game" &&
    pass "... and the open challenge is still open" || fail "the open challenge changed"

# the web site: board 102, not the open challenge; it comes once taken
mkdir "$tmp/web"
"$bin" -d "$h" web "$tmp/web" >/dev/null 2>&1 || fail "web exits $?"
[ -f "$tmp/web/board/102.html" ] || [ -d "$tmp/web/board/102" ] || ls "$tmp/web/board" | grep -q '^102' &&
    pass "web: board 102 has its page" || fail "web: no page for 102: $(ls "$tmp/web/board")"
ls "$tmp/web/board" | grep -q '^101' && fail "web: the open challenge has a page" ||
    pass "web: the open challenge has no page yet"
[ -e "$tmp/web/player/*.html" ] && fail "web: a page for the open seat" || pass "web: no player page for the open seat"

# deluser carol: dropped from board 102 and from the watchers file
"$bin" -d "$h" deluser carol >/dev/null 2>&1 || fail "deluser exits $?"
grep -q '^observers:' "$h/games/102.game" && fail "deluser: carol still observes 102" ||
    pass "deluser: carol is dropped from the board she observed"
grep -q '^carol ' "$h/watchers" && fail "deluser: carol still in the watchers file" ||
    pass "deluser: carol is dropped from the watchers of every board"
done_testing

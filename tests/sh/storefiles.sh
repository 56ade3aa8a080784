#!/bin/sh
# storefiles: what an unlucky admin leaves in the home, and how the server
# takes it: a game file copied or restored under another board's name, a
# FIFO, directory or symbolic link where a game file, users or seen should
# be, a read-only home, and the temp files of writes a crash interrupted.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

# run HOME SUBJECT [FROM]: feed a mail (at most 20 s), print the exit status
run() {
	mail "${3:-alice@example.org}" "$2" >"$tmp/in.eml"
	OUSTPBM_TEST_CODE=$REG_CODE timeout 20 "$bin" -d "$1" <"$tmp/in.eml" >/dev/null 2>"$tmp/stderr" &&
	    confirm_pending "$1" "${3:-alice@example.org}" "${OUSTPBM_TEST_TIME:-}" "$(register_pw <"$tmp/in.eml")"
	echo $?
}

# the newest reply to ADDRESS in HOME
last_reply() {
	ls -t "$1/mail/$2/new/"* 2>/dev/null | head -n 1
}

# a home with alice, bob and board 101 (5x5) after alice's first turn
base() {
	mkhome "$1" 'remind_days = 3'
	run "$1" "register alice secret" >/dev/null
	run "$1" "register bob hunter2" bob@example.com >/dev/null
	run "$1" "challenge alice secret bob -size=5" >/dev/null
	run "$1" "move 101 alice secret C3" >/dev/null
}

# ---- 1. a game file whose board: header is another board's
h=$tmp/copy
base "$h"
cp "$h/games/101.game" "$h/games/102.game"	# "restored" under 102
cp "$h/games/101.game" "$tmp/101.before"
cp "$h/games/102.game" "$tmp/102.before"
check "a move to the copy: handled, exit 0" [ "$(run "$h" "move 102 bob hunter2 A5" bob@example.com)" = 0 ]
check "... board 101 is not written through the copy" cmp -s "$h/games/101.game" "$tmp/101.before"
check "... nor the copy itself" cmp -s "$h/games/102.game" "$tmp/102.before"
check "... the player is told what is wrong" \
    grep -q "games/102.game says board 101 in its header, not 102" "$(last_reply "$h" bob@example.com)"
check "... and that the admin must repair it" sh -c "tr '\n' ' ' <'$(last_reply "$h" bob@example.com)' |
    grep -q \"the server's  *admin  *must  *repair  *it\""
check "... the log line says so" sh -c "tail -n 1 '$h/log' | grep -q 'board=102 .* error: board 102 cannot be read (games/102.game says board 101'"
check "... so does stderr" grep -q "games/102.game says board 101 in its header, not 102" "$tmp/stderr"
check "show of the copy is refused the same way" [ "$(run "$h" "show 102" bob@example.com)" = 0 ]
check "... without drawing board 101 as board 102" sh -c "! grep -q 'Board 101' '$(last_reply "$h" bob@example.com)'"
check "games does not list board 101 twice" [ "$(run "$h" "games bob" bob@example.com)" = 0 ]
check "... board 102 is not in the list" sh -c "! grep -q '^  102 ' '$(last_reply "$h" bob@example.com)'"
check "a move to the real board 101 still works" [ "$(run "$h" "move 101 bob hunter2 A5" bob@example.com)" = 0 ]
check "... and is written to 101" grep -q "^turn: 3" "$h/games/101.game"
# cleanup, four days later: a reminder is due on both files
cp "$h/games/101.game" "$tmp/101.before"
rc=$(OUSTPBM_TEST_TIME=$((T0 + 4 * 86400)) "$bin" -d "$h" cleanup 2>"$tmp/stderr"; echo $?)
check "cleanup refuses the copy: exit 65" [ "$rc" = 65 ]
check "... stderr names it" grep -q "board 102: games/102.game says board 101 in its header, not 102" "$tmp/stderr"
check "... the log too" grep -q "cleanup board=102 error: games/102.game says board 101" "$h/log"
check "... the copy is untouched" cmp -s "$h/games/102.game" "$tmp/102.before"
check "... and board 101 was reminded once, by its own file"  [ "$(grep -c '^remind:' "$h/games/101.game")" = 1 ]
check "fsck reports the copy" sh -c "'$bin' -d '$h' fsck 2>/dev/null | grep -q 'games/102.game:.*board 101 in a file named for board 102'"

# the robot's runs: its turn left over on board 101 (an AI fault), the file copied to 102
h=$tmp/robotcopy
mkdir -p "$h"
printf 'from_address = oust@example.net\ntemplates = %s/templates\nrobot_seconds = 1\n' "$top" >"$h/oustpbm.conf"
run "$h" "register alice secret" >/dev/null
run "$h" "challenge alice secret robot -size=5" >/dev/null
mail alice@example.org "move 101#1 alice secret C3" | OUSTPBM_TEST_ROBOT=fail OUSTPBM_TEST_ROBOT_PLAYOUTS=64 \
    "$bin" -d "$h" >/dev/null 2>&1
cp "$h/games/101.game" "$h/games/102.game"
cp "$h/games/102.game" "$tmp/102.before"
rc=$(OUSTPBM_TEST_ROBOT_PLAYOUTS=64 OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" robot 2>"$tmp/stderr"; echo $?)
check "oustpbm robot skips the copy (exit $rc), as a file that does not parse" [ "$rc" = 0 ]
check "... leaves the copy as it was" cmp -s "$h/games/102.game" "$tmp/102.before"
check "... and played board 101 once, from its own file" sh -c '[ "$(grep -c "^3\." "$1")" -le 1 ] && grep -q "^turn: 3\$" "$1"' sh "$h/games/101.game"

# ---- 5. FIFOs, directories and symbolic links where data files should be
h=$tmp/kinds
base "$h"
mkfifo "$h/games/104.game"
ln -s /etc/passwd "$h/games/105.game"
mkdir "$h/games/106.game"
t=$(date +%s)
check "a move to a FIFO game file: answered, exit 0" [ "$(run "$h" "move 104 alice secret C3")" = 0 ]
check "... at once, not hanging on the FIFO" [ $(($(date +%s) - t)) -lt 10 ]
check "... the reply says the file is not a regular file" \
    grep -q "games/104.game is a FIFO, not a regular file" "$(last_reply "$h" alice@example.org)"
check "... stderr says it is a FIFO" grep -q "games/104.game is a FIFO, not a regular file" "$tmp/stderr"
check "a move to a symbolic link: exit 0" [ "$(run "$h" "move 105 alice secret C3")" = 0 ]
check "... the link's target is not quoted back" sh -c "! grep -q 'root' '$(last_reply "$h" alice@example.org)'"
check "... the reply says it is not a regular file" \
    grep -q "games/105.game is a symbolic link, not a regular file" "$(last_reply "$h" alice@example.org)"
check "show of a symbolic link: the same" [ "$(run "$h" "show 105")" = 0 ]
check "... no 'root' in the reply" sh -c "! grep -q 'root' '$(last_reply "$h" alice@example.org)'"
check "a move to a directory: exit 0, refused" [ "$(run "$h" "move 106 alice secret C3")" = 0 ]
check "... the reply says it is not a regular file" \
    grep -q "games/106.game is a directory, not a regular file" "$(last_reply "$h" alice@example.org)"
check "a new challenge skips the numbers taken by them" [ "$(run "$h" "challenge alice secret bob -size=5")" = 0 ]
check "... and makes board 102" [ -f "$h/games/102.game" ]
check "cleanup is not held up by them" \
    sh -c "timeout 20 '$bin' -d '$h' cleanup >/dev/null 2>&1; [ \$? -ne 124 ]"
out=$(timeout 20 "$bin" -d "$h" fsck 2>/dev/null)
check "fsck reports the FIFO" sh -c "echo '$out' | grep -q '^games/104.game: a FIFO, not a regular file'"
check "fsck reports the symbolic link" sh -c "echo '$out' | grep -q '^games/105.game: a symbolic link, not a regular file'"
check "fsck reports the directory" sh -c "echo '$out' | grep -q '^games/106.game: a directory, not a regular file'"

h=$tmp/users
base "$h"
mv "$h/users" "$h/users.real"
mkfifo "$h/users"
rc=$(run "$h" "games alice")
check "users a FIFO: the mail fails at once with exit 75 (kept by the MTA), no hang" [ "$rc" = 75 ]
check "... stderr says users is a FIFO" grep -q "users is a FIFO, not a regular file" "$tmp/stderr"
check "fsck reports it" sh -c "timeout 20 '$bin' -d '$h' fsck 2>/dev/null | grep -q '^users: a FIFO, not a regular file'"
rm "$h/users"
ln -s users.real "$h/users"
check "users a symbolic link: not followed, exit 75" [ "$(run "$h" "games alice")" = 75 ]
check "... stderr says users is a symbolic link" grep -q "users is a symbolic link, not a regular file" "$tmp/stderr"
check "fsck reports it" sh -c "timeout 20 '$bin' -d '$h' fsck 2>/dev/null | grep -q '^users: a symbolic link, not a regular file'"
rm "$h/users"
mv "$h/users.real" "$h/users"
rm -f "$h/seen"
mkfifo "$h/seen"
check "seen a FIFO: exit 75 at once, no hang" [ "$(run "$h" help)" = 75 ]
check "... stderr says seen is a FIFO" grep -q "seen is a FIFO, not a regular file" "$tmp/stderr"
check "fsck reports it" sh -c "timeout 20 '$bin' -d '$h' fsck 2>/dev/null | grep -q '^seen: a FIFO, not a regular file'"
rm "$h/seen"
mkdir "$h/seen"
check "seen a directory: exit 75" [ "$(run "$h" help)" = 75 ]
check "... stderr says seen is a directory" grep -q "seen is a directory, not a regular file" "$tmp/stderr"
check "fsck reports it" sh -c "timeout 20 '$bin' -d '$h' fsck 2>/dev/null | grep -q '^seen: a directory, not a regular file'"

# ---- games: the index of boards per player, and a capped reply
h=$tmp/index
base "$h"
echo "max_open_boards = 0" >>"$h/oustpbm.conf"	# alice is in 251 boards here
run "$h" "register carol pw3" carol@example.net >/dev/null
rm -rf "$h/players"	# a home from before the index
i=102
while [ $i -le 351 ]; do
	sed "s/^board: 101\$/board: $i/" "$h/games/101.game" >"$h/games/$i.game"
	i=$((i + 1))
done
echo 352 >"$h/games/next-board"
check "games alice with 251 boards and no index: exit 0" [ "$(run "$h" "games alice")" = 0 ]
r=$(last_reply "$h" alice@example.org)
check "... all 251 counted" grep -q "^Boards of alice: 251, 251 still being played" "$r"
check "... the newest 200 listed, the older ones said to be left out" \
    sh -c "grep -q '(the 51 older boards are not listed: only the newest 200 are)' '$r' && grep -q '^  351 ' '$r' && ! grep -q '^  151 ' '$r'"
check "... the index was built: alice's list and the mark" [ "$(wc -l <"$h/players/alice")" = 251 -a -f "$h/players/.complete" ]
run "$h" "games carol" carol@example.net >/dev/null
check "... carol plays on no board" grep -q "carol plays on no board" "$(last_reply "$h" carol@example.net)"
check "a challenge adds the new board to both lists" \
    sh -c "[ \"\$(printf 'From: alice@example.org\nSubject: challenge alice secret carol -size=5\nMessage-ID: <ix.$$@x>\n\n' | OUSTPBM_TEST_TIME=$T0 '$bin' -d '$h' >/dev/null 2>&1; echo \$?)\" = 0 ] && grep -q '^352\$' '$h/players/alice' && grep -q '^352\$' '$h/players/carol'"
run "$h" "games carol" carol@example.net >/dev/null
check "... and games carol lists it" grep -q "^  352 " "$(last_reply "$h" carol@example.net)"
check "fsck is content with the index" sh -c "'$bin' -d '$h' fsck >/dev/null 2>&1"

# ---- a read-only home: the mail waits (75), it is not bounced (70)
h=$tmp/ro
base "$h"
if unshare -rm true 2>/dev/null; then
	mail bob@example.com "move 101 bob hunter2 A5" >"$tmp/in.eml"
	rc=$(unshare -rm sh -c "mount --bind '$h' '$h' && mount -o remount,ro,bind '$h' '$h' && '$bin' -d '$h' <'$tmp/in.eml' 2>'$tmp/stderr'; echo \$?")
	check "a move to a read-only home: exit 75" [ "$rc" = 75 ]
	check "... stderr says the filesystem is read-only" grep -q "Read-only file system" "$tmp/stderr"
	mail alice@example.org help >"$tmp/in.eml"
	rc=$(unshare -rm sh -c "mount --bind '$h' '$h' && mount -o remount,ro,bind '$h' '$h' && '$bin' -d '$h' <'$tmp/in.eml' 2>/dev/null; echo \$?")
	check "help to a read-only home: exit 75" [ "$rc" = 75 ]
	check "the same move once the home is writable again: exit 0" [ "$("$bin" -d "$h" <"$tmp/in.eml" >/dev/null 2>&1; echo $?)" = 0 ]
else
	skip "no user namespaces (unshare -rm) to mount the home read-only"
	skip ""
	skip ""
	skip ""
fi

# ---- cleanup removes the temp files crashed writes left, once a day old
h=$tmp/tmpfiles
base "$h"
mkdir -p "$h/outbox/new"
old=$((T0 - 2 * 86400))
young=$((T0 - 3600))
for f in games/.101.game.99999.1.tmp .users.99999.2.tmp .seen.99999.3.tmp outbox/new/.1700.M1P2Q3.host.99999.4.tmp; do
	echo junk >"$h/$f"
	touch -d "@$old" "$h/$f"
done
echo young >"$h/games/.101.game.99998.1.tmp"
touch -d "@$young" "$h/games/.101.game.99998.1.tmp"
echo data >"$h/games/.notatemp"
touch -d "@$old" "$h/games/.notatemp"
check "cleanup: exit 0" [ "$("$bin" -d "$h" cleanup 2>/dev/null; echo $?)" = 0 ]
check "... the old temp file of a game is gone" [ ! -e "$h/games/.101.game.99999.1.tmp" ]
check "... and those of users and seen" sh -c '[ ! -e "$1/.users.99999.2.tmp" ] && [ ! -e "$1/.seen.99999.3.tmp" ]' sh "$h"
check "... and the one in outbox/new" [ ! -e "$h/outbox/new/.1700.M1P2Q3.host.99999.4.tmp" ]
check "... one less than a day old is kept" [ -e "$h/games/.101.game.99998.1.tmp" ]
check "... a dot file not named like a temp file is kept" [ -e "$h/games/.notatemp" ]
check "... the log counts them" grep -q "cleanup board=0 ok: removed 4 temp files of interrupted writes" "$h/log"
check "fsck no longer reports old temp files" sh -c "! '$bin' -d '$h' fsck 2>/dev/null | grep -q '99999'"
done_testing

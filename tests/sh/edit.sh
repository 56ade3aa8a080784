#!/bin/sh
# edit: `oustpbm edit BOARD` changes a game file under the board's lock:
# $EDITOR on a copy, checked as fsck checks it, installed atomically with a
# backup; a bad edit installs nothing and keeps the copy; a mail for the
# board during the edit waits for the lock and exits 75, then succeeds.
. "$(dirname "$0")/lib.sh"
tmpdir
unset VISUAL
export OUSTPBM_TEST_TIME=$T0 TMPDIR="$tmp"

h=$tmp/home
mkhome "$h" 'lock_timeout_ms = 300'
send "$h" alice@example.org "register alice secret" >/dev/null
send "$h" bob@example.com "register bob hunter2" >/dev/null
send "$h" alice@example.org "challenge alice secret bob -size=5" >/dev/null
send "$h" alice@example.org "move 101 alice secret C3" >/dev/null
g=$h/games/101.game
cp "$g" "$tmp/orig"

# editors as scripts: one postpones the next reminder (a change the check
# accepts), one changes the size (the history no longer fits), one changes
# nothing, one fails
cat >"$tmp/ed-ok" <<'EOS'
#!/bin/sh
sed -i 's/^remind: .*/remind: 2030-01-01T00:00:00Z/' "$1"
EOS
cat >"$tmp/ed-bad" <<'EOS'
#!/bin/sh
sed -i 's/^size: 5$/size: 6/' "$1"
EOS
cat >"$tmp/ed-none" <<'EOS'
#!/bin/sh
exit 0
EOS
cat >"$tmp/ed-fail" <<'EOS'
#!/bin/sh
echo garbage >"$1"
exit 3
EOS
# waits, the copy open, until told to go on: a long edit session
cat >"$tmp/ed-slow" <<'EOS'
#!/bin/sh
touch "$TMPDIR/editing"
while [ ! -f "$TMPDIR/go" ]; do sleep 0.05; done
EOS
chmod +x "$tmp"/ed-*

check "an unchanged copy: exit 0" [ "$(EDITOR=$tmp/ed-none rc "$bin" -d "$h" edit 101)" = 0 ]
check "... the file is the same" cmp -s "$g" "$tmp/orig"
check "... no backup" [ -z "$(ls "$h/games" | grep '\.bak$')" ]
check "... logged" grep -q 'admin edit board=101: unchanged' "$h/log"

EDITOR=$tmp/ed-bad "$bin" -d "$h" edit 101 >/dev/null 2>"$tmp/err"
check "an edit the check refuses: exit 65" [ $? = 65 ]
check "... the file is the same" cmp -s "$g" "$tmp/orig"
check "... the problem is shown, fsck style" grep -q '^games/101.game:' "$tmp/err"
copy=$(sed -n 's/.*the edited copy is kept in \([^ ]*\)$/\1/p' "$tmp/err")
check "... the edited copy is kept" sh -c "[ -n '$copy' ] && grep -q '^size: 6' '$copy'"
check "... logged" grep -q 'admin edit failed: board 101: the edited file has' "$h/log"
rm -f "$copy"

check "the editor fails: exit 70, nothing changed" sh -c "[ \$(EDITOR='$tmp/ed-fail' '$bin' -d '$h' edit 101 >/dev/null 2>&1 </dev/null; echo \$?) = 70 ] &&
    cmp -s '$g' '$tmp/orig'"
check "... and no copy left behind" [ -z "$(ls "$tmp" | grep '^oustpbm-edit-')" ]

EDITOR="$tmp/ed-ok" "$bin" -d "$h" edit 101 >"$tmp/out" 2>&1
check "an edit the check accepts: exit 0" [ $? = 0 ]
check "... installed" grep -q '^remind: 2030-01-01T00:00:00Z$' "$g"
bak=$(ls "$h/games" | grep '^101\.game\..*\.bak$')
check "... the old file kept as games/101.game.<time>.bak" sh -c "[ -n '$bak' ] && cmp -s '$h/games/$bak' '$tmp/orig'"
check "... said and logged" sh -c "grep -q 'board 101 installed' '$tmp/out' && grep -q 'admin edit board=101: installed; the old file is games/$bak' '$h/log'"
check "... fsck is content" [ "$(rc "$bin" -d "$h" fsck)" = 0 ]
check "... and the game goes on" [ "$(rc send "$h" bob@example.com "move 101 bob hunter2 A5")" = 0 ]
check "a second edit in the same second keeps both backups" sh -c "EDITOR='$tmp/ed-ok' '$bin' -d '$h' edit 101 >/dev/null 2>&1 &&
    [ \$(ls '$h/games' | grep -c '^101\.game\..*\.bak\$') = 2 ]"

check "no such board: exit 66" [ "$(EDITOR=$tmp/ed-none rc "$bin" -d "$h" edit 150)" = 66 ]
check "not a board: exit 64" [ "$(EDITOR=$tmp/ed-none rc "$bin" -d "$h" edit nine)" = 64 ]

# the lock is held for the whole edit: a move mail meanwhile exits 75 and changes nothing
cp "$g" "$tmp/before"
EDITOR=$tmp/ed-slow "$bin" -d "$h" edit 101 >/dev/null 2>&1 &
ed=$!
i=0
while [ ! -f "$tmp/editing" ] && [ "$i" -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "a move during the edit: exit 75 (the MTA delivers it again)" [ "$(rc send "$h" alice@example.org "move 101 alice secret E1")" = 75 ]
check "... the board is untouched" cmp -s "$g" "$tmp/before"
touch "$tmp/go"
wait "$ed"
check "the edit ends: exit 0" [ $? = 0 ]
check "the move delivered again: exit 0" [ "$(rc send "$h" alice@example.org "move 101 alice secret E1")" = 0 ]
check "... and played" grep -q 'E1' "$g"

#!/bin/sh
# rootowner: root acts as the home's owner (src/store/owner.h).  Run as
# root on a home that nobody owns, every command, the mail included,
# becomes nobody (groups, group, user) before it touches the home, and
# leaves no file owned by root in it; init in a folder of nobody's makes a
# home of nobody's.  The owner's groups come from the group database, or
# are the home's group when the owner has no passwd entry.  A switch that
# the kernel refuses (no CAP_SETUID) stops the command (77; a mail 75,
# kept by the MTA).  Another user who is not root is still refused (77).
# What nobody reads is a world-readable copy (templates, the editor), never
# the checkout.  Skipped, saying so, when not root.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "root acts as the owner: run make check as root for this test"
need setpriv
tmpdir
public
mkdir "$tmp/nob"
chmod 755 "$tmp/nob"
chown nobody "$tmp/nob"
nobody_uid=$(id -u nobody)
rootfiles() { # HOME: the files and folders root owns in it, one a line
	find "$1" -user root
}
noroot() { [ -z "$(rootfiles "$1")" ]; }

# ---- init in nobody's folder: nobody's home
"$bin" init "$tmp/nob/fresh" >/dev/null 2>"$tmp/err"
check "root: init in a folder of nobody's: exit 0" [ $? = 0 ]
check "... the home is nobody's" [ "$(stat -c %U "$tmp/nob/fresh")" = nobody ]
check "... nothing in it root's" noroot "$tmp/nob/fresh"
mkdir "$tmp/nob/empty"
chown nobody "$tmp/nob/empty"
check "init on an empty folder of nobody's: nobody's home" sh -c "'$bin' init '$tmp/nob/empty' >/dev/null &&
    [ \$(stat -c %U '$tmp/nob/empty/oustpbm.conf') = nobody ] && [ -z \"\$(find '$tmp/nob/empty' -user root)\" ]"

# ---- a home of nobody's, the test configuration (the shell's files chowned)
h=$tmp/nob/home
mkhome "$h" "templates = $ptemplates" 'web_dir = site' 'robot_seconds = 1'
chown -R nobody "$h"
export OUSTPBM_TEST_TIME=$T0
export OUSTPBM_TEST_ROBOT=first

# every command as root; after each, nothing of root's in the home
n_before=0
each() { # DESC WANT CMD...: CMD (run as root) exits WANT and leaves no file of root's
	lib_d=$1
	lib_w=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	lib_r=$?
	if [ "$lib_r" != "$lib_w" ]; then
		fail "$lib_d: exit $lib_r, not $lib_w ($(head -c 300 "$tmp/err"))"
	elif ! noroot "$h"; then
		fail "$lib_d: root's files left: $(rootfiles "$h" | tr '\n' ' ')"
	else
		pass "$lib_d: exit $lib_w, nothing of root's left"
	fi
}
mailed() { # FROM SUBJECT: a mail as root, the MTA's pipe (a register confirmed: lib.sh's deliver)
	mail "$1" "$2" | deliver "$h"
}
check "a mail as root (register, then its confirm): exit 0" mailed alice@example.org 'register alice secret'
check "... nothing of root's" noroot "$h"
check "... the log and the reply nobody's" sh -c "[ \$(stat -c %U '$h/log') = nobody ] &&
    [ \$(stat -c %U '$h/mail/alice@example.org/new') = nobody ]"
mailed bob@example.com 'register bob secret'
check "a challenge by mail as root" mailed alice@example.org 'challenge alice secret bob -size=5'
check "... answered, nothing of root's" sh -c "grep -q 'ok: new board 101' '$h/log' && [ -z \"\$(find '$h' -user root)\" ]"
check "a challenge of the robot (its turn played by the mail's process)" mailed bob@example.com 'challenge bob secret robot -size=5 -white'
check "... nothing of root's" noroot "$h"

printf '#!/bin/sh\nid -un >%s/editor.who\n' "$tmp" >"$tmp/ed"
chmod 755 "$tmp/ed"
: >"$tmp/editor.who"
chmod 666 "$tmp/editor.who"
each "adduser" 0 "$bin" -d "$h" adduser carol carol@example.org Carol
each "passwd" 0 "$bin" -d "$h" passwd carol
each "list" 0 "$bin" -d "$h" list
each "show" 0 "$bin" -d "$h" show 101
each "export" 0 "$bin" -d "$h" export 101
cp "$tmp/out" "$tmp/101.sgf"
chmod 644 "$tmp/101.sgf"
each "delboard" 0 "$bin" -d "$h" delboard 101
each "import" 0 "$bin" -d "$h" import "$tmp/101.sgf" 150
each "edit (the editor run as nobody)" 0 env EDITOR="$tmp/ed" "$bin" -d "$h" edit 150
check "... the editor ran as nobody" grep -qx nobody "$tmp/editor.who"
each "fsck" 0 "$bin" -d "$h" fsck
each "status" 1 "$bin" -d "$h" status
each "web" 0 "$bin" -d "$h" web
check "... the site nobody's" [ "$(stat -c %U "$h/site")" = nobody ]
each "ratings --rebuild" 0 "$bin" -d "$h" ratings --rebuild
each "deluser" 0 "$bin" -d "$h" deluser carol
each "robot" 0 "$bin" -d "$h" robot
each "cleanup" 0 "$bin" -d "$h" cleanup
each "flush" 0 "$bin" -d "$h" flush
each "flush --all" 0 "$bin" -d "$h" flush --all
each "outbox" 0 "$bin" -d "$h" outbox
each "outbox retry all" 0 "$bin" -d "$h" outbox retry all
each "robot-mail --queued (no robot host: refused, 75)" 75 "$bin" -d "$h" robot-mail --queued
each "retire" 0 "$bin" -d "$h" retire
check "... a mail as root to the retired home: exit 69" [ "$(mail dave@example.org help | "$bin" -d "$h" >/dev/null 2>&1; echo $?)" = 69 ]
each "retire --undo" 0 "$bin" -d "$h" retire --undo
each "--force-owner (the old flag, accepted)" 0 "$bin" --force-owner -d "$h" list
check "the whole home: nobody's" [ -z "$(find "$h" ! -user nobody)" ]

# ---- an owner with no passwd entry: its uid, the home's group
mkdir "$tmp/nopw"
chmod 755 "$tmp/nopw"
"$bin" init "$tmp/nopw/h" >/dev/null
printf 'from_address = oust@example.net\ntemplates = %s\ntransport = maildir\n' "$ptemplates" >"$tmp/nopw/h/oustpbm.conf"
chown -R 4242:4243 "$tmp/nopw/h"
check "a home of uid 4242 (no passwd entry): a mail as root, exit 0" \
    [ "$(mail erin@example.org help | "$bin" -d "$tmp/nopw/h" >/dev/null 2>&1; echo $?)" = 0 ]
check "... the files uid 4242's, group 4243" [ -z "$(find "$tmp/nopw/h" ! -user 4242 -o ! -group 4243)" ]

# ---- the switch refused by the kernel: nothing runs
nolog=$(wc -l <"$h/log")
setpriv --bounding-set=-setgid,-setuid "$bin" -d "$h" list >/dev/null 2>"$tmp/err"
check "root without CAP_SETUID/SETGID: an admin command exits 77" [ $? = 77 ]
check "... saying why" grep -q "^oustpbm: cannot take the groups of $h's owner (uid $nobody_uid): Operation not permitted" "$tmp/err"
check "... a mail exits 75 (the MTA keeps it)" \
    [ "$(mail frank@example.org help | setpriv --bounding-set=-setgid,-setuid "$bin" -d "$h" >/dev/null 2>&1; echo $?)" = 75 ]
check "... nothing written" sh -c "[ \$(wc -l <'$h/log') = $nolog ] && [ -z \"\$(find '$h' -user root)\" ]"

# ---- another user, not root: refused (the home opened to it, so that it gets that far)
chmod 755 "$h"
chmod 644 "$h/oustpbm.conf"
setpriv --reuid=daemon --regid=daemon --clear-groups "$bin" -d "$h" list >/dev/null 2>"$tmp/err"
check "daemon on nobody's home: exit 77" [ $? = 77 ]
check "... told to run as nobody or as root" grep -q "belongs to nobody, not to daemon: run oustpbm as nobody, or as root (which acts as nobody)" "$tmp/err"
done_testing

#!/bin/sh
# install: `make install` and `make uninstall`, in a copy of the checkout so
# that the checkout's own ./oustpbm is left alone:
#   - PREFIX=<tmp>/prefix: the installed program, run from there after the
#     copy of the checkout is deleted, finds its templates in the install and
#     answers a mail;
#     `init` there prints the installed paths, the installed crontab and
#     procmailrc name the installed program, a second install writes
#     nothing into the checkout, and `make uninstall` with
#     another PREFIX fails saying which one was used, with this one leaves
#     nothing under the PREFIX, folders included;
#   - DESTDIR=<tmp>/stage PREFIX=/usr: exactly the expected files, and
#     `make uninstall` leaves no file behind.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0
MAKE=${MAKE:-make}


# the copy: sources, and the objects with their times, so only the objects
# that hold a path (reply.o, admin_init.o...) are compiled again
src=$tmp/src
mkdir -p "$src/build"
cp -p Makefile "$src/"
cp -pr src templates scripts doc "$src/"
cp -pr build/obj build/paths "$src/build/" 2>/dev/null

# ---- PREFIX: the installed program on its own
pre=$tmp/prefix
check "make install PREFIX=$pre" sh -c "$MAKE -s -C '$src' install PREFIX='$pre' >'$tmp/make.out' 2>&1"
check "... the data directory is compiled in" grep -q "DATADIR=$pre/share/oustpbm" "$src/build/paths"
check "... the installed crontab's PATH names the installed program's folder" grep -q "^PATH=$pre/bin:/usr/bin:/bin\$" "$pre/share/oustpbm/scripts/crontab"
check "... the installed procmailrc runs the installed program" grep -q "^OUSTPBM=\${OUSTPBM:-$pre/bin/oustpbm}\$" "$pre/share/oustpbm/scripts/procmailrc"
check "... no placeholder left in the installed scripts" sh -c "! grep -r '@[A-Z]*DIR@' '$pre/share/oustpbm/scripts'"
check "... the record of the install lists the program" grep -qx "$pre/bin/oustpbm" "$pre/share/oustpbm/installed"
# the install itself writes nothing into the checkout (as root after a
# user's make it left root's files in build/): built, a second one adds nothing
touch "$tmp/stamp"
check "make install again, built already: nothing written into the checkout" sh -c "
    $MAKE -s -C '$src' install PREFIX='$pre' >'$tmp/make.out' 2>&1 && [ -z \"\$(find '$src' -newer '$tmp/stamp')\" ]"
check "make uninstall with another PREFIX: fails, naming the PREFIX used" sh -c "
    ! $MAKE -s -C '$src' uninstall PREFIX='$tmp/elsewhere' >'$tmp/un.out' 2>&1 && grep -q 'PREFIX=$pre' '$tmp/un.out'"
check "... and removes nothing" [ -x "$pre/bin/oustpbm" ]
keep=$tmp/keep
mkdir -p "$keep"
cp -p "$src/Makefile" "$keep/"
mkdir -p "$keep/build"
rm -rf "$src"
check "the copy of the checkout is gone" [ ! -e "$src" ]
h=$tmp/home
mkdir -p "$h"
echo 'from_address = oust@example.net' >"$h/oustpbm.conf"
check "the installed program handles a mail: exit 0" sh -c "printf 'From: alice@example.org\nSubject: help\n\n' | '$pre/bin/oustpbm' -d '$h'"
check "... its help reply, made from the installed templates, is delivered" \
    sh -c "grep -q 'Mark Steere' \"\$(ls '$h/mail/alice@example.org/new/'* | head -1)\""
# registered and confirmed with the codes mailed (random: the installed program has no test hooks)
printf 'From: alice@example.org\nSubject: register alice secret\n\n' | "$pre/bin/oustpbm" -d "$h"
printf 'From: alice@example.org\nSubject: Re: Oust registration code for alice\n\n%s secret\n' \
    "$(code_in "$h" alice@example.org)" | "$pre/bin/oustpbm" -d "$h"
printf 'From: bob@example.com\nSubject: register bob secret\n\n' | "$pre/bin/oustpbm" -d "$h"
printf 'From: bob@example.com\nSubject: confirm bob %s secret\n\n' "$(code_in "$h" bob@example.com)" |
    "$pre/bin/oustpbm" -d "$h"
check "... a register (confirmed by a reply holding the code and the password, and by confirm) and a challenge work" sh -c "
grep -q '^alice:' '$h/users' && grep -q '^bob:' '$h/users' &&
printf 'From: alice@example.org\nSubject: challenge alice secret bob\n\n' | '$pre/bin/oustpbm' -d '$h' &&
grep -q '^Subject: Oust Board 101 alice vs bob' '$h/mail/bob@example.com/new/'*"
check "... and the installed templates are the ones used" sh -c "
echo 'Reworded help.' >'$pre/share/oustpbm/templates/help.txt' &&
printf 'From: carol@example.org\nSubject: help\n\n' | '$pre/bin/oustpbm' -d '$h' &&
grep -q 'Reworded help.' \"\$(ls '$h/mail/carol@example.org/new/'* | head -1)\""
check "the installed --version" sh -c "'$pre/bin/oustpbm' --version | grep -q '^oustpbm [0-9]'"
check "the installed admin commands: list" sh -c "'$pre/bin/oustpbm' -d '$h' list | grep -q '^101 '"
check "the installed man page renders" sh -c "MANWIDTH=80 man -l '$pre/share/man/man1/oustpbm.1' 2>/dev/null | grep -q 'play-by-e-mail server for Oust'"
check "... and names the PREFIX's paths: no @BINDIR@ or other placeholder left" sh -c "
    ! grep -q '@[A-Z]*DIR@' '$pre/share/man/man1/oustpbm.1' &&
    grep -qF 'OUSTPBM=\${OUSTPBM:\\-$pre/bin/oustpbm}' '$pre/share/man/man1/oustpbm.1' &&
    grep -qF '$pre/etc/oustpbm/oustpbm.conf' '$pre/share/man/man1/oustpbm.1'"
"$pre/bin/oustpbm" init "$tmp/home2" >"$tmp/init.out"
check "init prints the installed procmailrc and program" sh -c "grep -qx 'INCLUDERC=$pre/share/oustpbm/scripts/procmailrc' '$tmp/init.out' &&
    grep -qx 'OUSTPBM=$pre/bin/oustpbm' '$tmp/init.out' && grep -q '^PATH=$pre/bin:' '$tmp/init.out'"
# uninstall from a bare Makefile: the record alone says what to remove
check "make uninstall PREFIX=$pre (the checkout gone: only its Makefile)" sh -c "$MAKE -s -C '$keep' uninstall PREFIX='$pre' >'$tmp/make.out' 2>&1"
check "... leaves nothing under the PREFIX, folders included" [ ! -e "$pre" ]
check "... and again: nothing installed there, exit non-zero" sh -c "! $MAKE -s -C '$keep' uninstall PREFIX='$pre' >'$tmp/make.out' 2>&1"


# ---- DESTDIR: a staged install, then uninstall
src=$tmp/src2
mkdir -p "$src/build"
cp -p "$top/Makefile" "$src/"
(cd "$top" && cp -pr src templates scripts doc "$src/" && cp -pr build/obj build/paths "$src/build/" 2>/dev/null)
stage=$tmp/stage
check "make install DESTDIR=$stage PREFIX=/usr" sh -c "$MAKE -s -C '$src' install DESTDIR='$stage' PREFIX=/usr >'$tmp/make.out' 2>&1"
want=$( (
	echo usr/bin/oustpbm
	echo usr/share/man/man1/oustpbm.1
	for f in "$top"/templates/*.txt "$top"/templates/*.html; do echo "usr/share/oustpbm/templates/$(basename "$f")"; done
	for f in "$top"/scripts/*; do
		case $(basename "$f") in install-deps | demo) ;; *) echo "usr/share/oustpbm/scripts/$(basename "$f")" ;; esac
	done
	echo usr/share/oustpbm/installed
) | LC_ALL=C sort)
got=$(cd "$stage" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
check "... exactly the program, the man page, the templates and the scripts" [ "$got" = "$want" ]
check "... the crontab among the scripts" [ -f "$stage/usr/share/oustpbm/scripts/crontab" ]
check "... the program is executable, the rest is not" sh -c "[ -x '$stage/usr/bin/oustpbm' ] && [ ! -x '$stage/usr/share/man/man1/oustpbm.1' ]"
check "... built for /usr" sh -c "grep -q 'DATADIR=/usr/share/oustpbm' '$src/build/paths' && grep -aq '/usr/share/oustpbm' '$stage/usr/bin/oustpbm'"
check "... the record names the files without DESTDIR" grep -qx /usr/bin/oustpbm "$stage/usr/share/oustpbm/installed"
echo 'kept' >"$stage/usr/share/man/man1/other.1"
check "make uninstall DESTDIR=$stage PREFIX=/usr" sh -c "$MAKE -s -C '$src' uninstall DESTDIR='$stage' PREFIX=/usr >'$tmp/make.out' 2>&1"
check "... removes every file it installed, and only those" [ "$(cd "$stage" && find . -type f)" = "./usr/share/man/man1/other.1" ]
check "... and the data directory" [ ! -e "$stage/usr/share/oustpbm" ]

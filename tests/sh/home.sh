#!/bin/sh
# home: the unattended-operation rules of a home (issue 13):
#   - only `oustpbm init DIR` makes a home (a commented oustpbm.conf with
#     every key, its replies handed to the local MTA by SMTP, the transport
#     and .forward/.procmailrc/crontab lines printed); any other
#     command on a missing home exits 78 naming it, and makes nothing;
#   - the default home (~/oustpbm) is the one procmailrc, crontab and the man
#     page name;
#   - root acts as the home's owner (tests/sh/rootowner.sh); a command run
#     by another user than the owner is refused (77 for an admin command,
#     75 for a mail); --force-owner is accepted and does nothing; fsck
#     reports files of other owners;
#   - failures are logged with their cause; EACCES and EROFS exit 75;
#   - mail from cron (X-Cron-Env) and from the server's own account is
#     dropped as automatic; the shipped crontab has PATH= and MAILTO= and
#     its lines run under cron's bare environment;
#   - make asks only for the build packages, make check for the test ones.
. "$(dirname "$0")/lib.sh"
tmpdir
chmod 755 "$tmp"
export OUSTPBM_TEST_TIME=$T0

mail() { # FROM SUBJECT [HEADER]
	printf 'From: %s\nSubject: %s\nMessage-ID: <%s.%s@example.net>\n%s\n\n' "$1" "$2" \
	    "$(echo "$2" | tr -c 'a-z0-9' '-')" "$(date +%N)" "${3:-X-Test: 1}"
}

# ---- init, and no home made by anything else
h=$tmp/srv/oustpbm
check "init with a missing parent: exit 73" [ "$(rc "$bin" init "$h")" = 73 ]
mkdir "$tmp/srv"
"$bin" init "$h" >"$tmp/init.out" 2>"$tmp/init.err"
check "init DIR: exit 0" [ $? = 0 ]
check "... the home is private" [ "$(stat -c %a "$h")" = 700 ]
check "... with games/" [ -d "$h/games" ]
check "... and an oustpbm.conf naming every key" sh -c "
for k in \$(sed -n 's/^	[A-Z]*_KEY(\([a-z_]*\).*/\1/p' '$top/src/base/config.c'); do
	grep -q \"^#*\$k =\" '$h/oustpbm.conf' || { echo \"missing \$k\"; exit 1; }
done"
check "... each with a comment" [ "$(grep -c '^# ' "$h/oustpbm.conf")" -ge "$(grep -c '^#*[a-z_]* =' "$h/oustpbm.conf")" ]
check "... which oustpbm reads without complaint" [ "$(rc "$bin" -d "$h" list)" = 0 ]
check "... it prints the .forward line" grep -qx '"|exec /usr/bin/procmail"' "$tmp/init.out"
check "... and the transport's: the replies go to the local MTA" sh -c "grep -qx 'transport = smtp' '$tmp/init.out' &&
    grep -qx 'smtp_url = smtp://localhost:25' '$tmp/init.out'"
check "... as its oustpbm.conf says (not maildir, which keeps them here)" sh -c "grep -qx 'transport = smtp' '$h/oustpbm.conf' &&
    grep -qx 'smtp_url = smtp://localhost:25' '$h/oustpbm.conf' && ! grep -q '^transport = maildir' '$h/oustpbm.conf'"
check "... which status reports" sh -c "'$bin' -d '$h' status | grep -q '^ok  *transport: smtp to smtp://localhost:25\$'"
check "... and the installed stamp" grep -q '^[0-9-]*T[0-9:]*Z$' "$h/installed"
# the scripts beside the program (build/test/ links the checkout's: make test-bin)
bdir=$(dirname "$bin")
check "... the .procmailrc lines for that home" sh -c "grep -qx 'OUSTPBM_HOME=$h' '$tmp/init.out' &&
    grep -qx 'INCLUDERC=$bdir/scripts/procmailrc' '$tmp/init.out' && grep -qx 'OUSTPBM=$bin' '$tmp/init.out'"
check "... and the crontab lines, with PATH and MAILTO" sh -c "grep -q '^PATH=$bdir:/usr/bin:/bin\$' '$tmp/init.out' &&
    grep -q '^MAILTO=' '$tmp/init.out' && grep -q '^\*/5 \* \* \* \*	oustpbm flush\$' '$tmp/init.out'"
check "init logs" grep -q 'admin init' "$h/log"
check "init on an existing home: exit 73" [ "$(rc "$bin" init "$h")" = 73 ]
printf 'templates = %s/templates\nfrom_address = oust@example.net\nlock_timeout_ms = 300\n' "$top" >"$h/oustpbm.conf"

for c in "list" "queue" "flush" "cleanup" "fsck" "show 101" "adduser zed zed@example.org"; do
	# shellcheck disable=SC2086
	check "$c on a missing home: exit 78" [ "$(rc "$bin" -d "$tmp/nohome" $c)" = 78 ]
done
check "a mail to a missing home: exit 75 (the MTA keeps it)" [ "$(mail a@example.org help | "$bin" -d "$tmp/nohome" >/dev/null 2>&1; echo $?)" = 75 ]
check "... and nothing was made" [ ! -e "$tmp/nohome" ]
"$bin" -d "$tmp/nohome" queue 2>"$tmp/err"
check "... the message names the home and init" grep -q "no oustpbm home $tmp/nohome.*oustpbm init $tmp/nohome" "$tmp/err"
mkdir "$tmp/empty"
check "a directory that is not a home: exit 78" [ "$(rc "$bin" -d "$tmp/empty" queue)" = 78 ]
check "... nothing made in it" [ -z "$(ls -A "$tmp/empty")" ]
# init on a user's home (not empty, no home): refused, nothing made
mkdir "$tmp/userhome"
echo 'alias ll="ls -l"' >"$tmp/userhome/.bashrc"
"$bin" init "$tmp/userhome" >/dev/null 2>"$tmp/err"
check "init on a non-empty directory that is no home: exit 73" [ $? = 73 ]
check "... saying so, with a way out" grep -q "$tmp/userhome is not empty and is not an oustpbm home: .* (say $tmp/userhome/oustpbm)" "$tmp/err"
check "... nothing made in it" [ "$(ls -A "$tmp/userhome")" = .bashrc ]
check "init on an empty directory makes the home" sh -c "mkdir '$tmp/fresh' && '$bin' init '$tmp/fresh' >/dev/null && [ -f '$tmp/fresh/oustpbm.conf' ]"
if [ "$(id -u)" = 0 ]; then
	chown nobody "$tmp/userhome"
	"$bin" -d "$tmp/userhome" list 2>"$tmp/err"
	check "as root, -d on another user's directory that is no home: not a home, exit 78" [ $? = 78 ]
	check "... said so, not 'belongs to nobody'" sh -c "grep -q 'is not an oustpbm home' '$tmp/err' && ! grep -q 'belongs to' '$tmp/err'"
fi

# ---- the one default home: ~/oustpbm
mkdir -p "$tmp/user"
"$bin" init "$tmp/user/oustpbm" >/dev/null
printf 'templates = %s/templates\nfrom_address = oust@example.net\n' "$top" >"$tmp/user/oustpbm/oustpbm.conf"
check "without -d the home is \$HOME/oustpbm" sh -c "cd / && HOME='$tmp/user' '$bin' adduser dflt d@example.org >/dev/null &&
    grep -q '^dflt:' '$tmp/user/oustpbm/users'"
check "... and \$OUSTPBM_HOME comes first" sh -c "HOME=/nonexistent OUSTPBM_HOME='$tmp/user/oustpbm' '$bin' list >/dev/null"
check "procmailrc's default is ~/oustpbm" grep -q '^OUSTPBM_HOME=${OUSTPBM_HOME:-$HOME/oustpbm}$' "$top/scripts/procmailrc"
check "the crontab leaves it to the default" sh -c "! grep -q '^OUSTPBM_HOME=' '$top/scripts/crontab'"
check "the man page says ~/oustpbm" sh -c "MANWIDTH=200 man -l '$top/doc/oustpbm.1' 2>/dev/null | col -b | grep -q 'OUSTPBM_HOME, else ~/oustpbm'"

# ---- the home's owner
"$bin" -d "$h" adduser alice alice@example.org >/dev/null
"$bin" -d "$h" adduser bob bob@example.org >/dev/null
if [ "$(id -u)" = 0 ]; then
	# what nobody reads: a world-readable copy, never the checkout
	public
	other=$tmp/other
	"$bin" init "$other" >/dev/null
	printf 'templates = %s\nfrom_address = oust@example.net\n' "$ptemplates" >"$other/oustpbm.conf"
	chown -R nobody "$other"
	# root acts as the owner (tests/sh/rootowner.sh runs every command so)
	check "root on nobody's home: adduser runs as nobody, exit 0" [ "$(rc "$bin" -d "$other" adduser root1 r@example.org)" = 0 ]
	check "... the users file nobody's" [ "$(stat -c %U "$other/users")" = nobody ]
	check "--force-owner, the old flag, still accepted" [ "$(rc "$bin" -d "$other" --force-owner list)" = 0 ]
	check "... before -d too" [ "$(rc "$bin" --force-owner -d "$other" list)" = 0 ]
	check "as the owner: no refusal" [ "$(rc setpriv --reuid=nobody --regid=nogroup --clear-groups "$pbin" -d "$other" list)" = 0 ]
	# a file root left by hand (a cp as root)
	cp "$other/users" "$tmp/users.copy"
	rm "$other/users"
	cp "$tmp/users.copy" "$other/users"
	check "fsck (run as the owner) reports the files root left" sh -c "
	    setpriv --reuid=nobody --regid=nogroup --clear-groups '$pbin' -d '$other' fsck >'$tmp/fsck.out' 2>&1;
	    [ \$? != 0 ] && grep -q '^users: owned by root, not by the home.s owner' '$tmp/fsck.out'"
	chown -R nobody "$other"
	check "... and nothing once chowned back" [ "$(rc setpriv --reuid=nobody --regid=nogroup --clear-groups "$pbin" -d "$other" fsck)" = 0 ]

	# EACCES under the home (its owner cannot write in it): 75, logged with the cause
	chmod 500 "$other"
	mail a@example.org "register carol secret" | setpriv --reuid=nobody --regid=nogroup --clear-groups "$pbin" -d "$other" >/dev/null 2>&1
	check "a permission error on the home: exit 75, not 70" [ $? = 75 ]
	check "... the log says why" grep -q 'register carol.*tempfail: .*Permission denied' "$other/log"
	chmod 700 "$other"
	mail a@example.org "register carol secret" | setpriv --reuid=nobody --regid=nogroup --clear-groups "$pbin" -d "$other" >/dev/null 2>&1
	check "... fixed, the MTA's next delivery succeeds" [ $? = 0 ]
	# EROFS: a read-only bind mount of the home, where the kernel allows one
	mkdir -p "$tmp/ro"
	if mount --bind "$other" "$tmp/ro" 2>/dev/null && mount -o remount,bind,ro "$tmp/ro" 2>/dev/null; then
		check "a read-only home: exit 75" [ "$(mail a@example.org "register dave secret" | "$bin" -d "$tmp/ro" --force-owner >/dev/null 2>&1; echo $?)" = 75 ]
		umount "$tmp/ro"
	else
		umount "$tmp/ro" 2>/dev/null
		echo "ok $((n += 1)) - # skip: no read-only bind mount here (EROFS maps like EACCES: unit-tested)"
	fi
else
	echo "ok $((n += 1)) - # skip: the owner checks need root to make a home of another user"
fi

# ---- failures are logged
cp "$h/oustpbm.conf" "$tmp/conf.good"
echo 'max_message_bytes = ten' >>"$h/oustpbm.conf"
check "a configuration error: exit 75" [ "$(mail alice@example.org help | "$bin" -d "$h" >/dev/null 2>&1; echo $?)" = 75 ]
check "... logged with its cause" grep -q "mail .* error: configuration error: oustpbm.conf line 4: max_message_bytes 'ten' is not a number" "$h/log"
check "an admin command: exit 78, logged" sh -c "[ \$('$bin' -d '$h' list >/dev/null 2>&1; echo \$?) = 78 ] &&
    grep -q 'admin list failed: configuration error: oustpbm.conf line 4' '$h/log'"
check "flush: exit 78, logged" sh -c "[ \$('$bin' -d '$h' flush >/dev/null 2>&1; echo \$?) = 78 ] &&
    grep -q 'flush failed: configuration error: oustpbm.conf line 4' '$h/log'"
cp "$tmp/conf.good" "$h/oustpbm.conf"
"$bin" -d "$h" show 999 2>/dev/null
check "an admin command's failure is logged" grep -q 'admin show failed: board 999 does not exist' "$h/log"

# ---- automatic mail: cron's and the server account's own
me=$(id -un)
mail "$me@$(hostname)" "help" | "$bin" -d "$h"
check "mail from the server's account (at this host): exit 0" [ $? = 0 ]
check "... dropped unanswered, logged" grep -q "dropped: automatic mail (the sender $me@$(hostname) is the account the server runs as)" "$h/log"
mail "$me@example.net" "help" | "$bin" -d "$h"
check "... at from_address's domain too" grep -q "the sender $me@example.net is the account" "$h/log"
mail "someone@example.org" "help" "X-Cron-Env: <PATH=/usr/bin:/bin>" | "$bin" -d "$h"
check "mail from cron (X-Cron-Env): dropped, logged" grep -q 'from=someone@example.org .* dropped: automatic mail (a mail from cron (X-Cron-Env))' "$h/log"
check "... no reply to either" sh -c '[ ! -d "$1/someone@example.org" ] && [ ! -d "$1/$2@example.net" ]' sh "$h/mail" "$me"

# ---- the shipped crontab
check "the crontab sets PATH with @BINDIR@ (make install writes the folder in)" grep -q '^PATH=@BINDIR@:/usr/bin:/bin$' "$top/scripts/crontab"
check "... and MAILTO" grep -q '^MAILTO=[^ ]*@' "$top/scripts/crontab"
# its lines as cron runs them: env -i, cron's variables, the crontab's PATH, oustpbm in PATH's first dir
mkdir -p "$tmp/usrlocal/bin"
ln -s "$bin" "$tmp/usrlocal/bin/oustpbm"
for job in flush cleanup; do
	line=$(grep "	oustpbm $job\$" "$top/scripts/crontab" | cut -f2)
	path=$(sed -n 's/^PATH=//p' "$top/scripts/crontab" | sed "s#@BINDIR@#$tmp/usrlocal/bin#")
	check "the crontab's $job line runs under cron's environment" sh -c "
	    env -i HOME='$tmp/user' LOGNAME=$me SHELL=/bin/sh PATH='$path' /bin/sh -c '$line' >'$tmp/cron.out' 2>&1"
done
check "... with cron's own PATH alone, it would not (127)" [ "$(env -i HOME="$tmp/user" PATH=/usr/bin:/bin /bin/sh -c 'oustpbm flush' >/dev/null 2>&1; echo $?)" = 127 ]

# ---- install-deps: a plain make asks for the build packages only
mkdir -p "$tmp/fakebin"
cat >"$tmp/fakebin/dpkg-query" <<'EOS'
#!/bin/sh
# installed: the build packages only
for p in $(sh "$OUSTPBM_TOP/scripts/install-deps" --list); do
	for a; do :; done
	[ "$p" = "$a" ] && { echo 'install ok installed'; exit 0; }
done
exit 1
EOS
chmod +x "$tmp/fakebin/dpkg-query"
check "install-deps --list: no test tools among the build packages" sh -c "! sh '$top/scripts/install-deps' --list | grep -Eq 'valgrind|clang|aiosmtpd|strace|postfix'"
check "install-deps --test --list: they are among the test packages" sh -c "sh '$top/scripts/install-deps' --test --list | grep -q valgrind &&
    sh '$top/scripts/install-deps' --test --list | grep -q postfix"
check "make (test packages missing): install-deps is not run" sh -c "
    OUSTPBM_TOP='$top' PATH='$tmp/fakebin':\$PATH make -n -C '$top' oustpbm 2>&1 | grep -q 'install-deps' && exit 1; exit 0"
check "make check (test packages missing): install-deps --test is run" sh -c "
    OUSTPBM_TOP='$top' PATH='$tmp/fakebin':\$PATH make -n -C '$top' check 2>&1 | grep -q 'install-deps --test'"
check "make (a library missing): names it, installs nothing" sh -c "
    out=\$(make -n -C '$top' PKG_CONFIG=false all 2>&1)
    echo \"\$out\" | grep -q 'pkg-config finds no gmime-3.0 libcurl libxcrypt' &&
    ! echo \"\$out\" | grep -Eq '^(sh scripts/install-deps|apt-get)'"
check ".ci/run installs both" grep -q 'install-deps --test' "$top/.ci/run"

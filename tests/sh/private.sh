#!/bin/sh
# private: the tests that run as another user pass from a checkout in a
# private folder (a Debian home is 0700) and under umask 077, because
# what another user reads is a world-readable copy (tests/sh/lib.sh:
# public), never the checkout.  A copy of the tree (but build/, .git and
# the golden cases) with the test program (nothing is rebuilt there)
# in a 0700 folder runs home.sh and rootowner.sh (nobody runs the program
# and reads the templates) under umask 077; each must pass whole.  Skipped,
# saying so, when not root (only root runs a program as nobody).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "running a program as another user needs root: run make check as root for this test"
need setpriv tar "$bin"
tmpdir
priv=$tmp/home
tree=$priv/checkout
mkdir -p "$tree"
chmod 700 "$priv"
tar -C "$top" -cf - --exclude=./build --exclude=./tests/golden --exclude=./.git . | tar -C "$tree" -xpf - &&
    tar -C "$top" -cf - build/test/oustpbm build/test/scripts build/test/templates | tar -C "$tree" -xpf -
# newer than its sources, as in the checkout (lib.sh made it so before this
# script began; tar's times are whole seconds): the copy builds nothing
touch "$tree/build/test/oustpbm"
check "the copy of the checkout: its test program there, its folder 0700" \
    sh -c "[ -x '$tree/build/test/oustpbm' ] && [ \"\$(stat -c %a '$priv')\" = 700 ]"
check "... nobody cannot read it" sh -c "! setpriv --reuid=nobody --regid=nogroup --clear-groups cat '$tree/templates/address.txt' 2>/dev/null"

for t in home rootowner; do
	(umask 077 && unset OUSTPBM_BIN && sh "$tree/tests/sh/$t.sh") >"$tmp/$t.out" 2>&1
	rc=$?
	oks=$(grep -c '^ok ' "$tmp/$t.out")
	nots=$(grep -c '^not ok ' "$tmp/$t.out")
	check "$t.sh from the 0700 copy under umask 077: exit 0, $oks ok, no not ok" \
	    [ "$rc $nots $((oks > 0))" = "0 0 1" ]
	[ "$rc $nots" = "0 0" ] || grep -v '^ok ' "$tmp/$t.out" | head -n 20 | sed 's/^/#   /'
done
done_testing

#!/bin/sh
# testhooks: the OUSTPBM_TEST_* variables (a fixed clock, fixed codes, crash
# points) work only in the build made for the tests (build/test/oustpbm,
# make test-bin); the program `make` builds and `make install` installs
# ignores them, so whoever can set the mail handler's environment cannot fix
# its codes or its clock (README: security).
. "$(dirname "$0")/lib.sh"
tmpdir
plain=$top/oustpbm
if [ ! -x "$plain" ] || [ -n "$(find src Makefile -newer "$plain" 2>/dev/null | head -n 1)" ]; then
	flock build/test-bin.lock make -s --no-print-directory oustpbm >&2 || { fail "make oustpbm"; done_testing; }
fi

# date_of HOME ADDR: the Date header of the newest reply to ADDR
date_of() {
	grep -m 1 '^Date:' "$(newest "$1" "$2")"
}

for b in test plain; do
	h=$tmp/$b
	mkhome "$h"
	p=$bin
	[ $b = plain ] && p=$plain
	mail alice@example.org help | OUSTPBM_TEST_TIME=$T0 "$p" -d "$h" >/dev/null 2>&1
	mail alice@example.org "register alice secret" | OUSTPBM_TEST_TIME=$T0 OUSTPBM_TEST_CODE=K7M2QX9PHD "$p" -d "$h" >/dev/null 2>&1
	mail alice@example.org "forgot alice" | OUSTPBM_TEST_TIME=$T0 OUSTPBM_TEST_CODE=K7M2QX9PHD "$p" -d "$h" >/dev/null 2>&1
	eval "crash_$b=\$(mail alice@example.org help | OUSTPBM_TEST_CRASH=1 \"\$p\" -d \"\$h\" >/dev/null 2>&1; echo \$?)"
done

check "the test build takes OUSTPBM_TEST_TIME" sh -c "grep -q '^Date: .*14 Nov 2023' '$(newest "$tmp/test" alice@example.org)'"
check "test-hooks-ignored-in-installed-binary: OUSTPBM_TEST_TIME, the real time" sh -c "! grep -q '^Date: .*2023' '$(newest "$tmp/plain" alice@example.org)' &&
    grep -q '^Date: .*$(date -u +%Y)\|^Date: .*$(($(date -u +%Y) + 1))' '$(newest "$tmp/plain" alice@example.org)'"
check "the test build takes OUSTPBM_TEST_CODE" grep -rq K7M2QX9PHD "$tmp/test/mail/alice@example.org/new"
check "the installed program ignores OUSTPBM_TEST_CODE: a random code" sh -c "! grep -rq K7M2QX9PHD '$tmp/plain/mail/alice@example.org/new'"
check "the test build takes OUSTPBM_TEST_CRASH (killed: 137)" [ "$crash_test" = 137 ]
check "the installed program ignores OUSTPBM_TEST_CRASH: exit 0" [ "$crash_plain" = 0 ]
done_testing

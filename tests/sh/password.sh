#!/bin/sh
# password: password hashes at the default cost, their renewal on login, and
# the throttle against guessing, end to end with real mails (the other tests
# use the cheapest cost to stay fast; this one pays the default's ~30 ms).
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=${OUSTPBM_BIN:-$top/oustpbm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-password.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
unset OUSTPBM_HOME
export OUSTPBM_TEST_TIME=1700000000

n=0
check() { # description, then a command that must succeed
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
	fi
}

h=$tmp/home
mkdir -p "$h"
conf() { # the configuration lines beyond the common ones
	{
		printf 'from_address = oust@example.net\ntemplates = %s/templates\n' "$top"
		for l in "$@"; do
			printf '%s\n' "$l"
		done
	} >"$h/oustpbm.conf"
}
echo 0 >"$tmp/k"
send() { # FROM SUBJECT: a mail with a fresh Message-ID (it runs in $(...)); the exit status printed
	k=$(($(cat "$tmp/k") + 1))
	echo $k >"$tmp/k"
	printf 'From: %s\nSubject: %s\nMessage-ID: <pw.%d@example.net>\n\n' "$1" "$2" "$k" | "$bin" -d "$h" >/dev/null 2>&1
	echo $?
}
hash_of() { # USERID: the hash field of the users file
	sed -n "s/^$1:[^:]*:\([^:]*\):.*/\1/p" "$h/users"
}
lastlog() {
	tail -n 1 "$h/log"
}

# libxcrypt's default yescrypt cost (5, N = 2^12 blocks, r = 32) is written "j9T"
default='$y$j9T$'

# ---- the default cost
conf
check "register by mail with the default password_cost" [ "$(send alice@example.org 'register alice secret Alice')" = 0 ]
check "... the hash is yescrypt at libxcrypt's default cost ($default)" sh -c "hash_a='$(hash_of alice)'; case \$hash_a in '$default'*) true ;; *) echo \"# \$hash_a\"; false ;; esac"
pw=$("$bin" -d "$h" adduser carol carol@example.org </dev/null)
check "adduser too" sh -c "case '$(hash_of carol)' in '$default'*) true ;; *) false ;; esac"
check "... and the account works by mail" [ "$(send carol@example.org "challenge carol $pw alice -size=5")" = 0 ]
check "... board 101 made" [ -f "$h/games/101.game" ]

# ---- an old hash is renewed when its owner next logs in
conf 'password_cost = 1'
check "register bob with password_cost = 1" [ "$(send bob@example.com 'register bob hunter2')" = 0 ]
old=$(hash_of bob)
check "... a cost-1 hash (\$y\$j75\$)" sh -c "case '$old' in '\$y\$j75\$'*) true ;; *) echo '# $old'; false ;; esac"
conf
check "with the default cost again, a wrong password" [ "$(send bob@example.com 'challenge bob nothunter2 alice')" = 0 ]
check "... is refused" sh -c "tail -n 1 '$h/log' | grep -q 'refused: wrong password for bob'"
check "... and leaves the old hash" [ "$(hash_of bob)" = "$old" ]
check "the right password (a challenge)" [ "$(send bob@example.com 'challenge bob hunter2 alice -size=5')" = 0 ]
check "... is taken" sh -c "tail -n 1 '$h/log' | grep -q 'ok: new board 102'"
new=$(hash_of bob)
check "... and the hash is renewed at the default cost" sh -c "case '$new' in '$default'*) true ;; *) echo '# $new'; false ;; esac"
check "... a new salt, not the old hash" [ "$new" != "$old" ]
check "the same password works with the new hash (a move)" [ "$(send bob@example.com 'move 102#1 bob hunter2 C3')" = 0 ]
check "... played" sh -c "tail -n 1 '$h/log' | grep -q 'ok: turn 1: bob played C3'"
check "... the hash is not made again" [ "$(hash_of bob)" = "$new" ]
conf 'password_cost = 1'
check "a move with the right password renews a hash too (back to cost 1)" [ "$(send bob@example.com 'move 101 bob hunter2 A1')" = 0 ]
check "... (the move itself refused: not bob's board)" sh -c "tail -n 1 '$h/log' | grep -q 'bob is not playing on board 101'"
check "... the hash renewed" sh -c "case '$(hash_of bob)' in '\$y\$j75\$'*) true ;; *) false ;; esac"

# ---- guessing: many wrong passwords at once
conf 'password_cost = 0' 'max_password_failures = 5'
: >"$h/log"
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	printf 'From: m%d@example.com\nSubject: move 102 alice guess%d E5\nMessage-ID: <guess.%d@example.net>\n\n' $i $i $i |
	    "$bin" -d "$h" >/dev/null 2>&1 &
done
wait
check "20 guesses sent at once: all answered" [ "$(grep -c ' mail <guess' "$h/log")" = 20 ]
told=$(grep -c 'refused: wrong password for alice' "$h/log")
check "... at most 5 learn that their password was wrong ($told)" [ "$told" -le 5 ] && [ "$told" -ge 1 ]
check "... the others are refused without a verdict" [ "$(grep -c 'refused: password attempts for alice are refused until' "$h/log")" = $((20 - told)) ]
check "... alice is told once" [ "$(grep -l '^Subject: Oust password attempts for alice refused' "$h"/mail/alice@example.org/new/* | wc -l)" = 1 ]
check "alice's right password is refused now too" [ "$(send alice@example.org 'move 102#2 alice secret E5')" = 0 ]
check "... with the lockout's reply" sh -c "tail -n 1 '$h/log' | grep -q 'refused: password attempts for alice are refused until'"
check "... nothing played" sh -c "grep -q '^turn: 2$' '$h/games/102.game'"
check "the admin sets a new password: exit 0" sh -c "echo newsecret | '$bin' -d '$h' passwd --stdin alice"
check "... which ends the lockout" [ "$(send alice@example.org 'move 102#2 alice newsecret E5')" = 0 ]
check "... played" sh -c "tail -n 1 '$h/log' | grep -q 'ok: turn 2: alice played E5'"

#!/bin/sh
# password: password hashes at the default cost, their renewal on login, and
# the throttle against guessing, end to end with real mails (the other tests
# use the cheapest cost to stay fast; this one pays the default's ~30 ms).
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
mkhome "$h"
conf() { # LINE...: the configuration, at the default password_cost unless a LINE sets it
	{
		printf 'from_address = oust@example.net\ntemplates = %s/templates\n' "$top"
		for l in "$@"; do
			printf '%s\n' "$l"
		done
	} >"$h/oustpbm.conf"
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
check "register by mail with the default password_cost" [ "$(rc send "$h" alice@example.org 'register alice secret Alice')" = 0 ]
check "... the hash is yescrypt at libxcrypt's default cost ($default)" sh -c "hash_a='$(hash_of alice)'; case \$hash_a in '$default'*) true ;; *) echo \"# \$hash_a\"; false ;; esac"
pw=$("$bin" -d "$h" adduser carol carol@example.org </dev/null)
check "adduser too" sh -c "case '$(hash_of carol)' in '$default'*) true ;; *) false ;; esac"
check "... and the account works by mail" [ "$(rc send "$h" carol@example.org "challenge carol $pw alice -size=5")" = 0 ]
check "... board 101 made" [ -f "$h/games/101.game" ]

# ---- an old hash is renewed when its owner next logs in
conf 'password_cost = 1'
check "register bob with password_cost = 1" [ "$(rc send "$h" bob@example.com 'register bob hunter2')" = 0 ]
old=$(hash_of bob)
check "... a cost-1 hash (\$y\$j75\$)" sh -c "case '$old' in '\$y\$j75\$'*) true ;; *) echo '# $old'; false ;; esac"
conf
check "with the default cost again, a wrong password" [ "$(rc send "$h" bob@example.com 'challenge bob nothunter2 alice')" = 0 ]
check "... is refused" sh -c "tail -n 1 '$h/log' | grep -q 'refused: wrong password for bob'"
check "... and leaves the old hash" [ "$(hash_of bob)" = "$old" ]
check "the right password (a challenge)" [ "$(rc send "$h" bob@example.com 'challenge bob hunter2 alice -size=5')" = 0 ]
check "... is taken" sh -c "tail -n 1 '$h/log' | grep -q 'ok: new board 102'"
new=$(hash_of bob)
check "... and the hash is renewed at the default cost" sh -c "case '$new' in '$default'*) true ;; *) echo '# $new'; false ;; esac"
check "... a new salt, not the old hash" [ "$new" != "$old" ]
check "the same password works with the new hash (a move)" [ "$(rc send "$h" bob@example.com 'move 102#1 bob hunter2 C3')" = 0 ]
check "... played" sh -c "tail -n 1 '$h/log' | grep -q 'ok: turn 1: bob played C3'"
check "... the hash is not made again" [ "$(hash_of bob)" = "$new" ]
conf 'password_cost = 1'
check "a move with the right password renews a hash too (back to cost 1)" [ "$(rc send "$h" bob@example.com 'move 101 bob hunter2 A1')" = 0 ]
check "... (the move itself refused: not bob's board)" sh -c "tail -n 1 '$h/log' | grep -q 'bob is not playing on board 101'"
check "... the hash renewed" sh -c "case '$(hash_of bob)' in '\$y\$j75\$'*) true ;; *) false ;; esac"

# ---- guessing: many wrong passwords at once
conf 'password_cost = 0' 'max_password_failures = 5'
: >"$h/log"
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	mail "m$i@example.com" "move 102 alice guess$i E5" "guess.$i@example.net" | "$bin" -d "$h" >/dev/null 2>&1 &
done
wait
check "20 guesses sent at once: all answered" [ "$(grep -c ' mail <guess' "$h/log")" = 20 ]
told=$(grep -c 'refused: wrong password for alice' "$h/log")
check "... at most 5 learn that their password was wrong ($told)" sh -c '[ "$1" -le 5 ] && [ "$1" -ge 1 ]' sh "$told"
check "... the others are refused without a verdict" [ "$(grep -c 'refused: password attempts for alice are refused until' "$h/log")" = $((20 - told)) ]
check "... alice is told once" [ "$(grep -l '^Subject: Oust password attempts for alice refused' "$h"/mail/alice@example.org/new/* | wc -l)" = 1 ]
check "alice's right password is refused now too" [ "$(rc send "$h" alice@example.org 'move 102#2 alice secret E5')" = 0 ]
check "... with the lockout's reply" sh -c "tail -n 1 '$h/log' | grep -q 'refused: password attempts for alice are refused until'"
check "... nothing played" sh -c "grep -q '^turn: 2$' '$h/games/102.game'"
check "the admin sets a new password: exit 0" sh -c "echo newsecret | '$bin' -d '$h' passwd --stdin alice"
check "... which ends the lockout" [ "$(rc send "$h" alice@example.org 'move 102#2 alice newsecret E5')" = 0 ]
check "... played" sh -c "tail -n 1 '$h/log' | grep -q 'ok: turn 2: alice played E5'"

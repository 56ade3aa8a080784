#!/bin/sh
# tests/sh/register.sh: registration by mail against forged mail (issue 39,
# findings 2 and 3; src/commands/keywords/register.c, confirm.c,
# src/store/pending.h).  Codes are random here (no OUSTPBM_TEST_CODE): each
# party reads them from the mail delivered to its own mailbox, as a person
# would, and the forger, who writes From his victim's address, never sees
# them.
#  - the hijack: a forged "register alice <his password>" before alice's own
#    register, or after it (within the hour and after an hour): the account
#    alice confirms has her password, never the forger's, which never logs
#    in; a forged confirm (a guessed code) makes nothing;
#  - a code voided by a later register is answered as such;
#  - squatting: a registration from an address that never confirms does not
#    hold the user id against a real newcomer, and forged registrations do
#    not use up the server-wide hourly cap; the per-domain limit of code
#    mails refuses only that domain, saying when it lifts;
#  - two registrations of one id from two addresses confirmed at once:
#    exactly one account, one welcome, the other told.
. "$(dirname "$0")/lib.sh"
tmpdir

t=$T0
# feed HOME FROM SUBJECT [BODY]: one mail at the next minute; prints the exit status
feed() {
	t=$((t + 60))
	mail "$2" "$3" "" "${4:-}" | OUSTPBM_TEST_TIME=$t "$bin" -d "$1" >/dev/null 2>>"$tmp/stderr"
	echo $?
}

# the refusal or result of the last mail, from the log
lastlog() {
	tail -n 1 "$1/log"
}

# confirm_as HOME ADDR USERID PASSWORD: confirm with the newest code mailed
# to ADDR.  A server that knows no password in a confirm (refused as a usage
# error: issue 39's main) is sent the code alone, as its code mail asked, so
# that this test replays the hijack there
confirm_as() {
	lib_c=$(code_in "$1" "$2")
	lib_r=$(feed "$1" "$2" "confirm $3 $lib_c $4")
	case $(lastlog "$1") in
	*'refused: confirm needs'* | *'usage'*) lib_r=$(feed "$1" "$2" "confirm $3 $lib_c") ;;
	esac
	echo "$lib_r"
}

# logs_in HOME USERID PASSWORD ADDR: "yes" when whoami with that password is answered ok
logs_in() {
	feed "$1" "$4" "whoami $2 $3" >/dev/null
	case $(lastlog "$1") in
	*' ok'*) echo yes ;;
	*) echo no ;;
	esac
}

# ---- finding 2: a forged register before alice's own
h=$tmp/before
mkhome "$h" 'max_mails_per_hour = 0'
check "forged register from alice's address: a code mailed to her" \
    [ "$(feed "$h" alice@example.org "register alice forgerpw Mallory")" = 0 ]
forged=$(code_in "$h" alice@example.org)
check "alice registers herself" [ "$(feed "$h" alice@example.org "register alice alicepw Alice")" = 0 ]
check "... her register replaces the forged one: a new code mailed" \
    sh -c 'tail -n 1 "$1/log" | grep -q "ok: registration of alice pending, code mailed to <alice@example.org>"' sh "$h"
mine=$(code_in "$h" alice@example.org)
check "... a new code, not the forged one's" [ "$mine" != "$forged" ]
check "the code mail says a registration not asked for can be ignored" \
    grep -q 'If you did not ask for it, do nothing' "$(newest "$h" alice@example.org)"
check "the forger's code is void: alice is told so" \
    [ "$(feed "$h" alice@example.org "confirm alice $forged alicepw")" = 0 ]
check "... void, and why" sh -c 'tail -n 1 "$1/log" | grep -q "refused: that code is void: a later register"' sh "$h"
check "alice confirms with her code and her password" [ "$(confirm_as "$h" alice@example.org alice alicepw)" = 0 ]
check "... the account is made" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registered alice <alice@example.org>"' sh "$h"
check "alice's password logs in" [ "$(logs_in "$h" alice alicepw alice@example.org)" = yes ]
check "the forger's password does not" [ "$(logs_in "$h" alice forgerpw alice@example.org)" = no ]

# ---- finding 2: a forged register after alice's, within the hour and after it
for gap in 0 3700; do
	h=$tmp/after$gap
	mkhome "$h" 'max_mails_per_hour = 0'
	t=$T0
	check "after $gap s: alice registers" [ "$(feed "$h" alice@example.org "register alice alicepw")" = 0 ]
	first=$(code_in "$h" alice@example.org)
	t=$((t + gap))
	check "after $gap s: a forged register from her address" \
	    [ "$(feed "$h" alice@example.org "register alice forgerpw")" = 0 ]
	check "after $gap s: a forged confirm with a guessed code makes nothing" \
	    [ "$(feed "$h" alice@example.org "confirm alice 23456789AB forgerpw")" = 0 ]
	check "... refused: wrong code" sh -c 'tail -n 1 "$1/log" | grep -q "refused: wrong code for alice"' sh "$h"
	# alice answers the newest code mail, with her own password: refused, told
	check "after $gap s: alice confirms the newest code with her password" \
	    [ "$(confirm_as "$h" alice@example.org alice alicepw)" = 0 ]
	check "... refused: not the password of that register, someone else sent it" \
	    sh -c 'tail -n 1 "$1/log" | grep -q "refused: wrong password for the registration of alice: the code is right.*someone else did from your address: register again"' sh "$h"
	check "... no account" [ "$(logs_in "$h" alice forgerpw alice@example.org)" = no ]
	check "after $gap s: her first code is void, and she is told" \
	    [ "$(feed "$h" alice@example.org "confirm alice $first alicepw")" = 0 ]
	check "... void" sh -c 'tail -n 1 "$1/log" | grep -q "refused: that code is void"' sh "$h"
	check "after $gap s: alice registers again" [ "$(feed "$h" alice@example.org "register alice alicepw")" = 0 ]
	check "... and confirms" [ "$(confirm_as "$h" alice@example.org alice alicepw)" = 0 ]
	check "after $gap s: the account has alice's password" [ "$(logs_in "$h" alice alicepw alice@example.org)" = yes ]
	check "after $gap s: the forger's password does not log in" \
	    [ "$(logs_in "$h" alice forgerpw alice@example.org)" = no ]
done

# ---- a reply to the code mail holding the code and the password
h=$tmp/reply
mkhome "$h" 'max_mails_per_hour = 0'
check "reply: bob registers" [ "$(feed "$h" bob@example.com "register bob bobpw")" = 0 ]
check "reply: the code and the password in a reply" \
    [ "$(feed "$h" bob@example.com "Re: Oust registration code for bob" "$(code_in "$h" bob@example.com) bobpw")" = 0 ]
check "... the account is made" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registered bob <bob@example.com>"' sh "$h"
check "... the password is masked in the log" sh -c '! grep -q bobpw "$1/log"' sh "$h"

# ---- finding 3: a registration that never confirms holds nothing
h=$tmp/squat
mkhome "$h" 'max_mails_per_hour = 0' 'max_registrations_per_hour = 2'
t=$T0
k=1
for v in one two three four five; do
	feed "$h" "newbie@$v.example" "register newbie squat$k" >/dev/null
	k=$((k + 1))
done
check "five forged registrations of newbie from five domains are pending" \
    [ "$(grep -c '^newbie .* open ' "$h/pending")" = 5 ]
check "the real newbie registers the same id" [ "$(feed "$h" newbie@example.com "register newbie realpw")" = 0 ]
check "... a code mailed to him" \
    sh -c 'tail -n 1 "$1/log" | grep -q "ok: registration of newbie pending, code mailed to <newbie@example.com>"' sh "$h"
check "... he confirms: the forged ones did not use up max_registrations_per_hour = 2" \
    [ "$(confirm_as "$h" newbie@example.com newbie realpw)" = 0 ]
check "... the account is his" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registered newbie <newbie@example.com>"' sh "$h"
check "a second newcomer confirms too" [ "$(feed "$h" carol@example.org "register carol carolpw")" = 0 ]
check "... confirmed" [ "$(confirm_as "$h" carol@example.org carol carolpw)" = 0 ]
check "... registered" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registered carol"' sh "$h"
check "the third confirmed account in the hour is refused, saying why" \
    [ "$(feed "$h" dave@example.net "register dave davepw")$(confirm_as "$h" dave@example.net dave davepw)" = 00 ]
check "... max_registrations_per_hour, the registration still waiting" \
    sh -c 'tail -n 1 "$1/log" | grep -q "refused: no new account now: 2 accounts were registered in the last hour (max_registrations_per_hour = 2); send this confirm again in an hour"' sh "$h"
t=$((t + 3600))
check "... an hour later the same confirm goes through" [ "$(confirm_as "$h" dave@example.net dave davepw)" = 0 ]
check "... registered" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registered dave"' sh "$h"

# ---- the per-domain limit of code mails, and the per-address one
h=$tmp/domain
mkhome "$h" 'max_mails_per_hour = 0' 'max_pending_per_domain_per_hour = 3'
t=$T0
for u in a b c; do
	feed "$h" "$u@flood.example" "register $u pw" >/dev/null
done
check "the 4th code mail to one domain within the hour is refused" \
    [ "$(feed "$h" d@flood.example "register d pw")" = 0 ]
check "... saying which limit and when it lifts" \
    sh -c 'tail -n 1 "$1/log" | grep -q "refused: no registration code now: 3 registration codes were mailed to addresses at flood.example within the hour (max_pending_per_domain_per_hour = 3); the next may go at "' sh "$h"
check "... the reply goes to the sender" grep -q 'max_pending_per_domain_per_hour' "$(newest "$h" d@flood.example)"
check "another domain is not refused" [ "$(feed "$h" e@example.org "register e pw")" = 0 ]
check "... a code mailed" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registration of e pending"' sh "$h"
t=$((t + 3600))
check "an hour later the domain may register again" [ "$(feed "$h" d@flood.example "register d pw")" = 0 ]
check "... a code mailed" sh -c 'tail -n 1 "$1/log" | grep -q "ok: registration of d pending"' sh "$h"
h=$tmp/address
mkhome "$h" 'max_mails_per_hour = 0'
t=$T0
for k in 1 2 3; do
	feed "$h" victim@example.org "register v$k pw" >/dev/null
done
check "a 4th code mail to one address within the hour is refused" \
    [ "$(feed "$h" victim@example.org "register v4 pw")" = 0 ]
check "... saying when the next may go" \
    sh -c 'tail -n 1 "$1/log" | grep -q "refused: no registration code now: 3 registration codes were mailed to victim@example.org within the hour, the most one address gets; the next may go at "' sh "$h"
check "... 3 codes and one refusal reached the address, nothing more" [ "$(replies "$h" victim@example.org)" = 4 ]

# ---- two addresses confirm one id at once: one account, one welcome, the other told
h=$tmp/race
mkhome "$h" 'max_mails_per_hour = 0'
t=$T0
feed "$h" x@example.org "register zed xpw" >/dev/null
feed "$h" y@example.com "register zed ypw" >/dev/null
cx=$(code_in "$h" x@example.org)
cy=$(code_in "$h" y@example.com)
t=$((t + 60))
mail x@example.org "confirm zed $cx xpw" >"$tmp/cx.eml"
mail y@example.com "confirm zed $cy ypw" >"$tmp/cy.eml"
OUSTPBM_TEST_TIME=$t "$bin" -d "$h" <"$tmp/cx.eml" >/dev/null 2>>"$tmp/stderr" &
px=$!
OUSTPBM_TEST_TIME=$t "$bin" -d "$h" <"$tmp/cy.eml" >/dev/null 2>>"$tmp/stderr" &
py=$!
wait $px
rx=$?
wait $py
ry=$?
check "two confirms of zed at once both exit 0" [ "$rx $ry" = "0 0" ]
check "... exactly one account zed" [ "$(grep -c '^zed:' "$h/users")" = 1 ]
check "... exactly one welcome" [ "$(grep -l 'Welcome to Oust, zed' "$h"/mail/*/new/* | wc -l)" = 1 ]
check "... the other is told the id was taken, with a free one suggested" \
    [ "$(grep -c 'refused: the user id zed was taken meanwhile by another registration, confirmed first: register another (zed2 is free)' "$h/log")" = 1 ]

check "no run wrote to standard error" [ ! -s "$tmp/stderr" ]
done_testing

#!/bin/sh
# challenge_flood: 60 challenges from 3 accounts at 3 addresses to one
# player, as an attacker would send them: the limits on challenges
# (max_open_challenges, max_challenges_per_hour) keep the boards made and
# the mails in the victim's box to a few, each refusal going to the sender.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
# the registrations of the victims are no part of this test: their per-domain hourly limit off
mkhome "$h" 'max_mails_per_hour = 0' 'max_pending_per_domain_per_hour = 0'
k=0
flood() { # FROM SUBJECT [BODY]
	k=$((k + 1))
	mail "$1" "$2" "flood.$k@example.net" "$3" | deliver "$h"
}
flood victim@example.org 'register victim secret Victim'
for m in 1 2 3; do
	flood "m$m@example.com" "register mallory$m pw$m"
done
rm -rf "$h/mail"
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	for m in 1 2 3; do
		flood "m$m@example.com" "challenge mallory$m pw$m victim" "Spam number $i"
	done
done
boards=$(ls "$h/games" | grep -c '\.game$')
check "60 challenges from 3 accounts: 9 boards made (3 unanswered per pair)" [ "$boards" = 9 ]
check "... 9 mails in the victim's box" [ "$(ls "$h/mail/victim@example.org/new" | wc -l)" = 9 ]
check "... each refusal went to its sender" [ "$(grep -c 'refused: victim has not played yet on 3 boards with mallory' "$h/log")" = 51 ]
check "... and said why" sh -c "for f in '$h'/mail/m1@example.com/new/*; do tr '\n' ' ' <\"\$f\" |
    grep -q 'no new challenge  *until  *victim  *plays  *on  *one' && echo \"\$f\"; done | wc -l | grep -qx 17"
# one account to many opponents: the hourly limit
for v in 1 2 3 4 5 6 7 8 9 10 11 12; do
	flood "v$v@example.org" "register victim$v secret"
done
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	flood m1@example.com "challenge mallory1 pw1 victim$i"
done
check "12 more challenges of that account to 12 other players within the hour: 10 made in all" \
    [ "$(grep -c 'mail <flood.*from=m1@example.com .* ok: new board' "$h/log")" = 10 ]
check "... the others refused by max_challenges_per_hour" \
    [ "$(grep -c 'refused: mallory1 made 10 challenges in the last hour' "$h/log")" = 5 ]
export OUSTPBM_TEST_TIME=$((OUSTPBM_TEST_TIME + 3600))
flood m1@example.com "challenge mallory1 pw1 victim12"
check "an hour later it may challenge again" sh -c "tail -n 1 '$h/log' | grep -q 'ok: new board'"

#!/bin/sh
# status: `oustpbm status` and its exit status for monitoring: 0 healthy
# (cron's runs in the log on time), 1 warnings (cron late or never run, an
# address stopped by its bounces, a failed reply, the replies kept on this
# machine by transport = maildir), 2 failing (a configuration error, cron a
# day late); cron's runs read from the rotated log too (log.1, log.1.gz)
# and none expected in the first hour after init (the installed stamp); --brief prints one Nagios-style line; fsck shows
# the address that bounces.  Times are OUSTPBM_TEST_TIME's, never the clock.
. "$(dirname "$0")/lib.sh"
tmpdir
need "$bin"

status() { # HOME TIME [--brief]: the output into $tmp/out, the exit status printed
	OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" status ${3:-} >"$tmp/out" 2>"$tmp/err"
	echo $?
}

# the replies to an SMTP sink: a home whose replies leave the machine (maildir is a warning, below)
sink smtp
h=$tmp/home
mkhome "$h" "smtp_url = smtp://127.0.0.1:$port"
rm -f "$h/installed"	# a home older than the installed stamp: cron's runs looked for from the start
check "a fresh home: warnings (exit 1), cron never ran" [ "$(status "$h" $T0)" = 1 ]
check "... the screen names each check" sh -c "grep -q '^oustpbm status of $h at 2023-11-14T22:13:20Z: WARNING\$' '$tmp/out' &&
    grep -q '^ok  *configuration: ' '$tmp/out' && grep -q '^ok  *home: .* writable' '$tmp/out' &&
    grep -q '^ok  *disk: ' '$tmp/out' && grep -q '^ok  *queue: no reply waiting' '$tmp/out' &&
    grep -q '^ok  *failed: ' '$tmp/out' && grep -q '^warning  *cron: flush never ran, robot never ran, cleanup never ran' '$tmp/out' &&
    grep -q '^ok  *robot: ' '$tmp/out' && grep -q '^ok  *files: ' '$tmp/out' && grep -q '^ok  *bounces: ' '$tmp/out'"
check "--brief: one WARNING line" sh -c "[ \$(OUSTPBM_TEST_TIME=$T0 '$bin' -d '$h' status --brief | wc -l) = 1 ] &&
    OUSTPBM_TEST_TIME=$T0 '$bin' -d '$h' status --brief | grep -q '^OUSTPBM WARNING - cron: flush never ran, robot never ran, cleanup never ran | queued=0 failed=0 '"

# cron's three jobs run: healthy
for job in flush robot cleanup; do
	OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" $job >/dev/null 2>&1
done
check "the three runs logged" sh -c "grep -q '^2023-11-14T22:13:20Z flush done: ' '$h/log' &&
    grep -q '^2023-11-14T22:13:20Z robot done: ' '$h/log' && grep -q '^2023-11-14T22:13:20Z cleanup done: ' '$h/log'"
check "cron ran a minute ago: healthy (exit 0)" [ "$(status "$h" $((T0 + 60)))" = 0 ]
check "... the screen says OK and when each ran" sh -c "grep -q ': OK\$' '$tmp/out' &&
    grep -q '^ok  *cron: flush 60 s ago, robot 60 s ago, cleanup 60 s ago' '$tmp/out'"
check "--brief: OUSTPBM OK" [ "$(status "$h" $((T0 + 60)) --brief)" = 0 ]
check "... the line" grep -q '^OUSTPBM OK - replies flowing, cron alive | queued=0 failed=0 oldest=0s bouncing=0 robot=0$' "$tmp/out"

# flush and robot 20 minutes late, cleanup on time: warnings
check "flush and robot 20 minutes late: exit 1" [ "$(status "$h" $((T0 + 1500)))" = 1 ]
check "... named on the brief line" sh -c "OUSTPBM_TEST_TIME=$((T0 + 1500)) '$bin' -d '$h' status --brief |
    grep -q '^OUSTPBM WARNING - cron: flush late, robot late |'"
check "a day and more late: failing (exit 2)" [ "$(status "$h" $((T0 + 90000)))" = 2 ]
check "... CRITICAL" grep -q ': CRITICAL$' "$tmp/out"

# an address stopped by its bounces: a warning in status, a note in fsck
# a report counts only when it quotes a mail sent to that address, its
# Message-ID's MAC made under token.secret (src/mail/idmac.h): the golden
# cases' secret, and three mails' ids made under it (tests/tools/idmac.py)
printf '%s\n' 0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210 >"$h/token.secret"
mail alice@example.org 'register alice secret' | deliver "$h" $((T0 + 100))
dsn=$top/tests/golden/dsn-postfix-user-unknown/in.eml
for i in 1 2 3; do
	# each report its own Message-ID and its own mail: a copy of one is counted once
	id=$("$PY" "$top/tests/tools/idmac.py" alice@example.org "oust.1700000060.5f3e2a1b.$i@example.net")
	sed -e "s/4F1B2C0A1@/4F1B2C0A1.$i@/" -e "s/oust\.1700000060\.5f3e2a1b\.1\.7dbebb4327f778f7@example\.net/$id/" "$dsn" |
	    deliver "$h" $((T0 + 100 + i))
done
check "three delivery reports: alice's address stopped" grep -q '^alice@example.org 3 ' "$h/bounces"
check "status: warnings (exit 1)" [ "$(status "$h" $((T0 + 120)))" = 1 ]
check "... the address, its account and how it clears" \
    grep -q '^warning  *bounces: alice@example.org (account alice) gets no mail: 3 bounces, the last 2023-11-14T22:15:03Z (5.1.1); a mail from it clears that$' "$tmp/out"
check "--brief names it" sh -c "OUSTPBM_TEST_TIME=$((T0 + 120)) '$bin' -d '$h' status --brief |
    grep -q '^OUSTPBM WARNING - alice@example.org bounces | .* bouncing=1 '"
OUSTPBM_TEST_TIME=$((T0 + 120)) "$bin" -d "$h" fsck >"$tmp/fsck" 2>&1
check "fsck: exit 0, the address shown as a note" sh -c "[ $? = 0 ] &&
    grep -q '^bounces: note: alice@example.org of account alice gets no mail: 3 bounces' '$tmp/fsck'"
printf 'alice@example.org three 2023-11-14T22:15:03Z 5.1.1\n' >>"$h/bounces"
OUSTPBM_TEST_TIME=$((T0 + 120)) "$bin" -d "$h" fsck >"$tmp/fsck" 2>&1
check "fsck: a damaged bounces file is a problem (exit 65)" sh -c "[ $? = 65 ] && grep -q '^bounces: .*line 3 is not' '$tmp/fsck'"
check "status: the damaged file is a warning" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 120)) '$bin' -d '$h' status >'$tmp/out'; echo \$?) = 1 ] &&
    grep -q '^warning  *bounces: .*line 3 is not' '$tmp/out'"

# a robot turn the AI could not play: waiting, then late
h3=$tmp/robot
mkhome "$h3"
mail alice@example.org 'register alice secret' | deliver "$h3" $T0
mail alice@example.org 'challenge alice secret robot -size=5 -white' | OUSTPBM_TEST_ROBOT=fail deliver "$h3" $T0
status "$h3" $((T0 + 60)) >/dev/null
check "a robot turn waiting a minute: shown, no warning" grep -q '^ok  *robot: 1 turn waiting, the oldest for 60 s (oustpbm robot)$' "$tmp/out"
status "$h3" $((T0 + 1200)) >/dev/null
check "... 20 minutes: a warning" grep -q '^warning  *robot: 1 turn waiting, the oldest for 20 min' "$tmp/out"

# a store file near its cap (only its size is looked at)
truncate -s 3500000 "$h3/throttle"
status "$h3" $((T0 + 60)) >/dev/null
check "a file at 83% of its cap: a warning" grep -q '^warning  *files: near the cap: throttle 83% of 4096 KB$' "$tmp/out"

# replies kept on this machine (transport = maildir): a warning, with the way out
hm=$tmp/maildir
mkhome "$hm"
for job in flush robot cleanup; do
	OUSTPBM_TEST_TIME=$T0 "$bin" -d "$hm" $job >/dev/null 2>&1
done
check "transport = maildir, cron alive: a warning (exit 1)" [ "$(status "$hm" $((T0 + 60)))" = 1 ]
check "... the screen says where the replies stay and what to set" \
    grep -q "^warning  *transport: maildir: the replies stay in $hm/mail/, nobody receives them (for tests and the demo; set smtp_url = smtp://localhost:25 for the local MTA)\$" "$tmp/out"
check "--brief names it" sh -c "OUSTPBM_TEST_TIME=$((T0 + 60)) '$bin' -d '$hm' status --brief |
    grep -q '^OUSTPBM WARNING - replies kept on this machine (transport = maildir) |'"
check "the smtp home says where its replies go" sh -c "OUSTPBM_TEST_TIME=$((T0 + 60)) '$bin' -d '$h' status |
    grep -q '^ok  *transport: smtp to smtp://127.0.0.1:$port\$'"

# after a logrotate: the runs are in the rotated log (scripts/logrotate: renamed, nocreate,
# compressed a week later: delaycompress; or at once without it), until cron's next runs
hr=$tmp/rotated
mkhome "$hr" "smtp_url = smtp://127.0.0.1:$port"
rm -f "$hr/installed"
for job in flush robot cleanup; do
	OUSTPBM_TEST_TIME=$T0 "$bin" -d "$hr" $job >/dev/null 2>&1
done
mv "$hr/log" "$hr/log.1"
check "right after a logrotate (log.1): healthy (exit 0)" [ "$(status "$hr" $((T0 + 60)))" = 0 ]
check "... the runs read from log.1" grep -q '^ok  *cron: flush 60 s ago, robot 60 s ago, cleanup 60 s ago$' "$tmp/out"
gzip "$hr/log.1"
check "log.1.gz (compress without delaycompress): healthy (exit 0)" [ "$(status "$hr" $((T0 + 60)))" = 0 ]
check "... the runs read from it" grep -q '^ok  *cron: flush 60 s ago, robot 60 s ago, cleanup 60 s ago$' "$tmp/out"
OUSTPBM_TEST_TIME=$((T0 + 300)) "$bin" -d "$hr" flush >/dev/null 2>&1
check "a new log with one run: the others still from the rotated one" [ "$(status "$hr" $((T0 + 360)))" = 0 ]
check "... each its latest" grep -q '^ok  *cron: flush 60 s ago, robot 6 min ago, cleanup 6 min ago$' "$tmp/out"
gunzip "$hr/log.1.gz"
printf '%s robot done: %s\n' "$(head -c 20 "$hr/log.1")" "$(head -c 5000 /dev/zero | tr '\0' x)" >>"$hr/log.1"
check "a line longer than the reader's buffer: no harm" [ "$(status "$hr" $((T0 + 360)))" = 0 ]
rm -f "$hr/log.1"
check "rotated logs gone too, no run since: a warning again" [ "$(status "$hr" $((T0 + 360)))" = 1 ]
check "... robot and cleanup never ran" grep -q '^warning  *cron: flush 60 s ago, robot never ran, cleanup never ran' "$tmp/out"

# the first hour after oustpbm init: no run yet is no dead crontab
hi=$tmp/new
mkhome "$hi" "smtp_url = smtp://127.0.0.1:$port"
check "init writes the installed stamp" grep -q '^20[0-9-]*T[0-9:]*Z$' "$hi/installed"
printf '2023-11-14T22:13:20Z\n' >"$hi/installed"	# T0
check "2 min after init, cron not run yet: healthy (exit 0)" [ "$(status "$hi" $((T0 + 120)))" = 0 ]
check "... the screen says so" grep -q '^ok  *cron: flush not run yet, robot not run yet, cleanup not run yet (installed 2 min ago)$' "$tmp/out"
check "20 min after: flush and robot should have run (exit 1)" [ "$(status "$hi" $((T0 + 1200)))" = 1 ]
check "... said so, cleanup still due" grep -q '^warning  *cron: flush never ran, robot never ran, cleanup not run yet (installed 20 min ago) (scheduled' "$tmp/out"
check "71 min after: cleanup too" sh -c "OUSTPBM_TEST_TIME=$((T0 + 4260)) '$bin' -d '$hi' status --brief |
    grep -q '^OUSTPBM WARNING - cron: flush never ran, robot never ran, cleanup never ran |'"
printf 'yesterday\n' >"$hi/installed"
check "a damaged stamp: as if none (a warning at once)" [ "$(status "$hi" $((T0 + 120)))" = 1 ]

# a configuration error: failing
h2=$tmp/typo
mkhome "$h2" 'remind_day = 3'
check "a configuration typo: failing (exit 2)" [ "$(status "$h2" $T0)" = 2 ]
check "... the screen quotes the error" grep -q "^critical  *configuration: .*line 4.*remind_day" "$tmp/out"
check "--brief: CRITICAL" sh -c "OUSTPBM_TEST_TIME=$T0 '$bin' -d '$h2' status --brief | grep -q '^OUSTPBM CRITICAL - configuration error; '"
check "no such home: failing (exit 2)" [ "$(status "$tmp/none" $T0)" = 2 ]
check "an unknown argument: usage (exit 64)" sh -c "'$bin' -d '$h' status --verbose >/dev/null 2>&1; [ \$? = 64 ]"

done_testing

#!/bin/sh
# units: the alternatives to the crontab shipped in scripts/: the systemd
# service and timers (systemd-analyze verify, with @BINDIR@ made the
# checkout's folder, as make install does), one timer for each job of the
# crontab, and the logrotate file (logrotate -d).  A tool that is missing
# skips its check, saying why: systemd is not a test dependency (too big
# to install for one check), nor is logrotate.
. "$(dirname "$0")/lib.sh"
tmpdir

for f in "$top"/scripts/oustpbm@.service "$top"/scripts/oustpbm-*.timer; do
	sed "s|@BINDIR@|$top|g" "$f" >"$tmp/$(basename "$f")"
done
for job in $(sed -n 's/^[^#].*	oustpbm \([a-z]*\)$/\1/p' "$top/scripts/crontab"); do
	check "the crontab's $job has a timer" grep -q "^Unit=oustpbm@$job.service\$" "$top/scripts/oustpbm-$job.timer"
done
check "the service runs oustpbm JOB, installed" grep -q '^ExecStart=@BINDIR@/oustpbm %i$' "$top/scripts/oustpbm@.service"
check "the timers are the crontab's three" [ "$(ls "$top"/scripts/oustpbm-*.timer | wc -l)" = 3 ]
if command -v systemd-analyze >/dev/null 2>&1; then
	(cd "$tmp" && systemd-analyze verify --man=no ./oustpbm@.service ./oustpbm-*.timer) >"$tmp/verify" 2>&1
	check "systemd-analyze verify: the service and the timers" [ $? = 0 ]
	sed 's/^/# /' "$tmp/verify"
	# the check can fail: a timer without a schedule is refused
	mkdir -p "$tmp/bad"
	sed 's/^OnCalendar=.*/OnCalendar=never/' "$tmp/oustpbm-flush.timer" >"$tmp/bad/oustpbm-flush.timer"
	check "... which refuses a bad schedule" sh -c "cd '$tmp/bad' && ! systemd-analyze verify --man=no ./oustpbm-flush.timer >/dev/null 2>&1"
else
	skip "systemd-analyze is missing (Debian's systemd package: too big a test dependency for one check)"
fi
if command -v logrotate >/dev/null 2>&1 || [ -x /usr/sbin/logrotate ]; then
	sed "s|/home/oust/oustpbm/log|$tmp/log|; s|su oust oust|su $(id -un) $(id -gn)|" "$top/scripts/logrotate" >"$tmp/logrotate.conf"
	echo line >"$tmp/log"
	PATH=$PATH:/usr/sbin logrotate -d -s "$tmp/state" "$tmp/logrotate.conf" >"$tmp/lr" 2>&1
	check "logrotate -d reads the shipped file" sh -c "! grep -qi 'error' '$tmp/lr'"
else
	skip "logrotate is not installed (apt-get install logrotate to check scripts/logrotate)"
fi
done_testing

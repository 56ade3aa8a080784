# /etc/cron.d/oustpbm: the jobs of the oustpbm server (the package's home,
# /var/lib/oustpbm, as its user) where systemd does not run.  Where it runs,
# the timers oustpbm-flush.timer, oustpbm-robot.timer and
# oustpbm-cleanup.timer do the same and these lines do nothing.  A job's
# output is mailed to MAILTO.
SHELL=/bin/sh
PATH=/usr/bin:/bin
MAILTO=root

# Every 5 minutes: send the replies that wait in the outbox.
*/5 * * * *	oustpbm	test -d /run/systemd/system || oustpbm -d /var/lib/oustpbm flush
# Every 5 minutes: the robot player's turns left over.
*/5 * * * *	oustpbm	test -d /run/systemd/system || oustpbm -d /var/lib/oustpbm robot
# Every hour: reminders, losses on time, the robot's turns, the outbox.
17 * * * *	oustpbm	test -d /run/systemd/system || oustpbm -d /var/lib/oustpbm cleanup

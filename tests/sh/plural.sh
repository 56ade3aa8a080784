#!/bin/sh
# plural: "1 day", never "1 days", in the texts that count days: the
# reminder (remind_days = 1), the loss on time (timeout_days = 1) and a
# vacation of one day ({day_count} of templates/README.md).
. "$(dirname "$0")/lib.sh"
tmpdir

h=$tmp/home
# vacation_accrual_days = 1: bob, a member for a week, has 6 days in his vacation bank
mkhome "$h" 'remind_days = 1' 'timeout_days = 2' 'vacation_accrual_days = 1'
at() { # SECONDS FROM SUBJECT
	mail "$2" "$3" | deliver "$h" $((T0 + $1))
}
at 0 alice@example.org "register alice secret"
at 1 bob@example.com "register bob hunter2"
at 2 carol@example.net "register carol sesame"
at 3 alice@example.org "challenge alice secret bob -size=5"
at 4 alice@example.org "move 101 alice secret C3"
OUSTPBM_TEST_TIME=$((T0 + 86400 + 60)) "$bin" -d "$h" cleanup >/dev/null 2>&1
r=$(newest "$h" bob@example.com)
check "a reminder after a day says '1 day'" grep -q "it has been 1 day since" "$r"
check "... never '1 days'" sh -c "! grep -q '1 days' '$r'"
OUSTPBM_TEST_TIME=$((T0 + 3 * 86400)) "$bin" -d "$h" cleanup >/dev/null 2>&1
r=$(newest "$h" bob@example.com)
check "a loss on time names the limit in days" grep -q "The time limit on this board is 2 days for a turn" "$r"
sed -i 's/^timeout_days = 2$/timeout_days = 1/' "$h/oustpbm.conf"
at 300000 alice@example.org "challenge alice secret carol -size=5"
at 300001 alice@example.org "move 102 alice secret C3"
OUSTPBM_TEST_TIME=$((T0 + 300001 + 86400 + 60)) "$bin" -d "$h" cleanup >/dev/null 2>&1
r=$(newest "$h" carol@example.net)
check "a limit of one day: 'is 1 day for a turn'" grep -q "The time limit on this board is 1 day for a turn" "$r"
check "... the log says '1 day' too" grep -q "lost on time after 1 day;" "$h/log"
at 600000 bob@example.com "vacation bob hunter2 1"
r=$(newest "$h" bob@example.com)
check "a vacation of one day: 'for 1 day, until'" grep -q "for 1 day, until" "$r"
check "... the log too" grep -q "bob away for 1 day, until" "$h/log"
done_testing

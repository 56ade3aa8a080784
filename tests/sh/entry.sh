#!/bin/sh
# entry: the one table of commands (src/main.c): every row in --help (man.sh
# checks each in the man page), the global options read once before any command, a usage
# error printing the command's own line, the old names of the outbox's
# verbs still working.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0

h=$tmp/home
mkhome "$h"

"$bin" --list-commands >"$tmp/names"
check "--list-commands: the table's names, exit 0" sh -c "grep -qx cleanup '$tmp/names' && grep -qx engine '$tmp/names' && grep -qx outbox '$tmp/names'"
check "... as many as the table has rows with a name" [ "$(wc -l <"$tmp/names")" -ge 20 ]
"$bin" --help >"$tmp/help"
check "--help: the mail's line first" grep -q '^usage: oustpbm \[-d DIR\] < message  *handle one mail' "$tmp/help"
while read -r name; do
	check "--help lists $name" grep -Eq "^       oustpbm (\[-d DIR\] )?$name( |\$)" "$tmp/help"
done <"$tmp/names"

# ---- the global options: read once, in any order, for every command
check "-d DIR and --force-owner in either order" sh -c "'$bin' --force-owner -d '$h' list >/dev/null && '$bin' -d '$h' --force-owner list >/dev/null"
check "-dDIR as one word" sh -c "'$bin' '-d$h' list >/dev/null"
check "-d without DIR: usage (64)" [ "$(rc "$bin" -d)" = 64 ]
check "an unknown global option: usage (64), named" sh -c "'$bin' --frobnicate 2>'$tmp/e' </dev/null; [ \$? = 64 ] && grep -q \"unknown option '--frobnicate'\" '$tmp/e'"
check "a misspelt command: the nearest named" sh -c "'$bin' -d '$h' lsit 2>'$tmp/e'; [ \$? = 64 ] && grep -q \"unknown command 'lsit' (did you mean list?)\" '$tmp/e'"
check "... and the list has the table's commands" sh -c "grep -q 'the commands are engine, cleanup, robot, robot-mail, flush, outbox, ' '$tmp/e'"
check "a usage error prints the command's line" sh -c "'$bin' -d '$h' show 2>'$tmp/e'; [ \$? = 64 ] && grep -q '^usage: oustpbm \[-d DIR\] show BOARD\[#TURN\]' '$tmp/e'"
check "... an engine option too" sh -c "'$bin' engine --level 9 2>'$tmp/e' </dev/null; [ \$? = 64 ] && grep -q '^usage: oustpbm engine ' '$tmp/e'"
check "... a mail path given words" sh -c "'$bin' -d '$h' '' x 2>'$tmp/e' </dev/null; [ \$? = 64 ]"
check "engine is a row like the others: --help after -d" sh -c "echo quit | '$bin' -d '$h' engine >/dev/null"

# ---- the outbox's verbs: new names and old
check "outbox: the listing" sh -c "'$bin' -d '$h' outbox | grep -q '^0 mails waiting'"
check "queue (old name): the same listing" sh -c "'$bin' -d '$h' queue | grep -q '^0 mails waiting'"
check "outbox retry with nothing failed: exit 0" sh -c "'$bin' -d '$h' outbox retry all | grep -q '0 mails moved back'"
check "requeue (old name): the same" sh -c "'$bin' -d '$h' requeue | grep -q '0 mails moved back'"
check "outbox with a stray word: usage (64)" [ "$(rc "$bin" -d "$h" outbox frob)" = 64 ]
check "flush --bogus: usage (64)" [ "$(rc "$bin" -d "$h" flush --bogus)" = 64 ]
check "flush logged under its name" sh -c "'$bin' -d '$h' flush && grep -q ' flush done: 0 sent' '$h/log'"

done_testing
